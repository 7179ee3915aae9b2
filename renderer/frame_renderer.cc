#include "renderer/frame_renderer.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "renderer/frame_data.h"
#include "renderer/gl/gl_objects.h"
#include "renderer/gl/offscreen_target.h"
#include "renderer/gl/pattern_pass.h"
#include "renderer/gl/scene_lighting.h"
#include "renderer/gl/shader_library.h"
#include "renderer/gl/stream_buffer.h"
#include "renderer/gl/target_passes.h"
#include "renderer/uv_maps.h"
#include "wrinkle/data/weld.h"

namespace crease::shaders {
extern const char kShader_mesh_vert[];
extern const char kShader_mesh_tesc[];
extern const char kShader_mesh_tese[];
extern const char kShader_mesh_frag[];
}  // namespace crease::shaders

namespace crease::renderer {

// One frame's GL inputs. A frame fills the set after the last one's, so a
// buffer is overwritten only once the frames drawn from it since are done
// (the render pool keeps fewer frames in flight than there are sets): a GPU
// driver would otherwise stall the upload until the draws that read it end,
// and the GL thread would wait out every frame.
struct FrameBufferSet {
  gl::VertexArray vao;
  gl::StreamBuffer vertices;
  // std430 bindings 0, 1, 2 and 5, in WrinkleBuffers' order; points and
  // frames are buffer textures.
  gl::StreamBuffer levels, triangle_ranges, ranges, range_bounds;
  gl::TexelBuffer points, frames;
};

struct PreparedFrame::Data {
  RenderOptions options;
  gl::SceneView view;
  gl::Culling culling = gl::Culling::kNone;
  bool draw_wrinkles = false;
  int num_triangles = 0;
  std::vector<int32_t> welded;  // when the caller gives no welding
  SmoothNormals normals;
  // Three corners per triangle, position + normal each: the triangle index is
  // gl_VertexID / 3 (llvmpipe's gl_PrimitiveID in the tessellation stages is
  // wrong past a few hundred patches of a draw).
  std::vector<float> corners;
  WrinkleBuffers wrinkles;
  std::vector<uint64_t> edge_scratch;  // ClassifyClosure
  // The pixels the frame can draw (DrawnPixels); unset: any.
  std::optional<gl::PixelBox> drawn_pixels;
};

PreparedFrame::PreparedFrame() : data_(std::make_unique<Data>()) {}
PreparedFrame::~PreparedFrame() = default;

struct FrameRenderer::Gl {
  gl::Program program;
  std::vector<std::unique_ptr<FrameBufferSet>> sets;
  size_t frames_begun = 0;
  FrameBufferSet* set = nullptr;       // this frame's
  PreparedFrame prepared;              // Render's own
  std::vector<uint64_t> edge_scratch;  // the pattern's ClassifyClosure
  std::vector<int32_t> welded;         // the pattern's, when none is given
  GLint wrinkles_flag = -1, subpixels = -1;
  std::optional<gl::OffscreenTarget> target;
  std::optional<gl::OffscreenTarget> batch_target;  // DrawBatchToReadback's
  std::optional<gl::TargetPasses> target_passes;    // TargetWork's compute
  gl::LightingUniforms lighting;
  GLint view_projection = -1, forward = -1, reach_per_depth = -1;
};

namespace {

// The pixels (GL's window coordinates) a frame of `positions` can draw when
// its surface is displaced at most `max_offset` anywhere: the projected
// bounds of the vertices (which hold the flat triangles, and each point's
// displacement is bounded from its own depth), widened by a pixel for the
// rasteriser's rounding. Unset when a vertex may lie at or behind the eye.
std::optional<gl::PixelBox> DrawnPixels(absl::Span<const float> positions,
                                        const Eigen::Matrix4f& view_projection,
                                        float max_offset, int width,
                                        int height) {
  const float r0 = view_projection.row(0).head<3>().norm();
  const float r1 = view_projection.row(1).head<3>().norm();
  const float r3 = view_projection.row(3).head<3>().norm();
  float lo_x = std::numeric_limits<float>::infinity(), lo_y = lo_x;
  float hi_x = -lo_x, hi_y = -lo_x;
  for (size_t i = 0; i + 2 < positions.size(); i += 3) {
    const Eigen::Vector4f clip =
        view_projection *
        Eigen::Vector4f(positions[i], positions[i + 1], positions[i + 2], 1.0f);
    // The displaced point's w is at least this (the offset along r3).
    const float w_min = clip.w() - r3 * max_offset;
    if (!(w_min > 1e-6f)) return std::nullopt;
    const float x = clip.x() / clip.w(), y = clip.y() / clip.w();
    // |d(x / w)| <= |offset| (|r0| + |x / w| |r3|) / w_min, likewise y.
    const float pad_x = max_offset * (r0 + std::abs(x) * r3) / w_min;
    const float pad_y = max_offset * (r1 + std::abs(y) * r3) / w_min;
    lo_x = std::min(lo_x, x - pad_x);
    hi_x = std::max(hi_x, x + pad_x);
    lo_y = std::min(lo_y, y - pad_y);
    hi_y = std::max(hi_y, y + pad_y);
  }
  if (!(lo_x <= hi_x && lo_y <= hi_y)) return std::nullopt;
  const auto pixel = [](float ndc, int size) {
    return std::clamp((0.5f * ndc + 0.5f) * static_cast<float>(size), -1.0f,
                      static_cast<float>(size) + 1.0f);
  };
  return gl::PixelBox{static_cast<int>(std::floor(pixel(lo_x, width))) - 1,
                      static_cast<int>(std::floor(pixel(lo_y, height))) - 1,
                      static_cast<int>(std::ceil(pixel(hi_x, width))) + 1,
                      static_cast<int>(std::ceil(pixel(hi_y, height))) + 1};
}

// The largest height among a frame's wrinkle points: no displacement is
// larger (the profile's peak is the height).
float LargestOffset(const WrinkleBuffers& wrinkles) {
  float largest = 0.0f;
  for (const std::array<float, 4>& frame : wrinkles.frames) {
    largest = std::max(largest, std::abs(frame[3]));
  }
  return largest;
}

}  // namespace

FrameRenderer::FrameRenderer(GpuContext* gpu)
    : gpu_(gpu), gl_(std::make_unique<Gl>()) {}

std::optional<std::array<int, 4>> FrameRenderer::DrawnPixelsOf(
    const PreparedFrame& frame) {
  const std::optional<gl::PixelBox>& box = frame.data_->drawn_pixels;
  if (!box) return std::nullopt;
  return std::array<int, 4>{box->x0, box->y0, box->x1, box->y1};
}

bool FrameRenderer::uses_target_passes() const {
  return gl_->target_passes.has_value();
}
absl::Status FrameRenderer::ReleaseTarget() {
  if (!gl_->target) return absl::OkStatus();
  CREASE_RETURN_IF_ERROR(gpu_->MakeCurrent());
  gl_->batch_target.reset();
  const int samples = gl_->target->samples();
  gl_->target.reset();
  // Deleting is not enough: the driver's state still holds the last-bound
  // framebuffer's storage until another one is drawn to. A tiny one is.
  CREASE_ASSIGN_OR_RETURN(
      gl::OffscreenTarget tiny,
      gl::OffscreenTarget::Create(
          16, 16, samples,
          gl_->target_passes ? &*gl_->target_passes : nullptr));
  gl_->target.emplace(std::move(tiny));
  gl_->target->Bind();
  gl_->target->Clear({0, 0, 0, 0});
  glFinish();
  return absl::OkStatus();
}

FrameRenderer::~FrameRenderer() {
  if (gpu_ != nullptr)
    (void)gpu_->MakeCurrent();  // GL objects die in this context
  pattern_.reset();
}

absl::StatusOr<std::unique_ptr<FrameRenderer>> FrameRenderer::Create(
    GpuContext* gpu, int buffer_sets, TargetWork target_work) {
  if (gpu == nullptr)
    return absl::InvalidArgumentError("FrameRenderer: no GpuContext");
  CREASE_RETURN_IF_ERROR(gpu->MakeCurrent());
  std::unique_ptr<FrameRenderer> r(new FrameRenderer(gpu));
  CREASE_ASSIGN_OR_RETURN(
      gl::Program program,
      gl::LinkProgram(
          {{GL_VERTEX_SHADER, "mesh.vert", shaders::kShader_mesh_vert},
           {GL_TESS_CONTROL_SHADER, "mesh.tesc", shaders::kShader_mesh_tesc},
           {GL_TESS_EVALUATION_SHADER, "mesh.tese",
            gl::WithWrinkleLibrary(shaders::kShader_mesh_tese)},
           {GL_FRAGMENT_SHADER, "mesh.frag",
            gl::WithClothLighting(
                gl::WithWrinkleLibrary(shaders::kShader_mesh_frag))}}));
  Gl& g = *r->gl_;
  g.program = std::move(program);
  g.view_projection =
      glGetUniformLocation(g.program.get(), "u_view_projection");
  g.lighting = gl::LightingUniforms(g.program.get());
  g.wrinkles_flag = glGetUniformLocation(g.program.get(), "u_wrinkles");
  g.subpixels = glGetUniformLocation(g.program.get(), "u_subpixels");
  g.forward = glGetUniformLocation(g.program.get(), "u_forward");
  g.reach_per_depth =
      glGetUniformLocation(g.program.get(), "u_reach_per_depth");
  // Frames are prepared off the GL thread, for any context: at the level
  // every GL 4 driver supports.
  GLint max_level = 0;
  glGetIntegerv(GL_MAX_TESS_GEN_LEVEL, &max_level);
  if (max_level < kMaxTessellationLevel) {
    return absl::FailedPreconditionError(
        absl::StrFormat("the GL tessellates to level %d, below GL 4's %d",
                        max_level, kMaxTessellationLevel));
  }
  for (int i = 0; i < std::max(buffer_sets, 1); ++i) {
    auto set = std::make_unique<FrameBufferSet>();
    set->vao = gl::MakeVertexArray();
    const GLuint vao = set->vao.get();
    glVertexArrayVertexBuffer(vao, 0, set->vertices.get(), 0,
                              6 * sizeof(float));
    gl::SetFloatAttributes(vao, {{3, 0}, {3, 3}});  // position, normal
    g.sets.push_back(std::move(set));
  }
  g.set = g.sets.front().get();
  if (target_work == TargetWork::kCompute ||
      (target_work == TargetWork::kAuto && gl::OnHardwareGpu())) {
    CREASE_ASSIGN_OR_RETURN(g.target_passes, gl::TargetPasses::Create());
  }
  return r;
}

absl::Status FrameRenderer::Prepare(const RenderMesh& given_mesh,
                                    const FrameWrinkles* wrinkles,
                                    const RenderOptions& options,
                                    PreparedFrame* out) {
  CREASE_RETURN_IF_ERROR(ValidateRenderMesh(given_mesh));
  // Wrinkles with no lists yet (a session that has seen no frame): none.
  if (!options.wrinkles || wrinkles == nullptr ||
      wrinkles->range_offsets.empty()) {
    wrinkles = nullptr;
  } else {
    CREASE_RETURN_IF_ERROR(
        ValidateFrameWrinkles(*wrinkles, given_mesh.triangles.size()));
  }
  PreparedFrame::Data& d = *out->data_;
  RenderMesh mesh = given_mesh;
  mesh.welded = WeldedIdsOr(mesh.positions, mesh.welded, &d.welded);
  CREASE_ASSIGN_OR_RETURN(d.view, gl::SceneViewFor(mesh.positions, options));
  d.options = options;
  d.culling = gl::CullingFor(mesh, options.culling, &d.edge_scratch);
  d.num_triangles = static_cast<int>(mesh.triangles.size());
  d.draw_wrinkles = wrinkles != nullptr;
  d.normals.Compute(mesh);
  const std::vector<float>& interleaved = d.normals.interleaved();
  d.corners.resize(mesh.triangles.size() * 18);
  float* corner = d.corners.data();
  for (const io::Triangle& t : mesh.triangles) {
    for (int32_t v : t) {
      std::copy_n(&interleaved[6 * static_cast<size_t>(v)], 6, corner);
      corner += 6;
    }
  }
  if (wrinkles != nullptr) {
    FillWrinkleBuffers(
        mesh, *wrinkles,
        {d.view.view_projection, options.width, options.height,
         // Displacing nothing: no wrinkle is wide enough to tessellate.
         options.displacement ? options.min_edge_pixels
                              : std::numeric_limits<float>::infinity(),
         options.min_wrinkle_pixels, kMaxTessellationLevel},
        &d.wrinkles);
  } else {
    ClearWrinkleBuffers(mesh.triangles.size(), &d.wrinkles);
  }
  d.drawn_pixels =
      DrawnPixels(mesh.positions, d.view.view_projection,
                  options.displacement ? LargestOffset(d.wrinkles) : 0.0f,
                  options.width, options.height);
  return absl::OkStatus();
}

absl::Status FrameRenderer::Upload(const PreparedFrame& frame) {
  Gl& g = *gl_;
  const PreparedFrame::Data& d = *frame.data_;
  g.set = g.sets[g.frames_begun++ % g.sets.size()].get();
  FrameBufferSet& set = *g.set;
  const WrinkleBuffers& w = d.wrinkles;
  set.vertices.Upload(d.corners);
  set.levels.UploadStorage(0, w.levels);
  set.triangle_ranges.UploadStorage(1, w.triangle_ranges);
  set.ranges.UploadStorage(2, w.ranges);
  CREASE_RETURN_IF_ERROR(set.points.Upload(gl::kWrinklePointsUnit, w.points));
  CREASE_RETURN_IF_ERROR(set.frames.Upload(gl::kWrinkleFramesUnit, w.frames));
  set.range_bounds.UploadStorage(5, w.range_bounds);
  return absl::OkStatus();
}

void FrameRenderer::SetUniforms(const gl::SceneView& view,
                                const RenderOptions& options,
                                bool draw_wrinkles) {
  const Gl& g = *gl_;
  glUseProgram(g.program.get());
  glUniformMatrix4fv(g.view_projection, 1, GL_FALSE,
                     view.view_projection.data());
  g.lighting.Set(view, options.base_color);
  const Eigen::Vector3f forward = (view.target - view.eye).normalized();
  glUniform3fv(g.forward, 1, forward.data());
  // Pixels per unit at unit depth, as FillWrinkleBuffers measures them.
  const float focal_pixels =
      view.view_projection.row(1).head<3>().norm() * 0.5f * options.height;
  glUniform1f(g.reach_per_depth, kFootprintReachPixels / focal_pixels);
  glUniform1i(g.wrinkles_flag, draw_wrinkles ? 1 : 0);
  glUniform1i(g.subpixels, options.wrinkle_subpixels == 4 ? 4 : 1);
}

int FrameRenderer::DrawPatches(int num_patches, int max_level,
                               const RenderOptions& options) {
  return gl::DrawTrianglePatches(
      gl_->set->vao.get(), num_patches,
      PatchesPerDraw(max_level, options.max_patches_per_draw));
}

absl::Status FrameRenderer::BindTarget(const RenderOptions& options,
                                       const gl::PixelBox* depth_box) {
  CREASE_RETURN_IF_ERROR(gpu_->MakeCurrent());
  CREASE_RETURN_IF_ERROR(gl::EnsureOffscreenTarget(
      options.width, options.height, options.samples, &gl_->target,
      gl_->target_passes ? &*gl_->target_passes : nullptr));
  gl_->target->Bind();
  gl_->target->Clear(options.background, depth_box);
  glEnable(GL_DEPTH_TEST);
  return absl::OkStatus();
}

absl::Status FrameRenderer::DrawPrepared(const PreparedFrame& frame,
                                         RenderStats* stats) {
  const PreparedFrame::Data& d = *frame.data_;
  CREASE_RETURN_IF_ERROR(
      BindTarget(d.options, d.drawn_pixels ? &*d.drawn_pixels : nullptr));
  return DrawIntoBoundTarget(frame, stats);
}

int FrameRenderer::MaxBatchFrames(int height) {
  return height < 1 ? 0 : gl::kMaxImageSide / height;
}

absl::StatusOr<ReadbackTicket> FrameRenderer::DrawBatchToReadback(
    absl::Span<const PreparedFrame* const> frames, PixelReadback* readback) {
  if (frames.empty()) return absl::InvalidArgumentError("an empty batch");
  const RenderOptions& first = frames.front()->data_->options;
  const int count = static_cast<int>(frames.size());
  if (count > MaxBatchFrames(first.height)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("a batch of %d frames %d rows high is over %d rows",
                        count, first.height, gl::kMaxImageSide));
  }
  for (const PreparedFrame* frame : frames) {
    const RenderOptions& o = frame->data_->options;
    if (o.width != first.width || o.height != first.height ||
        std::max(o.samples, 1) != std::max(first.samples, 1)) {
      return absl::InvalidArgumentError(
          "a batch's frames must share width, height and samples");
    }
  }
  CREASE_RETURN_IF_ERROR(gpu_->MakeCurrent());
  CREASE_RETURN_IF_ERROR(gl::EnsureOffscreenTarget(
      first.width, first.height * count, first.samples, &gl_->batch_target,
      gl_->target_passes ? &*gl_->target_passes : nullptr));
  const gl::OffscreenTarget& target = *gl_->batch_target;
  target.Bind();
  target.Clear(first.background);
  glEnable(GL_DEPTH_TEST);
  for (int i = 0; i < count; ++i) {
    const RenderOptions& o = frames[i]->data_->options;
    glViewport(0, i * first.height, first.width, first.height);
    if (o.background != first.background) {
      glEnable(GL_SCISSOR_TEST);
      glScissor(0, i * first.height, first.width, first.height);
      glClearBufferfv(GL_COLOR, 0, o.background.data());
      glDisable(GL_SCISSOR_TEST);
    }
    CREASE_RETURN_IF_ERROR(DrawIntoBoundTarget(*frames[i], nullptr));
  }
  return readback->Start(target);
}

