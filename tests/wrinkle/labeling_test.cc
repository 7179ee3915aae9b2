#include "wrinkle/sca2015/labeling.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace crease {
namespace {

const LabelingParams kParams;
constexpr int kC = 0, kR = 1, kS = 2;

TEST(UnaryCostTest, MatchesHandComputedValues) {
  // Static triangle: Rest is free, the others cost 1.
  const UnaryCost still = UnaryCosts(1.0, 1.0, kParams);
  EXPECT_NEAR(still[kR], 0.0, 1e-15);
  EXPECT_NEAR(still[kC], 1.0, 1e-15);
  EXPECT_NEAR(still[kS], 1.0, 1e-15);
  // A(R) = 1 - exp(-d^2 / (2 sigma^2)) with d the L1 deviation from (1, 1).
  EXPECT_NEAR(UnaryCosts(1.05, 1.0, kParams)[kR], 1 - std::exp(-0.5),
              1e-12);  // 0.393
  EXPECT_NEAR(UnaryCosts(1.05, 1.05, kParams)[kR], 1 - std::exp(-2.0),
              1e-12);  // 0.865
  // c(a, b) of Eq. 4.5 at four points, values from the printed formula.
  EXPECT_NEAR(CompressStretchCost(1.1, 1.0, kParams), 0.150, 5e-4);
  EXPECT_NEAR(CompressStretchCost(1.2, 1.0, kParams), 0.003, 5e-4);
  EXPECT_NEAR(CompressStretchCost(1.05, 1.1, kParams), 0.620, 5e-4);
  EXPECT_NEAR(CompressStretchCost(0.95, 1.06, kParams), 1.634, 5e-4);
  // a > b: (H - h) exp(-(a - b)^2 / (4 sigma^2)) + h, exactly.
  const double a = 1.08, b = 1.02;
  const double big_h = std::exp(-9 * (a - 1)), small_h = std::exp(-90 * a);
  EXPECT_NEAR(CompressStretchCost(a, b, kParams),
              (big_h - small_h) * std::exp(-(a - b) * (a - b) / 0.01) + small_h,
              1e-15);
}

// The batched costs (two triangles at a time, their own exp) are the scalar
// ones within rounding, odd counts included, on both branches of c(a, b) and
// far out where the exps underflow.
TEST(UnaryCostTest, ManyAtOnceAreEachOnesCosts) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> ratio(0.3, 3.0);
  for (size_t n : {size_t{1}, size_t{2}, size_t{7}, size_t{500}}) {
    std::vector<double> compression(n), lambda_max(n);
    for (size_t i = 0; i < n; ++i) {
      compression[i] = ratio(rng);
      lambda_max[i] = ratio(rng);
    }
    if (n == 500) {
      compression[0] = 1.0, lambda_max[0] = 1.0;    // at rest
      compression[1] = 18.0, lambda_max[1] = 1.02;  // exps underflow
      compression[2] = 1.3, lambda_max[2] = 1.3;    // a == b
    }
    std::vector<UnaryCost> many(n);
    UnaryCostsOfMany(compression, lambda_max, kParams, absl::MakeSpan(many));
    for (size_t i = 0; i < n; ++i) {
      const UnaryCost one = UnaryCosts(compression[i], lambda_max[i], kParams);
      for (int l = 0; l < kNumLabels; ++l) {
        EXPECT_NEAR(many[i][l], one[l], 1e-14 * std::max(1.0, std::abs(one[l])))
            << "n " << n << " triangle " << i << " label " << l;
      }
    }
  }
}

TEST(UnaryCostTest, ClampsThePrintedNegativeBranchAtZero) {
  // As printed, c(1.3, 1.5) = 1 - (1.5 / 1.3)(1 - e^-2.7) = -0.076.
  EXPECT_EQ(CompressStretchCost(1.3, 1.5, kParams), 0.0);
  const UnaryCost cost = UnaryCosts(1.5, 1.3, kParams);  // A(S) = c(1.3, 1.5)
  EXPECT_EQ(cost[kS], 0.0);
}

TEST(UnaryCostTest, CompressionFavoursCompressAndStretchFavoursStretch) {
  EXPECT_EQ(ArgminLabel(UnaryCosts(1.3, 1.0, kParams)), Label::kCompress);
  EXPECT_EQ(ArgminLabel(UnaryCosts(1.0, 1.3, kParams)), Label::kStretch);
  EXPECT_EQ(ArgminLabel(UnaryCosts(1.01, 1.0, kParams)), Label::kRest);
  const UnaryCost degenerate = DegenerateUnaryCosts(kParams);
  EXPECT_EQ(ArgminLabel(degenerate), Label::kRest);
}

// A strip of up to 8 triangles with a few extra chords, so the graph has
// cycles.
std::vector<std::pair<int32_t, int32_t>> TinyAdjacency(int n,
                                                       std::mt19937& rng) {
  std::vector<std::pair<int32_t, int32_t>> pairs;
  for (int i = 0; i + 1 < n; ++i) pairs.emplace_back(i, i + 1);
  std::uniform_int_distribution<int> pick(0, n - 1);
  for (int k = 0; k < 2 && n > 3; ++k) {
    const int a = pick(rng), b = pick(rng);
    if (a != b) pairs.emplace_back(std::min(a, b), std::max(a, b));
  }
  return pairs;
}

