#include "wrinkle/metrics.h"

namespace crease {

double LabelFlicker(absl::Span<const Label> previous,
                    absl::Span<const Label> current) {
  if (current.empty() || previous.size() != current.size()) return 0.0;
  size_t changed = 0;
  for (size_t i = 0; i < current.size(); ++i)
    changed += previous[i] != current[i];
  return static_cast<double>(changed) / static_cast<double>(current.size());
}

std::array<double, kNumLabels> LabelShares(absl::Span<const Label> labels) {
  std::array<double, kNumLabels> shares{};
  if (labels.empty()) return shares;
  for (Label l : labels) shares[LabelIndex(l)] += 1.0;
  for (double& s : shares) s /= static_cast<double>(labels.size());
  return shares;
}

}  // namespace crease
