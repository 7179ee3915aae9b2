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

void CornerTangents(const RenderMesh& mesh,
                    const std::vector<float>& interleaved,
                    std::vector<float>* out) {
  const size_t num_corners = 3 * mesh.triangles.size();
  // Per corner: its face's unit tangent and bitangent, weighted by the angle.
  std::vector<Eigen::Vector3f> face_t(num_corners, Eigen::Vector3f::Zero());
  std::vector<int> group(num_corners, -1);
  absl::flat_hash_map<CornerKey, int> groups;
  std::vector<Eigen::Vector3f> sums;
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
    const Eigen::Vector3f face_n = e1.cross(e2);
    const bool right_handed = face_n.dot(t.cross(b)) >= 0.0f;
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3f a = p[(k + 1) % 3] - p[k],
                            c = p[(k + 2) % 3] - p[k];
      const float angle = std::atan2(a.cross(c).norm(), a.dot(c));
      const size_t corner = 3 * f + k;
      face_t[corner] = angle * t.normalized();
      const CornerKey key{mesh.welded[tri[k]], Bits(uv[k].x()), Bits(uv[k].y()),
                          right_handed};
      auto [it, added] = groups.try_emplace(key, static_cast<int>(sums.size()));
      if (added) sums.push_back(Eigen::Vector3f::Zero());
      group[corner] = it->second;
      sums[it->second] += face_t[corner];
    }
  }
  out->assign(4 * num_corners, 0.0f);
  for (size_t corner = 0; corner < num_corners; ++corner) {
    const int32_t v = mesh.triangles[corner / 3][corner % 3];
    const Eigen::Vector3f n = Vec3At(interleaved, v, 3).normalized();
    Eigen::Vector3f t = Eigen::Vector3f::Zero();
    float sign = 1.0f;
    if (group[corner] >= 0) {
      t = sums[group[corner]] - n.dot(sums[group[corner]]) * n;
      // The bitangent's side, from the face's own frame.
      const size_t f = corner / 3;
      const Eigen::Vector3f p0 = Vec3At(interleaved, mesh.triangles[f][0], 0);
      const Eigen::Vector3f face_n =
          (Vec3At(interleaved, mesh.triangles[f][1], 0) - p0)
              .cross(Vec3At(interleaved, mesh.triangles[f][2], 0) - p0);
      const float* uv = &mesh.corner_uvs[6 * f];
      const float det =
          (uv[2] - uv[0]) * (uv[5] - uv[1]) - (uv[4] - uv[0]) * (uv[3] - uv[1]);
      sign = (det >= 0.0f) == (face_n.dot(n) >= 0.0f) ? 1.0f : -1.0f;
    }
    t = t.squaredNorm() > 1e-30f ? t.normalized() : Perpendicular(n);
    float* o = &(*out)[4 * corner];
    o[0] = t.x();
    o[1] = t.y();
    o[2] = t.z();
    o[3] = sign;
  }
}

void DilateUvTexels(int rings, UvTexels* texels,
                    std::vector<uint8_t>* scratch) {
  const int size = texels->size;
  auto covered = [](const std::array<float, 4>& v) {
    return v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > 0.25f;
  };
  std::vector<uint8_t>& mask = *scratch;
  mask.resize(static_cast<size_t>(size) * size);
  for (int ring = 0; ring < rings; ++ring) {
    for (size_t i = 0; i < mask.size(); ++i)
      mask[i] = covered(texels->values[i]);
    bool grew = false;
    for (int y = 0; y < size; ++y) {
      for (int x = 0; x < size; ++x) {
        const size_t i = static_cast<size_t>(y) * size + x;
        if (mask[i]) continue;
        std::array<float, 4> sum = {0, 0, 0, 0};
        int count = 0;
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            const int nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
            const size_t j = static_cast<size_t>(ny) * size + nx;
            if (!mask[j]) continue;
            for (int c = 0; c < 4; ++c) sum[c] += texels->values[j][c];
            ++count;
          }
        }
        if (count == 0) continue;
        const float len =
            std::sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
        if (len <= 0.0f) continue;
        texels->values[i] = {sum[0] / len, sum[1] / len, sum[2] / len,
                             sum[3] / count};
        grew = true;
      }
    }
    if (!grew) break;
  }
}

void EncodeUvMaps(const UvTexels& texels, const UvMapOptions& options,
                  float height_range, UvMaps* out) {
  const int size = texels.size;
  out->size = size;
  out->height_range = height_range;
  out->normal.width = out->normal.height = size;
  out->normal.pixels.resize(static_cast<size_t>(size) * size * 4);
  out->height.resize(static_cast<size_t>(size) * size);
  const float green = options.green_down ? -1.0f : 1.0f;
  auto to_byte = [](float c) {
    return static_cast<uint8_t>(
        std::lround(std::clamp(0.5f * c + 0.5f, 0.0f, 1.0f) * 255.0f));
  };
  for (int y = 0; y < size; ++y) {
    const int row = size - 1 - y;  // GL reads bottom to top
    for (int x = 0; x < size; ++x) {
      const std::array<float, 4>& v =
          texels.values[static_cast<size_t>(y) * size + x];
      const bool covered = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > 0.25f;
      const size_t o = static_cast<size_t>(row) * size + x;
      uint8_t* p = &out->normal.pixels[4 * o];
      p[0] = covered ? to_byte(v[0]) : 128;
      p[1] = covered ? to_byte(green * v[1]) : 128;
      p[2] = covered ? to_byte(v[2]) : 255;
      p[3] = covered ? 255 : 0;
      const float h = height_range > 0.0f && covered ? v[3] / height_range : 0;
      out->height[o] = static_cast<uint16_t>(
          std::lround(std::clamp(h, 0.0f, 1.0f) * 65535.0f));
    }
  }
}

}  // namespace crease::renderer
