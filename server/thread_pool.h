#ifndef CREASE_SERVER_THREAD_POOL_H_
#define CREASE_SERVER_THREAD_POOL_H_

#include <cstdint>
#include <deque>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/any_invocable.h"
#include "absl/synchronization/mutex.h"

namespace crease::server {

// A fixed set of threads running posted tasks. The destructor runs every
// task already posted, then joins.
//
// Two lanes, so big work cannot starve small: a task posted as large runs
// only while fewer than threads - 1 large ones run (at least one thread is
// always left for small tasks), and a free thread takes small tasks first.
// With one thread there is no reserve.
//
// Within a lane, tasks are taken in turn by owner (a client), each owner's
// in the order posted: an owner with 64 tasks waiting and one with a single
// task take one turn each, so a client with many sessions gets no more of a
// lane than a client with one while both wait.
class ThreadPool {
 public:
  enum class Lane { kSmall, kLarge };
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // `owner`: whose turn the task takes (any key; tasks of one owner run in
  // the order posted, owners in turn).
  void Post(absl::AnyInvocable<void() &&> task, Lane lane = Lane::kSmall,
            uint64_t owner = 0);

 private:
  using Task = absl::AnyInvocable<void() &&>;
  // Owners in turn, each one's tasks in order.
  class TurnQueue {
   public:
    bool empty() const { return turns_.empty(); }
    void Push(uint64_t owner, Task task);
    Task Pop();  // not empty

   private:
    absl::flat_hash_map<uint64_t, std::deque<Task>> by_owner_;
    std::deque<uint64_t> turns_;  // owners with tasks, next first
  };

  void Run();
  bool CanRunLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const int max_large_;  // large tasks running at once
  absl::Mutex mu_;
  TurnQueue tasks_ ABSL_GUARDED_BY(mu_);
  TurnQueue large_tasks_ ABSL_GUARDED_BY(mu_);
  int large_running_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_THREAD_POOL_H_
