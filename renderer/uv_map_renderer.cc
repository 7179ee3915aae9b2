#include "renderer/uv_map_renderer.h"

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/helper_thread.h"
#include "common/status_macros.h"
#include "renderer/gl/gl_objects.h"
#include "renderer/gl/shader_library.h"
#include "renderer/gl/stream_buffer.h"
#include "renderer/gl/target_passes.h"
#include "renderer/uv_map_dilation.h"
#include "renderer/uv_map_pieces.h"
#include "renderer/uv_map_renderer_state.h"
#include "wrinkle/data/weld.h"

namespace crease::shaders {
extern const char kShader_uv_map_vert[];
extern const char kShader_uv_map_frag[];
extern const char kShader_uv_map_shade_comp[];
extern const char kShader_uv_id_frag[];
}  // namespace crease::shaders

namespace crease::renderer {
namespace {

using uv_map_internal::kHeightImageUnit;
using uv_map_internal::kNormalImageUnit;
using uv_map_internal::kShadeGroup;
using uv_map_internal::kTriangleIdsUnit;
using uv_map_internal::MakeTexture;

// A frame's mesh, UVs, options and (unless null: none) wrinkles.
absl::Status ValidateInputs(const RenderMesh& mesh,
                            const FrameWrinkles* wrinkles,
                            const UvMapOptions& options) {
  CREASE_RETURN_IF_ERROR(ValidateRenderMesh(mesh));
  CREASE_RETURN_IF_ERROR(
      ValidateCornerUvs(mesh.corner_uvs, mesh.triangles.size()));
  if (options.max_pieces_per_edge < 1 || options.max_pieces_per_edge > 64) {
    return absl::InvalidArgumentError(
        absl::StrFormat("uv maps: max_pieces_per_edge %d, expected 1..64",
                        options.max_pieces_per_edge));
  }
  if (wrinkles != nullptr) {
    CREASE_RETURN_IF_ERROR(
        ValidateFrameWrinkles(*wrinkles, mesh.triangles.size()));
  }
  return absl::OkStatus();
}

}  // namespace

UvMapRenderer::UvMapRenderer(GpuContext* gpu)
    : gpu_(gpu), gl_(std::make_unique<Gl>()) {}

UvMapRenderer::~UvMapRenderer() {
  if (gpu_ != nullptr) (void)gpu_->MakeCurrent();
}

absl::StatusOr<std::unique_ptr<UvMapRenderer>> UvMapRenderer::Create(
    GpuContext* gpu, TargetWork target_work) {
  if (gpu == nullptr)
    return absl::InvalidArgumentError("UvMapRenderer: no GpuContext");
  CREASE_RETURN_IF_ERROR(gpu->MakeCurrent());
  std::unique_ptr<UvMapRenderer> r(new UvMapRenderer(gpu));
  CREASE_ASSIGN_OR_RETURN(
      gl::Program program,
      gl::LinkProgram(
          {{GL_VERTEX_SHADER, "uv_map.vert", shaders::kShader_uv_map_vert},
           {GL_FRAGMENT_SHADER, "uv_map.frag",
            gl::WithWrinkleLibrary(
                gl::WithUvTexel(shaders::kShader_uv_map_frag))}}));
  Gl& g = *r->gl_;
  g.program = std::move(program);
  g.reach = glGetUniformLocation(g.program.get(), "u_reach");
  g.height_range = glGetUniformLocation(g.program.get(), "u_height_range");
  g.green = glGetUniformLocation(g.program.get(), "u_green");
  g.size_uniform = glGetUniformLocation(g.program.get(), "u_size");
  // A constant of the encoding: set once, kept by the program.
  glProgramUniform1f(g.program.get(),
                     glGetUniformLocation(g.program.get(), "u_height_zero"),
                     kHeightZeroFraction);
  g.gpu_paths = target_work == TargetWork::kCompute ||
                (target_work == TargetWork::kAuto && gl::OnHardwareGpu());
  if (g.gpu_paths) {
    CREASE_ASSIGN_OR_RETURN(
        g.shade_program,
        gl::LinkProgram({{GL_COMPUTE_SHADER, "uv_map_shade.comp",
                          gl::WithWrinkleLibrary(gl::WithUvTexel(
                              shaders::kShader_uv_map_shade_comp))}}));
    CREASE_ASSIGN_OR_RETURN(
        g.id_program,
        gl::LinkProgram(
            {{GL_VERTEX_SHADER, "uv_map.vert", shaders::kShader_uv_map_vert},
             {GL_FRAGMENT_SHADER, "uv_id.frag", shaders::kShader_uv_id_frag}}));
    const GLuint shade = g.shade_program.get();
    g.shade_reach = glGetUniformLocation(shade, "u_reach");
    g.shade_height_range = glGetUniformLocation(shade, "u_height_range");
    g.shade_green = glGetUniformLocation(shade, "u_green");
    g.shade_size = glGetUniformLocation(shade, "u_size");
    glProgramUniform1f(shade, glGetUniformLocation(shade, "u_height_zero"),
                       kHeightZeroFraction);
    GLuint name = 0;
    glCreateFramebuffers(1, &name);
    g.id_framebuffer = gl::Framebuffer(name);
  }
  g.vao = gl::MakeVertexArray();
  const GLuint vao = g.vao.get();
  glVertexArrayVertexBuffer(vao, 0, g.corners_buffer.get(), 0,
                            kUvCornerFloats * sizeof(float));
  gl::SetFloatAttributes(vao, {{2, 0}, {3, 2}, {3, 5}, {4, 8}});
  // Attribute 4: the triangle's index, an int's bits.
  glEnableVertexArrayAttrib(vao, 4);
  glVertexArrayAttribBinding(vao, 4, 0);
  glVertexArrayAttribIFormat(vao, 4, 1, GL_INT, 12 * sizeof(float));
  return r;
}

absl::Status UvMapRenderer::PrepareTarget(int size) {
  Gl& g = *gl_;
  if (g.size == size) return absl::OkStatus();
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (size < 1 || size > std::min<int>(4096, max_size)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("uv map size %d: must be 1..4096", size));
  }
  // Textures, not renderbuffers: the compute pass writes them as images.
  g.normal_color = MakeTexture(GL_RGBA8, size);
  g.height_color = MakeTexture(GL_R16, size);
  g.bases.clear();  // made for the old size
  g.base = nullptr;
  g.held_base = nullptr;
  GLuint name = 0;
  glCreateFramebuffers(1, &name);
  g.framebuffer = gl::Framebuffer(name);
  glNamedFramebufferTexture(name, GL_COLOR_ATTACHMENT0, g.normal_color.get(),
                            0);
  glNamedFramebufferTexture(name, GL_COLOR_ATTACHMENT1, g.height_color.get(),
                            0);
  const GLenum buffers[] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
  glNamedFramebufferDrawBuffers(name, 2, buffers);
  if (glCheckNamedFramebufferStatus(name, GL_FRAMEBUFFER) !=
      GL_FRAMEBUFFER_COMPLETE) {
    g.size = 0;
    return absl::InternalError("uv map framebuffer incomplete");
  }
  g.size = size;
  return absl::OkStatus();
}

