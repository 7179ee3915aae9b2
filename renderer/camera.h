#ifndef CREASE_RENDERER_CAMERA_H_
#define CREASE_RENDERER_CAMERA_H_

// Cameras and automatic framing, without GL: the client frames its requests
// with the same code the renderer uses.

#include <Eigen/Core>
#include <array>

#include "absl/types/span.h"

namespace crease::renderer {

struct Camera {
  std::array<float, 3> eye = {0, 0, 1};
  std::array<float, 3> target = {0, 0, 0};
  std::array<float, 3> up = {0, 1, 0};
  float vertical_fov_degrees = 35.0f;
};

// The sphere around the axis-aligned bounds of packed xyz positions.
struct BoundingSphere {
  Eigen::Vector3f center = Eigen::Vector3f::Zero();
  float radius = 1e-6f;
};
BoundingSphere BoundsOf(absl::Span<const float> positions);

// A camera front-right and a little above the bounds' centre (+Z is the front
// of the bundled characters), far enough that the bounding sphere fits the
// view, then turned by `azimuth_degrees` around the vertical axis through the
// centre (180: from behind).
Camera AutoFrame(absl::Span<const float> positions, float aspect,
                 float azimuth_degrees = 0.0f);

// OpenGL's projection * view for `camera` (eye != target, up not along the
// view), with near and far planes around the bounds of `positions`.
Eigen::Matrix4f ViewProjection(const Camera& camera,
                               absl::Span<const float> positions, float aspect);

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_CAMERA_H_