absl::Status FrameRenderer::DrawIntoBoundTarget(const PreparedFrame& frame,
                                                RenderStats* stats) {
  const PreparedFrame::Data& d = *frame.data_;
  gl::ApplyCulling(d.culling);
  CREASE_RETURN_IF_ERROR(Upload(frame));
  SetUniforms(d.view, d.options, d.draw_wrinkles);
  const WrinkleBuffers& w = d.wrinkles;
  const int draw_calls = DrawPatches(d.num_triangles, w.max_level, d.options);
  if (stats != nullptr) {
    stats->drawn_wrinkles = w.drawn_wrinkles;
    stats->displaced_wrinkles = w.displaced_wrinkles;
    stats->tessellated_triangles = static_cast<int>(std::count_if(
        w.levels.begin(), w.levels.end(),
        [](const std::array<float, 4>& l) { return l[3] > 1.0f; }));
    stats->draw_calls = draw_calls;
  }
  return absl::OkStatus();
}

absl::Status FrameRenderer::DrawWrinkled(const RenderMesh& mesh,
                                         const FrameWrinkles* wrinkles,
                                         const RenderOptions& options,
                                         RenderStats* stats) {
  CREASE_RETURN_IF_ERROR(Prepare(mesh, wrinkles, options, &gl_->prepared));
  return DrawPrepared(gl_->prepared, stats);
}

