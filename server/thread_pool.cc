#include "server/thread_pool.h"

#include <algorithm>

namespace crease::server {

ThreadPool::ThreadPool(int threads)
    : max_large_(std::max(std::max(threads, 1) - 1, 1)) {
  threads_.reserve(std::max(threads, 1));
  for (int i = 0; i < std::max(threads, 1); ++i) {
    threads_.emplace_back([this] { Run(); });
  }
}

ThreadPool::~ThreadPool() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  for (std::thread& t : threads_) t.join();
}

void ThreadPool::Post(absl::AnyInvocable<void() &&> task, Lane lane) {
  absl::MutexLock lock(&mu_);
  (lane == Lane::kLarge ? large_tasks_ : tasks_).push_back(std::move(task));
}

bool ThreadPool::CanRunLocked() const {
  return !tasks_.empty() ||
         (!large_tasks_.empty() && large_running_ < max_large_);
}

void ThreadPool::Run() {
  while (true) {
    absl::AnyInvocable<void() &&> task;
    bool large = false;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(
          +[](ThreadPool* p) ABSL_EXCLUSIVE_LOCKS_REQUIRED(p->mu_) {
            return p->CanRunLocked() || (p->stopping_ && p->tasks_.empty() &&
                                         p->large_tasks_.empty());
          },
          this));
      if (!tasks_.empty()) {
        task = std::move(tasks_.front());
        tasks_.pop_front();
      } else if (!large_tasks_.empty() && large_running_ < max_large_) {
        task = std::move(large_tasks_.front());
        large_tasks_.pop_front();
        large = true;
        ++large_running_;
      } else {
        return;  // stopping, and nothing left
      }
    }
    std::move(task)();
    if (large) {
      absl::MutexLock lock(&mu_);
      --large_running_;
    }
  }
}

}  // namespace crease::server
