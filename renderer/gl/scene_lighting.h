#ifndef CREASE_RENDERER_GL_SCENE_LIGHTING_H_
#define CREASE_RENDERER_GL_SCENE_LIGHTING_H_
// Internal to renderer/: the camera and the lights every screen renderer
// shares (FrameRenderer, MeshPreviewRenderer), so their images of one mesh
// are framed and lit alike; the uniforms of shaders/cloth_lighting.glsl.

#include <epoxy/gl.h>

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "renderer/frame_data.h"
#include "renderer/frame_renderer.h"

namespace crease::renderer::gl {

// A camera and its matrix.
struct SceneView {
  Eigen::Vector3f eye, target, up;
  Eigen::Matrix4f view_projection;
};

// options.camera, else AutoFrame on `positions`; the projection's depth
// range around `positions`. InvalidArgument for a camera whose eye equals
// its target or whose up is along the view.
absl::StatusOr<SceneView> SceneViewFor(absl::Span<const float> positions,
                                       const RenderOptions& options);

// Which faces GL culls for `culling` (kAuto: the back faces of a closed,
// consistently wound mesh, none of open cloth; see FaceCulling). `mesh.welded`
// must be set; `scratch` is reused. CullingFor decides (CPU only, any
// thread), ApplyCulling sets it on the current context.
enum class Culling { kNone, kBackOfCounterClockwise, kBackOfClockwise };
Culling CullingFor(const RenderMesh& mesh, FaceCulling culling,
                   std::vector<uint64_t>* scratch);
void ApplyCulling(Culling culling);
void SetFaceCulling(const RenderMesh& mesh, FaceCulling culling,
                    std::vector<uint64_t>* scratch);

// The locations of cloth_lighting.glsl's uniforms in one program, and their
// values for a view: the lights fixed in the camera's frame.
class LightingUniforms {
 public:
  explicit LightingUniforms(GLuint program = 0);
  // The program must be in use.
  void Set(const SceneView& view, const std::array<float, 3>& base_color) const;

 private:
  GLint eye_ = -1, base_color_ = -1, key_ = -1, fill_ = -1, sky_ = -1;
};

}  // namespace crease::renderer::gl

#endif  // CREASE_RENDERER_GL_SCENE_LIGHTING_H_
