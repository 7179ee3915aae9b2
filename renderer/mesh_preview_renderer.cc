#include "renderer/mesh_preview_renderer.h"

#include <Eigen/Core>
#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "renderer/frame_data.h"
#include "renderer/gl/gl_objects.h"
#include "renderer/gl/offscreen_target.h"
#include "renderer/gl/scene_lighting.h"
#include "renderer/gl/shader_library.h"
#include "renderer/gl/stream_buffer.h"
#include "renderer/uv_maps.h"
#include "wrinkle/data/weld.h"

namespace crease::shaders {
extern const char kShader_mesh_preview_vert[];
extern const char kShader_mesh_preview_frag[];
}  // namespace crease::shaders

namespace crease::renderer {
namespace {

// Floats per corner: position, normal, uv, tangent + sign.
constexpr int kCornerFloats = 12;

// InvalidArgument unless `values` holds `per_item` finite floats per item.
absl::Status CheckFloats(absl::Span<const float> values, size_t items,
                         int per_item, const char* field, const char* item) {
  if (values.size() != per_item * items) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: %d floats, need %d per %s = %d", field,
                        values.size(), per_item, item, per_item * items));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: %s %d is not finite", field, item, i / per_item));
    }
  }
  return absl::OkStatus();
}

}  // namespace

struct MeshPreviewRenderer::Gl {
  gl::Program program;
  gl::VertexArray vao;
  gl::StreamBuffer corners_buffer, overlay_buffer;
  gl::Texture normal_map;
  int map_width = 0, map_height = 0;
  std::optional<gl::OffscreenTarget> target;
  gl::LightingUniforms lighting;
  GLint view_projection = -1, normal_mapped = -1, green = -1, overlay = -1,
        overlay_color = -1;
  float max_anisotropy = 1.0f;
  SmoothNormals smooth;
  std::vector<float> interleaved, tangents, corners, overlay_corners;
  TangentScratch tangent_scratch;
  std::vector<int32_t> welded;
  std::vector<uint64_t> edge_scratch;
};

MeshPreviewRenderer::MeshPreviewRenderer(GpuContext* gpu)
    : gpu_(gpu), gl_(std::make_unique<Gl>()) {}

MeshPreviewRenderer::~MeshPreviewRenderer() {
  if (gpu_ != nullptr) (void)gpu_->MakeCurrent();
}

absl::StatusOr<std::unique_ptr<MeshPreviewRenderer>>
MeshPreviewRenderer::Create(GpuContext* gpu) {
  if (gpu == nullptr)
    return absl::InvalidArgumentError("MeshPreviewRenderer: no GpuContext");
  CREASE_RETURN_IF_ERROR(gpu->MakeCurrent());
  std::unique_ptr<MeshPreviewRenderer> r(new MeshPreviewRenderer(gpu));
  CREASE_ASSIGN_OR_RETURN(
      gl::Program program,
      gl::LinkProgram(
          {{GL_VERTEX_SHADER, "mesh_preview.vert",
            shaders::kShader_mesh_preview_vert},
           {GL_FRAGMENT_SHADER, "mesh_preview.frag",
            gl::WithClothLighting(shaders::kShader_mesh_preview_frag)}}));
  Gl& g = *r->gl_;
  g.program = std::move(program);
  const GLuint p = g.program.get();
  g.lighting = gl::LightingUniforms(p);
  g.view_projection = glGetUniformLocation(p, "u_view_projection");
  g.normal_mapped = glGetUniformLocation(p, "u_normal_mapped");
  g.green = glGetUniformLocation(p, "u_green");
  g.overlay = glGetUniformLocation(p, "u_overlay");
  g.overlay_color = glGetUniformLocation(p, "u_overlay_color");
  if (epoxy_gl_version() >= 46 ||
      epoxy_has_gl_extension("GL_EXT_texture_filter_anisotropic") ||
      epoxy_has_gl_extension("GL_ARB_texture_filter_anisotropic")) {
    // A stock material's sampler: up to 16x where the GL allows it.
    glGetFloatv(GL_MAX_TEXTURE_MAX_ANISOTROPY, &g.max_anisotropy);
    g.max_anisotropy = std::clamp(g.max_anisotropy, 1.0f, 16.0f);
  }
  g.vao = gl::MakeVertexArray();
  const GLuint vao = g.vao.get();
  gl::SetFloatAttributes(vao, {{3, 0}, {3, 3}, {2, 6}, {4, 8}});
  return r;
}

