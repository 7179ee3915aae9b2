#include "renderer/frame_renderer.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "renderer/frame_data.h"
#include "renderer/gl/gl_objects.h"
#include "renderer/gl/offscreen_target.h"
#include "wrinkle/weld.h"

namespace crease::shaders {
extern const char kShader_mesh_vert[];
extern const char kShader_mesh_tesc[];
extern const char kShader_mesh_tese[];
extern const char kShader_mesh_frag[];
extern const char kShader_profile_shared_h[];
extern const char kShader_projection_shared_h[];
extern const char kShader_wrinkle_lookup_shared_h[];
extern const char kShader_wrinkle_field_glsl[];
}  // namespace crease::shaders

namespace crease::renderer {
namespace {

// llvmpipe (Mesa 22.3) renders one draw whose tessellator emits more than this
// many vertices as garbage.
constexpr int kMaxTessellatedVerticesPerDraw = 65535;

// A stage's source with the shared wrinkle code inserted after its #version
// line.
std::string WithWrinkleLibrary(const char* body) {
  std::string text = body;
  const size_t line_end = text.find('\n') + 1;
  return text.substr(0, line_end) + "#line 1 1\n" +
         shaders::kShader_profile_shared_h + "#line 1 2\n" +
         shaders::kShader_projection_shared_h + "#line 1 3\n" +
         shaders::kShader_wrinkle_lookup_shared_h + "#line 1 4\n" +
         shaders::kShader_wrinkle_field_glsl + "#line 2 0\n" +
         text.substr(line_end);
}

// Tessellated vertices of one triangle patch at inner level <= `level` (3
// (L/2)(L/2 + 1)
// + 1 for even L; odd levels rounded up).
int VerticesPerPatch(int level) {
  const int half = (level + 1) / 2;
  return 3 * half * (half + 1) + 1;
}

// Unit directions towards the key light, the fill light and the sky, in world
// space. The lights are fixed in the camera's frame (key above, left and in
// front; fill from the right, near eye level), so any azimuth, 180 included,
// is lit the same way; the sky is the camera's up.
struct Lights {
  Eigen::Vector3f key, fill, sky;
};
Lights LightsFor(const Eigen::Vector3f& eye, const Eigen::Vector3f& target,
                 const Eigen::Vector3f& up) {
  const Eigen::Vector3f back = (eye - target).normalized();
  const Eigen::Vector3f right = up.cross(back).normalized();
  const Eigen::Vector3f true_up = back.cross(right);
  return {(-0.4f * right + 0.55f * true_up + 0.75f * back).normalized(),
          (0.75f * right + 0.05f * true_up + 0.65f * back).normalized(),
          up.normalized()};
}

// A buffer refilled every frame. Its storage only grows (doubling), so a
// steady stream of frames reuses it: reallocating each frame cost page faults
// on llvmpipe. The previous frame's draws are done (Render reads its pixels
// back) before the next overwrites it.
class StreamBuffer {
 public:
  StreamBuffer() : buffer_(gl::MakeBuffer()) {}
  GLuint get() const { return buffer_.get(); }
  // Copies `data` (at least one element is uploaded, so a binding is valid).
  template <typename T>
  void Upload(std::vector<T>& data) {
    if (data.empty()) data.resize(1);
    const size_t bytes = data.size() * sizeof(T);
    if (bytes > capacity_) {
      capacity_ = std::max(bytes, 2 * capacity_);
      glNamedBufferData(buffer_.get(), capacity_, nullptr, GL_DYNAMIC_DRAW);
    }
    glNamedBufferSubData(buffer_.get(), 0, bytes, data.data());
  }
  template <typename T>
  void UploadStorage(GLuint binding, std::vector<T>& data) {
    Upload(data);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer_.get());
  }

 private:
  gl::Buffer buffer_;
  size_t capacity_ = 0;
};

}  // namespace

