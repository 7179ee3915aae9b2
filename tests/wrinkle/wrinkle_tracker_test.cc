#include "wrinkle/sca2015/wrinkle_tracker.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "tests/wrinkle/wrinkle_sheet_test.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/sca2015/metrics.h"
#include "wrinkle/sca2015/session.h"

namespace crease {
namespace {

using testing::NewSession;

double DegreesBetween(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  const double c = std::abs(a.normalized().dot(b.normalized()));
  return std::acos(std::min(1.0, c)) * 180.0 / std::numbers::pi;
}

void ExpectValidPaths(const Session& session) {
  for (const WrinklePath& path : session.tracker().wrinkles()) {
    ASSERT_EQ(CheckPath(session.topology(), path), "") << "wrinkle " << path.id;
  }
}

TEST(WrinkleTrackerTest, SqueezedSheetWrinklesRunAcrossTheSqueeze) {
  const io::TriangleMesh sheet = MakeGridSheet(20, 20, 1.0f, 1.0f);
  auto session = NewSession(sheet);
  for (const auto& frame : testing::SqueezeThenHold(sheet, 0.5, 10)) {
    ASSERT_TRUE(session->ProcessFrame(frame).ok());
    ExpectValidPaths(*session);
  }
  const WrinkleTracker& tracker = session->tracker();
  ASSERT_GE(tracker.wrinkles().size(), 3u);
  const SurfaceFrame& surface = session->surface();
  double angle_sum = 0;
  int segments = 0;
  for (const WrinklePath& path : tracker.wrinkles()) {
    for (int i = 0; i < path.num_segments(); ++i) {
      // Only where the squeeze is: the left half, c > tau.
      EXPECT_GT(surface.field[path.faces[i]].compression, 1.3);
      const Eigen::Vector3d d = surface.Position(path.points[i + 1]) -
                                surface.Position(path.points[i]);
      angle_sum +=
          DegreesBetween(d, Eigen::Vector3d::UnitZ());  // perpendicular to X
      ++segments;
    }
  }
  EXPECT_LT(angle_sum / segments, 2.0);
  // Spaced at least one width apart.
  const auto& paths = tracker.wrinkles();
  for (size_t a = 0; a < paths.size(); ++a) {
    for (size_t b = a + 1; b < paths.size(); ++b) {
      double closest = 1e9;
      for (const EdgePoint& p : paths[a].points) {
        for (int i = 0; i < paths[b].num_segments(); ++i) {
          closest = std::min(
              closest,
              std::sqrt(SegmentDistanceSq(
                  surface.Position(p), surface.Position(paths[b].points[i]),
                  surface.Position(paths[b].points[i + 1]))));
        }
      }
      const double width = std::min(tracker.shapes()[a].mid_width,
                                    tracker.shapes()[b].mid_width);
      EXPECT_GE(closest, 0.99 * width)
          << "wrinkles " << paths[a].id << ", " << paths[b].id;
    }
  }
}

TEST(WrinkleTrackerTest, RigidMotionChangesNoT) {
  const io::TriangleMesh sheet = MakeGridSheet(16, 16, 1.0f, 1.0f);
  const auto frames = testing::SqueezeThenHold(sheet, 0.5, 30);
  auto still = NewSession(sheet);
  auto moving = NewSession(sheet);
  for (const auto& frame : frames) {
    ASSERT_TRUE(still->ProcessFrame(frame).ok());
    ASSERT_TRUE(moving->ProcessFrame(frame).ok());
  }
  std::map<uint32_t, WrinklePath> before;
  for (const WrinklePath& p : still->tracker().wrinkles()) before[p.id] = p;
  ASSERT_FALSE(before.empty());
  // Ten more frames: one session holds still, the other turns and travels
  // rigidly.
  for (int k = 1; k <= 10; ++k) {
    const Eigen::Matrix3d rotation =
        Eigen::AngleAxisd(0.1 * k, Eigen::Vector3d(1, 2, 3).normalized())
            .toRotationMatrix();
    // Small shifts keep the float positions' rounding well below the 1e-6
    // checked.
    const Eigen::Vector3d shift(0.03 * k, -0.02 * k, 0.01 * k);
    std::vector<float> moved(frames.back().size());
    for (size_t v = 0; v < moved.size() / 3; ++v) {
      const Eigen::Vector3d x(frames.back()[3 * v], frames.back()[3 * v + 1],
                              frames.back()[3 * v + 2]);
      const Eigen::Vector3d y = rotation * x + shift;
      for (int c = 0; c < 3; ++c) moved[3 * v + c] = static_cast<float>(y[c]);
    }
    ASSERT_TRUE(still->ProcessFrame(frames.back()).ok());
    ASSERT_TRUE(moving->ProcessFrame(moved).ok());
  }
  int compared = 0;
  for (const WrinklePath& p : moving->tracker().wrinkles()) {
    const auto it = before.find(p.id);
    if (it == before.end()) continue;
    ASSERT_EQ(p.points.size(), it->second.points.size()) << "wrinkle " << p.id;
    for (size_t i = 0; i < p.points.size(); ++i) {
      ASSERT_EQ(p.points[i].edge, it->second.points[i].edge);
      EXPECT_NEAR(p.points[i].t, it->second.points[i].t, 1e-6)
          << "wrinkle " << p.id;
      ++compared;
    }
  }
  EXPECT_GT(compared, 10);
}

TEST(WrinkleTrackerTest, RotatingCompressionTurnsPathsGradually) {
  const io::TriangleMesh sheet = MakeGridSheet(20, 20, 1.0f, 1.0f);
  auto session = NewSession(sheet);
  for (const auto& frame : testing::SqueezeThenHold(sheet, 2.0, 3)) {
    ASSERT_TRUE(session->ProcessFrame(frame).ok());
  }
  std::map<uint32_t, Eigen::Vector3d> heading;  // end - start of each wrinkle
  auto headings = [&]() {
    std::map<uint32_t, Eigen::Vector3d> out;
    for (const WrinklePath& p : session->tracker().wrinkles()) {
      out[p.id] = session->surface().Position(p.points.back()) -
                  session->surface().Position(p.points.front());
    }
    return out;
  };
  heading = headings();
  double worst = 0;
  int tracked = 0;
  std::vector<float> frame;
  for (int k = 1; k <= 30; ++k) {  // the squeeze axis turns 1 degree per frame
    testing::SqueezeSheet(sheet, testing::kSqueeze, k * std::numbers::pi / 180,
                          2.0, &frame);
    ASSERT_TRUE(session->ProcessFrame(frame).ok());
    ExpectValidPaths(*session);
    const auto now = headings();
    for (const auto& [id, d] : now) {
      const auto it = heading.find(id);
      if (it == heading.end()) continue;
      EXPECT_GT(d.dot(it->second), 0)
          << "wrinkle " << id << " flipped at frame " << k;
      worst = std::max(worst, DegreesBetween(d, it->second));
      ++tracked;
    }
    heading = now;
  }
  EXPECT_GT(tracked, 30);
  EXPECT_LT(worst, 5.0);
  // And they do follow the field: segments now run across the turned squeeze
  // axis.
  const double axis = 30 * std::numbers::pi / 180;
  const Eigen::Vector3d wrinkle_dir(-std::sin(axis), 0, std::cos(axis));
  double error = 0;
  int segments = 0;
  for (const WrinklePath& p : session->tracker().wrinkles()) {
    for (int i = 0; i < p.num_segments(); ++i) {
      error += DegreesBetween(session->surface().Position(p.points[i + 1]) -
                                  session->surface().Position(p.points[i]),
                              wrinkle_dir);
      ++segments;
    }
  }
  ASSERT_GT(segments, 0);
  RecordProperty("mean_angle_to_field", std::to_string(error / segments));
  // They lag (alpha = 0.4 is weak against the position terms; 21.7 degrees when
  // this was written) but have turned toward the field from the 30 degrees they
  // started at.
  EXPECT_LT(error / segments, 25.0);
}

// Every bundled animation: valid paths, bounded length updates, stable ids, and
// much less jitter than tracing every frame from scratch.
struct DataCase {
  const char* name;
  bool expect_wrinkles;
};

class BundledWrinklesTest : public ::testing::TestWithParam<DataCase> {};

TEST_P(BundledWrinklesTest, PersistentValidAndSteady) {
  const io::Animation anim = testing::LoadBundled(GetParam().name);
  ASSERT_GT(anim.num_frames(), 0);
  SessionParams baseline_params;
  baseline_params.retrace_every_frame = true;
  auto session = NewSession(anim.mesh);
  auto baseline = NewSession(anim.mesh, baseline_params);
  std::map<uint32_t, int> age_of;
  std::set<uint32_t> dead;
  std::vector<WrinklePath> previous, previous_baseline;
  double jitter = 0, baseline_jitter = 0;
  int max_wrinkles = 0;
  for (int frame = 0; frame < anim.num_frames(); ++frame) {
    ASSERT_TRUE(session->ProcessFrame(anim.frames.Sample(frame)).ok());
    ASSERT_TRUE(baseline->ProcessFrame(anim.frames.Sample(frame)).ok());
    const WrinkleTracker& tracker = session->tracker();
    ExpectValidPaths(*session);
    EXPECT_LE(tracker.max_length_update(), 0.15 + 1e-9) << "frame " << frame;
    std::map<uint32_t, int> ages;
    for (size_t w = 0; w < tracker.wrinkles().size(); ++w) {
      const WrinklePath& p = tracker.wrinkles()[w];
      ASSERT_FALSE(dead.count(p.id)) << "id " << p.id << " reused";
      ASSERT_TRUE(ages.emplace(p.id, p.age).second) << "duplicate id " << p.id;
      const auto it = age_of.find(p.id);
      if (it != age_of.end()) {
        ASSERT_EQ(p.age, it->second + 1) << "id " << p.id;
      }
      for (const RefinedPoint& r : tracker.shapes()[w].refined) {
        ASSERT_TRUE(r.position.allFinite() && std::isfinite(r.width) &&
                    std::isfinite(r.height));
      }
    }
    for (const auto& [id, age] : age_of) {
      if (!ages.count(id)) dead.insert(id);
    }
    age_of = ages;
    max_wrinkles = std::max<int>(max_wrinkles, tracker.wrinkles().size());
    const double radius = 2 * std::numbers::pi * tracker.min_width();
    jitter += PathJitter(session->surface(), previous, tracker.wrinkles(),
                         radius, nullptr);
    baseline_jitter +=
        PathJitter(baseline->surface(), previous_baseline,
                   baseline->tracker().wrinkles(), radius, nullptr);
    previous = tracker.wrinkles();
    previous_baseline = baseline->tracker().wrinkles();
  }
  RecordProperty("max_wrinkles", max_wrinkles);
  if (!GetParam().expect_wrinkles) {
    EXPECT_EQ(max_wrinkles, 0);
    return;
  }
  EXPECT_GT(max_wrinkles, 0);
  EXPECT_LT(3 * jitter, baseline_jitter)
      << "jitter " << jitter << " vs retracing " << baseline_jitter;
}

INSTANTIATE_TEST_SUITE_P(
    Data, BundledWrinklesTest,
    ::testing::Values(DataCase{"cloth_pants_knee", true},
                      DataCase{"fox_walk", true},
                      DataCase{"cesiumman_walk", true},
                      DataCase{"cloth_drape_sphere", false}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(WrinkleTrackerTest, LongRunsStayBounded) {
  // The Fox walk cycle six times over (frame 84 jumps back to frame 0):
  // re-routing around vertices once let a path wind round and round; it must
  // stay valid and short.
  const io::Animation anim = testing::LoadBundled("fox_walk");
  ASSERT_GT(anim.num_frames(), 0);
  SessionParams params;
  auto session = NewSession(anim.mesh, params);
  for (int i = 0; i < 6 * anim.num_frames(); ++i) {
    ASSERT_TRUE(
        session->ProcessFrame(anim.frames.Sample(i % anim.num_frames())).ok());
    ExpectValidPaths(*session);
    for (const WrinklePath& p : session->tracker().wrinkles()) {
      ASSERT_LE(p.num_segments(), params.wrinkles.tracing.max_segments)
          << "frame " << i;
    }
  }
}

// Fading (WrinkleParams::fade_frames): a wrinkle is born at 1 / fade_frames of
// its height and dies only after fading to 0, so what births and deaths add or
// remove in one frame shrinks, and wrinkles whose compression dips below tau
// for a frame or two live on. Measured on real animations against fade_frames
// = 0 (the papers: wrinkles appear and vanish at once).
TEST(WrinkleTrackerTest, FadingTurnsPopsIntoRampsAndLengthensLives) {
  for (const char* name : {"cloth_pants_knee", "fox_walk"}) {
    const io::Animation anim = testing::LoadBundled(name);
    // Summed mid heights of the wrinkles born or dying, per frame, and the
    // median lifetime.
    auto measure = [&](int fade_frames, double* popped, int* median_life) {
      SessionParams params;
      params.wrinkles.fade_frames = fade_frames;
      std::map<uint32_t, double> previous;
      std::vector<int> lives;
      *popped = 0;
      const auto session = testing::RunSessionTo(
          anim, anim.num_frames() - 1, params, [&](int, const Session& s) {
            const WrinkleTracker& t = s.tracker();
            std::map<uint32_t, double> now;
            for (size_t w = 0; w < t.wrinkles().size(); ++w) {
              const WrinklePath& path = t.wrinkles()[w];
              now[path.id] = t.shapes()[w].mid_height;
              if (path.age == 0 && fade_frames > 0) {
                EXPECT_DOUBLE_EQ(path.fade, 1.0 / fade_frames);
              }
              if (!previous.count(path.id)) *popped += now[path.id];
            }
            std::set<uint32_t> joined;  // their folds live on in another
            for (const WrinkleDeath& d : t.deaths()) {
              if (d.joined) joined.insert(d.id);
            }
            for (const auto& [id, height] : previous) {
              if (!now.count(id) && !joined.count(id)) *popped += height;
            }
            previous = std::move(now);
            for (const WrinkleDeath& d : t.deaths()) {
              if (!d.joined) lives.push_back(d.age + 1);
            }
          });
      ASSERT_NE(session, nullptr);
      ASSERT_FALSE(lives.empty());
      std::sort(lives.begin(), lives.end());
      *median_life = lives[lives.size() / 2];
    };
    double popped_at_once = 0, popped_fading = 0;
    int life_at_once = 0, life_fading = 0;
    measure(0, &popped_at_once, &life_at_once);
    measure(WrinkleParams().fade_frames, &popped_fading, &life_fading);
    RecordProperty(std::string(name) + "_popped_ratio",
                   std::to_string(popped_at_once / popped_fading));
    EXPECT_GT(popped_at_once, 3 * popped_fading) << name;
    EXPECT_GT(life_fading, life_at_once) << name;
  }
}

// A wrinkle's width and height follow the largest compression over its
// triangles, which jumps when the path reaches a more (or leaves the most)
// compressed triangle. The shape's value follows it by at most 15 % a frame.
TEST(WrinkleTrackerTest, ShapeCompressionChangesAtMost15PercentAFrame) {
  const io::Animation anim = testing::LoadBundled("fox_walk");
  std::map<uint32_t, double> previous;
  int limited = 0;
  const auto session = testing::RunSessionTo(
      anim, anim.num_frames() - 1, {}, [&](int frame, const Session& s) {
        const WrinkleTracker& t = s.tracker();
        std::map<uint32_t, double> now;
        for (size_t w = 0; w < t.wrinkles().size(); ++w) {
          const WrinklePath& path = t.wrinkles()[w];
          const double c = path.shape_compression;
          EXPECT_EQ(t.shapes()[w].max_compression, c);
          now[path.id] = c;
          const auto it = previous.find(path.id);
          if (it == previous.end()) continue;
          EXPECT_LE(c / it->second, 1.15 + 1e-9)
              << path.id << " frame " << frame;
          EXPECT_GE(c / it->second, 1 / 1.15 - 1e-9)
              << path.id << " frame " << frame;
          double raw = 1.0;
          for (int32_t f : path.faces) {
            raw = std::max(raw, s.compression_field()[f].compression);
          }
          limited += raw != c;
        }
        previous = std::move(now);
      });
  ASSERT_NE(session, nullptr);
  EXPECT_GT(limited, 0);  // the limit did something on this animation
}

TEST(WrinkleTrackerTest, TrouserKneeWrinklesWhileBent) {
  const io::Animation anim = testing::LoadBundled("cloth_pants_knee");
  const auto session = testing::RunSessionTo(
      anim, anim.num_frames() - 1, {}, [](int frame, const Session& s) {
        if (frame < 8) {
          EXPECT_TRUE(s.tracker().wrinkles().empty()) << frame;
        }
        // The first full bend is held over frames 31-42.
        if (frame >= 31 && frame <= 42) {
          EXPECT_GE(s.tracker().wrinkles().size(), 5u) << frame;
        }
      });
  ASSERT_NE(session, nullptr);
}

}  // namespace
}  // namespace crease
