// A sleeve's end drawn in by an elastic cuff, and the same sleeve drawn in at
// its middle by a belt (wrinkle/core/synthetic_animations.h), garments nobody
// tuned on: the compression is confined to a band one or two triangles deep
// round the tube, at its border (as at a gathered edge, but closing on
// itself) or inside the cloth. A person expects a ring of short pleats
// running up from the cuff, or across the belt line, side by side all the way
// round, while it is held, and nothing once it lets go.

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/core/synthetic_animations.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/sca2015/wrinkle_stats.h"

namespace crease {
namespace {

// The schedule, and the shape by hand: the cuff's ring at 1 - cinch of its
// radius, every ring from `band` up untouched, heights kept.
TEST(CinchedCuffTest, TheCuffDrawsInOnlyTheBand) {
  const CinchedCuffParams p;
  const RiseHoldFall& s = p.schedule;
  const int held = s.held_from();
  EXPECT_EQ(s.Share(0), 0);
  EXPECT_EQ(s.Share(held), 1);
  EXPECT_EQ(s.Share(s.held_to()), 1);
  EXPECT_EQ(s.Share(s.held_to() + s.fall), 0);
  const SyntheticAnimation animation = CinchedCuffAnimation(p);
  ASSERT_EQ(animation.frames.size(), static_cast<size_t>(s.frames()));
  const std::vector<float>& rest = animation.rest.positions;
  const std::vector<float>& frame = animation.frames[held];
  for (size_t v = 0; 3 * v + 2 < rest.size(); ++v) {
    const double y = rest[3 * v + 1];
    const double r0 = std::hypot(rest[3 * v], rest[3 * v + 2]);
    const double r = std::hypot(frame[3 * v], frame[3 * v + 2]);
    EXPECT_EQ(frame[3 * v + 1], rest[3 * v + 1]);
    if (y == 0) {
      EXPECT_NEAR(r / r0, 1.0 - p.cinch, 1e-6) << v;
    }
    if (y >= p.band) {
      EXPECT_NEAR(r / r0, 1.0, 1e-6) << v;
    }
    if (y > 0 && y < p.band) {
      EXPECT_GT(r / r0, 1.0 - p.cinch);
      EXPECT_LT(r / r0, 1.0);
    }
  }
}

// On every frame of the hold from its tenth: pleats start at the cuff (their
// lowest point within the band) all the way round, each within 4 of its
// widths of the next (round the cuff's ring, where they start), and run up
// the tube rather than round it; nine in ten of the tenth frame's pleats
// last to the hold's end, and none is left once the cuff lets go.
TEST(CinchedCuffTest, PleatsRoundTheWholeCuffWhileHeld) {
  const CinchedCuffParams params;
  const SyntheticAnimation animation = CinchedCuffAnimation(params);
  auto session = testing::NewSession(animation.rest);
  ASSERT_NE(session, nullptr);
  WrinkleStatistics stats;
  const int held_from = params.schedule.held_from();
  const int held_to = params.schedule.held_to();
  const double cuff_radius = params.radius * (1.0 - params.cinch);
  std::map<uint32_t, int> frames_held;
  std::vector<uint32_t> tenth;
  size_t fewest = 1000;
  double widest_gap = 0;  // in widths
  for (int f = 0; f < static_cast<int>(animation.frames.size()); ++f) {
    ASSERT_TRUE(session->ProcessFrame(animation.frames[f]).ok());
    stats.AddFrame(session->surface(), session->tracker());
    if (f < held_from + 10 || f >= held_to) continue;
    const WrinkleTracker& tracker = session->tracker();
    std::vector<std::pair<double, double>> starts;  // angle round, width
    for (size_t w = 0; w < tracker.wrinkles().size(); ++w) {
      const uint32_t id = tracker.wrinkles()[w].id;
      const auto& refined = tracker.shapes()[w].refined;
      ASSERT_GE(refined.size(), 2u);
      ++frames_held[id];
      if (f == held_from + 10) tenth.push_back(id);
      const auto lowest =
          std::min_element(refined.begin(), refined.end(),
                           [](const RefinedPoint& a, const RefinedPoint& b) {
                             return a.position.y() < b.position.y();
                           });
      const Eigen::Vector3d& start = lowest->position;
      EXPECT_LE(start.y(), params.band) << "frame " << f << ", pleat " << id;
      // Up the tube, not round it: the chord's share round the tube at its
      // middle is under half its length.
      const Eigen::Vector3d chord =
          refined.back().position - refined.front().position;
      const Eigen::Vector3d mid =
          0.5 * (refined.back().position + refined.front().position);
      const Eigen::Vector3d round =
          Eigen::Vector3d::UnitY()
              .cross(Eigen::Vector3d(mid.x(), 0, mid.z()))
              .normalized();
      EXPECT_LE(std::abs(chord.dot(round)), 0.5 * chord.norm())
          << "frame " << f << ", pleat " << id << " runs round the tube";
      starts.push_back(
          {std::atan2(start.z(), start.x()), tracker.shapes()[w].mid_width});
    }
    fewest = std::min(fewest, starts.size());
    ASSERT_GE(starts.size(), 3u) << "frame " << f;
    std::sort(starts.begin(), starts.end());
    for (size_t k = 0; k < starts.size(); ++k) {
      const auto& a = starts[k];
      const auto& b = starts[(k + 1) % starts.size()];
      double turn = b.first - a.first;
      if (k + 1 == starts.size()) turn += 2 * std::numbers::pi;
      const double gap = turn * cuff_radius / std::max(a.second, b.second);
      widest_gap = std::max(widest_gap, gap);
      EXPECT_LE(gap, 4.0) << "frame " << f << ", after pleat " << k;
    }
  }
  int lasting = 0;
  for (uint32_t id : tenth) {
    lasting += frames_held[id] >= params.schedule.held - 10;
  }
  EXPECT_GE(lasting, 0.9 * tenth.size()) << lasting << " of " << tenth.size();
  EXPECT_TRUE(session->tracker().wrinkles().empty());
  const WrinkleStatsSummary s = stats.Summary();
  EXPECT_LE(s.churn(), 0.05);
  std::printf(
      "at least %zu pleats a held frame, at most %.1f widths apart round the "
      "cuff; neighbour angle within the cloth %.1f deg (3D %.1f), median "
      "lifetime %.0f frames, churn %.3f\n",
      fewest, widest_gap, s.median_neighbour_angle_in_cloth,
      s.median_neighbour_angle, s.median_lifetime, s.churn());
}

struct BeltRun {
  size_t fewest = 1000;  // pleats on a held frame, from the hold's tenth
  bool every_quarter = true;
  bool across_the_belt = true;  // every pleat within the band round it
  int alive_at_end = 0;
  WrinkleStatsSummary summary;
};

BeltRun RunBelt(const SessionParams& session_params = {}) {
  const CinchedCuffParams params = BeltedSleeveParams();
  const SyntheticAnimation animation = CinchedCuffAnimation(params);
  auto session = testing::NewSession(animation.rest, session_params);
  BeltRun run;
  if (session == nullptr) return run;
  WrinkleStatistics stats;
  const int held_from = params.schedule.held_from();
  const int held_to = params.schedule.held_to();
  for (int f = 0; f < static_cast<int>(animation.frames.size()); ++f) {
    EXPECT_TRUE(session->ProcessFrame(animation.frames[f]).ok());
    stats.AddFrame(session->surface(), session->tracker());
    if (f < held_from + 10 || f >= held_to) continue;
    const WrinkleTracker& tracker = session->tracker();
    run.fewest = std::min(run.fewest, tracker.wrinkles().size());
    bool quarter_reached[4] = {false, false, false, false};
    for (size_t w = 0; w < tracker.wrinkles().size(); ++w) {
      for (const RefinedPoint& p : tracker.shapes()[w].refined) {
        // Within the band's rows (the belt's ring and one either side),
        // with a width's give for the path's rounding.
        if (std::abs(p.position.y() - params.belt_height) >
            params.band + tracker.shapes()[w].mid_width) {
          run.across_the_belt = false;
        }
        const double around = std::atan2(p.position.z(), p.position.x());
        const int quarter = static_cast<int>(
            std::floor((around + std::numbers::pi) / (0.5 * std::numbers::pi)));
        quarter_reached[std::clamp(quarter, 0, 3)] = true;
      }
    }
    for (bool reached : quarter_reached) run.every_quarter &= reached;
  }
  run.alive_at_end = static_cast<int>(session->tracker().wrinkles().size());
  run.summary = stats.Summary();
  return run;
}

// The belt's band lies inside the cloth, two rows deep, compressed along its
// length round the sleeve: too short across for a fold, and no border for
// the gathered edge's pleats. On every frame of the hold from its tenth at
// least six pleats lie across the belt line, within its band, all the way
// round; they last, and none is left once the belt lets go. Without the
// inner-band rule (the papers' length rule alone) not one is made, though
// the band is compressed 2.0 times.
TEST(CinchedCuffTest, BeltedSleeveGathersAllRoundTheBelt) {
  const BeltRun run = RunBelt();
  EXPECT_GE(run.fewest, 6u);
  EXPECT_TRUE(run.every_quarter);
  EXPECT_TRUE(run.across_the_belt);
  EXPECT_EQ(run.alive_at_end, 0);
  EXPECT_GE(run.summary.median_lifetime, 30.0);
  EXPECT_LE(run.summary.churn(), 0.05);
  SessionParams without;
  without.wrinkles.pleats_in_inner_bands = false;
  const BeltRun bare = RunBelt(without);
  EXPECT_EQ(bare.summary.births, 0);
  std::printf(
      "belted sleeve: at least %zu pleats a held frame, %d born, median "
      "lifetime %.0f frames, churn %.3f, neighbour angle within the cloth "
      "%.1f deg; without the inner-band rule: %d born\n",
      run.fewest, run.summary.births, run.summary.median_lifetime,
      run.summary.churn(), run.summary.median_neighbour_angle_in_cloth,
      bare.summary.births);
}

}  // namespace
}  // namespace crease