absl::Status MeshPreviewRenderer::Validate(
    const PreviewMesh& mesh, const PreviewOptions& preview) const {
  CREASE_RETURN_IF_ERROR(
      ValidateRenderMesh({mesh.positions, mesh.triangles, mesh.welded}));
  const size_t num_vertices = mesh.positions.size() / 3;
  const size_t num_triangles = mesh.triangles.size();
  if (!mesh.normals.empty()) {
    CREASE_RETURN_IF_ERROR(
        CheckFloats(mesh.normals, num_vertices, 3, "normals", "vertex"));
  }
  if (!mesh.corner_uvs.empty() || preview.normal_map != nullptr) {
    CREASE_RETURN_IF_ERROR(ValidateCornerUvs(mesh.corner_uvs, num_triangles));
  }
  if (!mesh.corner_tangents.empty()) {
    CREASE_RETURN_IF_ERROR(CheckFloats(mesh.corner_tangents, 3 * num_triangles,
                                       4, "corner_tangents", "corner"));
  }
  if (const image::RgbaImage* map = preview.normal_map; map != nullptr) {
    if (map->width < 1 || map->height < 1 || map->width > gl::kMaxImageSide ||
        map->height > gl::kMaxImageSide ||
        map->pixels.size() != 4 * static_cast<size_t>(map->width) *
                                  static_cast<size_t>(map->height)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "normal_map: %dx%d with %d bytes: need 1..%d texels a side and 4 "
          "bytes per texel",
          map->width, map->height, map->pixels.size(), gl::kMaxImageSide));
    }
  }
  for (size_t i = 0; i < preview.overlay_edges.size(); ++i) {
    for (int32_t v : preview.overlay_edges[i]) {
      if (v < 0 || static_cast<size_t>(v) >= num_vertices) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "overlay_edges: edge %d has vertex %d, not below the vertex "
            "count %d",
            i, v, num_vertices));
      }
    }
  }
  return absl::OkStatus();
}

void MeshPreviewRenderer::UploadCorners(const PreviewMesh& mesh,
                                        bool normal_mapped) {
  Gl& g = *gl_;
  const RenderMesh render_mesh{mesh.positions, mesh.triangles, mesh.welded,
                               mesh.corner_uvs};
  // Position + normal per vertex, as SmoothNormals lays them out.
  if (mesh.normals.empty()) {
    // Unit, as the evaluation stage hands the corners' normals on.
    g.smooth.Compute(render_mesh);
    g.interleaved = g.smooth.interleaved();
    for (size_t i = 3; i < g.interleaved.size(); i += 6) {
      Eigen::Vector3f::Map(&g.interleaved[i]).normalize();
    }
  } else {
    const size_t n = mesh.positions.size() / 3;
    g.interleaved.resize(6 * n);
    for (size_t v = 0; v < n; ++v) {
      std::copy_n(&mesh.positions[3 * v], 3, &g.interleaved[6 * v]);
      std::copy_n(&mesh.normals[3 * v], 3, &g.interleaved[6 * v + 3]);
    }
  }
  absl::Span<const float> tangents = mesh.corner_tangents;
  if (normal_mapped && tangents.empty()) {
    CornerTangents(render_mesh, g.interleaved, &g.tangents, &g.tangent_scratch);
    tangents = g.tangents;
  }
  const size_t num_corners = 3 * mesh.triangles.size();
  g.corners.assign(num_corners * kCornerFloats, 0.0f);
  for (size_t corner = 0; corner < num_corners; ++corner) {
    float* out = &g.corners[corner * kCornerFloats];
    const int32_t v = mesh.triangles[corner / 3][corner % 3];
    std::copy_n(&g.interleaved[6 * static_cast<size_t>(v)], 6, out);
    if (!mesh.corner_uvs.empty())
      std::copy_n(&mesh.corner_uvs[2 * corner], 2, out + 6);
    if (!tangents.empty()) std::copy_n(&tangents[4 * corner], 4, out + 8);
  }
  g.corners_buffer.Upload(g.corners);
}

