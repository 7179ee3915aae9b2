#include "wrinkle/data/refined_topology.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"

namespace crease {
namespace {

// A point of a triangle's lattice: weights ((level - i - j), i, j) / level on
// its corners 0, 1, 2.
struct Lattice {
  int i = 0;
  int j = 0;
};

// The level^2 triangles of one coarse triangle, as lattice corners, wound
// like it: row j has level - j upright triangles and level - j - 1 upside
// down ones between them.
template <typename Fn>
void ForEachSubTriangle(int level, Fn fn) {
  for (int j = 0; j < level; ++j) {
    for (int i = 0; i + j < level; ++i) {
      fn(Lattice{i, j}, Lattice{i + 1, j}, Lattice{i, j + 1});
      if (i + j + 1 < level) {
        fn(Lattice{i + 1, j}, Lattice{i + 1, j + 1}, Lattice{i, j + 1});
      }
    }
  }
}

uint64_t EdgeKey(int32_t a, int32_t b) {
  return static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32 |
         static_cast<uint32_t>(b);
}

// Builds the vertices and triangles; the caller has checked the input.
class Refiner {
 public:
  Refiner(int level, RefinedTopology* out)
      : level_(level),
        out_(*out),
        ids_(static_cast<size_t>(level + 1) * (level + 1), -1) {}

  void AddTriangle(int32_t f, const std::array<int32_t, 3>& t) {
    const int k = level_;
    for (int c = 0; c < 3; ++c) {
      if (out_.vertices[t[c]].triangle < 0) out_.vertices[t[c]].triangle = f;
    }
    Id({0, 0}) = t[0];
    Id({k, 0}) = t[1];
    Id({0, k}) = t[2];
    // Edges 01, 12, 20: the lattice point m steps from the edge's first
    // corner.
    for (int m = 1; m < k; ++m) {
      Id({m, 0}) = EdgeVertex(f, t[0], t[1], m);
      Id({k - m, m}) = EdgeVertex(f, t[1], t[2], m);
      Id({0, k - m}) = EdgeVertex(f, t[2], t[0], m);
    }
    const float inv = 1.0f / static_cast<float>(k);
    for (int j = 1; j < k; ++j) {
      for (int i = 1; i + j < k; ++i) {
        Id({i, j}) = static_cast<int32_t>(out_.vertices.size());
        out_.vertices.push_back(
            {f,
             t,
             {static_cast<float>(k - i - j) * inv, static_cast<float>(i) * inv,
              static_cast<float>(j) * inv}});
      }
    }
    ForEachSubTriangle(k, [&](Lattice a, Lattice b, Lattice c) {
      out_.triangles.push_back({Id(a), Id(b), Id(c)});
    });
  }

 private:
  int32_t& Id(Lattice p) {
    return ids_[static_cast<size_t>(p.j) * (level_ + 1) + p.i];
  }

  // The vertex m steps from u on edge u w, made when the edge is first seen;
  // numbered from the edge's lower id so both triangles on it agree.
  int32_t EdgeVertex(int32_t f, int32_t u, int32_t w, int m) {
    const int32_t lo = std::min(u, w), hi = std::max(u, w);
    const auto [it, inserted] = edges_.try_emplace(
        EdgeKey(lo, hi), static_cast<int32_t>(out_.vertices.size()));
    if (inserted) {
      for (int s = 1; s < level_; ++s) {
        const float t = static_cast<float>(s) / static_cast<float>(level_);
        out_.vertices.push_back({f, {lo, hi, -1}, {1.0f - t, t, 0.0f}});
      }
    }
    const int s = u <= w ? m : level_ - m;
    return it->second + s - 1;
  }

