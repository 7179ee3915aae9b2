#include "wrinkle/data/corner_tangents.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include "absl/container/flat_hash_map.h"

namespace crease {
namespace {

// The mesh as the tangents read it.
struct TangentMesh {
  absl::Span<const io::Triangle> triangles;
  absl::Span<const int32_t> welded;
  absl::Span<const float> corner_uvs;
};

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

// Numbers every corner's (welded vertex, UV) key, once while the triangles,
// the weld and the UVs stay: the hash map is the only allocation, and a
// steady stream of frames does not repeat it.
void NumberCornerKeys(const TangentMesh& mesh, TangentScratch* scratch) {
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
// degenerate UVs) into scratch->group, each group's sum of its corners'
// angle-weighted unit face tangents into scratch->sums, and each grouped
// face's normal and UV turn into scratch->face_normals and
// uv_counter_clockwise.
void GroupFaceTangents(const TangentMesh& mesh,
                       const std::vector<float>& interleaved,
                       TangentScratch* scratch) {
  NumberCornerKeys(mesh, scratch);
  scratch->group.assign(3 * mesh.triangles.size(), -1);
  scratch->sums.assign(2 * static_cast<size_t>(scratch->num_keys),
                       Eigen::Vector3f::Zero());
  scratch->face_normals.resize(mesh.triangles.size());
  scratch->uv_counter_clockwise.resize(mesh.triangles.size());
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
    scratch->face_normals[f] = face_n;
    scratch->uv_counter_clockwise[f] = det >= 0.0f;
    const Eigen::Vector3f unit_t = t.normalized();
    // Every corner's two edges span the same |e1 x e2|: the corner angles
    // are atan2 of it over each corner's dot product, and sum to pi.
    const float sine = face_n.norm();
    float angles[3];
    angles[0] = std::atan2(sine, e1.dot(e2));
    angles[1] = std::atan2(sine, (p[2] - p[1]).dot(p[0] - p[1]));
    angles[2] =
        std::max(std::numbers::pi_v<float> - angles[0] - angles[1], 0.0f);
    for (int k = 0; k < 3; ++k) {
      const int32_t g = 2 * scratch->key[3 * f + k] + (right_handed ? 1 : 0);
      scratch->group[3 * f + k] = g;
      scratch->sums[g] += angles[k] * unit_t;
    }
  }
}

}  // namespace

void CornerTangents(absl::Span<const io::Triangle> triangles,
                    absl::Span<const int32_t> welded,
                    absl::Span<const float> corner_uvs,
                    const std::vector<float>& interleaved,
                    std::vector<float>* out, TangentScratch* scratch) {
  const TangentMesh mesh{triangles, welded, corner_uvs};
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
      // +1 when the face and its UV triangle turn the same way seen along n.
      const size_t f = corner / 3;
      sign = (groups.uv_counter_clockwise[f] != 0) ==
                     (groups.face_normals[f].dot(n) >= 0.0f)
                 ? 1.0f
                 : -1.0f;
    }
    t = t.squaredNorm() > 1e-30f ? t.normalized() : Perpendicular(n);
    float* o = &(*out)[4 * corner];
    o[0] = t.x();
    o[1] = t.y();
    o[2] = t.z();
    o[3] = sign;
  }
}

}  // namespace crease
