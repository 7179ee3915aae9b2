#ifndef CREASE_RENDERER_FRAME_DATA_H_
#define CREASE_RENDERER_FRAME_DATA_H_

// The CPU half of a frame's GPU data, kept apart from GL so it can be tested
// without a context: smooth normals and the wrinkle buffers the tessellation
// and fragment stages read (shaders/wrinkle_field.glsl: std430 storage
// buffers and buffer textures).

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "wrinkle/data/frame_wrinkles.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::renderer {

// One frame's mesh as the renderer reads it (borrowed).
struct RenderMesh {
  absl::Span<const float> positions;  // xyz per vertex
  absl::Span<const io::Triangle> triangles;
  // Per vertex, its welded id (below the vertex count), as
  // MeshTopology::weld_map() gives it: vertices with one id share a normal and
  // their edges, so meshes split at UV seams (or given as triangle soups)
  // shade and displace as one surface. FrameRenderer::Render welds by
  // WeldVerticesRelative's default when it is empty; the rest require it.
  absl::Span<const int32_t> welded;
  // Texture coordinates per triangle corner (u v, 6 floats per triangle; v
  // upwards), as io::TriangleMesh::corner_uvs: needed by the UV-space maps
  // (UvMapRenderer) only.
  absl::Span<const float> corner_uvs = {};
  // Whether the triangles, welded, are closed and consistently wound
  // (ClosedAndConsistent), when the caller knows it: a session's topology
  // does not change, so it finds this once; unset: found every frame (for
  // culling), which costs a sort of every edge.
  std::optional<bool> closed_and_consistent = std::nullopt;
};

// InvalidArgument for positions that are not finite xyz triples, triangles
// with vertices out of range, or welded ids (when given) of the wrong count or
// out of range.
absl::Status ValidateRenderMesh(const RenderMesh& mesh);

// `welded` when given, else the vertices welded by WeldVerticesRelative's
// default tolerance into `storage` (which the result then views): what every
// renderer does with a mesh whose caller gave no welding.
absl::Span<const int32_t> WeldedIdsOr(absl::Span<const float> positions,
                                      absl::Span<const int32_t> welded,
                                      std::vector<int32_t>* storage);

// Interleaved position + normal per vertex (6 floats). Normals are area
// weighted and shared by every vertex with the same welded id. Reuses the
// vector's storage from frame to frame.
class SmoothNormals {
 public:
  void Compute(const RenderMesh& mesh);
  const std::vector<float>& interleaved() const { return interleaved_; }

 private:
  std::vector<float> sums_;  // per welded id
  std::vector<float> interleaved_;
};

// Whether a mesh (welded through `welded`) is closed and consistently
// wound: every directed edge once, its reverse once. Outward: positive signed
// volume (counter-clockwise seen from outside). `scratch` is reused.
enum class Closure { kOpen, kClosedOutward, kClosedInward };
Closure ClassifyClosure(const RenderMesh& mesh, std::vector<uint64_t>* scratch);
// ClassifyClosure's topological half: every directed edge of the welded
// triangles once and its reverse once, no triangle with repeated ids. Ids
// must be in range (ValidateRenderMesh).
bool ClosedAndConsistent(absl::Span<const io::Triangle> triangles,
                         absl::Span<const int32_t> welded,
                         std::vector<uint64_t>* scratch);

