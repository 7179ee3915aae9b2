#include "common/helper_thread.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace crease {
namespace {

TEST(HelperThreadTest, RunsJobsInTurnAndWaitWaitsForThem) {
  HelperThread helper;
  std::vector<int> done;  // touched by one job at a time, read after Wait
  for (int i = 0; i < 100; ++i) {
    helper.Start([&done, i] {
      if (i % 10 == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      done.push_back(i);
    });
  }
  helper.Wait();
  ASSERT_EQ(done.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(done[i], i);
  helper.Wait();  // nothing running: returns at once
}

TEST(HelperThreadTest, JobRunsOnAnotherThreadAlongsideTheCaller) {
  HelperThread helper;
  std::atomic<bool> caller_reached{false}, helper_saw_caller{false};
  std::thread::id job_thread;
  helper.Start([&] {
    job_thread = std::this_thread::get_id();
    // Runs while the caller goes on: it sees the caller's flag.
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!caller_reached && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    helper_saw_caller = caller_reached.load();
  });
  caller_reached = true;
  helper.Wait();
  EXPECT_TRUE(helper_saw_caller);
  EXPECT_NE(job_thread, std::this_thread::get_id());
}

TEST(HelperThreadTest, HelperJobWaitsWhenItGoesOutOfScope) {
  HelperThread helper;
  int value = 0;
  {
    HelperJob job(&helper, [&value] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      value = 7;
    });
  }  // as an early return would leave it
  EXPECT_EQ(value, 7);
}

TEST(HelperThreadTest, DestructionFinishesTheRunningJob) {
  std::atomic<int> value{0};
  {
    HelperThread helper;
    helper.Start([&value] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      value = 3;
    });
  }
  EXPECT_EQ(value, 3);
}

}  // namespace
}  // namespace crease