UnaryCost RandomCost(std::mt19937& rng) {
  // Costs from real tensors, sometimes with the degenerate penalty.
  std::uniform_real_distribution<double> stretch(0.85, 1.3);
  if (rng() % 10 == 0) return DegenerateUnaryCosts(kParams);
  return UnaryCosts(stretch(rng), stretch(rng), kParams);
}

// Minimum of `energy` over all 3^n labelings.
template <typename Energy>
double BruteForceMinimum(int n, Energy energy) {
  std::vector<Label> labels(n);
  double best = std::numeric_limits<double>::infinity();
  int total = 1;
  for (int i = 0; i < n; ++i) total *= 3;
  for (int code = 0; code < total; ++code) {
    int rest = code;
    for (int i = 0; i < n; ++i) {
      labels[i] = static_cast<Label>(rest % 3);
      rest /= 3;
    }
    best = std::min(best, energy(labels));
  }
  return best;
}

TEST(GraphCutTest, OnlineMatchesBruteForceOnTinyMeshes) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + trial % 8;
    const auto adjacency = TinyAdjacency(n, rng);
    std::vector<UnaryCost> unaries(n);
    for (auto& u : unaries) u = RandomCost(rng);
    std::vector<Label> previous(n);
    for (auto& l : previous) l = static_cast<Label>(rng() % 3);
    const bool first_frame = trial % 5 == 0;
    const LabelingResult result =
        LabelFrameOnline(unaries, first_frame ? std::vector<Label>{} : previous,
                         adjacency, kParams);

    // Independent energy: unary + 0.2 |li - lj| spatial + 0.2 |li - prev_i|
    // temporal.
    auto energy = [&](const std::vector<Label>& labels) {
      double e = 0;
      for (int i = 0; i < n; ++i) {
        e += unaries[i][LabelIndex(labels[i])];
        if (!first_frame) {
          e += 0.2 * std::abs(LabelIndex(labels[i]) - LabelIndex(previous[i]));
        }
      }
      for (const auto& [a, b] : adjacency) {
        e += 0.2 * std::abs(LabelIndex(labels[a]) - LabelIndex(labels[b]));
      }
      return e;
    };
    const double best = BruteForceMinimum(n, energy);
    ASSERT_NEAR(energy(result.labels), best, 1e-9) << "trial " << trial;
    ASSERT_NEAR(result.energy, best, 1e-9) << "trial " << trial;
  }
}

TEST(GraphCutTest, OfflineMatchesBruteForceOnTwoFrames) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 150; ++trial) {
    const int n = 1 + trial % 4;  // 2 frames x up to 4 triangles = 8 nodes
    const int frames = 2;
    const auto adjacency = TinyAdjacency(n, rng);
    std::vector<UnaryCost> unaries(n * frames);
    for (auto& u : unaries) u = RandomCost(rng);
    const auto result = LabelSequenceOffline(unaries, n, adjacency, kParams);
    ASSERT_TRUE(result.ok());
    auto energy = [&](const std::vector<Label>& labels) {
      double e = 0;
      for (int t = 0; t < frames; ++t) {
        for (int i = 0; i < n; ++i)
          e += unaries[t * n + i][LabelIndex(labels[t * n + i])];
        for (const auto& [a, b] : adjacency) {
          e += 0.2 * std::abs(LabelIndex(labels[t * n + a]) -
                              LabelIndex(labels[t * n + b]));
        }
      }
      for (int i = 0; i < n; ++i) {
        e += 0.2 * std::abs(LabelIndex(labels[i]) - LabelIndex(labels[n + i]));
      }
      return e;
    };
    const double best = BruteForceMinimum(n * frames, energy);
    ASSERT_NEAR(energy(result->labels), best, 1e-9) << "trial " << trial;
    ASSERT_NEAR(result->energy, best, 1e-9);
  }
}

TEST(GraphCutTest, ReusedGraphGivesTheSameMinimumAsAFreshOne) {
  std::mt19937 rng(9);
  const int n = 8;
  const auto adjacency = TinyAdjacency(n, rng);
  const auto edges = SpatialEdges(adjacency, 0.2);
  GraphCutLabeler reused(n, edges);
  std::vector<Label> labels(n);
  for (int frame = 0; frame < 50; ++frame) {
    std::vector<UnaryCost> unaries(n);
    for (auto& u : unaries) u = RandomCost(rng);
    reused.Solve(unaries, absl::MakeSpan(labels));
    const double best = BruteForceMinimum(n, [&](const std::vector<Label>& l) {
      return LabelingEnergy(unaries, edges, l);
    });
    ASSERT_NEAR(LabelingEnergy(unaries, edges, labels), best, 1e-9) << frame;
  }
}

