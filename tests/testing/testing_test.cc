// The shared helpers themselves: where they stop, and what they report.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "tests/testing/temp_path.h"
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

// Two processes (ctest's parallel cases) asking for one name get two paths,
// both under TempDir(); one process asking twice gets the same path back. The
// child's folder is gone once it has exited; the parent's is still there.
TEST(TempPathTest, OneNameGivesEachProcessItsOwnPath) {
  const std::string here = testing::TempPath("same_name.glb");
  EXPECT_EQ(testing::TempPath("same_name.glb"), here);
  EXPECT_EQ(here.rfind(::testing::TempDir(), 0), 0u) << here;
  EXPECT_TRUE(here.ends_with("same_name.glb")) << here;
  int pipe_ends[2];
  ASSERT_EQ(pipe(pipe_ends), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const std::string there = testing::TempPath("same_name.glb");
    std::FILE* file = std::fopen(there.c_str(), "w");
    const ssize_t written = write(pipe_ends[1], there.data(), there.size());
    const bool ok = file != nullptr && std::fclose(file) == 0 &&
                    written == static_cast<ssize_t>(there.size());
    std::exit(ok ? 0 : 1);  // exit, not _exit: the folder's removal runs
  }
  close(pipe_ends[1]);
  std::string there;
  char chunk[256];
  ssize_t got;
  while ((got = read(pipe_ends[0], chunk, sizeof(chunk))) > 0) {
    there.append(chunk, got);
  }
  close(pipe_ends[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "the child ended with status " << status
      << " (exit 1: it could not write its file or the pipe)";
  EXPECT_TRUE(there.ends_with("same_name.glb")) << there;
  EXPECT_NE(there, here);
  EXPECT_FALSE(
      std::filesystem::exists(std::filesystem::path(there).parent_path()))
      << there;
  EXPECT_TRUE(
      std::filesystem::is_directory(std::filesystem::path(here).parent_path()))
      << here;
}

}  // namespace
}  // namespace crease
