// ThreadPool: every posted task runs before the destructor returns, large
// tasks never take the last thread from small ones, a one-thread pool runs
// large tasks too, and owners take turns.

#include "server/thread_pool.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace crease::server {
namespace {

TEST(ThreadPoolTest, RunsEveryPostedTaskBeforeItsDestructorReturns) {
  std::atomic<int> ran{0};
  {
    ThreadPool pool(3);
    for (int i = 0; i < 200; ++i) {
      pool.Post([&ran] { ++ran; }, i % 3 == 0 ? ThreadPool::Lane::kLarge
                                              : ThreadPool::Lane::kSmall);
    }
  }
  EXPECT_EQ(ran, 200);
}

// Three threads, three large tasks that hold their thread: two run, the
// third waits, and a small task posted while they hold still runs.
TEST(ThreadPoolTest, LargeTasksLeaveOneThreadToSmallOnes) {
  absl::Notification release;
  std::atomic<int> large_running{0}, large_started{0};
  absl::Notification small_ran;
  {
    ThreadPool pool(3);
    // Destroyed before the pool, on any exit: the tasks never hold its join.
    absl::Cleanup let_go = [&release] {
      if (!release.HasBeenNotified()) release.Notify();
    };
    for (int i = 0; i < 3; ++i) {
      pool.Post(
          [&] {
            ++large_started;
            ++large_running;
            release.WaitForNotification();
            --large_running;
          },
          ThreadPool::Lane::kLarge);
    }
    const absl::Time deadline = absl::Now() + absl::Seconds(30);
    while (large_running < 2 && absl::Now() < deadline) {
      absl::SleepFor(absl::Milliseconds(1));
    }
    ASSERT_EQ(large_running, 2);
    absl::SleepFor(absl::Milliseconds(50));  // the third would start by now
    EXPECT_EQ(large_started, 2);
    pool.Post([&] { small_ran.Notify(); });
    EXPECT_TRUE(small_ran.WaitForNotificationWithTimeout(absl::Seconds(30)));
    EXPECT_EQ(large_started, 2);
  }
  EXPECT_EQ(large_started, 3);  // the third ran once one of the first ended
}

TEST(ThreadPoolTest, OneThreadRunsLargeTasksToo) {
  absl::Notification ran;
  ThreadPool pool(1);
  pool.Post([&ran] { ran.Notify(); }, ThreadPool::Lane::kLarge);
  EXPECT_TRUE(ran.WaitForNotificationWithTimeout(absl::Seconds(30)));
}

// One thread held while a client posts ten tasks and another one: the
// other's runs second, not eleventh; each client's run in the order posted.
TEST(ThreadPoolTest, OwnersTakeTurns) {
  absl::Notification release;
  absl::Mutex mu;
  std::vector<std::string> order;
  {
    ThreadPool pool(1);
    absl::Cleanup let_go = [&release] {
      if (!release.HasBeenNotified()) release.Notify();
    };
    pool.Post([&release] { release.WaitForNotification(); });
    auto record = [&](std::string name) {
      return [&mu, &order, name] {
        absl::MutexLock lock(&mu);
        order.push_back(name);
      };
    };
    for (int i = 0; i < 10; ++i) {
      pool.Post(record("a" + std::to_string(i)), ThreadPool::Lane::kSmall, 1);
    }
    pool.Post(record("b0"), ThreadPool::Lane::kSmall, 2);
    pool.Post(record("b1"), ThreadPool::Lane::kSmall, 2);
    release.Notify();
  }
  const std::vector<std::string> expected = {
      "a0", "b0", "a1", "b1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"};
  EXPECT_EQ(order, expected);
}

}  // namespace
}  // namespace crease::server