// A side x side grid of nodes, 4-connected, every edge of `weight`.
std::vector<LabelEdge> GridEdges(int side, double weight) {
  std::vector<LabelEdge> edges;
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) {
      if (x + 1 < side)
        edges.push_back({y * side + x, y * side + x + 1, weight});
      if (y + 1 < side) {
        edges.push_back({y * side + x, (y + 1) * side + x, weight});
      }
    }
  }
  return edges;
}

// The minimum energy a graph built for these costs alone reaches.
double FreshMinimum(const std::vector<UnaryCost>& unaries,
                    const std::vector<LabelEdge>& edges) {
  GraphCutLabeler fresh(static_cast<int>(unaries.size()), edges);
  std::vector<Label> labels(unaries.size());
  fresh.Solve(unaries, absl::MakeSpan(labels));
  return LabelingEnergy(unaries, edges, labels);
}

TEST(GraphCutTest, ReusedGraphMatchesFreshSolvesOnALargerMesh) {
  // 30 x 30 grid of nodes, 4-connected, 100 frames of random costs: the reused
  // solver (search trees rebuilt from marked nodes) must reach the fresh
  // solver's energy.
  constexpr int kSide = 30, kNodes = kSide * kSide;
  const std::vector<LabelEdge> edges = GridEdges(kSide, 0.2);
  std::mt19937 rng(13);
  GraphCutLabeler reused(kNodes, edges);
  std::vector<Label> labels(kNodes);
  std::vector<UnaryCost> unaries(kNodes);
  for (int frame = 0; frame < 100; ++frame) {
    for (auto& u : unaries) u = RandomCost(rng);
    reused.Solve(unaries, absl::MakeSpan(labels));
    ASSERT_NEAR(LabelingEnergy(unaries, edges, labels),
                FreshMinimum(unaries, edges), 1e-9)
        << "frame " << frame;
  }
}

// Between a session's frames the costs drift: the reused graph keeps its
// flow and marks only nodes whose residual changes sign. Costs that wander
// a little each frame (some nodes crossing between labels, most not), on a
// 4-connected grid, reach the fresh solver's minimum in every frame.
TEST(GraphCutTest, ReusedGraphFollowsDriftingCostsToTheFreshMinimum) {
  constexpr int kSide = 24, kNodes = kSide * kSide;
  const std::vector<LabelEdge> edges = GridEdges(kSide, 0.15);
  std::mt19937 rng(17);
  std::normal_distribution<double> drift(0.0, 0.03);
  std::vector<UnaryCost> unaries(kNodes);
  for (auto& u : unaries) u = RandomCost(rng);
  GraphCutLabeler reused(kNodes, edges);
  std::vector<Label> labels(kNodes), before(kNodes);
  int changed = 0;
  for (int frame = 0; frame < 200; ++frame) {
    for (auto& u : unaries) {
      for (double& c : u) c = std::max(0.0, c + drift(rng));
    }
    before = labels;
    reused.Solve(unaries, absl::MakeSpan(labels));
    ASSERT_NEAR(LabelingEnergy(unaries, edges, labels),
                FreshMinimum(unaries, edges), 1e-9)
        << "frame " << frame;
    if (frame > 0) changed += labels != before;
  }
  EXPECT_GT(changed, 100);  // the labels move: the drift is not too small
}

TEST(GraphCutTest, SmoothsAnIsolatedOutlier) {
  // Five triangles in a row, all clearly compressed except a mildly resting
  // middle one: its neighbours pull it to Compress, which the argmin would not
  // do.
  std::vector<UnaryCost> unaries(5, UnaryCosts(1.15, 1.0, kParams));
  unaries[2] = UnaryCosts(1.05, 1.0, kParams);
  ASSERT_EQ(ArgminLabel(unaries[2]), Label::kRest);
  const std::vector<std::pair<int32_t, int32_t>> chain = {
      {0, 1}, {1, 2}, {2, 3}, {3, 4}};
  const LabelingResult result = LabelFrameOnline(unaries, {}, chain, kParams);
  for (Label l : result.labels) EXPECT_EQ(l, Label::kCompress);
}

TEST(GraphCutTest, OfflineRejectsRaggedInput) {
  std::vector<UnaryCost> unaries(7);
  EXPECT_EQ(LabelSequenceOffline(unaries, 3, {}, kParams).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Solve's documented precondition (sizes equal to the graph's) is checked by
// CREASE_DCHECK where checks are on (debug, sanitizer and fuzz builds).
TEST(GraphCutDeathTest, SolveChecksItsSizes) {
#if defined(NDEBUG) && !defined(CREASE_CHECKS)
  GTEST_SKIP() << "checks are off in this build";
#else
  std::mt19937 rng(3);
  const auto edges = SpatialEdges(TinyAdjacency(4, rng), 0.2);
  GraphCutLabeler labeler(4, edges);
  std::vector<UnaryCost> unaries(3);
  std::vector<Label> labels(3);
  EXPECT_DEATH(labeler.Solve(unaries, absl::MakeSpan(labels)),
               "precondition failed: .*num_nodes_");
#endif
}

}  // namespace
}  // namespace crease
