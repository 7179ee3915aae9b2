#include "image/camera.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace crease::image {
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

namespace {

// The camera's frame: `back` points from the target towards the eye.
struct Frame {
  Eigen::Vector3f forward, right, up;
  float tan_x, tan_y;  // half fields of view
};
Frame FrameOf(const Eigen::Vector3f& back, const Camera& camera, float aspect) {
  Frame f;
  const Eigen::Vector3f up(camera.up[0], camera.up[1], camera.up[2]);
  f.forward = -back.normalized();
  f.right = f.forward.cross(up).normalized();
  f.up = f.right.cross(f.forward);
  f.tan_y = std::tan(0.5f * camera.vertical_fov_degrees *
                     std::numbers::pi_v<float> / 180.0f);
  f.tan_x = f.tan_y * aspect;
  return f;
}

Eigen::Vector3f At(absl::Span<const float> positions, size_t i) {
  return {positions[i], positions[i + 1], positions[i + 2]};
}

// The smallest distance from `center` (along -forward) at which every vertex
// projects inside the view shrunk by `margin`: a vertex at lateral offset x
// and depth offset z fits when margin |x| <= tan (distance + z), linear in the
// distance, so the bound is exact for a perspective view.
float FitDistance(absl::Span<const float> positions, const Frame& f,
                  const Eigen::Vector3f& center, float margin) {
  float distance = 0;
  for (size_t i = 0; i + 2 < positions.size(); i += 3) {
    const Eigen::Vector3f d = At(positions, i) - center;
    const float z = d.dot(f.forward);
    distance =
        std::max({distance, margin * std::abs(d.dot(f.right)) / f.tan_x - z,
                  margin * std::abs(d.dot(f.up)) / f.tan_y - z, 1e-3f - z});
  }
  return distance;
}

// Moves `center` across the view so the projected extremes (seen from
// center - distance forward) are symmetric about the middle of the image.
Eigen::Vector3f CenterProjection(absl::Span<const float> positions,
                                 const Frame& f, const Eigen::Vector3f& center,
                                 float distance) {
  Eigen::Vector3f shifted = center;
  for (const Eigen::Vector3f& axis : {f.right, f.up}) {
    // The extremes of x / depth, and their depths: shifting by s moves each
    // by -s / depth, so the two meet in the middle at s below.
    float lo = INFINITY, hi = -INFINITY, lo_depth = 1, hi_depth = 1;
    for (size_t i = 0; i + 2 < positions.size(); i += 3) {
      const Eigen::Vector3f d = At(positions, i) - center;
      const float depth = distance + d.dot(f.forward);
      const float x = d.dot(axis) / depth;
      if (x < lo) lo = x, lo_depth = depth;
      if (x > hi) hi = x, hi_depth = depth;
    }
    const float s = (hi + lo) / (1.0f / hi_depth + 1.0f / lo_depth);
    shifted += s * axis;
  }
  return shifted;
}

// Frames every vertex, looking along -back: the view centred on the
// projected bounds and just far enough that they fit with `margin`.
Camera FitAlong(absl::Span<const float> positions, float aspect,
                const Eigen::Vector3f& back, float margin, Camera camera) {
  const Frame f = FrameOf(back, camera, aspect);
  Eigen::Vector3f center = BoundsOf(positions).center;
  float distance = FitDistance(positions, f, center, margin);
  // Twice: centring changes the distance a little, and that the centre.
  for (int pass = 0; pass < 2; ++pass) {
    center = CenterProjection(positions, f, center, distance);
    distance = FitDistance(positions, f, center, margin);
  }
  const Eigen::Vector3f eye = center - distance * f.forward;
  camera.eye = {eye.x(), eye.y(), eye.z()};
  camera.target = {center.x(), center.y(), center.z()};
  return camera;
}

}  // namespace

Camera AutoFrame(absl::Span<const float> positions, float aspect,
                 float azimuth_degrees, float margin) {
  Camera camera;
  if (positions.size() < 3) return camera;
  const Eigen::Vector3f direction =
      Eigen::AngleAxisf(azimuth_degrees * std::numbers::pi_v<float> / 180.0f,
                        Eigen::Vector3f::UnitY()) *
      Eigen::Vector3f(0.35f, 0.25f, 1.0f).normalized();
  return FitAlong(positions, aspect, direction, margin, camera);
}

bool KeepInView(absl::Span<const float> positions, float aspect,
                Camera* camera) {
  const Eigen::Vector3f eye(camera->eye[0], camera->eye[1], camera->eye[2]);
  const Eigen::Vector3f target(camera->target[0], camera->target[1],
                               camera->target[2]);
  const Frame f = FrameOf(eye - target, *camera, aspect);
  // In view: every vertex in front of the eye and inside the four side
  // planes.
  bool inside = true;
  for (size_t i = 0; i + 2 < positions.size() && inside; i += 3) {
    const Eigen::Vector3f d = At(positions, i) - eye;
    const float depth = d.dot(f.forward);
    inside = depth > 0 && std::abs(d.dot(f.right)) <= f.tan_x * depth &&
             std::abs(d.dot(f.up)) <= f.tan_y * depth;
  }
  if (inside) return false;
  // Along the same direction (an azimuth the caller chose stays).
  const Camera reframed =
      FitAlong(positions, aspect, eye - target, kReframeMargin, *camera);
  // A frame that would pull the camera back past kMaxReframeZoom (one
  // vertex at 3e38 in a finite frame) is an outlier, not a move: framing on
  // it would leave every later frame a speck; keep the camera.
  const Eigen::Vector3f new_eye(reframed.eye[0], reframed.eye[1],
                                reframed.eye[2]);
  const Eigen::Vector3f new_target(reframed.target[0], reframed.target[1],
                                   reframed.target[2]);
  const float old_distance = (eye - target).norm();
  const float new_distance = (new_eye - new_target).norm();
  if (!std::isfinite(new_distance) || !new_eye.allFinite() ||
      !new_target.allFinite() ||
      new_distance > kMaxReframeZoom * old_distance) {
    return false;
  }
  *camera = reframed;
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

}  // namespace crease::image
