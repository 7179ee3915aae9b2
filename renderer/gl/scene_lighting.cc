#include "renderer/gl/scene_lighting.h"

#include <Eigen/Geometry>

#include "image/camera.h"

namespace crease::renderer::gl {
namespace {

// Unit directions towards the key light, the fill light and the sky, in world
// space. The lights are fixed in the camera's frame (key above, left and in
// front; fill from the right, near eye level), so any azimuth, 180 included,
// is lit the same way; the sky is the camera's up.
struct Lights {
  Eigen::Vector3f key, fill, sky;
};
Lights LightsFor(const SceneView& view) {
  const Eigen::Vector3f back = (view.eye - view.target).normalized();
  const Eigen::Vector3f right = view.up.cross(back).normalized();
  const Eigen::Vector3f true_up = back.cross(right);
  return {(-0.4f * right + 0.55f * true_up + 0.75f * back).normalized(),
          (0.75f * right + 0.05f * true_up + 0.65f * back).normalized(),
          view.up.normalized()};
}

}  // namespace

absl::StatusOr<SceneView> SceneViewFor(absl::Span<const float> positions,
                                       const RenderOptions& options) {
  const float aspect = static_cast<float>(options.width) / options.height;
  const image::Camera camera =
      options.camera ? *options.camera : image::AutoFrame(positions, aspect);
  SceneView view;
  view.eye = Eigen::Vector3f(camera.eye[0], camera.eye[1], camera.eye[2]);
  view.target =
      Eigen::Vector3f(camera.target[0], camera.target[1], camera.target[2]);
  view.up = Eigen::Vector3f(camera.up[0], camera.up[1], camera.up[2]);
  if ((view.target - view.eye).squaredNorm() == 0 ||
      (view.target - view.eye).cross(view.up).squaredNorm() == 0) {
    return absl::InvalidArgumentError(
        "camera: eye equals target, or up is along the view");
  }
  view.view_projection = image::ViewProjection(camera, positions, aspect);
  return view;
}

Culling CullingFor(const RenderMesh& mesh, FaceCulling culling,
                   std::vector<uint64_t>* scratch) {
  Closure closure = Closure::kClosedOutward;
  if (culling == FaceCulling::kAuto) closure = ClassifyClosure(mesh, scratch);
  if (culling == FaceCulling::kNone || closure == Closure::kOpen) {
    return Culling::kNone;
  }
  return closure == Closure::kClosedInward ? Culling::kBackOfClockwise
                                           : Culling::kBackOfCounterClockwise;
}

void ApplyCulling(Culling culling) {
  if (culling == Culling::kNone) {
    glDisable(GL_CULL_FACE);
  } else {
    glEnable(GL_CULL_FACE);
    glFrontFace(culling == Culling::kBackOfClockwise ? GL_CW : GL_CCW);
    glCullFace(GL_BACK);
  }
}

void SetFaceCulling(const RenderMesh& mesh, FaceCulling culling,
                    std::vector<uint64_t>* scratch) {
  ApplyCulling(CullingFor(mesh, culling, scratch));
}

LightingUniforms::LightingUniforms(GLuint program) {
  if (program == 0) return;
  eye_ = glGetUniformLocation(program, "u_eye");
  base_color_ = glGetUniformLocation(program, "u_base_color");
  key_ = glGetUniformLocation(program, "u_key");
  fill_ = glGetUniformLocation(program, "u_fill");
  sky_ = glGetUniformLocation(program, "u_sky");
}

void LightingUniforms::Set(const SceneView& view,
                           const std::array<float, 3>& base_color) const {
  glUniform3f(eye_, view.eye.x(), view.eye.y(), view.eye.z());
  glUniform3fv(base_color_, 1, base_color.data());
  const Lights lights = LightsFor(view);
  glUniform3fv(key_, 1, lights.key.data());
  glUniform3fv(fill_, 1, lights.fill.data());
  glUniform3fv(sky_, 1, lights.sky.data());
}

}  // namespace crease::renderer::gl