void UvMapRenderer::MakeCorners(const RenderMesh& mesh) {
  Gl& g = *gl_;
  g.normals.Compute(mesh);
  const std::vector<float>& interleaved = g.normals.interleaved();
  CornerTangents(mesh, interleaved, &g.tangents, &g.tangent_scratch);
  g.corners.resize(3 * mesh.triangles.size() * kUvCornerFloats);
  float* out = g.corners.data();
  for (size_t corner = 0; corner < 3 * mesh.triangles.size(); ++corner) {
    const int32_t v = mesh.triangles[corner / 3][corner % 3];
    std::copy_n(&mesh.corner_uvs[2 * corner], 2, out);
    std::copy_n(&interleaved[6 * static_cast<size_t>(v)], 6, out + 2);
    std::copy_n(&g.tangents[4 * corner], 4, out + 8);
    out[12] = std::bit_cast<float>(static_cast<int32_t>(corner / 3));
    out += kUvCornerFloats;
  }
}

// The lists are made by the screen renderer's rules for an orthographic view
// of the mesh's bounds at `size` pixels: every wrinkle is drawn at full
// height (no level-of-detail fade), none displaces, and the lookup reach is
// one such pixel. Returns that reach in model units.
absl::StatusOr<float> UvMapRenderer::UploadWrinkles(
    const RenderMesh& mesh, const FrameWrinkles* wrinkles, int size) {
  Gl& g = *gl_;
  WrinkleBuffers& w = g.wrinkle_data;
  Eigen::Vector3f lo = Eigen::Vector3f::Constant(1e30f), hi = -lo;
  for (size_t i = 0; i + 2 < mesh.positions.size(); i += 3) {
    const Eigen::Vector3f p(mesh.positions[i], mesh.positions[i + 1],
                            mesh.positions[i + 2]);
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const float extent = std::max((hi - lo).maxCoeff(), 1e-12f);
  if (wrinkles != nullptr) {
    TessellationTarget target;
    target.view_projection = Eigen::Matrix4f::Identity();
    target.view_projection.topLeftCorner<3, 3>() *= 2.0f / extent;
    target.width = target.height = size;
    target.min_edge_pixels = 1e30f;      // nothing displaces
    target.min_wrinkle_pixels = 1e-30f;  // nothing fades
    FillWrinkleBuffers(mesh, *wrinkles, target, &w);
  } else {
    ClearWrinkleBuffers(mesh.triangles.size(), &w);
  }
  g.triangle_ranges.UploadStorage(1, w.triangle_ranges);
  g.ranges.UploadStorage(2, w.ranges);
  CREASE_RETURN_IF_ERROR(g.points.Upload(gl::kWrinklePointsUnit, w.points));
  CREASE_RETURN_IF_ERROR(g.frames.Upload(gl::kWrinkleFramesUnit, w.frames));
  g.range_bounds.UploadStorage(5, w.range_bounds);
  return kFootprintReachPixels * extent / static_cast<float>(size);
}

// Compute shading: every texel of a triangle some wrinkle reaches, shaded
// over the base's triangle ids into the maps (uv_map_shade.comp).
void UvMapRenderer::ShadeReached(const UvMapOptions& options, float reach,
                                 float height_range) {
  Gl& g = *gl_;
  g.triangle_corners.UploadStorage(3, g.corners);
  glUseProgram(g.shade_program.get());
  glUniform1f(g.shade_reach, reach);
  glUniform1f(g.shade_height_range, height_range);
  glUniform1f(g.shade_green, options.green_down ? -1.0f : 1.0f);
  glUniform1f(g.shade_size, static_cast<float>(options.size));
  glBindTextureUnit(kTriangleIdsUnit, g.base->triangle_ids.get());
  glBindImageTexture(kNormalImageUnit, g.normal_color.get(), 0, GL_FALSE, 0,
                     GL_WRITE_ONLY, GL_RGBA8);
  glBindImageTexture(kHeightImageUnit, g.height_color.get(), 0, GL_FALSE, 0,
                     GL_WRITE_ONLY, GL_R16);
  const GLuint groups =
      static_cast<GLuint>((options.size + kShadeGroup - 1) / kShadeGroup);
  glDispatchCompute(groups, groups, 1);
  // Read back through the framebuffer next (ReadMaps).
  glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT |
                  GL_TEXTURE_UPDATE_BARRIER_BIT);
  glBindTextureUnit(kTriangleIdsUnit, 0);
  glUseProgram(g.program.get());
}

