#ifndef CREASE_RENDERER_UV_MAP_PIECES_H_
#define CREASE_RENDERER_UV_MAP_PIECES_H_

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <vector>

#include "renderer/frame_data.h"

namespace crease::renderer {

// Floats per corner the UV-map shaders read: uv, position, normal, tangent
// + bitangent sign, and an index into the wrinkle lists (an int's bits): the
// triangle's for the whole-mesh draw, the piece's for ReachedPieces.
inline constexpr int kUvCornerFloats = 13;

// Where the UV maps' wrinkle lookups are needed. A triangle some wrinkle
// reaches is cut into n x n pieces (n up to `max_pieces_per_edge`, so a piece
// is about two of its widest wrinkle's widths across); a piece no wrinkle can
// reach is dropped (its texels keep the flat base) and each kept piece lists
// only the wrinkles that reach it, each clipped to the segments that do and
// whose projection cells it can meet. The pieces' corners are the triangle's
// corners interpolated, and every attribute the shader reads varies linearly
// over the triangle, so a texel gets the same inputs (derivatives included)
// from its piece as from the whole triangle, and the segments left out are
// ones the shader's reach or cell test would skip: the maps do not change (up
// to rounding; docs/algorithm.md, "Pieces", gives the two edge cases), the
// lookups walk fewer texels and fewer segments.
struct UvMapPieceInputs {
  // kUvCornerFloats per corner, 3 corners per triangle in order.
  const std::vector<float>* corners = nullptr;
  const WrinkleBuffers* wrinkles = nullptr;
  int size = 0;  // texels per side of the maps
  // The shader's footprint margin cap (u_reach), in model units: the
  // segments' reach spheres already include it.
  float reach = 0.0f;
  int max_pieces_per_edge = 8;  // 1: whole triangles
  // false: ranges kept by their reach spheres alone (no strips, no cells),
  // the plain rule the tests hold the default to.
  bool prune = true;
};

// The fourth entry of a list (uv_map.frag). A triangle cut into pieces is
// drawn whole, once, and each texel takes the list of the piece its centre
// lies in: pieces drawn as triangles of their own have corners interpolated
// along the triangle's edges, which the rasteriser, snapping them, could
// give a texel centre on an edge that the whole triangle did not cover (or
// the other way), and each drawn piece is a draw llvmpipe pays for.
enum class PieceRole : int32_t {
  kWhole = 0,  // a list of ranges, as WrinkleBuffers' triangle_ranges
  // A cut triangle's header: [first cell, n, triangle, kGrid]. Its 2 n^2
  // cells follow it: cell 2 (j n + i) + upper is grid piece (i, j) (lower,
  // or upper), a list of ranges, empty where no wrinkle reaches the piece.
  kGrid = 1,
};

// The kept pieces, as the shader's bindings 1, 2 and 5 take them (points and
// frames stay the frame's).
struct UvMapPieces {
  std::vector<float> corners;  // kUvCornerFloats each, 3 a piece
  // Per piece: offset into `ranges`, count (WrinkleBuffers' triangle_ranges
  // layout), the triangle it was cut from (the shader computes a texel's
  // inputs from that triangle's corners), its PieceRole (see kGrid for a cut
  // triangle's header and cells).
  std::vector<std::array<int32_t, 4>> lists;
  std::vector<std::array<int32_t, 4>> ranges;      // as WrinkleBuffers'
  std::vector<std::array<float, 4>> range_bounds;  // as WrinkleBuffers'
};

// Appends `tail` to `head` as if one Find had listed both: tail's lists,
// ranges and piece indices are moved past head's. Does not allocate once
// head's storage has grown.
void AppendPieces(const UvMapPieces& tail, UvMapPieces* head);

// The triangle where the first of two finders should stop so that both list
// about as many ranges (WrinkleBuffers::triangle_ranges' counts): the pieces'
// cost follows those.
size_t HalfOfTheRanges(const WrinkleBuffers& w);

// Finds the pieces; keeps its scratch between frames.
class ReachedPieceFinder {
 public:
  // Fills `out` (cleared first; storage reused).
  void Find(const UvMapPieceInputs& in, UvMapPieces* out);
  // The same for triangles [begin, end) only (clamped to the mesh): Find's
  // pieces of those triangles, indexed from 0. AppendPieces joins the runs
  // of consecutive ranges into Find's own result, so separate finders can
  // share the work.
  void FindIn(const UvMapPieceInputs& in, size_t begin, size_t end,
              UvMapPieces* out);

 private:
  int32_t source_triangle_ = 0;  // the triangle AddPieces is cutting
  // While cutting a triangle: the index of its first cell in out->lists,
  // and the cell AddPiece fills; -1: an uncut triangle (a piece of its own).
  int32_t grid_cells_ = -1;
  int32_t cell_ = 0;
  // One segment (or a lone point) of the triangle's ranges and its reach
  // sphere.
  struct Sphere {
    std::array<float, 4> bounds;
    // The segment's reach across its line (bounds' radius less half its
    // length): half its wider end's width plus the footprint reach.
    float across;
    int32_t range;  // index into WrinkleBuffers::ranges
    int32_t point;  // the segment's first point
  };
  // The spheres of ranges [first, first + count) into spheres_; returns the
  // widest width among their points.
  float CollectSpheres(const WrinkleBuffers& w, int first, int count,
                       float reach);
  void AddPieces(const float* const c[3], int n, float half_footprint,
                 const WrinkleBuffers& w, UvMapPieces* out);
  // Whether segment s's strip (uv_map_pieces.cc) meets triangle `piece`.
  static bool StripMeets(const Sphere& s, const WrinkleBuffers& w, float slack,
                         const std::array<const Eigen::Vector3f*, 3>& piece);
  // Whether some point of triangle `piece` can lie in segment i's cell;
  // `scale`: the distances its products are made of, for the slack.
  static bool CellMayMeet(const WrinkleBuffers& w, int32_t i,
                          const std::array<const Eigen::Vector3f*, 3>& piece,
                          float scale);
  // Whether segment s holds a wrinkle's own end, or is a lone point.
  static bool HoldsEnd(const Sphere& s, const WrinkleBuffers& w);
  // Appends a piece (grid corners ij of an n x n grid over c) with the
  // clipped ranges of every sphere that reaches it; nothing if none does.
  void AddPiece(const float* const c[3], int n,
                const std::array<std::array<int, 2>, 3>& ij,
                float half_footprint, const WrinkleBuffers& w,
                UvMapPieces* out);

  // The ranges of the spheres that reach triangle `piece` (centre, radius
  // around it), clipped, appended to out->ranges and range_bounds.
  void ListPieceRanges(const std::array<const Eigen::Vector3f*, 3>& piece,
                       const Eigen::Vector3f& centre, float radius,
                       float half_footprint, const WrinkleBuffers& w,
                       UvMapPieces* out);

  std::vector<Sphere> spheres_;
  std::vector<Eigen::Vector3f> grid_;
  bool prune_ = true;  // UvMapPieceInputs::prune of the Find in work
};

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_UV_MAP_PIECES_H_
