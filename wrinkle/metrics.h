#ifndef CREASE_WRINKLE_METRICS_H_
#define CREASE_WRINKLE_METRICS_H_

#include <array>

#include "absl/types/span.h"
#include "wrinkle/labeling.h"

namespace crease {

// Share of triangles whose label differs between two consecutive frames (0 for
// empty).
double LabelFlicker(absl::Span<const Label> previous,
                    absl::Span<const Label> current);

// Share of triangles carrying each label, indexed by LabelIndex.
std::array<double, kNumLabels> LabelShares(absl::Span<const Label> labels);

}  // namespace crease

#endif  // CREASE_WRINKLE_METRICS_H_
