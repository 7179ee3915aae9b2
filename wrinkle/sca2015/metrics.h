#ifndef CREASE_WRINKLE_SCA2015_METRICS_H_
#define CREASE_WRINKLE_SCA2015_METRICS_H_

#include <array>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "wrinkle/core/surface.h"
#include "wrinkle/sca2015/labeling.h"
#include "wrinkle/sca2015/wrinkle_path.h"

namespace crease {

// Share of triangles whose label differs between two consecutive frames (0 for
// empty).
double LabelFlicker(absl::Span<const Label> previous,
                    absl::Span<const Label> current);

// Share of triangles carrying each label, indexed by LabelIndex.
std::array<double, kNumLabels> LabelShares(absl::Span<const Label> labels);

// Path jitter: how far wrinkle points move over the surface in one frame, after
// being carried with the mesh. The previous frame's paths are evaluated on the
// *current* surface at their previous (edge, t); each current path point is
// matched to the nearest previous path segment, and the mean distance over
// matched points (those within `match_radius`; farther ones are births, not
// motion) is returned, with the number of matched points in *matched. 0 when
// nothing matches.
double PathJitter(const SurfaceFrame& surface,
                  const std::vector<WrinklePath>& previous,
                  const std::vector<WrinklePath>& current, double match_radius,
                  int* matched);

// Distribution of wrinkle lifetimes in frames.
struct LifetimeSummary {
  int count = 0;
  double median = 0;
  double p10 = 0;
  double p90 = 0;
  int max = 0;
};
LifetimeSummary SummarizeLifetimes(std::vector<int> lifetimes);

// Checks that a path is connected and on the surface: at least 2 points, one
// triangle per segment that holds both of its points' edges, consecutive points
// on different edges, every t in [0, 1]. Returns an empty string or what is
// wrong.
std::string CheckPath(const MeshTopology& topology, const WrinklePath& path);

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_METRICS_H_