void MeshPreviewRenderer::UploadNormalMap(const image::RgbaImage& map) {
  Gl& g = *gl_;
  if (g.map_width != map.width || g.map_height != map.height) {
    GLuint name = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &name);
    g.normal_map = gl::Texture(name);
    const int levels =
        std::bit_width(static_cast<unsigned>(std::max(map.width, map.height)));
    // Linear RGBA8, not sRGB: a normal map holds vectors, not colours.
    glTextureStorage2D(name, levels, GL_RGBA8, map.width, map.height);
    glTextureParameteri(name, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTextureParameteri(name, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTextureParameteri(name, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTextureParameteri(name, GL_TEXTURE_WRAP_T, GL_REPEAT);
    if (g.max_anisotropy > 1.0f) {
      glTextureParameterf(name, GL_TEXTURE_MAX_ANISOTROPY, g.max_anisotropy);
    }
    g.map_width = map.width;
    g.map_height = map.height;
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  // Row 0 (the image's top, v = 1) goes to t = 0: the shader samples at
  // 1 - v, as glTF does.
  glTextureSubImage2D(g.normal_map.get(), 0, 0, 0, map.width, map.height,
                      GL_RGBA, GL_UNSIGNED_BYTE, map.pixels.data());
  glGenerateTextureMipmap(g.normal_map.get());
  glBindTextureUnit(0, g.normal_map.get());
}

void MeshPreviewRenderer::UploadOverlay(const PreviewMesh& mesh,
                                        const PreviewOptions& preview) {
  Gl& g = *gl_;
  g.overlay_corners.assign(2 * preview.overlay_edges.size() * kCornerFloats,
                           0.0f);
  float* out = g.overlay_corners.data();
  for (const std::array<int32_t, 2>& edge : preview.overlay_edges) {
    for (int32_t v : edge) {
      std::copy_n(&mesh.positions[3 * static_cast<size_t>(v)], 3, out);
      out += kCornerFloats;
    }
  }
  g.overlay_buffer.Upload(g.overlay_corners);
}

void MeshPreviewRenderer::Draw(const PreviewMesh& mesh,
                               const PreviewOptions& preview) {
  Gl& g = *gl_;
  const GLuint vao = g.vao.get();
  glBindVertexArray(vao);
  glVertexArrayVertexBuffer(vao, 0, g.corners_buffer.get(), 0,
                            kCornerFloats * sizeof(float));
  // The surface a little behind its edges, so lines on it pass the depth
  // test.
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(1.0f, 1.0f);
  glDrawArrays(GL_TRIANGLES, 0,
               3 * static_cast<GLsizei>(mesh.triangles.size()));
  glDisable(GL_POLYGON_OFFSET_FILL);
  if (!preview.overlay_edges.empty()) {
    UploadOverlay(mesh, preview);
    glVertexArrayVertexBuffer(vao, 0, g.overlay_buffer.get(), 0,
                              kCornerFloats * sizeof(float));
    glUniform1i(g.overlay, 1);
    glUniform4fv(g.overlay_color, 1, preview.overlay_color.data());
    glDepthFunc(GL_LEQUAL);
    glDrawArrays(GL_LINES, 0,
                 2 * static_cast<GLsizei>(preview.overlay_edges.size()));
    glDepthFunc(GL_LESS);
  }
  glBindVertexArray(0);
}

absl::StatusOr<image::RgbaImage> MeshPreviewRenderer::Render(
    const PreviewMesh& given_mesh, const RenderOptions& options,
    const PreviewOptions& preview) {
  CREASE_RETURN_IF_ERROR(Validate(given_mesh, preview));
  PreviewMesh mesh = given_mesh;
  mesh.welded = WeldedIdsOr(mesh.positions, mesh.welded, &gl_->welded);
  CREASE_ASSIGN_OR_RETURN(const gl::SceneView view,
                          gl::SceneViewFor(mesh.positions, options));
  CREASE_RETURN_IF_ERROR(gpu_->MakeCurrent());
  CREASE_RETURN_IF_ERROR(gl::EnsureOffscreenTarget(
      options.width, options.height, options.samples, &gl_->target));
  Gl& g = *gl_;
  const bool normal_mapped = preview.normal_map != nullptr;
  UploadCorners(mesh, normal_mapped);
  if (normal_mapped) UploadNormalMap(*preview.normal_map);
  g.target->Bind();
  g.target->Clear(options.background);
  glEnable(GL_DEPTH_TEST);
  gl::SetFaceCulling({mesh.positions, mesh.triangles, mesh.welded},
                     options.culling, &g.edge_scratch);
  glUseProgram(g.program.get());
  glUniformMatrix4fv(g.view_projection, 1, GL_FALSE,
                     view.view_projection.data());
  g.lighting.Set(view, options.base_color);
  glUniform1i(g.normal_mapped, normal_mapped ? 1 : 0);
  glUniform1f(g.green, preview.green_down ? -1.0f : 1.0f);
  glUniform1i(g.overlay, 0);
  Draw(mesh, preview);
  return g.target->Read();
}

}  // namespace crease::renderer