// The pieces of triangles some wrinkle reaches, into g.pieces.
void UvMapRenderer::FindReachedPieces(const UvMapOptions& options,
                                      float reach) {
  Gl& g = *gl_;
  UvMapPieceInputs in;
  in.corners = &g.corners;
  in.wrinkles = &g.wrinkle_data;
  in.size = options.size;
  in.reach = reach;
  in.max_pieces_per_edge = options.max_pieces_per_edge;
  in.prune = options.prune_lookups;
  // Triangles in two runs with about as many ranges each, the second on the
  // helper; joined, they are what one Find lists.
  // (Two captures: std::function holds them without allocating.)
  g.second_run = HalfOfTheRanges(g.wrinkle_data);
  if (g.second_run == 0) {  // no ranges at all: nothing to share
    g.piece_finder.Find(in, &g.pieces);
  } else {
    HelperJob second(&g.helper, [&g, &in] {
      g.second_finder.FindIn(in, g.second_run,
                             g.wrinkle_data.triangle_ranges.size(),
                             &g.second_pieces);
    });
    g.piece_finder.FindIn(in, 0, g.second_run, &g.pieces);
    second.Wait();
    AppendPieces(g.second_pieces, &g.pieces);
  }
}

// The pieces FindReachedPieces found, drawn over the base.
void UvMapRenderer::DrawReached() {
  Gl& g = *gl_;
  if (g.pieces.lists.empty()) return;
  // The pieces' own lists replace the triangles' at bindings 1, 2 and 5.
  g.piece_lists.UploadStorage(1, g.pieces.lists);
  g.piece_ranges.UploadStorage(2, g.pieces.ranges);
  g.piece_bounds.UploadStorage(5, g.pieces.range_bounds);
  g.piece_corners.Upload(g.pieces.corners);
  g.triangle_corners.UploadStorage(3, g.corners);
  const GLuint vao = g.vao.get();
  glVertexArrayVertexBuffer(vao, 0, g.piece_corners.get(), 0,
                            kUvCornerFloats * sizeof(float));
  glDrawArrays(GL_TRIANGLES, 0,
               static_cast<GLsizei>(g.pieces.corners.size() / kUvCornerFloats));
  glVertexArrayVertexBuffer(vao, 0, g.corners_buffer.get(), 0,
                            kUvCornerFloats * sizeof(float));
}

