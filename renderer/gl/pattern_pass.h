#ifndef CREASE_RENDERER_GL_PATTERN_PASS_H_
#define CREASE_RENDERER_GL_PATTERN_PASS_H_
// Internal to renderer/: FrameRenderer::RenderPattern's GL half, the
// wrinkle-map model drawn through shaders/pattern.* into the bound target.

#include <epoxy/gl.h>

#include <array>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "renderer/frame_renderer.h"
#include "renderer/gl/gl_objects.h"
#include "renderer/gl/scene_lighting.h"
#include "renderer/gl/stream_buffer.h"
#include "renderer/pattern_data.h"

namespace crease::renderer::gl {

class PatternPass {
 public:
  // Needs the GpuContext current.
  static absl::StatusOr<std::unique_ptr<PatternPass>> Create();

  // Draws `mesh` (welded, with corner UVs) and `wrinkles` (validated) into
  // the bound target, depth test and culling already set.
  void Draw(const RenderMesh& mesh, const PatternWrinkles& wrinkles,
            const RenderOptions& options, const SceneView& view,
            RenderStats* stats);

 private:
  PatternPass() = default;
  // Rebuilds the texture only when the pattern differs from the last one;
  // true when it did.
  bool UploadPattern(const PatternMap& pattern);
  void UploadCorners(const RenderMesh& mesh, const PatternWrinkles& wrinkles);
  void SetUniforms(const SceneView& view, const RenderOptions& options,
                   int channels, bool displace);

  Program program_;
  VertexArray vao_;
  StreamBuffer corners_buffer_, levels_buffer_;
  Texture texture_;
  // The evaluation stage samples the texture through this sampler (unit 1):
  // the same filters without anisotropy. With anisotropy, llvmpipe's
  // textureLod there took a footprint from neighbouring vertices in the SIMD
  // vector, so a vertex shared by two patches got different heights from each
  // and the displaced surface cracked along tessellated edges.
  Sampler displacement_sampler_;
  float max_anisotropy_ = 1.0f;
  // The uploaded pattern, to compare with the next frame's.
  PatternMap uploaded_;
  std::vector<float> uploaded_samples_, layers_;
  std::array<float, 3> wavelengths_ = {0, 0, 0};
  SmoothNormals normals_;
  PatternTessellation tessellation_;
  std::vector<float> corners_;
  LightingUniforms lighting_;
  GLint view_projection_ = -1, displace_ = -1, channels_ = -1, wavelength_ = -1,
        fade_pixels_ = -1, texels_ = -1;
  GLint max_level_ = 64;
};

}  // namespace crease::renderer::gl

#endif  // CREASE_RENDERER_GL_PATTERN_PASS_H_
