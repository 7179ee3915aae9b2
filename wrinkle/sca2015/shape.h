#ifndef CREASE_WRINKLE_SCA2015_SHAPE_H_
#define CREASE_WRINKLE_SCA2015_SHAPE_H_

#include <Eigen/Core>
#include <cstdint>
#include <numbers>
#include <vector>

#include "wrinkle/core/surface.h"
#include "wrinkle/data/frame_wrinkles.h"
#include "wrinkle/sca2015/wrinkle_path.h"

namespace crease {

// Height of a circular-arc cross-section of arc length s and chord (width) L,
// per unit width: sin(phi) / phi = L / s gives the half-angle (Newton, once per
// sample), h / L = tan(phi / 2) / 2. Sampled uniformly in q = sqrt(1 - L / s),
// in which h / L is smooth (near L = s, phi ~ sqrt(6) q), over L / s in [1 /
// pi, 1], so a lookup is one index computation and a linear interpolation.
class ArcHeightTable {
 public:
  explicit ArcHeightTable(int samples = 512);
  // h / L for a width-to-arc ratio, clamped to [1 / pi, 1] (0 at 1: a flat
  // arc).
  double HeightPerWidth(double width_over_arc) const;
  double max_half_angle() const { return phi_max_; }

 private:
  double phi_max_;
  double q_max_;
  double samples_per_q_;  // (samples - 1) / q_max_: a lookup's index per q
  std::vector<double> height_per_width_;  // at q = q_max * i / (samples - 1)
};

struct WrinkleShape {
  double max_compression = 1;  // largest c over the path's triangles
  double mid_width = 0;        // L at the arc-length midpoint
  double mid_height = 0;
  double length = 0;  // of the refined polyline
  // Cubic Bezier samples: segment i of the path owns refined points
  // [i * samples_per_segment, (i + 1) * samples_per_segment].
  std::vector<RefinedPoint> refined;
};

// Width at the middle: L = clamp(s / c_max, L_min, L_max) with s = L_max = pi
// L_min.
double MidWidth(double max_compression, double min_width);

// How far a fold holding its band's slack may widen (FoldAtMiddle).
struct FoldLimits {
  // In L_min: pi keeps every fold inside the thesis's range [L_min, L_max]
  // (4 raised the Fox's churn to 5.6 % and the knee's aliasing to 1.51x
  // plain; no cap made flaps: docs/algorithm.md, "Shape").
  double max_width = std::numbers::pi;
  double max_arc_degrees = 120.0;  // of the cross-section's circular arc
};

// Width and arc of a fold's cross-section at its middle. The thesis: width L0
// = MidWidth(c), arc L_max (so its slack L_max - L0 is the cloth inside the
// fold's own width). Holding its band's slack S = band_extent (c - 1) as well,
// the arc is the width plus the larger of the two slacks, and the fold widens
// from L0 towards the width at which that arc spans limits.max_arc_degrees
// (180 would be a semicircle, the most a height field holds), but no wider
// than the band or limits.max_width L_min. band_extent 0: the thesis.
struct FoldSection {
  double width;
  double arc;
};
FoldSection FoldAtMiddle(double compression, double min_width,
                         double band_extent, const FoldLimits& limits = {});

// Shape of one path (step 11 in docs/architecture.md; the decisions in
// docs/algorithm.md, "Shape"): widths rise smoothly (smoothstep in the
// normalised distance from the arc-length midpoint) from the mid width to L_max
// at the ends, where the height is 0; refined by one cubic Bezier per segment
// with tangents averaged across edges. `max_compression` (>= 1) sets the mid
// width; 0: the largest c over the path's triangles. `band_extent` > 0: the
// fold holds its band's slack (FoldAtMiddle); 0: the thesis's arc of L_max.
void ShapePath(const SurfaceFrame& surface, const WrinklePath& path,
               double min_width, const ArcHeightTable& table,
               int samples_per_segment, WrinkleShape* shape,
               double max_compression = 0.0, double band_extent = 0.0,
               const FoldLimits& limits = {});

// The compressed band a fold stands for: its extent across the fold, the mean
// (weighted by c - 1, over the path's triangles above 1 beyond rounding) of
// each triangle's extent along its compression direction divided by the number
// of wrinkles crossing it (`wrinkles_in_face`), so that neighbours share it.
// Its slack, the cloth the coarse surface lost across it, is extent * (c - 1).
double BandExtent(const SurfaceFrame& surface, const WrinklePath& path,
                  const std::vector<int32_t>& wrinkles_in_face);

// For each triangle, the wrinkles whose widened refined path may reach it, as
// ranges of path segments. Conservative: the triangle's bounding sphere is
// tested against each segment's chord widened by half the largest width plus
// the Bezier's deviation.
struct TriangleRangesScratch {
  std::vector<uint32_t> stamp;
  std::vector<Eigen::Vector4d>
      bounds;  // per triangle: centroid, bounding radius
  std::vector<int32_t> queue, entry_of_face;
  std::vector<std::pair<int32_t, TriangleWrinkleRange>>
      entries;  // (face, range)
  uint32_t counter = 0;
};

void BuildTriangleRanges(const SurfaceFrame& surface,
                         const std::vector<WrinklePath>& paths,
                         const std::vector<WrinkleShape>& shapes,
                         int samples_per_segment,
                         TriangleRangesScratch& scratch,
                         std::vector<int32_t>* offsets,
                         std::vector<TriangleWrinkleRange>* ranges);

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_SHAPE_H_
