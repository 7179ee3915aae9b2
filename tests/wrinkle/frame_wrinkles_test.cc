#include "wrinkle/data/frame_wrinkles.h"

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/session_runner.h"
#include "tests/wrinkle/wrinkle_sheet_test.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/data/weld.h"
#include "wrinkle/sca2015/session.h"

namespace crease {
namespace {

// A squeezed sheet's wrinkles, exported after the last frame.
FrameWrinkles SqueezedSheetWrinkles(std::unique_ptr<Session>* kept = nullptr) {
  const io::TriangleMesh sheet = MakeGridSheet(20, 20, 1.0f, 1.0f);
  auto session = testing::NewSession(sheet);
  for (const auto& frame : testing::SqueezeThenHold(sheet, 0.5, 10)) {
    EXPECT_TRUE(session->ProcessFrame(frame).ok());
  }
  FrameWrinkles wrinkles;
  session->tracker().ExportFrame(&wrinkles);
  if (kept != nullptr) *kept = std::move(session);
  return wrinkles;
}

TEST(FrameWrinklesTest, ExportCopiesTheTrackersFrame) {
  std::unique_ptr<Session> session;
  const FrameWrinkles wrinkles = SqueezedSheetWrinkles(&session);
  const WrinkleTracker& tracker = session->tracker();
  ASSERT_GT(tracker.wrinkles().size(), 0u);
  ASSERT_EQ(wrinkles.num_wrinkles(),
            static_cast<int>(tracker.wrinkles().size()));
  EXPECT_EQ(wrinkles.min_width, tracker.min_width());
  for (int w = 0; w < wrinkles.num_wrinkles(); ++w) {
    const std::vector<RefinedPoint>& refined = tracker.shapes()[w].refined;
    const absl::Span<const RefinedPoint> exported = wrinkles.refined(w);
    ASSERT_EQ(exported.size(), refined.size());
    for (size_t i = 0; i < refined.size(); ++i) {
      EXPECT_EQ(exported[i].position, refined[i].position);
      EXPECT_EQ(exported[i].width, refined[i].width);
      EXPECT_EQ(exported[i].height, refined[i].height);
    }
    EXPECT_EQ(wrinkles.segments[w], tracker.wrinkles()[w].num_segments());
    // The tracker samples every segment alike.
    EXPECT_EQ(wrinkles.samples_per_segment(w),
              session->params().wrinkles.samples_per_segment);
  }
  EXPECT_EQ(wrinkles.range_offsets, tracker.range_offsets());
  ASSERT_EQ(wrinkles.ranges.size(), tracker.ranges().size());
  for (size_t r = 0; r < wrinkles.ranges.size(); ++r) {
    EXPECT_EQ(wrinkles.ranges[r].wrinkle, tracker.ranges()[r].wrinkle);
    EXPECT_EQ(wrinkles.ranges[r].first_segment,
              tracker.ranges()[r].first_segment);
    EXPECT_EQ(wrinkles.ranges[r].last_segment,
              tracker.ranges()[r].last_segment);
  }
  EXPECT_TRUE(ValidateFrameWrinkles(wrinkles, session->num_triangles()).ok());
  // Exporting again into the same storage gives the same frame.
  FrameWrinkles again = wrinkles;
  tracker.ExportFrame(&again);
  EXPECT_EQ(again.point_offsets, wrinkles.point_offsets);
  EXPECT_EQ(again.points.size(), wrinkles.points.size());
}

// The triangle lists are built when first read after a frame, not in the
// frame: read after every frame or only after the last, they are the same.
TEST(FrameWrinklesTest, ListsReadLateAreTheLastFramesLists) {
  const io::TriangleMesh sheet = MakeGridSheet(20, 20, 1.0f, 1.0f);
  auto every_frame = testing::NewSession(sheet);
  auto last_only = testing::NewSession(sheet);
  FrameWrinkles read_each_time, read_once;
  int frames = 0;
  for (const auto& frame : testing::SqueezeThenHold(sheet, 0.5, 10)) {
    ASSERT_TRUE(every_frame->ProcessFrame(frame).ok());
    ASSERT_TRUE(last_only->ProcessFrame(frame).ok());
    every_frame->tracker().ExportFrame(&read_each_time);
    ++frames;
  }
  ASSERT_GT(frames, 2);
  last_only->tracker().ExportFrame(&read_once);
  ASSERT_FALSE(read_once.ranges.empty());
  EXPECT_EQ(read_once.range_offsets, read_each_time.range_offsets);
  ASSERT_EQ(read_once.ranges.size(), read_each_time.ranges.size());
  for (size_t r = 0; r < read_once.ranges.size(); ++r) {
    EXPECT_EQ(read_once.ranges[r].wrinkle, read_each_time.ranges[r].wrinkle);
    EXPECT_EQ(read_once.ranges[r].first_segment,
              read_each_time.ranges[r].first_segment);
    EXPECT_EQ(read_once.ranges[r].last_segment,
              read_each_time.ranges[r].last_segment);
  }
}

// Refined points of one wrinkle along a circle of radius `radius`, `step`
// radians apart, `segments` path segments of k points each, width 1.
void AddArcWrinkle(double radius, double step, int segments, int k,
                   FrameWrinkles* out) {
  if (out->point_offsets.empty()) out->point_offsets.push_back(0);
  for (int i = 0; i <= segments * k; ++i) {
    const double a = i * step;
    out->points.push_back(
        {Eigen::Vector3d(radius * std::sin(a), radius * (1 - std::cos(a)), 0),
         1.0, 0.1});
  }
  out->point_offsets.push_back(static_cast<int32_t>(out->points.size()));
  out->segments.push_back(segments);
}

// Thinning against its rule, on arcs whose chords' sagitta is known: a chord
// over n steps of angle a skips points at most R (1 - cos(n a / 2)) away.
TEST(ThinRefinedPointsTest, KeepsEveryPointTheToleranceNeeds) {
  FrameWrinkles in;
  AddArcWrinkle(1e6, 1e-9, 3, 4, &in);  // straight: every 4th point
  // R (1 - cos a) = 0.03 < 0.05 (stride 2 fits); over 4 steps the middle
  // point is R (1 - cos 2a) ~ 0.12 away (stride 4 does not).
  const double r = 10.0, a = std::acos(1 - 0.03 / r);
  AddArcWrinkle(r, a, 2, 4, &in);
  AddArcWrinkle(r, 2 * a, 2, 4, &in);   // 0.12 already at stride 2: none
  AddArcWrinkle(1e6, 1e-9, 2, 3, &in);  // odd points per segment: none
  in.range_offsets = {0, 1};
  in.ranges = {{1, 0, 1}};
  in.min_width = 0.5;
  FrameWrinkles out;
  out.points.resize(100);  // stale storage is replaced
  ThinRefinedPoints(in, kThinningTolerance, &out);
  ASSERT_EQ(out.num_wrinkles(), 4);
  const int expected_per_segment[] = {1, 2, 4, 3};
  for (int w = 0; w < 4; ++w) {
    const int k = expected_per_segment[w];
    EXPECT_EQ(out.samples_per_segment(w), k) << w;
    const absl::Span<const RefinedPoint> thinned = out.refined(w);
    const absl::Span<const RefinedPoint> given = in.refined(w);
    ASSERT_EQ(thinned.size(), static_cast<size_t>(in.segments[w] * k + 1));
    const size_t stride = (given.size() - 1) / (thinned.size() - 1);
    for (size_t i = 0; i < thinned.size(); ++i) {
      EXPECT_EQ(thinned[i].position, given[i * stride].position) << w;
    }
    EXPECT_EQ(thinned.back().position, given.back().position);
  }
  EXPECT_EQ(out.segments, in.segments);
  EXPECT_EQ(out.range_offsets, in.range_offsets);
  EXPECT_EQ(out.min_width, in.min_width);
  EXPECT_TRUE(ValidateFrameWrinkles(out, 1).ok());
  // A tighter tolerance keeps the arc's points.
  ThinRefinedPoints(in, 0.01, &out);
  EXPECT_EQ(out.samples_per_segment(1), 4);
  // Points that do not fill whole segments (a client's) keep their last one:
  // 10 points over 2 segments (k = 4) are not thinned by 2 (9 steps).
  FrameWrinkles ragged;
  AddArcWrinkle(1e6, 1e-9, 2, 4, &ragged);
  ragged.points.push_back({Eigen::Vector3d(1e-2, 0, 0), 1.0, 0.1});
  ragged.point_offsets.back() += 1;
  ASSERT_EQ(ragged.samples_per_segment(0), 4);
  ThinRefinedPoints(ragged, kThinningTolerance, &out);
  ASSERT_EQ(out.points.size(), ragged.points.size());
  EXPECT_EQ(out.points.back().position, ragged.points.back().position);
}

TEST(FrameWrinklesTest, NoListsYetIsValidAndEmpty) {
  const WrinkleTracker tracker(WrinkleParams{});
  FrameWrinkles wrinkles;
  wrinkles.segments = {3};  // left over: Export clears it
  tracker.ExportFrame(&wrinkles);
  EXPECT_EQ(wrinkles.num_wrinkles(), 0);
  EXPECT_TRUE(wrinkles.range_offsets.empty());
  EXPECT_TRUE(ValidateFrameWrinkles(wrinkles, 10).ok());
}

// Each fault alone makes a valid frame invalid, with a message naming it.
TEST(FrameWrinklesTest, ValidationNamesEachFault) {
  std::unique_ptr<Session> session;
  const FrameWrinkles valid = SqueezedSheetWrinkles(&session);
  const size_t triangles = session->num_triangles();
  ASSERT_TRUE(ValidateFrameWrinkles(valid, triangles).ok());
  ASSERT_FALSE(valid.ranges.empty());
  const struct {
    std::string name;
    std::function<void(FrameWrinkles&)> spoil;
    std::string message;
  } faults[] = {
      {"lists for another mesh",
       [](FrameWrinkles& w) { w.range_offsets.push_back(w.ranges.size()); },
       "triangle lists"},
      {"offsets that decrease",
       [](FrameWrinkles& w) {
         w.range_offsets[1] = w.range_offsets.back() + 1;
       },
       "decreases"},
      {"point offsets short of the points",
       [](FrameWrinkles& w) { w.points.push_back(w.points.back()); },
       "point offsets"},
      {"a range of no wrinkle",
       [](FrameWrinkles& w) { w.ranges[0].wrinkle = w.num_wrinkles(); },
       "range 0"},
      {"a range past its wrinkle's end",
       [](FrameWrinkles& w) {
         w.ranges[0].last_segment = w.segments[w.ranges[0].wrinkle];
       },
       "range 0"},
      {"a range backwards",
       [](FrameWrinkles& w) {
         w.ranges[0].first_segment = w.ranges[0].last_segment + 1;
       },
       "range 0"},
      {"a point not finite",
       [](FrameWrinkles& w) { w.points[2].position.x() = NAN; }, "point 2"},
      {"a negative height", [](FrameWrinkles& w) { w.points[1].height = -1; },
       "point 1"},
      {"no L_min", [](FrameWrinkles& w) { w.min_width = 0; }, "min_width"},
  };
  for (const auto& fault : faults) {
    FrameWrinkles spoilt = valid;
    fault.spoil(spoilt);
    const absl::Status status = ValidateFrameWrinkles(spoilt, triangles);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << fault.name;
    EXPECT_NE(status.message().find(fault.message), std::string::npos)
        << fault.name << ": " << status;
  }
}

// The renderer welds by WeldVerticesRelative when it is given no ids: the
// same ids the topology computes.
TEST(WeldTest, RelativeWeldingIsTheTopologys) {
  const io::TriangleMesh sheet = MakeGridSheet(4, 4, 1.0f, 1.0f);
  // A soup: every triangle with its own corners.
  std::vector<float> positions;
  std::vector<io::Triangle> soup;
  for (const io::Triangle& t : sheet.triangles) {
    io::Triangle own;
    for (int k = 0; k < 3; ++k) {
      own[k] = static_cast<int32_t>(positions.size() / 3);
      for (int c = 0; c < 3; ++c) {
        positions.push_back(sheet.positions[3 * t[k] + c]);
      }
    }
    soup.push_back(own);
  }
  const auto topology = MeshTopology::Build(soup, positions);
  ASSERT_TRUE(topology.ok()) << topology.status();
  int num_welded = 0;
  EXPECT_EQ(WeldVerticesRelative(positions, kDefaultWeldRelativeTolerance,
                                 &num_welded),
            topology->weld_map());
  EXPECT_EQ(num_welded, 25);
  EXPECT_EQ(topology->num_welded_vertices(), 25);
  WeldVerticesRelative(positions, -1, &num_welded);
  EXPECT_EQ(num_welded, static_cast<int>(positions.size() / 3));
}

}  // namespace
}  // namespace crease
