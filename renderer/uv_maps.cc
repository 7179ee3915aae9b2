#include "renderer/uv_maps.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <bit>
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

// The key corners share a tangent by (with the face's handedness, which
// the frame decides): welded vertex, UV bits.
struct CornerKey {
  int32_t welded;
  uint32_t u_bits, v_bits;
  bool operator==(const CornerKey&) const = default;
  template <typename H>
  friend H AbslHashValue(H h, const CornerKey& k) {
    return H::combine(std::move(h), k.welded, k.u_bits, k.v_bits);
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

// Numbers every corner's (welded vertex, UV) key, once while the triangles,
// the weld and the UVs stay: the hash map is the only allocation, and a
// steady stream of frames does not repeat it.
void NumberCornerKeys(const RenderMesh& mesh, TangentScratch* scratch) {
  if (scratch->num_keys >= 0 &&
      std::equal(scratch->triangles.begin(), scratch->triangles.end(),
                 mesh.triangles.begin(), mesh.triangles.end()) &&
      std::equal(scratch->welded.begin(), scratch->welded.end(),
                 mesh.welded.begin(), mesh.welded.end()) &&
      // Bitwise, as the keys are: -0 and +0 are different UVs to them.
      scratch->uvs.size() == mesh.corner_uvs.size() &&
      (mesh.corner_uvs.empty() ||
       std::memcmp(scratch->uvs.data(), mesh.corner_uvs.data(),
                   mesh.corner_uvs.size() * sizeof(float)) == 0)) {
    return;
  }
  scratch->triangles.assign(mesh.triangles.begin(), mesh.triangles.end());
  scratch->welded.assign(mesh.welded.begin(), mesh.welded.end());
  scratch->uvs.assign(mesh.corner_uvs.begin(), mesh.corner_uvs.end());
  absl::flat_hash_map<CornerKey, int32_t> ids;
  scratch->key.resize(3 * mesh.triangles.size());
  for (size_t corner = 0; corner < scratch->key.size(); ++corner) {
    const CornerKey key{mesh.welded[mesh.triangles[corner / 3][corner % 3]],
                        Bits(mesh.corner_uvs[2 * corner]),
                        Bits(mesh.corner_uvs[2 * corner + 1])};
    scratch->key[corner] =
        ids.try_emplace(key, static_cast<int32_t>(ids.size())).first->second;
  }
  scratch->num_keys = static_cast<int32_t>(ids.size());
}

// Per corner its tangent group (2 key + handedness; -1: a face with
// degenerate UVs) into scratch->group, and each group's sum of its corners'
// angle-weighted unit face tangents into scratch->sums.
void GroupFaceTangents(const RenderMesh& mesh,
                       const std::vector<float>& interleaved,
                       TangentScratch* scratch) {
  NumberCornerKeys(mesh, scratch);
  scratch->group.assign(3 * mesh.triangles.size(), -1);
  scratch->sums.assign(2 * static_cast<size_t>(scratch->num_keys),
                       Eigen::Vector3f::Zero());
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
      const int32_t g = 2 * scratch->key[3 * f + k] + (right_handed ? 1 : 0);
      scratch->group[3 * f + k] = g;
      scratch->sums[g] += angle * t.normalized();
    }
  }
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
  TangentScratch scratch;
  CornerTangents(mesh, interleaved, out, &scratch);
}

void CornerTangents(const RenderMesh& mesh,
                    const std::vector<float>& interleaved,
                    std::vector<float>* out, TangentScratch* scratch) {
  GroupFaceTangents(mesh, interleaved, scratch);
  const TangentScratch& groups = *scratch;
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
    // Non-negative, so adding a half and truncating rounds to nearest.
    normal[c] = static_cast<uint8_t>(
        std::clamp(0.5f * unit + 0.5f, 0.0f, 1.0f) * 255.0f + 0.5f);
  }
  normal[3] = 255;
  *height = static_cast<uint16_t>((height_sum + count / 2) / count);
  return true;
}

}  // namespace

