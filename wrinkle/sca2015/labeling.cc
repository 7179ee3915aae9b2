#include "wrinkle/sca2015/labeling.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "maxflow.h"
#include "wrinkle/core/double2.h"

namespace crease {
namespace {

// Stands in for an infinite capacity: far above any finite cut of the graph.
constexpr double kInfiniteCapacity = 1e15;

}  // namespace

double CompressStretchCost(double a, double b, const LabelingParams& params) {
  const double big_h = std::exp(-params.alpha * (a - 1.0));
  double cost;
  if (a > b) {
    const double small_h = std::exp(-params.beta * a);
    const double two_sigma_sq = 2.0 * params.sigma * params.sigma;
    cost =
        (big_h - small_h) * std::exp(-0.5 * (a - b) * (a - b) / two_sigma_sq) +
        small_h;
  } else {
    cost = (b / a) * (big_h - 1.0) + 1.0;
  }
  return std::max(0.0, cost);
}

UnaryCost UnaryCosts(double compression, double lambda_max,
                     const LabelingParams& params) {
  const double l1 = std::abs(compression - 1.0) + std::abs(lambda_max - 1.0);
  const double two_sigma_sq = 2.0 * params.sigma * params.sigma;
  UnaryCost cost;
  cost[LabelIndex(Label::kRest)] = 1.0 - std::exp(-l1 * l1 / two_sigma_sq);
  cost[LabelIndex(Label::kCompress)] =
      CompressStretchCost(compression, lambda_max, params);
  cost[LabelIndex(Label::kStretch)] =
      CompressStretchCost(lambda_max, compression, params);
  return cost;
}

namespace {

// CompressStretchCost in two lanes, both of its branches taken. `gauss`,
// the exp of -(a - b)^2 / (4 sigma^2), and `small_h`, the exp of -beta
// max(a, b), are shared by c(a, b) and c(b, a): each uses small_h only where
// its a is the larger.
Double2 CompressStretchCost2(Double2 a, Double2 b, Double2 gauss,
                             Double2 small_h, const LabelingParams& params) {
  const Double2 big_h = Exp(-params.alpha * (a - 1.0));
  const Double2 above = (big_h - small_h) * gauss + small_h;
  const Double2 below = (b / a) * (big_h - 1.0) + 1.0;
  return Max(Broadcast(0.0), a > b ? above : below);
}

}  // namespace

void UnaryCostsOfMany(absl::Span<const double> compression,
                      absl::Span<const double> lambda_max,
                      const LabelingParams& params,
                      absl::Span<UnaryCost> costs) {
  CREASE_DCHECK(compression.size() == lambda_max.size());
  CREASE_DCHECK(costs.size() == compression.size());
  const double two_sigma_sq = 2.0 * params.sigma * params.sigma;
  const size_t n = compression.size();
  for (size_t i = 0; i < n; i += 2) {
    // An odd count's last triangle fills both lanes.
    const size_t j = std::min(i + 1, n - 1);
    const Double2 c = {compression[i], compression[j]};
    const Double2 l = {lambda_max[i], lambda_max[j]};
    const Double2 l1 = Abs(c - 1.0) + Abs(l - 1.0);
    const Double2 rest = 1.0 - Exp(-l1 * l1 / two_sigma_sq);
    const Double2 gap = c - l;
    const Double2 gauss = Exp(-0.5 * gap * gap / two_sigma_sq);
    const Double2 small_h = Exp(-params.beta * Max(c, l));
    const Double2 compress = CompressStretchCost2(c, l, gauss, small_h, params);
    const Double2 stretch = CompressStretchCost2(l, c, gauss, small_h, params);
    for (size_t lane = 0; lane < 2 && i + lane < n; ++lane) {
      UnaryCost& cost = costs[i + lane];
      cost[LabelIndex(Label::kRest)] = rest[lane];
      cost[LabelIndex(Label::kCompress)] = compress[lane];
      cost[LabelIndex(Label::kStretch)] = stretch[lane];
    }
  }
}

UnaryCost DegenerateUnaryCosts(const LabelingParams& params) {
  UnaryCost cost;
  cost[LabelIndex(Label::kCompress)] = params.degenerate_penalty;
  cost[LabelIndex(Label::kRest)] = 0.0;
  cost[LabelIndex(Label::kStretch)] = params.degenerate_penalty;
  return cost;
}

double LabelingEnergy(absl::Span<const UnaryCost> unaries,
                      absl::Span<const LabelEdge> edges,
                      absl::Span<const Label> labels) {
  double energy = 0.0;
  for (size_t i = 0; i < unaries.size(); ++i) {
    energy += unaries[i][LabelIndex(labels[i])];
  }
  for (const LabelEdge& e : edges) {
    energy +=
        e.weight * std::abs(LabelIndex(labels[e.i]) - LabelIndex(labels[e.j]));
  }
  return energy;
}

struct GraphCutLabeler::Graph {
  Graph(int nodes, int edges) : g(nodes, edges) {}
  maxflow::Graph<double, double, double> g;
};

GraphCutLabeler::GraphCutLabeler(int num_nodes,
                                 absl::Span<const LabelEdge> edges)
    : num_nodes_(num_nodes) {
  const int num_graph_edges = num_nodes + 2 * static_cast<int>(edges.size());
  graph_ = std::make_unique<Graph>(2 * num_nodes, num_graph_edges);
  auto& g = graph_->g;
  g.add_node(2 * num_nodes);
  terminal_capacities_.assign(2 * static_cast<size_t>(num_nodes), 0.0);
  // Node 2i is "l_i >= 1", node 2i+1 is "l_i >= 2"; a node on the sink side
  // is 1. The infinite arc forbids [l >= 2] without [l >= 1].
  for (int i = 0; i < num_nodes; ++i)
    g.add_edge(2 * i, 2 * i + 1, kInfiniteCapacity, 0.0);
  for (const LabelEdge& e : edges) {
    for (int layer = 0; layer < 2; ++layer) {
      g.add_edge(2 * e.i + layer, 2 * e.j + layer, e.weight, e.weight);
    }
  }
}

GraphCutLabeler::~GraphCutLabeler() = default;

void GraphCutLabeler::Solve(absl::Span<const UnaryCost> unaries,
                            absl::Span<Label> labels) {
  CREASE_DCHECK(static_cast<int>(unaries.size()) == num_nodes_);
  CREASE_DCHECK(labels.size() == unaries.size());
  auto& g = graph_->g;
  // E_i(l) = U0 (1 - x1) + U1 x1 + (U2 - U1) x2 given x2 <= x1; terminal
  // capacity of a node is cost(sink side) - cost(source side).
  //
  // After the first solve the graph keeps its flow: each node's residual
  // terminal capacity moves by the change in its terminal capacity (which
  // only shifts the flow's value, a reparametrisation), and the search
  // trees are reused. A node needs marking only where its residual changes
  // sign (maxflow's graph.h, mark_node): between a session's frames the
  // costs drift, so few do, and the cut starts from last frame's flow instead
  // of from nothing. The arcs between nodes never change.
  for (int node = 0; node < 2 * num_nodes_; ++node) {
    const UnaryCost& u = unaries[node / 2];
    const double terminal = node % 2 == 0 ? u[1] - u[0] : u[2] - u[1];
    if (!solved_once_) {
      g.set_trcap(node, terminal);
    } else {
      const double residual = g.get_trcap(node);
      const double moved = residual + (terminal - terminal_capacities_[node]);
      g.set_trcap(node, moved);
      if ((residual > 0) != (moved > 0) || (residual < 0) != (moved < 0)) {
        g.mark_node(node);
      }
    }
    terminal_capacities_[node] = terminal;
  }
  g.maxflow(/*reuse_trees=*/solved_once_);
  solved_once_ = true;
  using GraphType = maxflow::Graph<double, double, double>;
  for (int i = 0; i < num_nodes_; ++i) {
    const int x1 = g.what_segment(2 * i) == GraphType::SINK ? 1 : 0;
    const int x2 = g.what_segment(2 * i + 1) == GraphType::SINK ? 1 : 0;
    labels[i] = static_cast<Label>(x1 + x2);
  }
}

std::vector<LabelEdge> SpatialEdges(
    absl::Span<const std::pair<int32_t, int32_t>> adjacent_pairs, double step) {
  std::vector<LabelEdge> edges;
  edges.reserve(adjacent_pairs.size());
  for (const auto& [f, g] : adjacent_pairs) edges.push_back({f, g, step});
  return edges;
}

namespace {

// One graph built and cut (the offline and online entry points; Session
// keeps its labeler instead).
LabelingResult SolveOnce(absl::Span<const UnaryCost> unaries,
                         absl::Span<const LabelEdge> edges) {
  GraphCutLabeler labeler(static_cast<int>(unaries.size()), edges);
  LabelingResult result;
  result.labels.resize(unaries.size());
  labeler.Solve(unaries, absl::MakeSpan(result.labels));
  result.energy = LabelingEnergy(unaries, edges, result.labels);
  return result;
}

}  // namespace

LabelingResult LabelFrameOnline(
    absl::Span<const UnaryCost> unaries, absl::Span<const Label> previous,
    absl::Span<const std::pair<int32_t, int32_t>> adjacent,
    const LabelingParams& params) {
  std::vector<UnaryCost> folded(unaries.begin(), unaries.end());
  if (!previous.empty()) {
    for (size_t f = 0; f < folded.size(); ++f) {
      AddTemporalCost(previous[f], params.temporal_step, folded[f]);
    }
  }
  const std::vector<LabelEdge> edges =
      SpatialEdges(adjacent, params.spatial_step);
  return SolveOnce(folded, edges);
}

absl::StatusOr<LabelingResult> LabelSequenceOffline(
    absl::Span<const UnaryCost> unaries, int num_triangles,
    absl::Span<const std::pair<int32_t, int32_t>> adjacent,
    const LabelingParams& params) {
  if (num_triangles <= 0 || unaries.size() % num_triangles != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "unaries: %d costs are not a whole number of frames of %d triangles",
        unaries.size(), num_triangles));
  }
  const int num_frames = static_cast<int>(unaries.size() / num_triangles);
  std::vector<LabelEdge> edges;
  edges.reserve(num_frames * adjacent.size() +
                static_cast<size_t>(num_frames) * num_triangles);
  for (int t = 0; t < num_frames; ++t) {
    const int32_t base = t * num_triangles;
    for (const auto& [f, g] : adjacent) {
      edges.push_back({base + f, base + g, params.spatial_step});
    }
    if (t > 0) {
      for (int32_t f = 0; f < num_triangles; ++f) {
        edges.push_back(
            {base - num_triangles + f, base + f, params.temporal_step});
      }
    }
  }
  return SolveOnce(unaries, edges);
}

}  // namespace crease
