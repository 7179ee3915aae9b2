#ifndef CREASE_SERVER_THREAD_POOL_H_
#define CREASE_SERVER_THREAD_POOL_H_

#include <deque>
#include <thread>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/synchronization/mutex.h"

namespace crease::server {

// A fixed set of threads running posted tasks in order. The destructor runs
// every task already posted, then joins.
//
// Two lanes, so big work cannot starve small: a task posted as large runs
// only while fewer than threads - 1 large ones run (at least one thread is
// always left for small tasks), and a free thread takes small tasks first.
// With one thread there is no reserve.
class ThreadPool {
 public:
  enum class Lane { kSmall, kLarge };
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Post(absl::AnyInvocable<void() &&> task, Lane lane = Lane::kSmall);

 private:
  void Run();
  bool CanRunLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const int max_large_;  // large tasks running at once
  absl::Mutex mu_;
  std::deque<absl::AnyInvocable<void() &&>> tasks_ ABSL_GUARDED_BY(mu_);
  std::deque<absl::AnyInvocable<void() &&>> large_tasks_ ABSL_GUARDED_BY(mu_);
  int large_running_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_THREAD_POOL_H_
