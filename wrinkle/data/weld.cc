#include "wrinkle/data/weld.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/container/flat_hash_map.h"

namespace crease {
namespace {

// Packs a grid cell (each coordinate within +-2^20 cells of the origin) into a
// key.
uint64_t CellKey(int64_t x, int64_t y, int64_t z) {
  constexpr int64_t kBias = int64_t{1} << 20;
  constexpr uint64_t kMask = (uint64_t{1} << 21) - 1;
  return (static_cast<uint64_t>(x + kBias) & kMask) |
         ((static_cast<uint64_t>(y + kBias) & kMask) << 21) |
         ((static_cast<uint64_t>(z + kBias) & kMask) << 42);
}

}  // namespace

std::vector<int32_t> WeldVertices(absl::Span<const float> positions,
                                  double tolerance, int* num_welded) {
  const int32_t n = static_cast<int32_t>(positions.size() / 3);
  std::vector<int32_t> map(n);
  if (tolerance < 0) {
    for (int32_t v = 0; v < n; ++v) map[v] = v;
    *num_welded = n;
    return map;
  }
  double lo[3] = {std::numeric_limits<double>::max(),
                  std::numeric_limits<double>::max(),
                  std::numeric_limits<double>::max()};
  double hi[3] = {-lo[0], -lo[1], -lo[2]};
  for (int32_t v = 0; v < n; ++v) {
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], double{positions[3 * v + k]});
      hi[k] = std::max(hi[k], double{positions[3 * v + k]});
    }
  }
  // Cells at least `tolerance` wide, and few enough that keys cannot alias.
  double cell = tolerance;
  for (int k = 0; k < 3; ++k) cell = std::max(cell, (hi[k] - lo[k]) / 1e6);
  if (cell <= 0) cell = 1.0;
  const double tol2 = tolerance * tolerance;
  absl::flat_hash_map<uint64_t, std::vector<int32_t>>
      grid;                                   // cell -> representatives
  std::vector<int32_t> representative_of_id;  // welded id -> caller vertex
  for (int32_t v = 0; v < n; ++v) {
    const float* p = &positions[3 * v];
    int64_t c[3];
    for (int k = 0; k < 3; ++k) {
      c[k] = static_cast<int64_t>(std::floor((p[k] - lo[k]) / cell));
    }
    int32_t best = -1;
    for (int64_t dx = -1; dx <= 1; ++dx) {
      for (int64_t dy = -1; dy <= 1; ++dy) {
        for (int64_t dz = -1; dz <= 1; ++dz) {
          auto it = grid.find(CellKey(c[0] + dx, c[1] + dy, c[2] + dz));
          if (it == grid.end()) continue;
          for (int32_t rep : it->second) {
            const float* q = &positions[3 * rep];
            const double d0 = p[0] - q[0], d1 = p[1] - q[1], d2 = p[2] - q[2];
            if (d0 * d0 + d1 * d1 + d2 * d2 <= tol2 &&
                (best < 0 || rep < best)) {
              best = rep;
            }
          }
        }
      }
    }
    if (best >= 0) {
      map[v] = map[best];
    } else {
      map[v] = static_cast<int32_t>(representative_of_id.size());
      representative_of_id.push_back(v);
      grid[CellKey(c[0], c[1], c[2])].push_back(v);
    }
  }
  *num_welded = static_cast<int>(representative_of_id.size());
  return map;
}

std::vector<int32_t> WeldVerticesRelative(absl::Span<const float> positions,
                                          double relative_tolerance,
                                          int* num_welded) {
  if (relative_tolerance < 0) return WeldVertices(positions, -1.0, num_welded);
  double diagonal2 = 0;
  if (positions.size() >= 3) {
    double lo[3], hi[3];
    for (int k = 0; k < 3; ++k) lo[k] = hi[k] = positions[k];
    for (size_t v = 0; v < positions.size() / 3; ++v) {
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], double{positions[3 * v + k]});
        hi[k] = std::max(hi[k], double{positions[3 * v + k]});
      }
    }
    for (int k = 0; k < 3; ++k) diagonal2 += (hi[k] - lo[k]) * (hi[k] - lo[k]);
  }
  return WeldVertices(positions, relative_tolerance * std::sqrt(diagonal2),
                      num_welded);
}

}  // namespace crease
