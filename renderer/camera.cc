#include "renderer/camera.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace crease::renderer {
namespace {

Eigen::Matrix4f LookAt(const Eigen::Vector3f& eye,
                       const Eigen::Vector3f& target,
                       const Eigen::Vector3f& up) {
  const Eigen::Vector3f f = (target - eye).normalized();
  const Eigen::Vector3f s = f.cross(up).normalized();
  const Eigen::Vector3f u = s.cross(f);
  Eigen::Matrix4f m = Eigen::Matrix4f::Identity();
  m.block<1, 3>(0, 0) = s.transpose();
  m.block<1, 3>(1, 0) = u.transpose();
  m.block<1, 3>(2, 0) = -f.transpose();
  m(0, 3) = -s.dot(eye);
  m(1, 3) = -u.dot(eye);
  m(2, 3) = f.dot(eye);
  return m;
}

Eigen::Matrix4f Perspective(float fov_y, float aspect, float near, float far) {
  const float t = 1.0f / std::tan(0.5f * fov_y);
  Eigen::Matrix4f m = Eigen::Matrix4f::Zero();
  m(0, 0) = t / aspect;
  m(1, 1) = t;
  m(2, 2) = (far + near) / (near - far);
  m(2, 3) = 2.0f * far * near / (near - far);
  m(3, 2) = -1.0f;
  return m;
}

}  // namespace

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
                 float azimuth_degrees, float margin) {
  Camera camera;
  if (positions.size() < 3) return camera;
  const BoundingSphere b = BoundsOf(positions);
  const float fov_y =
      camera.vertical_fov_degrees * std::numbers::pi_v<float> / 180.0f;
  // The narrower of the two fields of view decides the distance.
  const float half =
      0.5f * std::min(fov_y, 2.0f * std::atan(std::tan(0.5f * fov_y) * aspect));
  const float distance = margin * b.radius / std::sin(half);
  const Eigen::Vector3f direction =
      Eigen::AngleAxisf(azimuth_degrees * std::numbers::pi_v<float> / 180.0f,
                        Eigen::Vector3f::UnitY()) *
      Eigen::Vector3f(0.35f, 0.25f, 1.0f).normalized();
  const Eigen::Vector3f eye = b.center + distance * direction;
  camera.eye = {eye.x(), eye.y(), eye.z()};
  camera.target = {b.center.x(), b.center.y(), b.center.z()};
  return camera;
}

bool KeepInView(absl::Span<const float> positions, float aspect,
                Camera* camera) {
  const BoundingSphere b = BoundsOf(positions);
  const Eigen::Vector3f eye(camera->eye[0], camera->eye[1], camera->eye[2]);
  const Eigen::Vector3f target(camera->target[0], camera->target[1],
                               camera->target[2]);
  const Eigen::Vector3f up(camera->up[0], camera->up[1], camera->up[2]);
  const Eigen::Vector3f forward = (target - eye).normalized();
  const Eigen::Vector3f right = forward.cross(up).normalized();
  const Eigen::Vector3f true_up = right.cross(forward);
  const Eigen::Vector3f to_center = b.center - eye;
  const float depth = to_center.dot(forward);
  // The sphere is in view when it is in front of the eye and inside the four
  // side planes of the view (half angles from the fov and aspect).
  const float tan_y = std::tan(0.5f * camera->vertical_fov_degrees *
                               std::numbers::pi_v<float> / 180.0f);
  bool inside = depth > b.radius;
  for (const auto& [axis, tan_half] :
       {std::pair{right, tan_y * aspect}, std::pair{true_up, tan_y}}) {
    // Distance from the centre to the side planes through the eye at
    // +-atan(tan_half) about `axis`'s perpendicular.
    const float cos_half = 1.0f / std::sqrt(1.0f + tan_half * tan_half);
    const float lateral = std::abs(to_center.dot(axis));
    if ((depth * tan_half - lateral) * cos_half < b.radius) inside = false;
  }
  if (inside) return false;
  *camera = AutoFrame(positions, aspect, 0.0f, kReframeMargin);
  return true;
}

Eigen::Matrix4f ViewProjection(const Camera& camera,
                               absl::Span<const float> positions,
                               float aspect) {
  const Eigen::Vector3f eye(camera.eye[0], camera.eye[1], camera.eye[2]);
  const Eigen::Vector3f target(camera.target[0], camera.target[1],
                               camera.target[2]);
  const Eigen::Vector3f up(camera.up[0], camera.up[1], camera.up[2]);
  const BoundingSphere b = BoundsOf(positions);
  const float distance = (b.center - eye).norm();
  const float far = distance + 2.0f * b.radius;
  const float near = std::max(distance - 2.0f * b.radius, far * 1e-4f);
  return Perspective(
             camera.vertical_fov_degrees * std::numbers::pi_v<float> / 180.0f,
             aspect, near, far) *
         LookAt(eye, target, up);
}

}  // namespace crease::renderer