// Each piece's texel bounds (one texel of slack for rasterising rules and
// rounding), rows as read back: row r holds v = 1 - (r + 0.5) / size.
void UvMapRenderer::RefillAroundPieces(UvMaps* out) {
  Gl& g = *gl_;
  g.drawn_boxes.clear();
  AddUvBoxes(g.pieces.corners, nullptr, out->size);
  g.base->dilation.Refill(g.drawn_boxes, out, &g.helper);
}

// The same around the whole triangles compute shading drew: those with a
// wrinkle list.
void UvMapRenderer::RefillAroundReachedTriangles(UvMaps* out) {
  Gl& g = *gl_;
  g.drawn_boxes.clear();
  AddUvBoxes(g.corners, &g.wrinkle_data.triangle_ranges, out->size);
  g.base->dilation.Refill(g.drawn_boxes, out, &g.helper);
}

// To g.drawn_boxes, the texel box of each triangle of `c` (three corners of
// kUvCornerFloats each), with `lists` those whose list is not empty.
void UvMapRenderer::AddUvBoxes(const std::vector<float>& c,
                               const std::vector<std::array<int32_t, 4>>* lists,
                               int texels) {
  Gl& g = *gl_;
  const float size = static_cast<float>(texels);
  // Clamped as floats first: a UV far outside [0, 1] must not overflow.
  auto texel = [size](float t) {
    return static_cast<int>(std::floor(std::clamp(t * size, -2.0f, size + 2)));
  };
  for (size_t piece = 0; piece + 3 * kUvCornerFloats <= c.size();
       piece += 3 * kUvCornerFloats) {
    if (lists != nullptr) {
      const size_t triangle = piece / (3 * kUvCornerFloats);
      if (triangle >= lists->size() || (*lists)[triangle][1] <= 0) continue;
    }
    float u_lo = c[piece], u_hi = u_lo, v_lo = c[piece + 1], v_hi = v_lo;
    for (int k = 1; k < 3; ++k) {
      const float u = c[piece + k * kUvCornerFloats];
      const float v = c[piece + k * kUvCornerFloats + 1];
      u_lo = std::min(u_lo, u);
      u_hi = std::max(u_hi, u);
      v_lo = std::min(v_lo, v);
      v_hi = std::max(v_hi, v);
    }
    g.drawn_boxes.push_back({texel(u_lo) - 1, texel(1.0f - v_hi) - 1,
                             texel(u_hi) + 1, texel(1.0f - v_lo) + 1});
  }
}

