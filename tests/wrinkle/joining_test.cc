// Joining (wrinkle/sca2015/joining.h): two wrinkles whose ends meet head on
// across a small gap become one.

#include "wrinkle/sca2015/joining.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tests/testing/session_runner.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/sca2015/metrics.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/sca2015/tracing.h"

namespace crease {
namespace {

using testing::NewSession;

// A straight trace cut into two with one triangle's gap between them joins
// back into one valid path through that triangle; a gap beyond max_gap, or
// ends that do not face each other, do not join.
TEST(JoiningTest, TwoTracesMeetingHeadOnBecomeOne) {
  const io::TriangleMesh sheet = MakeGridSheet(20, 20, 1.0f, 1.0f);
  std::vector<float> squeezed = sheet.positions;
  for (size_t v = 0; v < squeezed.size(); v += 3) squeezed[v] /= 1.6f;
  SessionParams params;
  params.trace_wrinkles = false;
  auto session = NewSession(sheet, params);
  ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
  ASSERT_TRUE(session->ProcessFrame(squeezed).ok());
  const SurfaceFrame& surface = session->surface();
  SegmentIndex segments;
  segments.Reset(session->num_triangles());
  TraceScratch trace;
  WrinklePath whole;
  // A seed inside a triangle near the middle of the squeezed sheet.
  int32_t face = 0;
  for (int32_t f = 0; f < session->num_triangles(); ++f) {
    const Eigen::Vector3d c =
        (surface.Corner(f, 0) + surface.Corner(f, 1) + surface.Corner(f, 2)) /
        3.0;
    if ((c - Eigen::Vector3d(0.5 / 1.6, 0, 0.52)).norm() < 0.03) face = f;
  }
  const Eigen::Vector3d seed =
      (surface.Corner(face, 0) + surface.Corner(face, 1) +
       surface.Corner(face, 2)) /
      3.0;
  TracingParams tracing;
  ASSERT_TRUE(TraceFromSeed(surface, face, seed, tracing, segments, 0, 0.0,
                            trace, &whole));
  ASSERT_EQ(CheckPath(session->topology(), whole), "");
  ASSERT_GE(whole.num_segments(), 12);
  const int cut = whole.num_segments() / 2;
  auto split = [&](std::vector<WrinklePath>* paths) {
    paths->assign(2, WrinklePath());
    (*paths)[0].id = 7;
    (*paths)[0].age = 20;
    (*paths)[1].id = 9;
    (*paths)[1].age = 3;
    // [0, cut] and [cut + 1, end]: segment cut (one triangle) is the gap.
    (*paths)[0].points.assign(whole.points.begin(),
                              whole.points.begin() + cut + 1);
    (*paths)[0].faces.assign(whole.faces.begin(), whole.faces.begin() + cut);
    (*paths)[1].points.assign(whole.points.begin() + cut + 1,
                              whole.points.end());
    (*paths)[1].faces.assign(whole.faces.begin() + cut + 1, whole.faces.end());
  };
  JoinScratch scratch;
  JoinParams join;
  join.max_gap = 0.2;
  std::vector<WrinklePath> paths;
  split(&paths);
  std::reverse(paths[1].points.begin(), paths[1].points.end());  // either way
  std::reverse(paths[1].faces.begin(), paths[1].faces.end());
  ASSERT_EQ(JoinMeetingEnds(surface, join, segments, scratch, &paths), 1);
  EXPECT_EQ(paths[1].points.size(), 0u);  // absorbed: dies as broken
  const WrinklePath& joined = paths[0];
  EXPECT_EQ(CheckPath(session->topology(), joined), "");
  EXPECT_EQ(joined.id, 7u);  // the older one's
  EXPECT_EQ(joined.age, 20);
  EXPECT_EQ(joined.num_segments(), whole.num_segments());
  EXPECT_NEAR(PathLength(surface, joined), PathLength(surface, whole),
              1e-9 * PathLength(surface, whole));

  split(&paths);
  join.max_gap = 0.01;  // the gap is a triangle, ~0.05
  EXPECT_EQ(JoinMeetingEnds(surface, join, segments, scratch, &paths), 0);
  // Side by side, not head on: the second half moved next to the first.
  split(&paths);
  paths[1] = paths[0];
  paths[1].id = 9;
  join.max_gap = 0.2;
  EXPECT_EQ(JoinMeetingEnds(surface, join, segments, scratch, &paths), 0);
}

}  // namespace
}  // namespace crease