  const int level_;
  RefinedTopology& out_;
  std::vector<int32_t> ids_;  // per lattice point of the current triangle
  absl::flat_hash_map<uint64_t, int32_t> edges_;  // -> its first vertex
};

}  // namespace

RefinedCounts CountRefined(absl::Span<const std::array<int32_t, 3>> triangles,
                           int num_vertices, int level) {
  absl::flat_hash_set<uint64_t> edges;
  edges.reserve(triangles.size() * 3 / 2);
  for (const std::array<int32_t, 3>& t : triangles) {
    for (int k = 0; k < 3; ++k) {
      const int32_t a = t[k], b = t[(k + 1) % 3];
      edges.insert(EdgeKey(std::min(a, b), std::max(a, b)));
    }
  }
  const int64_t k = level;
  const int64_t num_triangles = static_cast<int64_t>(triangles.size());
  return {num_vertices + static_cast<int64_t>(edges.size()) * (k - 1) +
              num_triangles * (k - 1) * (k - 2) / 2,
          num_triangles * k * k};
}

absl::StatusOr<RefinedTopology> RefineTopology(
    absl::Span<const std::array<int32_t, 3>> triangles, int num_vertices,
    int level) {
  if (level < 1 || level > kMaxRefinementLevel) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "level %d is outside 1..%d", level, kMaxRefinementLevel));
  }
  if (num_vertices < 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%d vertices", num_vertices));
  }
  for (size_t f = 0; f < triangles.size(); ++f) {
    for (int32_t v : triangles[f]) {
      if (v < 0 || v >= num_vertices) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "triangle %d uses vertex %d of %d", f, v, num_vertices));
      }
    }
  }
  // Bounds before anything is allocated: every edge unshared.
  const int64_t k = level;
  const int64_t most_vertices =
      num_vertices + static_cast<int64_t>(triangles.size()) *
                         (3 * (k - 1) + (k - 1) * (k - 2) / 2);
  const int64_t num_triangles = static_cast<int64_t>(triangles.size()) * k * k;
  if (most_vertices > std::numeric_limits<int32_t>::max() ||
      num_triangles > std::numeric_limits<int32_t>::max()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%d triangles at level %d is too many", triangles.size(), level));
  }
  RefinedTopology out;
  out.level = level;
  out.num_coarse_vertices = num_vertices;
  out.coarse_triangles.assign(triangles.begin(), triangles.end());
  out.triangles.reserve(static_cast<size_t>(num_triangles));
  out.vertices.resize(num_vertices);
  for (int32_t v = 0; v < num_vertices; ++v) {
    out.vertices[v].corners = {v, -1, -1};
  }
  Refiner refiner(level, &out);
  for (size_t f = 0; f < triangles.size(); ++f) {
    refiner.AddTriangle(static_cast<int32_t>(f), triangles[f]);
  }
  out.vertices.shrink_to_fit();
  return out;
}

std::vector<float> RefineCornerUvs(const RefinedTopology& topology,
                                   absl::Span<const float> coarse_corner_uvs) {
  std::vector<float> out;
  const size_t num_coarse = topology.coarse_triangles.size();
  if (coarse_corner_uvs.size() != 6 * num_coarse) return out;
  out.reserve(6 * topology.triangles.size());
  const int k = topology.level;
  const float inv = 1.0f / static_cast<float>(k);
  for (size_t f = 0; f < num_coarse; ++f) {
    const float* uv = &coarse_corner_uvs[6 * f];
    auto add = [&](Lattice p) {
      const float w1 = static_cast<float>(p.i) * inv;
      const float w2 = static_cast<float>(p.j) * inv;
      const float w0 = static_cast<float>(k - p.i - p.j) * inv;
      for (int c = 0; c < 2; ++c) {
        out.push_back(w0 * uv[c] + w1 * uv[2 + c] + w2 * uv[4 + c]);
      }
    };
    ForEachSubTriangle(k, [&](Lattice a, Lattice b, Lattice c) {
      add(a);
      add(b);
      add(c);
    });
  }
  return out;
}

namespace {

Eigen::Vector3f At(absl::Span<const float> xyz, int32_t i) {
  return {xyz[3 * static_cast<size_t>(i)], xyz[3 * static_cast<size_t>(i) + 1],
          xyz[3 * static_cast<size_t>(i) + 2]};
}

}  // namespace

void PlaceRefinedVertex(const RefinedVertex& vertex,
                        absl::Span<const float> positions,
                        absl::Span<const int32_t> welded,
                        absl::Span<const float> normal_sums,
                        Eigen::Vector3f* position, Eigen::Vector3f* normal) {
  const auto& [a, b, c] = vertex.corners;
  const Eigen::Vector3f pa = At(positions, a), na = At(normal_sums, welded[a]);
  if (b < 0) {
    *position = pa;
    *normal = na;
  } else if (c < 0) {
    const float t = vertex.weights[1];
    *position = pa + t * (At(positions, b) - pa);
    *normal = na + t * (At(normal_sums, welded[b]) - na);
  } else {
    const std::array<float, 3>& w = vertex.weights;
    *position = w[0] * pa + w[1] * At(positions, b) + w[2] * At(positions, c);
    *normal = w[0] * na + w[1] * At(normal_sums, welded[b]) +
              w[2] * At(normal_sums, welded[c]);
  }
  const float length = normal->norm();
  *normal =
      length > 0 ? Eigen::Vector3f(*normal / length) : Eigen::Vector3f::UnitZ();
}

}  // namespace crease
