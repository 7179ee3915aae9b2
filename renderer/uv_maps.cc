#include "renderer/uv_maps.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"

namespace crease::renderer {
namespace {

Eigen::Vector3f Vec3At(const std::vector<float>& interleaved, int32_t v,
                       int offset) {
  return Eigen::Vector3f::Map(
      &interleaved[6 * static_cast<size_t>(v) + offset]);
}

// Any unit vector perpendicular to unit n.
Eigen::Vector3f Perpendicular(const Eigen::Vector3f& n) {
  const Eigen::Vector3f axis = std::abs(n.x()) < 0.9f
                                   ? Eigen::Vector3f::UnitX()
                                   : Eigen::Vector3f::UnitY();
  return n.cross(axis).normalized();
}

// The key corners share a tangent by: welded vertex, UV bits, handedness.
struct CornerKey {
  int32_t welded;
  uint32_t u_bits, v_bits;
  bool right_handed;
  bool operator==(const CornerKey&) const = default;
  template <typename H>
  friend H AbslHashValue(H h, const CornerKey& k) {
    return H::combine(std::move(h), k.welded, k.u_bits, k.v_bits,
                      k.right_handed);
  }
};

uint32_t Bits(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits;
}

}  // namespace

absl::Status ValidateCornerUvs(absl::Span<const float> corner_uvs,
                               size_t num_triangles) {
  if (corner_uvs.size() != 6 * num_triangles) {
    return absl::InvalidArgumentError(
        absl::StrFormat("corner_uvs: %d floats, need 6 per triangle = %d",
                        corner_uvs.size(), 6 * num_triangles));
  }
  for (size_t i = 0; i < corner_uvs.size(); ++i) {
    if (!std::isfinite(corner_uvs[i])) {
      return absl::InvalidArgumentError(
          absl::StrFormat("corner_uvs: triangle %d corner %d is not finite",
                          i / 6, (i % 6) / 2));
    }
  }
  return absl::OkStatus();
}

namespace {

// Corners grouped by welded vertex, UV and handedness, each group with the sum
// of its corners' angle-weighted unit face tangents; group -1: a face with
// degenerate UVs.
struct TangentGroups {
  std::vector<int> group;  // per corner
  std::vector<Eigen::Vector3f> sums;
};

TangentGroups GroupFaceTangents(const RenderMesh& mesh,
                                const std::vector<float>& interleaved) {
  TangentGroups out;
  out.group.assign(3 * mesh.triangles.size(), -1);
  absl::flat_hash_map<CornerKey, int> ids;
  for (size_t f = 0; f < mesh.triangles.size(); ++f) {
    const io::Triangle& tri = mesh.triangles[f];
    Eigen::Vector3f p[3];
    Eigen::Vector2f uv[3];
    for (int k = 0; k < 3; ++k) {
      p[k] = Vec3At(interleaved, tri[k], 0);
      uv[k] = Eigen::Vector2f(mesh.corner_uvs[6 * f + 2 * k],
                              mesh.corner_uvs[6 * f + 2 * k + 1]);
    }
    const Eigen::Vector3f e1 = p[1] - p[0], e2 = p[2] - p[0];
    const Eigen::Vector2f d1 = uv[1] - uv[0], d2 = uv[2] - uv[0];
    const float det = d1.x() * d2.y() - d2.x() * d1.y();
    if (!(std::abs(det) > 1e-20f)) continue;  // degenerate UVs: no tangent
    const Eigen::Vector3f t = (e1 * d2.y() - e2 * d1.y()) / det;
    const Eigen::Vector3f b = (e2 * d1.x() - e1 * d2.x()) / det;
    const bool right_handed = e1.cross(e2).dot(t.cross(b)) >= 0.0f;
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3f a = p[(k + 1) % 3] - p[k],
                            c = p[(k + 2) % 3] - p[k];
      const float angle = std::atan2(a.cross(c).norm(), a.dot(c));
      const CornerKey key{mesh.welded[tri[k]], Bits(uv[k].x()), Bits(uv[k].y()),
                          right_handed};
      auto [it, added] =
          ids.try_emplace(key, static_cast<int>(out.sums.size()));
      if (added) out.sums.push_back(Eigen::Vector3f::Zero());
      out.group[3 * f + k] = it->second;
      out.sums[it->second] += angle * t.normalized();
    }
  }
  return out;
}

// The bitangent's side for face f at a vertex with normal n: +1 when the UV
// triangle and the face turn the same way seen along n.
float BitangentSign(const RenderMesh& mesh,
                    const std::vector<float>& interleaved, size_t f,
                    const Eigen::Vector3f& n) {
  const Eigen::Vector3f p0 = Vec3At(interleaved, mesh.triangles[f][0], 0);
  const Eigen::Vector3f face_n =
      (Vec3At(interleaved, mesh.triangles[f][1], 0) - p0)
          .cross(Vec3At(interleaved, mesh.triangles[f][2], 0) - p0);
  const float* uv = &mesh.corner_uvs[6 * f];
  const float det =
      (uv[2] - uv[0]) * (uv[5] - uv[1]) - (uv[4] - uv[0]) * (uv[3] - uv[1]);
  return (det >= 0.0f) == (face_n.dot(n) >= 0.0f) ? 1.0f : -1.0f;
}

}  // namespace