struct FrameRenderer::Gl {
  gl::Program program;
  gl::VertexArray vao;
  StreamBuffer vertices;
  // std430 bindings 0-5, in WrinkleBuffers' order.
  StreamBuffer levels, triangle_ranges, ranges, points, frames, range_bounds;
  WrinkleBuffers wrinkle_data;
  SmoothNormals normals;
  std::vector<uint64_t> edge_scratch;  // ClassifyClosure
  std::vector<int32_t> welded;         // when the caller gives no welding
  GLint wrinkles_flag = -1;
  GLint max_level = 64;
  std::optional<gl::OffscreenTarget> target;
  // Three corners per triangle, position + normal each: the triangle index is
  // gl_VertexID / 3 (llvmpipe's gl_PrimitiveID in the tessellation stages is
  // wrong past a few hundred patches of a draw).
  std::vector<float> corners;
  GLint view_projection = -1, eye = -1, base_color = -1;
  GLint key = -1, fill = -1, sky = -1, forward = -1, reach_per_depth = -1;
};

FrameRenderer::FrameRenderer(GpuContext* gpu)
    : gpu_(gpu), gl_(std::make_unique<Gl>()) {}
absl::Status FrameRenderer::ReleaseTarget() {
  if (!gl_->target) return absl::OkStatus();
  CREASE_RETURN_IF_ERROR(gpu_->MakeCurrent());
  const int samples = gl_->target->samples();
  gl_->target.reset();
  // Deleting is not enough: the driver's state still holds the last-bound
  // framebuffer's storage until another one is drawn to. A tiny one is.
  CREASE_ASSIGN_OR_RETURN(gl::OffscreenTarget tiny,
                          gl::OffscreenTarget::Create(16, 16, samples));
  gl_->target.emplace(std::move(tiny));
  gl_->target->Bind();
  gl_->target->Clear({0, 0, 0, 0});
  glFinish();
  return absl::OkStatus();
}

FrameRenderer::~FrameRenderer() {
  if (gpu_ != nullptr)
    (void)gpu_->MakeCurrent();  // GL objects die in this context
}

absl::StatusOr<std::unique_ptr<FrameRenderer>> FrameRenderer::Create(
    GpuContext* gpu) {
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
            WithWrinkleLibrary(shaders::kShader_mesh_tese)},
           {GL_FRAGMENT_SHADER, "mesh.frag",
            WithWrinkleLibrary(shaders::kShader_mesh_frag)}}));
  Gl& g = *r->gl_;
  g.program = std::move(program);
  g.view_projection =
      glGetUniformLocation(g.program.get(), "u_view_projection");
  g.eye = glGetUniformLocation(g.program.get(), "u_eye");
  g.base_color = glGetUniformLocation(g.program.get(), "u_base_color");
  g.wrinkles_flag = glGetUniformLocation(g.program.get(), "u_wrinkles");
  g.key = glGetUniformLocation(g.program.get(), "u_key");
  g.fill = glGetUniformLocation(g.program.get(), "u_fill");
  g.sky = glGetUniformLocation(g.program.get(), "u_sky");
  g.forward = glGetUniformLocation(g.program.get(), "u_forward");
  g.reach_per_depth =
      glGetUniformLocation(g.program.get(), "u_reach_per_depth");
  glGetIntegerv(GL_MAX_TESS_GEN_LEVEL, &g.max_level);
  g.vao = gl::MakeVertexArray();
  const GLuint vao = g.vao.get();
  glVertexArrayVertexBuffer(vao, 0, g.vertices.get(), 0, 6 * sizeof(float));
  for (GLuint attribute : {0u, 1u}) {
    glEnableVertexArrayAttrib(vao, attribute);
    glVertexArrayAttribFormat(vao, attribute, 3, GL_FLOAT, GL_FALSE,
                              attribute * 3 * sizeof(float));
    glVertexArrayAttribBinding(vao, attribute, 0);
  }
  return r;
}

