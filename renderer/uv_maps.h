#ifndef CREASE_RENDERER_UV_MAPS_H_
#define CREASE_RENDERER_UV_MAPS_H_
// The CPU half of the UV-space maps (UvMapRenderer draws them): the tangent
// frames they are expressed in and the options and layout an engine's stock
// material reads (uv_map_dilation.h grows them across UV seams). No GL:
// tested without a context. Conventions in docs/algorithm.md, "UV-space
// maps".

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "image/rgba_image.h"
#include "renderer/frame_data.h"
#include "wrinkle/data/corner_tangents.h"

namespace crease::renderer {

struct UvMapOptions {
  int size = 1024;  // texels per side, 1..4096
  // Green channel: +Y (bitangent up, glTF, Godot, Unity, three.js) when
  // false; -Y (Unreal, DirectX) when true.
  bool green_down = false;
  // Texels grown around every UV island, so bilinear and mip-mapped
  // sampling near a seam reads the island's own values, not the clear.
  int dilate_texels = 4;
  // Heights (model units) the height map's full scale stands for; 0:
  // kDefaultHeightRangeOfMinWidth x the wrinkles' L_min
  // (FrameWrinkles::min_width), fixed for a session.
  float height_range = 0.0f;
  // A triangle a wrinkle reaches is cut into up to this many pieces per edge
  // and only the pieces a wrinkle reaches run the lookup (uv_map_pieces.h);
  // 1 draws whole triangles. Either gives the same maps up to rounding
  // (docs/algorithm.md, "Pieces", says where they may not): a cost knob,
  // 1..64.
  int max_pieces_per_edge = 8;
  // false: every range a reach sphere lets through is listed on a piece with
  // every such segment, whatever the strips and cells
  // (UvMapPieceInputs::prune): the same maps, slower; for tests and
  // benchmarks.
  bool prune_lookups = true;
};

// The height map's stored value for the smooth surface: a ninth of full
// scale, so the shoulders' valleys beside each ridge (at most 0.13 of its
// height deep) are kept, not clamped. Height = (value - kHeightZero) / 65535
// x height_range.
inline constexpr uint16_t kHeightZero = 7282;  // round(65535 / 9)
inline constexpr float kHeightZeroFraction = kHeightZero / 65535.0f;
// The default height_range in L_min: 2 L_min above the surface (every height
// of the bundled sets; heights are at most about a half-width), a quarter
// below.
inline constexpr float kDefaultHeightRangeOfMinWidth = 2.25f;

// One frame's maps, rows top to bottom (the top row is v = 1).
struct UvMaps {
  int size = 0;
  // Tangent-space unit normals, linear RGB = 0.5 n + 0.5 (flat: 128 128 255),
  // alpha 255 where a triangle or the dilation covers the texel, else 0.
  image::RgbaImage normal;
  // Wrinkle height above the smooth surface: (value - height_zero) / 65535 x
  // height_range model units.
  std::vector<uint16_t> height;
  float height_range = 0.0f;  // model units over the full scale
  uint16_t height_zero = kHeightZero;
};

// Per triangle corner, the unit tangent along +u in the tangent plane of the
// smooth normal (from `interleaved`, SmoothNormals' position + normal per
// vertex) and the bitangent's sign w (bitangent = w cross(n, t), along +v):
// 4 floats per corner. Corners that share a welded vertex, the same UV and
// the same handedness share one tangent, accumulated over their triangles
// weighted by the corner's angle, then made orthogonal to the normal
// (Gram-Schmidt): MikkTSpace's rule without its degenerate-case handling.
// (crease::CornerTangents, wrinkle/data/corner_tangents.h, on the render
// mesh.) The glTF export carries these as TANGENT, so engines need not agree
// with MikkTSpace to the bit. Corners of triangles with degenerate UVs get a
// tangent perpendicular to the normal (any), w = 1. `out` storage is reused.
void CornerTangents(const RenderMesh& mesh,
                    const std::vector<float>& interleaved,
                    std::vector<float>* out);

using crease::TangentScratch;  // wrinkle/data/corner_tangents.h

// The same, reusing `scratch` (one per stream of frames).
void CornerTangents(const RenderMesh& mesh,
                    const std::vector<float>& interleaved,
                    std::vector<float>* out, TangentScratch* scratch);

// InvalidArgument unless `corner_uvs` holds 6 finite floats per triangle.
absl::Status ValidateCornerUvs(absl::Span<const float> corner_uvs,
                               size_t num_triangles);

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_UV_MAPS_H_
