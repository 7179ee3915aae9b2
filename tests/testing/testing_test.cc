// The shared helpers themselves: where they stop, and what they report.

#include <memory>

#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/sca2015/session.h"

namespace crease {
namespace {

TEST(BundledDataTest, LoadsASetAndReportsAMissingOne) {
  const io::Animation fox = testing::LoadBundled("fox_walk");
  EXPECT_EQ(fox.num_frames(), 85);
  EXPECT_EQ(fox.mesh.num_triangles(), 576);
  io::Animation missing;
  EXPECT_NONFATAL_FAILURE(missing = testing::LoadBundled("no_such_set"),
                          "no_such_set.obj");
  EXPECT_EQ(missing.num_frames(), 0);
  EXPECT_TRUE(missing.mesh.triangles.empty());
}

TEST(RunSessionToTest, ProcessesFramesZeroToLastInOrder) {
  const io::Animation fox = testing::LoadBundled("fox_walk");
  int next = 0;
  const auto session =
      testing::RunSessionTo(fox, 36, {}, [&](int frame, const Session& s) {
        EXPECT_EQ(frame, next++);
        EXPECT_EQ(s.frames_processed(), frame + 1);
      });
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(session->frames_processed(), 37);
  EXPECT_EQ(testing::RunSessionTo(fox, -1)->frames_processed(), 0);
}

TEST(RunSessionToTest, FailsPastTheLastFrameAndOnAnEmptyAnimation) {
  const io::Animation fox = testing::LoadBundled("fox_walk");
  std::unique_ptr<Session> session;
  EXPECT_NONFATAL_FAILURE(session = testing::RunSessionTo(fox, 85),
                          "last_frame 85 is past the animation (85 frames)");
  EXPECT_EQ(session, nullptr);
  EXPECT_NONFATAL_FAILURE(session = testing::RunSessionTo(io::Animation{}, -1),
                          "triangles: none given");
  EXPECT_EQ(session, nullptr);
}

}  // namespace
}  // namespace crease
