#ifndef CREASE_RENDERER_MESH_PREVIEW_RENDERER_H_
#define CREASE_RENDERER_MESH_PREVIEW_RENDERER_H_

#include <array>
#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "image/rgba_image.h"
#include "renderer/frame_renderer.h"
#include "renderer/gpu_context.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::renderer {

// A triangle mesh as an engine draws it (borrowed): what Crease hands an
// engine (the coarse mesh with its normal map, or the wrinkled mesh with its
// own normals), without tessellation or wrinkle lookups.
struct PreviewMesh {
  absl::Span<const float> positions;  // xyz per vertex
  absl::Span<const io::Triangle> triangles;
  // Per vertex, a normal (xyz, any positive length: interpolated, then
  // normalised per pixel). Empty: the wrinkle renderer's smooth normals (the
  // area-weighted sums over welded vertices, SmoothNormals), normalised.
  absl::Span<const float> normals = {};
  // Welded ids as RenderMesh::welded (smooth normals, tangents, culling);
  // empty: welded by WeldVerticesRelative's default.
  absl::Span<const int32_t> welded = {};
  // u v per triangle corner (6 floats per triangle; v upwards): needed with
  // a normal map.
  absl::Span<const float> corner_uvs = {};
  // Per corner a unit tangent and the bitangent's sign (4 floats per
  // corner, as CornerTangents gives them and glTF's TANGENT carries). Empty:
  // CornerTangents of these normals (with a normal map).
  absl::Span<const float> corner_tangents = {};
};

struct PreviewOptions {
  // A tangent-space normal map (UvMaps::normal's encoding and row order: RGB
  // = 0.5 n + 0.5, rows top to bottom, the top row v = 1), sampled as a stock
  // material does: mip-mapped, trilinear, anisotropic where the GL has it,
  // repeating. Null: the vertex normals alone.
  const image::RgbaImage* normal_map = nullptr;
  bool green_down = false;  // the map's green is -Y (Unreal)
  // Edges (vertex id pairs) drawn over the surface as one-pixel lines in
  // overlay_color, hidden where the surface is in front (to mark UV seams,
  // say).
  absl::Span<const std::array<int32_t, 2>> overlay_edges;
  std::array<float, 4> overlay_color = {1.0f, 0.0f, 1.0f, 1.0f};
};

// Draws a plain triangle mesh with the same camera, framing, culling and
// lighting as FrameRenderer (shaders/cloth_lighting.glsl), shaded by its
// vertex normals or by a tangent-space normal map: how an engine's stock
// material shows Crease's engine outputs, so tests can hold those to the
// wrinkle renderer (docs/algorithm.md, "Engine outputs against the
// renderer"). Owns its GL objects; use it on the thread where its GpuContext
// is current.
class MeshPreviewRenderer {
 public:
  static absl::StatusOr<std::unique_ptr<MeshPreviewRenderer>> Create(
      GpuContext* gpu);
  ~MeshPreviewRenderer();

  // `options`: size, samples, background, base colour, camera (unset:
  // AutoFrame on these positions) and culling as FrameRenderer takes them;
  // the wrinkle fields are ignored. InvalidArgument for a bad mesh or welding
  // (as FrameRenderer::Render), normals, UVs or tangents of the wrong length
  // or not finite, a normal map without valid UVs or of a wrong size, overlay
  // edges out of range, or an unsupported image size.
  absl::StatusOr<image::RgbaImage> Render(const PreviewMesh& mesh,
                                          const RenderOptions& options,
                                          const PreviewOptions& preview = {});

 private:
  struct Gl;
  explicit MeshPreviewRenderer(GpuContext* gpu);
  absl::Status Validate(const PreviewMesh& mesh,
                        const PreviewOptions& preview) const;
  // The corners' vertex data; `mesh.welded` must be set.
  void UploadCorners(const PreviewMesh& mesh, bool normal_mapped);
  void UploadNormalMap(const image::RgbaImage& map);
  void UploadOverlay(const PreviewMesh& mesh, const PreviewOptions& preview);
  void Draw(const PreviewMesh& mesh, const PreviewOptions& preview);

  GpuContext* gpu_;
  std::unique_ptr<Gl> gl_;
};

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_MESH_PREVIEW_RENDERER_H_
