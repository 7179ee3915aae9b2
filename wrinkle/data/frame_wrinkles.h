#ifndef CREASE_WRINKLE_DATA_FRAME_WRINKLES_H_
#define CREASE_WRINKLE_DATA_FRAME_WRINKLES_H_

// One frame's wrinkles as plain data: everything a renderer needs to draw
// them, with no reference to the Session, tracker or solver that made them.
// The server fills it from its tracker (WrinkleTracker::ExportFrame). The
// points of each wrinkle are exactly a FrameResult's Wrinkle (points, widths,
// heights), so a client holding the mesh fills it too: the points from the
// messages, the per-triangle lists (not in the protocol) by
// ListTrianglesReached.

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace crease {

// A sample of a wrinkle's refined centre line.
struct RefinedPoint {
  Eigen::Vector3d position;
  double width = 0;   // L: full wrinkle width at this point
  double height = 0;  // h: bulge height at this point
};

// The cross-section's support over the fold's width, sqrt(3): the ridge spans
// the width L and the shoulders' valleys lie beyond it, out to sqrt(3) L / 2
// from the centre line (wrinkle/data/profile_shared.h). Whatever draws or
// lists a wrinkle reaches this far.
inline constexpr double kSupportPerWidth = 1.7320508075688772;
inline double SupportWidth(const RefinedPoint& r) {
  return kSupportPerWidth * r.width;
}

// Path segments [first_segment, last_segment] of one wrinkle that may reach
// one triangle.
struct TriangleWrinkleRange {
  int32_t wrinkle;  // index into the frame's wrinkle list
  int32_t first_segment;
  int32_t last_segment;
};

struct FrameWrinkles {
  // Refined points of every wrinkle, wrinkle after wrinkle: wrinkle w owns
  // points[point_offsets[w] .. point_offsets[w + 1]).
  std::vector<RefinedPoint> points;
  std::vector<int32_t> point_offsets;  // num_wrinkles() + 1 entries
  // Per wrinkle, the segments of its coarse path: segment s owns its refined
  // points [s k, (s + 1) k] with k = (points - 1) / segments (at least 1).
  std::vector<int32_t> segments;
  // Per triangle f, the wrinkles that may reach it (CSR):
  // ranges[range_offsets[f] .. range_offsets[f + 1]). Empty: no lists (a
  // session that has seen no frame), nothing to draw.
  std::vector<int32_t> range_offsets;
  std::vector<TriangleWrinkleRange> ranges;
  // L_min, the narrowest width a wrinkle can have: the tessellation samples
  // wrinkles by edges of 3/8 of it.
  double min_width = 0;

  int num_wrinkles() const { return static_cast<int>(segments.size()); }
  absl::Span<const RefinedPoint> refined(int w) const {
    return absl::MakeConstSpan(points).subspan(
        point_offsets[w], point_offsets[w + 1] - point_offsets[w]);
  }
  // Refined points per path segment of wrinkle w (k above).
  int32_t samples_per_segment(int w) const {
    const int32_t n = point_offsets[w + 1] - point_offsets[w];
    return std::max<int32_t>(1, (n - 1) / std::max<int32_t>(1, segments[w]));
  }
  // Empties every list, keeping their storage for the next frame.
  void Clear();
};

// Refined points far denser than the wrinkle is wide (a fine mesh's short
// path segments, each sampled as often as a coarse one's) are drawn thinned:
// per wrinkle, every 2nd or 4th point (a power of two dividing its points per
// path segment, so ranges of path segments still map onto points; the last
// point always kept) when no point skipped lies farther than `tolerance`
// times the wrinkle's narrowest width from the chord that replaces it. The
// renderer and WrinkleLookup draw the same thinned points, so the lookups
// walk fewer segments (docs/algorithm.md, "Thinned points"). `out`'s
// storage is reused.
inline constexpr double kThinningTolerance = 0.05;
void ThinRefinedPoints(const FrameWrinkles& in, double tolerance,
                       FrameWrinkles* out);

// The bisector normal at refined point i (Eq. 7.1's s, which bounds the
// projection's cells): the mean of the unit directions to the nearest distinct
// points before and after (a path through a mesh vertex has zero-length
// segments, whose points share this normal); at the ends, the end segment's
// direction; at an exact reversal, the way on. Unit, or zero for a path of
// one distinct point. The renderer uploads it; the CPU lookup uses the same.
Eigen::Vector3d WrinkleBisector(absl::Span<const RefinedPoint> refined,
                                size_t i);

// Fills the per-triangle lists of `wrinkles`, whose points, point_offsets and
// segments are set, for this mesh (xyz per vertex): what a client does with a
// FrameResult, whose Wrinkle messages carry the points (one segment per
// refined segment will do) but no lists. A wrinkle is listed on a triangle
// when the triangle's bounding sphere comes within reach of one of its
// segments (half the segment's wider end, the profile's half width) and the
// range spans the first to the last such segment. Brute force over wrinkle
// segments x triangles, and conservative by distance alone: unlike the
// tracker's lists, which grow over neighbouring triangles, a wrinkle may also
// be listed on a separate part of the surface within half a width (two legs
// touching). A min_width that is not positive (a Start that left it automatic)
// becomes the narrowest point's width. Storage is reused.
void ListTrianglesReached(absl::Span<const float> positions,
                          absl::Span<const std::array<int32_t, 3>> triangles,
                          FrameWrinkles* wrinkles);

// OK when `wrinkles` is consistent and its lists are for `num_triangles`
// triangles (or empty): offsets start at 0, never decrease and end at their
// list's size; every range names a wrinkle and segments it has; points are
// finite with non-negative widths and heights; min_width is positive when
// there are points.
// InvalidArgument naming the first fault otherwise.
absl::Status ValidateFrameWrinkles(const FrameWrinkles& wrinkles,
                                   size_t num_triangles);

}  // namespace crease

#endif  // CREASE_WRINKLE_DATA_FRAME_WRINKLES_H_