// Buffers of one frame's wrinkles, laid out as the shaders declare them
// (std430, or RGBA32F texels for the buffer textures).
struct WrinkleBuffers {
  // Binding 0: outer levels of edges (0 1), (1 2), (2 0), then the inner level.
  std::vector<std::array<float, 4>> levels;
  // Binding 1: per triangle [offset, offset + count) into `ranges`, then how
  // many of those (listed first) displace the surface; the rest only bend
  // normals. The fourth is padding.
  std::vector<std::array<int32_t, 4>> triangle_ranges;
  // Binding 2: [first, last] refined points of one wrinkle over one triangle
  // (clipped to the segments that can reach it), then first and last again
  // where they are the wrinkle's own ends, else -1: the lookup falls back to
  // the nearer real end when a point is in no segment's cell.
  std::vector<std::array<int32_t, 4>> ranges;
  // Texture unit 6 (a buffer texture): refined point xyz + the profile's full
  // support (SupportWidth: sqrt(3) times the fold's width).
  std::vector<std::array<float, 4>> points;
  // Texture unit 7: the bisector direction at the point (the mean of its
  // segments' directions; Eq. 7.1's s) + height.
  std::vector<std::array<float, 4>> frames;
  // Binding 5: per range, a sphere (centre, radius) holding every surface
  // point the (clipped) range can lift or a pixel can see it from: its points
  // plus half the widest width plus kFootprintReachPixels.
  std::vector<std::array<float, 4>> range_bounds;
  // Not uploaded: per refined point i, the sphere (centre, radius) around
  // segment i..i+1 holding every point it can lift: the midpoint, half its
  // length plus half its wider end's width (the shaders' reach test, computed
  // there from the points) plus kFootprintReachPixels at its depth. Zero
  // radius after a wrinkle's last point. Clips the ranges.
  std::vector<std::array<float, 4>> segment_bounds;
  int max_level = 1;           // largest inner level
  int drawn_wrinkles = 0;      // wide enough on screen to shade
  int displaced_wrinkles = 0;  // and to displace the surface
  // Edges (welded vertex pairs) of triangles that wrinkles reach, sorted.
  std::vector<uint64_t> wrinkled_edges;
  // Scratch per wrinkle and per refined point, kept so a steady stream of
  // frames does not allocate.
  std::vector<uint8_t> visible;    // per wrinkle: wide enough on screen
  std::vector<uint8_t> displaced;  // per wrinkle: tessellation samples it
  std::vector<float> reach;        // per refined point: the footprint reach
  std::vector<int32_t> representative;  // per welded id: its first vertex
  // The wrinkles as drawn: refined points thinned (kThinningTolerance).
  FrameWrinkles thinned;
};

struct TessellationTarget {
  Eigen::Matrix4f view_projection = Eigen::Matrix4f::Identity();
  int width = 640, height = 480;
  float min_edge_pixels = 4.0f;
  // Level of detail: see LevelOfDetailFade.
  float min_wrinkle_pixels = 1.0f;
  int max_level = 64;  // GL_MAX_TESS_GEN_LEVEL
};

// Level of detail. A wrinkle's height (so its offset and its normal bend) is
// scaled by a smoothstep of its width on screen, from 0 at kFadeStart *
// min_wrinkle_pixels to 1 at min_wrinkle_pixels, per refined point; a wrinkle
// no wider than the start anywhere is left out (its lookups saved) without a
// pop. The shaders filter the rest by the pixel footprint.
inline constexpr float kFadeStart = 0.25f;

// The fragment stage looks a wrinkle up from pixel centres up to half a
// footprint, at most this many pixels, beyond its edge: a filtered wrinkle
// spreads into every pixel its footprint overlaps. The bounds (and so the
// clipped lists) include this much more, at each point's depth.
inline constexpr float kFootprintReachPixels = 1.0f;
float LevelOfDetailFade(float width_pixels, const TessellationTarget& target);

// Fills `out` (storage reused) for `wrinkles` (valid for this mesh: see
// ValidateFrameWrinkles) on this mesh, whose `welded` ids must be set. Its
// points are thinned first (ThinRefinedPoints, kThinningTolerance), as the
// CPU's WrinkleLookup thins them.
// Level of detail, decided per wrinkle (so neighbouring triangles agree) from
// its widest point on screen: at most kFadeStart * min_wrinkle_pixels, left
// out (heights fade per point, see LevelOfDetailFade);
// narrower than 4 min_edge_pixels, drawn by per-pixel normals only (fewer than
// four edges across its width facet the displaced profile: sparser samples
// only add spikes and aliasing); wider, also displaced.
// An edge of a triangle that a displaced wrinkle reaches is tessellated at a
// level from the edge alone (length / (3/8 L_min), capped so no generated edge
// is shorter than min_edge_pixels on screen), in both triangles on it, also
// when the other one has no wrinkles (else a T-junction cracks); all other
// edges keep level 1. Edges are identified by welded ids, so they are shared
// across seams and in soups.
void FillWrinkleBuffers(const RenderMesh& mesh, const FrameWrinkles& wrinkles,
                        const TessellationTarget& target, WrinkleBuffers* out);

// llvmpipe (Mesa 22.3) renders one draw whose tessellator emits more than this
// many vertices as garbage.
inline constexpr int kMaxTessellatedVerticesPerDraw = 65535;

// Patches per draw call: `requested` when positive, else the most that keep a
// draw under kMaxTessellatedVerticesPerDraw at inner levels up to max_level.
int PatchesPerDraw(int max_level, int requested);

// Resets `out` to one frame with no wrinkles (level 1 everywhere).
void ClearWrinkleBuffers(size_t num_triangles, WrinkleBuffers* out);

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_FRAME_DATA_H_