namespace {

absl::Status ValidateMesh(const RenderMesh& mesh) {
  if (mesh.positions.empty() || mesh.positions.size() % 3 != 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("positions: %d floats is not a positive multiple of 3",
                        mesh.positions.size()));
  }
  const size_t num_vertices = mesh.positions.size() / 3;
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    if (!std::isfinite(mesh.positions[i])) {
      return absl::InvalidArgumentError(
          absl::StrFormat("positions: vertex %d is not finite", i / 3));
    }
  }
  for (size_t f = 0; f < mesh.triangles.size(); ++f) {
    for (int32_t v : mesh.triangles[f]) {
      if (v < 0 || static_cast<size_t>(v) >= num_vertices) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "triangles: triangle %d uses vertex %d of %d", f, v, num_vertices));
      }
    }
  }
  if (mesh.welded.empty()) return absl::OkStatus();
  if (mesh.welded.size() != num_vertices) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "welded: %d ids for %d vertices", mesh.welded.size(), num_vertices));
  }
  for (size_t v = 0; v < num_vertices; ++v) {
    if (mesh.welded[v] < 0 ||
        static_cast<size_t>(mesh.welded[v]) >= num_vertices) {
      return absl::InvalidArgumentError(
          absl::StrFormat("welded: vertex %d has id %d, outside [0, %d)", v,
                          mesh.welded[v], num_vertices));
    }
  }
  return absl::OkStatus();
}

}  // namespace

// The camera and its matrix.
struct FrameRenderer::View {
  Eigen::Vector3f eye, target, up;
  Eigen::Matrix4f view_projection;
};