absl::Status FrameRenderer::DrawPattern(const RenderMesh& given_mesh,
                                        const PatternWrinkles& wrinkles,
                                        const RenderOptions& options,
                                        RenderStats* stats) {
  CREASE_RETURN_IF_ERROR(ValidateRenderMesh(given_mesh));
  CREASE_RETURN_IF_ERROR(
      ValidateCornerUvs(given_mesh.corner_uvs, given_mesh.triangles.size()));
  CREASE_RETURN_IF_ERROR(
      ValidatePatternWrinkles(wrinkles, given_mesh.positions.size() / 3));
  if (pattern_ == nullptr) {
    CREASE_RETURN_IF_ERROR(gpu_->MakeCurrent());
    CREASE_ASSIGN_OR_RETURN(pattern_, gl::PatternPass::Create());
  }
  RenderMesh mesh = given_mesh;
  mesh.welded = WeldedIdsOr(mesh.positions, mesh.welded, &gl_->welded);
  CREASE_ASSIGN_OR_RETURN(const gl::SceneView view,
                          gl::SceneViewFor(mesh.positions, options));
  CREASE_RETURN_IF_ERROR(BindTarget(options));
  gl::SetFaceCulling(mesh, options.culling, &gl_->edge_scratch);
  RenderStats drawn;
  pattern_->Draw(mesh, wrinkles, options, view, &drawn);
  if (stats != nullptr) *stats = drawn;
  return absl::OkStatus();
}