namespace {

// One bit a texel, alpha 255 set; bits past `size` in a row's last word stay 0.
void CoverageBits(const UvMaps& maps, int words_per_row,
                  std::vector<uint64_t>* covered) {
  const int size = maps.size;
  covered->assign(static_cast<size_t>(size) * words_per_row, 0);
  const uint8_t* alpha = maps.normal.pixels.data() + 3;
  for (int y = 0; y < size; ++y) {
    uint64_t* row = covered->data() + static_cast<size_t>(y) * words_per_row;
    for (int word = 0; word < words_per_row; ++word) {
      const int bits = std::min(64, size - 64 * word);
      uint64_t w = 0;
      for (int b = 0; b < bits; ++b) {
        w |= static_cast<uint64_t>(alpha[4 * b] == 255) << b;
      }
      row[word] = w;
      alpha += 4 * bits;
    }
  }
}

// Uncovered texels with a covered 8-neighbour: the covered bits spread one
// texel sideways (across word boundaries), then one row up and down.
void BorderBits(const std::vector<uint64_t>& covered, int size,
                int words_per_row, std::vector<uint64_t>* border) {
  border->assign(covered.size(), 0);
  const uint64_t last_mask =
      (size & 63) == 0 ? ~uint64_t{0} : (uint64_t{1} << (size & 63)) - 1;
  auto spread = [&](int y, int w) -> uint64_t {
    const uint64_t* row =
        covered.data() + static_cast<size_t>(y) * words_per_row;
    const uint64_t c = row[w];
    const uint64_t below = w > 0 ? row[w - 1] >> 63 : 0;
    const uint64_t above = w + 1 < words_per_row ? row[w + 1] << 63 : 0;
    return c | (c << 1) | below | (c >> 1) | above;
  };
  for (int y = 0; y < size; ++y) {
    for (int w = 0; w < words_per_row; ++w) {
      uint64_t near = spread(y, w);
      if (y > 0) near |= spread(y - 1, w);
      if (y + 1 < size) near |= spread(y + 1, w);
      const size_t i = static_cast<size_t>(y) * words_per_row + w;
      uint64_t bits = near & ~covered[i];
      if (w + 1 == words_per_row) bits &= last_mask;
      (*border)[i] = bits;
    }
  }
}

}  // namespace

void DilateUvMaps(int rings, UvMaps* maps, DilationScratch* scratch) {
  const int size = maps->size;
  if (size <= 0) return;
  const int words_per_row = (size + 63) / 64;
  std::vector<uint64_t>& covered = scratch->covered;
  std::vector<uint64_t>& border = scratch->border;
  CoverageBits(*maps, words_per_row, &covered);
  for (int ring = 0; ring < rings; ++ring) {
    BorderBits(covered, size, words_per_row, &border);
    // Values first, then written: a ring reads only the region before it.
    scratch->filled.clear();
    scratch->normals.clear();
    scratch->heights.clear();
    for (size_t word = 0; word < border.size(); ++word) {
      for (uint64_t bits = border[word]; bits != 0; bits &= bits - 1) {
        const int x = static_cast<int>(word % words_per_row) * 64 +
                      std::countr_zero(bits);
        const int y = static_cast<int>(word / words_per_row);
        std::array<uint8_t, 4> normal;
        uint16_t height = 0;
        if (!FillFromNeighbours(*maps, x, y, normal.data(), &height)) continue;
        scratch->filled.push_back(y * size + x);
        scratch->normals.push_back(normal);
        scratch->heights.push_back(height);
      }
    }
    if (scratch->filled.empty()) break;
    for (size_t k = 0; k < scratch->filled.size(); ++k) {
      const int32_t i = scratch->filled[k];
      std::copy(scratch->normals[k].begin(), scratch->normals[k].end(),
                &maps->normal.pixels[4 * static_cast<size_t>(i)]);
      maps->height[i] = scratch->heights[k];
      covered[static_cast<size_t>(i / size) * words_per_row +
              (i % size) / 64] |= uint64_t{1} << ((i % size) & 63);
    }
  }
}

}  // namespace crease::renderer
