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

void ThreadPool::TurnQueue::Push(uint64_t owner, Task task) {
  std::deque<Task>& queue = by_owner_[owner];
  if (queue.empty()) turns_.push_back(owner);
  queue.push_back(std::move(task));
}

ThreadPool::Task ThreadPool::TurnQueue::Pop() {
  const uint64_t owner = turns_.front();
  turns_.pop_front();
  const auto it = by_owner_.find(owner);
  Task task = std::move(it->second.front());
  it->second.pop_front();
  if (it->second.empty()) {
    by_owner_.erase(it);
  } else {
    turns_.push_back(owner);  // its next task waits for the others' turns
  }
  return task;
}

void ThreadPool::Post(absl::AnyInvocable<void() &&> task, Lane lane,
                      uint64_t owner) {
  absl::MutexLock lock(&mu_);
  (lane == Lane::kLarge ? large_tasks_ : tasks_).Push(owner, std::move(task));
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
        task = tasks_.Pop();
      } else if (!large_tasks_.empty() && large_running_ < max_large_) {
        task = large_tasks_.Pop();
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
