#ifndef CREASE_IMAGE_CAMERA_H_
#define CREASE_IMAGE_CAMERA_H_

// Cameras and automatic framing, without GL: the client frames its requests
// with the same code the renderer uses.

#include <Eigen/Core>
#include <array>

#include "absl/types/span.h"

namespace crease::image {

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

// A camera looking from front-right and a little above (+Z is the front of the
// bundled characters), turned by `azimuth_degrees` around the vertical axis
// (180: from behind), that fills the image with the vertices: the view is
// centred on their projected bounds, and it is just far enough that they fit
// in both axes with `margin` (1.05: the subject spans 1 / 1.05 of the width
// or the height, whichever binds). A standing character at 4:3 fills the
// height, not a sphere around it.
Camera AutoFrame(absl::Span<const float> positions, float aspect,
                 float azimuth_degrees = 0.0f, float margin = 1.05f);

// The margin KeepInView re-frames with: wider than AutoFrame's default, so a
// mesh that moves or spreads is not re-framed again at once.
inline constexpr float kReframeMargin = 1.3f;

// KeepInView never pulls the camera back more than this at once: a frame
// that would is taken for an outlier (a vertex at 3e38 in an otherwise
// ordinary frame) and drawn with the camera kept.
inline constexpr float kMaxReframeZoom = 100.0f;

// For a stream of frames with no camera given: keeps `camera` (framed on an
// earlier frame) while every vertex of this frame stays inside its view, so
// the picture does not zoom in and out with the pose (the bundled animations'
// bounds breathe by 4-28 %); otherwise frames this frame anew like AutoFrame,
// looking the same way, with kReframeMargin, unless that would move the eye
// more than kMaxReframeZoom times as far away (or to a non-finite place).
// Returns whether it re-framed.
bool KeepInView(absl::Span<const float> positions, float aspect,
                Camera* camera);

// OpenGL's projection * view for `camera` (eye != target, up not along the
// view), with near and far planes around the bounds of `positions`.
Eigen::Matrix4f ViewProjection(const Camera& camera,
                               absl::Span<const float> positions, float aspect);

}  // namespace crease::image

#endif  // CREASE_IMAGE_CAMERA_H_
