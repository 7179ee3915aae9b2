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
class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Post(absl::AnyInvocable<void() &&> task);

 private:
  void Run();
  absl::Mutex mu_;
  std::deque<absl::AnyInvocable<void() &&>> tasks_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_THREAD_POOL_H_