void UvMapRenderer::ReadMaps(int size, UvMaps* out) {
  Gl& g = *gl_;
  out->size = size;
  out->normal.width = out->normal.height = size;
  const size_t texels = static_cast<size_t>(size) * size;
  out->normal.pixels.resize(4 * texels);
  out->height.resize(texels);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  if (g.gpu_paths) {
    // On a GPU: both maps into one pixel buffer in CPU memory, which the GPU
    // writes directly, then copied out (a read into pageable memory took
    // 0.7 ms of a flat 1024^2 frame on an H200).
    const size_t bytes = 6 * texels;
    if (g.read_buffer_bytes != bytes) {
      g.read_buffer = gl::MakeBuffer();
      glNamedBufferStorage(g.read_buffer.get(), static_cast<GLsizeiptr>(bytes),
                           nullptr, GL_MAP_READ_BIT | GL_CLIENT_STORAGE_BIT);
      g.read_buffer_bytes = bytes;
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, g.read_buffer.get());
    glNamedFramebufferReadBuffer(g.framebuffer.get(), GL_COLOR_ATTACHMENT0);
    glReadPixels(0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glNamedFramebufferReadBuffer(g.framebuffer.get(), GL_COLOR_ATTACHMENT1);
    glReadPixels(0, 0, size, size, GL_RED, GL_UNSIGNED_SHORT,
                 reinterpret_cast<void*>(4 * texels));
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    const auto* mapped = static_cast<const uint8_t*>(
        glMapNamedBufferRange(g.read_buffer.get(), 0,
                              static_cast<GLsizeiptr>(bytes), GL_MAP_READ_BIT));
    if (mapped == nullptr) return;  // a lost context: CheckHealth says so
    std::memcpy(out->normal.pixels.data(), mapped, 4 * texels);
    std::memcpy(out->height.data(), mapped + 4 * texels, 2 * texels);
    glUnmapNamedBuffer(g.read_buffer.get());
    return;
  }
  glNamedFramebufferReadBuffer(g.framebuffer.get(), GL_COLOR_ATTACHMENT0);
  glReadPixels(0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE,
               out->normal.pixels.data());
  glNamedFramebufferReadBuffer(g.framebuffer.get(), GL_COLOR_ATTACHMENT1);
  glReadPixels(0, 0, size, size, GL_RED, GL_UNSIGNED_SHORT, out->height.data());
}

// The maps' framebuffer, viewport and program, with this frame's uniforms.
void UvMapRenderer::BindMapsProgram(const UvMapOptions& options,
                                    float height_range) {
  Gl& g = *gl_;
  glBindFramebuffer(GL_FRAMEBUFFER, g.framebuffer.get());
  glViewport(0, 0, options.size, options.size);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glUseProgram(g.program.get());
  glUniform1f(g.height_range, height_range);
  glUniform1f(g.green, options.green_down ? -1.0f : 1.0f);
  glUniform1f(g.size_uniform, static_cast<float>(options.size));
  glBindVertexArray(g.vao.get());
}

absl::Status UvMapRenderer::Render(const RenderMesh& given_mesh,
                                   const FrameWrinkles* wrinkles,
                                   const UvMapOptions& options, UvMaps* out) {
  if (wrinkles != nullptr && wrinkles->range_offsets.empty())
    wrinkles = nullptr;
  CREASE_RETURN_IF_ERROR(ValidateInputs(given_mesh, wrinkles, options));
  auto last = std::chrono::steady_clock::now();
  UvMapPhaseTimes times;
  const auto lap = [&last](double* us) {
    const auto now = std::chrono::steady_clock::now();
    *us = std::chrono::duration<double, std::micro>(now - last).count();
    last = now;
  };
  RenderMesh mesh = given_mesh;
  mesh.welded = WeldedIdsOr(mesh.positions, mesh.welded, &gl_->welded);
  CREASE_RETURN_IF_ERROR(gpu_->MakeCurrent());
  CREASE_RETURN_IF_ERROR(PrepareTarget(options.size));
  Gl& g = *gl_;
  // The corners' normals and tangents on the helper while this thread
  // restores the base and lists the wrinkles. They feed a base made anew
  // (which draws the whole corners buffer) and the pieces; a flat frame on a
  // kept base needs neither.
  UvMapBase* const found = FindBase(mesh, options);
  std::optional<HelperJob> corners;
  if (found == nullptr || wrinkles != nullptr) {
    corners.emplace(&g.helper, [this, &mesh] { MakeCorners(mesh); });
  }
  if (found == nullptr) {
    corners->Wait();
    g.corners_buffer.Upload(g.corners);
  }
  const float height_range =
      options.height_range > 0.0f
          ? options.height_range
          : (wrinkles != nullptr ? kDefaultHeightRangeOfMinWidth *
                                       static_cast<float>(wrinkles->min_width)
                                 : 1.0f);
  BindMapsProgram(options, height_range);
  // `out` is the base's read-back scratch: overwritten by ReadMaps below.
  PrepareBase(found, mesh, options, out);
  lap(&times.setup_us);
  CREASE_ASSIGN_OR_RETURN(const float reach,
                          UploadWrinkles(mesh, wrinkles, options.size));
  lap(&times.lists_us);
  if (corners) corners->Wait();  // the pieces are cut from the corners
  lap(&times.corners_wait_us);
  glUniform1f(g.reach, reach);
  if (g.gpu_paths) {
    lap(&times.pieces_us);  // none
    if (wrinkles != nullptr) ShadeReached(options, reach, height_range);
  } else {
    FindReachedPieces(options, reach);
    lap(&times.pieces_us);
    DrawReached();
  }
  glBindVertexArray(0);
  lap(&times.draw_us);
  ReadMaps(options.size, out);
  out->height_range = height_range;
  out->height_zero = kHeightZero;
  lap(&times.read_us);
  if (g.gpu_paths) {
    if (wrinkles != nullptr) RefillAroundReachedTriangles(out);
  } else {
    RefillAroundPieces(out);
  }
  lap(&times.refill_us);
  times_ = times;
  return absl::OkStatus();
}

}  // namespace crease::renderer
