#ifndef CREASE_RENDERER_GL_PATTERN_PASS_H_
#define CREASE_RENDERER_GL_PATTERN_PASS_H_
// Internal to renderer/: FrameRenderer::RenderPattern's GL half, the
// wrinkle-map model drawn through shaders/pattern.* into the bound target.

#include <epoxy/gl.h>

#include <array>
#include <cstdint>
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
  // One pattern's texture on the GPU and what it was built from.
  struct PatternTexture {
    uint64_t id = 0;  // 0: unnamed, compared by its samples
    int width = 0, height = 0, channels = 0;
    bool repeat = false;
    std::vector<float> samples;  // unnamed only
    Texture texture;
    std::array<float, 3> wavelengths = {0, 0, 0};
    std::array<float, 3> detail_wavelengths = {0, 0, 0};
    int64_t bytes = 0;
    uint64_t last_used = 0;
  };
  // Named patterns kept on the GPU at once, and their bytes at most: a
  // render thread drawing sessions of different meshes in turn keeps each
  // one's texture (the least recently drawn goes first). 64 MiB is one
  // texture of the largest default pattern (1,024², 3 channels), what the
  // thread held when it kept one texture: under llvmpipe textures are the
  // server's own memory, outside the sessions' budget.
  static constexpr int kMaxNamedPatterns = 8;
  static constexpr int64_t kMaxNamedPatternBytes = int64_t{64} << 20;

  // Makes `pattern`'s texture current: the one kept for its id (named) or the
  // unnamed one when its samples are the same, else built and uploaded;
  // true when it was built.
  bool UsePattern(const PatternMap& pattern);
  void BuildTexture(const PatternMap& pattern, PatternTexture* out);
  void UploadCorners(const RenderMesh& mesh, const PatternWrinkles& wrinkles);
  void SetUniforms(const SceneView& view, const RenderOptions& options,
                   int channels, bool displace, float leading_power);

  Program program_;
  VertexArray vao_;
  StreamBuffer corners_buffer_, levels_buffer_;
  // The evaluation stage samples the texture through this sampler (unit 1):
  // the same filters without anisotropy. With anisotropy, llvmpipe's
  // textureLod there took a footprint from neighbouring vertices in the SIMD
  // vector, so a vertex shared by two patches got different heights from each
  // and the displaced surface cracked along tessellated edges.
  Sampler displacement_sampler_;
  float max_anisotropy_ = 1.0f;
  std::vector<PatternTexture> named_;  // at most kMaxNamedPatterns
  PatternTexture unnamed_;             // the last unnamed pattern
  const PatternTexture* current_ = nullptr;
  uint64_t draws_ = 0;  // orders named_ by last use
  std::vector<float> layers_;
  SmoothNormals normals_;
  PatternTessellation tessellation_;
  std::vector<float> corners_;
  LightingUniforms lighting_;
  GLint view_projection_ = -1, displace_ = -1, channels_ = -1, wavelength_ = -1,
        fade_pixels_ = -1, texels_ = -1, leading_power_ = -1;
  GLint max_level_ = 64;
};

}  // namespace crease::renderer::gl

#endif  // CREASE_RENDERER_GL_PATTERN_PASS_H_