void CornerTangents(const RenderMesh& mesh,
                    const std::vector<float>& interleaved,
                    std::vector<float>* out) {
  const TangentGroups groups = GroupFaceTangents(mesh, interleaved);
  const size_t num_corners = 3 * mesh.triangles.size();
  out->assign(4 * num_corners, 0.0f);
  for (size_t corner = 0; corner < num_corners; ++corner) {
    const int32_t v = mesh.triangles[corner / 3][corner % 3];
    const Eigen::Vector3f n = Vec3At(interleaved, v, 3).normalized();
    Eigen::Vector3f t = Eigen::Vector3f::Zero();
    float sign = 1.0f;
    if (const int g = groups.group[corner]; g >= 0) {
      t = groups.sums[g] - n.dot(groups.sums[g]) * n;
      sign = BitangentSign(mesh, interleaved, corner / 3, n);
    }
    t = t.squaredNorm() > 1e-30f ? t.normalized() : Perpendicular(n);
    float* o = &(*out)[4 * corner];
    o[0] = t.x();
    o[1] = t.y();
    o[2] = t.z();
    o[3] = sign;
  }
}

void FlipRows(UvMaps* maps) {
  const int size = maps->size;
  uint8_t* normal = maps->normal.pixels.data();
  uint16_t* height = maps->height.data();
  for (int top = 0, bottom = size - 1; top < bottom; ++top, --bottom) {
    std::swap_ranges(normal + 4 * static_cast<size_t>(top) * size,
                     normal + 4 * static_cast<size_t>(top + 1) * size,
                     normal + 4 * static_cast<size_t>(bottom) * size);
    std::swap_ranges(height + static_cast<size_t>(top) * size,
                     height + static_cast<size_t>(top + 1) * size,
                     height + static_cast<size_t>(bottom) * size);
  }
}

namespace {

bool Covered(const UvMaps& maps, size_t i) {
  return maps.normal.pixels[4 * i + 3] == 255;
}

// Texel i's value from its covered 8-neighbours (false: none).
bool FillFromNeighbours(const UvMaps& maps, int x, int y, uint8_t normal[4],
                        uint16_t* height) {
  const int size = maps.size;
  float sum[3] = {0, 0, 0};
  uint32_t height_sum = 0;
  int count = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const int nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
      const size_t j = static_cast<size_t>(ny) * size + nx;
      if (!Covered(maps, j)) continue;
      for (int c = 0; c < 3; ++c) {
        sum[c] += maps.normal.pixels[4 * j + c] / 127.5f - 1.0f;
      }
      height_sum += maps.height[j];
      ++count;
    }
  }
  if (count == 0) return false;
  const float len =
      std::sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
  for (int c = 0; c < 3; ++c) {
    const float unit = len > 0.0f ? sum[c] / len : (c == 2 ? 1.0f : 0.0f);
    normal[c] = static_cast<uint8_t>(
        std::lround(std::clamp(0.5f * unit + 0.5f, 0.0f, 1.0f) * 255.0f));
  }
  normal[3] = 255;
  *height = static_cast<uint16_t>((height_sum + count / 2) / count);
  return true;
}

}  // namespace

void DilateUvMaps(int rings, UvMaps* maps, DilationScratch* scratch) {
  const int size = maps->size;
  // The frontier: uncovered texels next to a covered one, found once; each
  // ring fills it and gathers the next from its uncovered neighbours.
  std::vector<int32_t>& frontier = scratch->frontier;
  std::vector<int32_t>& next = scratch->next;
  std::vector<int32_t>& filled = scratch->filled;
  std::vector<std::array<uint8_t, 4>>& normals = scratch->normals;
  std::vector<uint16_t>& heights = scratch->heights;
  frontier.clear();
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const size_t i = static_cast<size_t>(y) * size + x;
      if (Covered(*maps, i)) continue;
      bool border = false;
      for (int dy = -1; dy <= 1 && !border; ++dy) {
        for (int dx = -1; dx <= 1 && !border; ++dx) {
          const int nx = x + dx, ny = y + dy;
          border = nx >= 0 && ny >= 0 && nx < size && ny < size &&
                   Covered(*maps, static_cast<size_t>(ny) * size + nx);
        }
      }
      if (border) frontier.push_back(static_cast<int32_t>(i));
    }
  }
  for (int ring = 0; ring < rings && !frontier.empty(); ++ring) {
    // Values first, then written: a ring reads only the region before it.
    filled.clear();
    normals.clear();
    heights.clear();
    for (int32_t i : frontier) {
      std::array<uint8_t, 4> normal;
      uint16_t height = 0;
      if (FillFromNeighbours(*maps, i % size, i / size, normal.data(),
                             &height)) {
        filled.push_back(i);
        normals.push_back(normal);
        heights.push_back(height);
      }
    }
    for (size_t k = 0; k < filled.size(); ++k) {
      std::copy(normals[k].begin(), normals[k].end(),
                &maps->normal.pixels[4 * static_cast<size_t>(filled[k])]);
      maps->height[filled[k]] = heights[k];
    }
    next.clear();
    for (int32_t i : filled) {
      const int x = i % size, y = i / size;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const int nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
          const size_t j = static_cast<size_t>(ny) * size + nx;
          if (!Covered(*maps, j)) next.push_back(static_cast<int32_t>(j));
        }
      }
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    frontier.swap(next);
  }
}

}  // namespace crease::renderer
