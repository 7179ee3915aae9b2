#include "renderer/camera.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace crease::renderer {

BoundingSphere BoundsOf(absl::Span<const float> positions) {
  BoundingSphere sphere;
  if (positions.size() < 3) return sphere;
  Eigen::Vector3f lo(positions[0], positions[1], positions[2]), hi = lo;
  for (size_t i = 0; i + 2 < positions.size(); i += 3) {
    const Eigen::Vector3f p(positions[i], positions[i + 1], positions[i + 2]);
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  sphere.center = 0.5f * (lo + hi);
  sphere.radius = std::max(0.5f * (hi - lo).norm(), 1e-6f);
  return sphere;
}

Camera AutoFrame(absl::Span<const float> positions, float aspect,
                 float azimuth_degrees) {
  Camera camera;
  if (positions.size() < 3) return camera;
  const BoundingSphere b = BoundsOf(positions);
  const float fov_y =
      camera.vertical_fov_degrees * std::numbers::pi_v<float> / 180.0f;
  // The narrower of the two fields of view decides the distance.
  const float half =
      0.5f * std::min(fov_y, 2.0f * std::atan(std::tan(0.5f * fov_y) * aspect));
  const float distance = 1.05f * b.radius / std::sin(half);
  const Eigen::Vector3f direction =
      Eigen::AngleAxisf(azimuth_degrees * std::numbers::pi_v<float> / 180.0f,
                        Eigen::Vector3f::UnitY()) *
      Eigen::Vector3f(0.35f, 0.25f, 1.0f).normalized();
  const Eigen::Vector3f eye = b.center + distance * direction;
  camera.eye = {eye.x(), eye.y(), eye.z()};
  camera.target = {b.center.x(), b.center.y(), b.center.z()};
  return camera;
}

}  // namespace crease::renderer
