// Pleats along a gathered edge (a waistband, a curtain's heading): a coarse
// sheet whose edge z = 0 is drawn in to 40 % of its width over 1.5 s and held
// compresses only in a band one or two triangles deep. A person expects
// short pleats all along that edge, running away from it, that last while the
// gather is held.

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/core/synthetic_animations.h"
#include "wrinkle/sca2015/session.h"

namespace crease {
namespace {

// 24 x 16 quads (768 triangles), 1 m x 1 m, the edge to 40 % of its width
// over 45 frames, held 75; below the band of one row, the slack goes into 3
// coarse waves (synthetic_animations.h).
const GatheredEdgeParams kGathered;
const int kRows = kGathered.rows, kColumns = kGathered.columns;
const float kBand = 1.0f / kRows;  // one row of triangles
const float kGather = kGathered.gather;
const int kGatherFrames = kGathered.gather_frames;
const int kHeldFrames = kGathered.held_frames;

struct Pleat {
  uint32_t id;
  Eigen::Vector3d mid;    // arc-length middle of the refined line
  Eigen::Vector3d chord;  // first to last refined point
  double mid_width = 0;
  double nearest_edge = 0;  // the path's smallest z
  double edge_x = 0;        // x where it comes nearest the edge
};

struct GatheredRun {
  // Per frame from the end of the gather on: the wrinkles that reach within
  // the band of the edge, and the x of the edge triangles compressed enough
  // to seed a wrinkle (where the coarse folds below have not taken the slack
  // up already, so a pleat is due), with half their extent along x.
  std::vector<std::vector<Pleat>> held;
  std::vector<std::vector<std::pair<double, double>>> compressed_edge;
  std::map<uint32_t, int> frames_alive;  // per wrinkle id, while held
};

GatheredRun RunGatheredSheet(const SessionParams& params = {}) {
  const SyntheticAnimation animation = GatheredEdgeAnimation(kGathered);
  const io::TriangleMesh& sheet = animation.rest;
  auto session = testing::NewSession(sheet, params);
  GatheredRun run;
  for (int frame = 0; frame < kGatherFrames + kHeldFrames; ++frame) {
    const std::vector<float>& positions = animation.frames[frame];
    EXPECT_TRUE(session->ProcessFrame(positions).ok());
    if (frame < kGatherFrames) continue;
    const WrinkleTracker& tracker = session->tracker();
    std::vector<std::pair<double, double>>& edge =
        run.compressed_edge.emplace_back();
    for (int f = 0; f < 2 * kColumns; ++f) {  // the edge's row
      if (session->compression_field()[f].compression <
          params.wrinkles.tracing.tau)
        continue;
      double lo = 1e30, hi = -1e30;
      for (int k = 0; k < 3; ++k) {
        const double x = positions[3 * sheet.triangles[f][k]];
        lo = std::min(lo, x);
        hi = std::max(hi, x);
      }
      edge.push_back({0.5 * (lo + hi), 0.5 * (hi - lo)});
    }
    std::vector<Pleat>& pleats = run.held.emplace_back();
    for (size_t w = 0; w < tracker.wrinkles().size(); ++w) {
      const std::vector<RefinedPoint>& refined = tracker.shapes()[w].refined;
      if (refined.size() < 2) continue;
      Pleat p;
      p.id = tracker.wrinkles()[w].id;
      p.mid = refined[refined.size() / 2].position;
      p.chord = refined.back().position - refined.front().position;
      p.mid_width = tracker.shapes()[w].mid_width;
      p.nearest_edge = 1e30;
      for (const RefinedPoint& r : refined) {
        if (r.position.z() < p.nearest_edge) {
          p.nearest_edge = r.position.z();
          p.edge_x = r.position.x();
        }
      }
      if (p.nearest_edge > kBand) continue;
      pleats.push_back(p);
      ++run.frames_alive[p.id];
    }
  }
  return run;
}

// Where the field says the gathered edge is compressed, pleats line it:
// every such edge triangle has a pleat within 2 widths of it (neighbours at
// most 4 widths apart), from 10 frames after the gather's end for as long as
// it is held, each running away from the edge, and those of the tenth frame
// still there at the end.
TEST(GatheredEdgeTest, PleatsLineTheGatheredEdgeWhileItIsHeld) {
  const GatheredRun run = RunGatheredSheet();
  ASSERT_EQ(run.held.size(), static_cast<size_t>(kHeldFrames));
  for (size_t i = 10; i < run.held.size(); ++i) {
    std::vector<const Pleat*> pleats;
    double widest = 0;
    for (const Pleat& p : run.held[i]) {
      if (p.nearest_edge > 0.5 / kRows) continue;  // not from the edge
      pleats.push_back(&p);
      widest = std::max(widest, p.mid_width);
      // Away from the edge: the chord at least 60 degrees from it.
      EXPECT_LE(std::abs(p.chord.normalized().x()), 0.5)
          << "held frame " << i << ", pleat " << p.id;
    }
    ASSERT_FALSE(run.compressed_edge[i].empty()) << "held frame " << i;
    ASSERT_FALSE(pleats.empty()) << "held frame " << i;
    double worst = 0;  // widths from a compressed edge triangle to a pleat
    for (const auto& [x, half_extent] : run.compressed_edge[i]) {
      double nearest = 1e30;
      for (const Pleat* p : pleats) {
        nearest = std::min(nearest, std::abs(p->edge_x - x));
      }
      worst = std::max(worst, std::max(nearest - half_extent, 0.0) / widest);
    }
    EXPECT_LE(worst, 2.0) << "held frame " << i << ": " << pleats.size()
                          << " pleats";
    if (i == 10) {
      std::printf(
          "%zu pleats; the farthest compressed edge triangle %.1f "
          "widths from one\n",
          pleats.size(), worst);
    }
  }
  int lasting = 0, counted = 0;
  for (const Pleat& p : run.held[10]) {
    if (p.nearest_edge > 0.5 / kRows) continue;
    ++counted;
    lasting += run.frames_alive.at(p.id) >= kHeldFrames - 10;
  }
  EXPECT_GE(lasting, 0.9 * counted) << lasting << " of " << counted;
}

// Without the band rule (every newborn held to min_seed_segments and
// min_seed_aspect, peaks alone seeding), the edge is not lined: gaps of more
// than 4 widths stay open while it is held.
TEST(GatheredEdgeTest, WithoutTheBandRuleTheEdgeIsNotLined) {
  SessionParams strict;
  strict.wrinkles.pleats_in_confined_bands = false;
  const GatheredRun run = RunGatheredSheet(strict);
  const double lo = 0.5 * kGather, hi = 1.0 - 0.5 * kGather;
  std::vector<double> xs;
  double widest = 0;
  for (const Pleat& p : run.held.back()) {
    if (p.nearest_edge > 0.5 / kRows) continue;
    xs.push_back(p.edge_x);
    widest = std::max(widest, p.mid_width);
  }
  std::sort(xs.begin(), xs.end());
  double largest_gap = hi - lo;
  if (!xs.empty()) {
    largest_gap = std::max(xs.front() - lo, hi - xs.back());
    for (size_t k = 1; k < xs.size(); ++k) {
      largest_gap = std::max(largest_gap, xs[k] - xs[k - 1]);
    }
  }
  std::printf("without the band rule: %zu pleats, largest gap %.3f\n",
              xs.size(), largest_gap);
  EXPECT_GT(largest_gap, 4 * std::max(widest, 1e-9));
}

}  // namespace
}  // namespace crease
