#ifndef CREASE_WRINKLE_SCA2015_LABELING_H_
#define CREASE_WRINKLE_SCA2015_LABELING_H_

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace crease {

// Per-triangle deformation state. The numeric order matters: the pairwise cost
// is step * |a - b|, convex in the label index, which is what makes the 3-label
// problem exactly solvable with one min cut (Ishikawa 2003).
enum class Label : uint8_t { kCompress = 0, kRest = 1, kStretch = 2 };
inline constexpr int kNumLabels = 3;

inline int LabelIndex(Label l) { return static_cast<int>(l); }
inline char LabelChar(Label l) { return "CRS"[LabelIndex(l)]; }

// Costs of putting one triangle in each label, indexed by LabelIndex.
using UnaryCost = std::array<double, kNumLabels>;

struct LabelingParams {
  // Eq. 4.4-4.7 of the theses (SCA 2015's Eq. 4-7).
  double sigma = 0.05;
  double alpha = 9.0;
  double beta = 90.0;
  // Pairwise costs: step * |i - j| between edge-adjacent triangles (0.2 / 0.4
  // as in the paper) and between a triangle and itself in the previous frame.
  double spatial_step = 0.2;
  double temporal_step = 0.2;
  // Unary cost of Compress and Stretch for degenerate triangles, which keeps
  // them Rest.
  double degenerate_penalty = 1e3;
  // The costs read the change since the last frame as if over this many
  // frames (the inter-frame tensor's singular values raised to this power):
  // the papers' sigma and beta measure a change between two frames at 30
  // fps, so at 60 fps a frame's change counts twice (AtFrameRate).
  double rate_exponent = 1.0;
};

// Eq. 4.5: c(a, b) for A(C) = c(lambda~min, lambda_max) and A(S) =
// c(lambda_max, lambda~min), clamped at 0 (the printed a < b branch goes
// negative for large b / a).
double CompressStretchCost(double a, double b, const LabelingParams& params);

// Eq. 4.4-4.7 from an inter-frame tensor: `compression` = lambda~min = 1 /
// lambda_min.
UnaryCost UnaryCosts(double compression, double lambda_max,
                     const LabelingParams& params);
UnaryCost DegenerateUnaryCosts(const LabelingParams& params);

// UnaryCosts of many triangles, two at a time (within a few ulp of it: its
// own exp, in two lanes). The three spans have the same size.
void UnaryCostsOfMany(absl::Span<const double> compression,
                      absl::Span<const double> lambda_max,
                      const LabelingParams& params,
                      absl::Span<UnaryCost> costs);

// Adds the temporal edge to a fixed previous label: step * |l - previous|.
inline void AddTemporalCost(Label previous, double step, UnaryCost& cost) {
  const int p = LabelIndex(previous);
  for (int l = 0; l < kNumLabels; ++l)
    cost[l] += step * (l > p ? l - p : p - l);
}

inline Label ArgminLabel(const UnaryCost& cost) {
  int best = 0;
  for (int l = 1; l < kNumLabels; ++l) {
    if (cost[l] < cost[best]) best = l;
  }
  return static_cast<Label>(best);
}

// An edge of the labeling graph with pairwise cost weight * |l_i - l_j|.
struct LabelEdge {
  int32_t i;
  int32_t j;
  double weight;
};

// E(l) = sum_i unary_i(l_i) + sum_edges weight * |l_i - l_j|.
double LabelingEnergy(absl::Span<const UnaryCost> unaries,
                      absl::Span<const LabelEdge> edges,
                      absl::Span<const Label> labels);

// Exact minimiser of LabelingEnergy for a fixed graph, built once and reused:
// each node becomes two binary nodes [l >= 1], [l >= 2] chained by an infinite
// edge; each graph edge becomes one edge per layer. Solve() only rewrites
// terminal capacities and restores residual capacities, so it does not allocate
// after the first call.
class GraphCutLabeler {
 public:
  GraphCutLabeler(int num_nodes, absl::Span<const LabelEdge> edges);
  ~GraphCutLabeler();
  GraphCutLabeler(const GraphCutLabeler&) = delete;
  GraphCutLabeler& operator=(const GraphCutLabeler&) = delete;

  int num_nodes() const { return num_nodes_; }

  // Writes the minimising labels. unaries.size() == labels.size() ==
  // num_nodes().
  void Solve(absl::Span<const UnaryCost> unaries, absl::Span<Label> labels);

 private:
  struct Graph;
  int num_nodes_;
  std::unique_ptr<Graph> graph_;
  // Each graph node's terminal capacity in the last solve.
  std::vector<double> terminal_capacities_;
  bool solved_once_ = false;
};

// Spatial edges from triangle adjacency pairs, each with weight `step`.
std::vector<LabelEdge> SpatialEdges(
    absl::Span<const std::pair<int32_t, int32_t>> adjacent_pairs, double step);

struct LabelingResult {
  std::vector<Label> labels;  // frame-major: labels[t * num_triangles + f]
  double energy = 0.0;
};

// Online step: labels for one frame with the previous frame's labels fixed
// (empty `previous` on the first frame: no temporal term).
LabelingResult LabelFrameOnline(
    absl::Span<const UnaryCost> unaries, absl::Span<const Label> previous,
    absl::Span<const std::pair<int32_t, int32_t>> adjacent,
    const LabelingParams& params);

// Offline: the whole sequence as one space-time graph. `unaries` is frame-major
// (num_frames * num_triangles). InvalidArgument if the size does not divide.
absl::StatusOr<LabelingResult> LabelSequenceOffline(
    absl::Span<const UnaryCost> unaries, int num_triangles,
    absl::Span<const std::pair<int32_t, int32_t>> adjacent,
    const LabelingParams& params);

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_LABELING_H_