absl::StatusOr<image::RgbaImage> FrameRenderer::Render(
    const RenderMesh& mesh, const FrameWrinkles* wrinkles,
    const RenderOptions& options, RenderStats* stats) {
  CREASE_RETURN_IF_ERROR(DrawWrinkled(mesh, wrinkles, options, stats));
  return gl_->target->Read();
}

absl::StatusOr<image::RgbaImage> FrameRenderer::RenderPattern(
    const RenderMesh& mesh, const PatternWrinkles& wrinkles,
    const RenderOptions& options, RenderStats* stats) {
  CREASE_RETURN_IF_ERROR(DrawPattern(mesh, wrinkles, options, stats));
  return gl_->target->Read();
}

absl::StatusOr<ReadbackTicket> FrameRenderer::RenderToReadback(
    const RenderMesh& mesh, const FrameWrinkles* wrinkles,
    const RenderOptions& options, PixelReadback* readback, RenderStats* stats) {
  CREASE_RETURN_IF_ERROR(DrawWrinkled(mesh, wrinkles, options, stats));
  return readback->Start(*gl_->target);
}

absl::StatusOr<ReadbackTicket> FrameRenderer::RenderPatternToReadback(
    const RenderMesh& mesh, const PatternWrinkles& wrinkles,
    const RenderOptions& options, PixelReadback* readback, RenderStats* stats) {
  CREASE_RETURN_IF_ERROR(DrawPattern(mesh, wrinkles, options, stats));
  return readback->Start(*gl_->target);
}

absl::StatusOr<ReadbackTicket> FrameRenderer::DrawToReadback(
    const PreparedFrame& frame, PixelReadback* readback, RenderStats* stats) {
  CREASE_RETURN_IF_ERROR(DrawPrepared(frame, stats));
  return readback->Start(*gl_->target);
}

}  // namespace crease::renderer
