#ifndef CREASE_WRINKLE_SCA2015_SHAPE_H_
#define CREASE_WRINKLE_SCA2015_SHAPE_H_

#include <Eigen/Core>
#include <cstdint>
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

// Shape of one path (step 11 in docs/architecture.md; the decisions in
// docs/algorithm.md, "Shape"): widths rise smoothly (smoothstep in the
// normalised distance from the arc-length midpoint) from the mid width to L_max
// at the ends, where the height is 0; refined by one cubic Bezier per segment
// with tangents averaged across edges. `max_compression` (>= 1) sets the mid
// width; 0: the largest c over the path's triangles.
void ShapePath(const SurfaceFrame& surface, const WrinklePath& path,
               double min_width, const ArcHeightTable& table,
               int samples_per_segment, WrinkleShape* shape,
               double max_compression = 0.0);

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