absl::StatusOr<FrameRenderer::View> FrameRenderer::ViewFor(
    absl::Span<const float> positions, const RenderOptions& options) {
  const float aspect = static_cast<float>(options.width) / options.height;
  const image::Camera camera =
      options.camera ? *options.camera : image::AutoFrame(positions, aspect);
  View view;
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

absl::Status FrameRenderer::PrepareTarget(const RenderOptions& options) {
  Gl& g = *gl_;
  if (g.target && g.target->width() == options.width &&
      g.target->height() == options.height &&
      g.target->samples() == std::max(options.samples, 1)) {
    return absl::OkStatus();
  }
  g.target.reset();
  CREASE_ASSIGN_OR_RETURN(gl::OffscreenTarget target,
                          gl::OffscreenTarget::Create(
                              options.width, options.height, options.samples));
  g.target.emplace(std::move(target));
  return absl::OkStatus();
}

void FrameRenderer::UploadMesh(const RenderMesh& mesh) {
  Gl& g = *gl_;
  g.normals.Compute(mesh);
  const std::vector<float>& interleaved = g.normals.interleaved();
  g.corners.resize(mesh.triangles.size() * 18);
  float* corner = g.corners.data();
  for (const io::Triangle& t : mesh.triangles) {
    for (int32_t v : t) {
      std::copy_n(&interleaved[6 * static_cast<size_t>(v)], 6, corner);
      corner += 6;
    }
  }
  g.vertices.Upload(g.corners);
}

void FrameRenderer::UploadWrinkles(const RenderMesh& mesh,
                                   const FrameWrinkles* wrinkles,
                                   const RenderOptions& options,
                                   const View& view) {
  Gl& g = *gl_;
  WrinkleBuffers& w = g.wrinkle_data;
  if (wrinkles != nullptr) {
    FillWrinkleBuffers(
        mesh, *wrinkles,
        {view.view_projection, options.width, options.height,
         options.min_edge_pixels, options.min_wrinkle_pixels, g.max_level},
        &w);
  } else {
    ClearWrinkleBuffers(mesh.triangles.size(), &w);
  }
  g.levels.UploadStorage(0, w.levels);
  g.triangle_ranges.UploadStorage(1, w.triangle_ranges);
  g.ranges.UploadStorage(2, w.ranges);
  g.points.UploadStorage(3, w.points);
  g.frames.UploadStorage(4, w.frames);
  g.range_bounds.UploadStorage(5, w.range_bounds);
}

void FrameRenderer::SetCulling(const RenderMesh& mesh,
                               const RenderOptions& options) {
  Closure closure = Closure::kClosedOutward;
  if (options.culling == FaceCulling::kAuto) {
    closure = ClassifyClosure(mesh, &gl_->edge_scratch);
  }
  if (options.culling == FaceCulling::kNone || closure == Closure::kOpen) {
    glDisable(GL_CULL_FACE);
  } else {
    glEnable(GL_CULL_FACE);
    glFrontFace(closure == Closure::kClosedInward ? GL_CW : GL_CCW);
    glCullFace(GL_BACK);
  }
}

void FrameRenderer::SetUniforms(const View& view, const RenderOptions& options,
                                bool draw_wrinkles) {
  const Gl& g = *gl_;
  glUseProgram(g.program.get());
  glUniformMatrix4fv(g.view_projection, 1, GL_FALSE,
                     view.view_projection.data());
  glUniform3f(g.eye, view.eye.x(), view.eye.y(), view.eye.z());
  glUniform3fv(g.base_color, 1, options.base_color.data());
  const Lights lights = LightsFor(view.eye, view.target, view.up);
  glUniform3fv(g.key, 1, lights.key.data());
  glUniform3fv(g.fill, 1, lights.fill.data());
  glUniform3fv(g.sky, 1, lights.sky.data());
  const Eigen::Vector3f forward = (view.target - view.eye).normalized();
  glUniform3fv(g.forward, 1, forward.data());
  // Pixels per unit at unit depth, as FillWrinkleBuffers measures them.
  const float focal_pixels =
      view.view_projection.row(1).head<3>().norm() * 0.5f * options.height;
  glUniform1f(g.reach_per_depth, kFootprintReachPixels / focal_pixels);
  glUniform1i(g.wrinkles_flag, draw_wrinkles ? 1 : 0);
}

int FrameRenderer::DrawPatches(int num_patches, const RenderOptions& options) {
  glBindVertexArray(gl_->vao.get());
  glPatchParameteri(GL_PATCH_VERTICES, 3);
  const int per_draw =
      options.max_patches_per_draw > 0
          ? options.max_patches_per_draw
          : std::max(1, kMaxTessellatedVerticesPerDraw /
                            VerticesPerPatch(gl_->wrinkle_data.max_level));
  int draw_calls = 0;
  for (int first = 0; first < num_patches; first += per_draw) {
    const int count = std::min(per_draw, num_patches - first);
    glDrawArrays(GL_PATCHES, 3 * first, 3 * count);
    ++draw_calls;
  }
  glBindVertexArray(0);
  return draw_calls;
}

absl::StatusOr<image::RgbaImage> FrameRenderer::Render(
    const RenderMesh& given_mesh, const FrameWrinkles* wrinkles,
    const RenderOptions& options, RenderStats* stats) {
  CREASE_RETURN_IF_ERROR(ValidateMesh(given_mesh));
  // Wrinkles with no lists yet (a session that has seen no frame): none.
  if (!options.wrinkles || wrinkles == nullptr ||
      wrinkles->range_offsets.empty()) {
    wrinkles = nullptr;
  } else {
    CREASE_RETURN_IF_ERROR(
        ValidateFrameWrinkles(*wrinkles, given_mesh.triangles.size()));
  }
  RenderMesh mesh = given_mesh;
  if (mesh.welded.empty()) {
    int num_welded = 0;
    gl_->welded = WeldVerticesRelative(
        mesh.positions, kDefaultWeldRelativeTolerance, &num_welded);
    mesh.welded = gl_->welded;
  }
  CREASE_ASSIGN_OR_RETURN(const View view, ViewFor(mesh.positions, options));
  CREASE_RETURN_IF_ERROR(gpu_->MakeCurrent());
  CREASE_RETURN_IF_ERROR(PrepareTarget(options));
  UploadMesh(mesh);
  UploadWrinkles(mesh, wrinkles, options, view);
  Gl& g = *gl_;
  g.target->Bind();
  g.target->Clear(options.background);
  glEnable(GL_DEPTH_TEST);
  SetCulling(mesh, options);
  SetUniforms(view, options, wrinkles != nullptr);
  const int draw_calls =
      DrawPatches(static_cast<int>(mesh.triangles.size()), options);
  if (stats != nullptr) {
    const WrinkleBuffers& w = g.wrinkle_data;
    stats->drawn_wrinkles = w.drawn_wrinkles;
    stats->displaced_wrinkles = w.displaced_wrinkles;
    stats->tessellated_triangles = static_cast<int>(std::count_if(
        w.levels.begin(), w.levels.end(),
        [](const std::array<float, 4>& l) { return l[3] > 1.0f; }));
    stats->draw_calls = draw_calls;
  }
  return g.target->Read();
}

}  // namespace crease::renderer
