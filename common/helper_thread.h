#ifndef CREASE_COMMON_HELPER_THREAD_H_
#define CREASE_COMMON_HELPER_THREAD_H_
// One worker thread that runs its owner's jobs one at a time, so a per-frame
// step can put part of its CPU work on a second core: the owner starts a job,
// does other work, then waits for it before touching what the job touches.
// Made for work that would otherwise leave a core idle (the UV maps' set-up
// runs before llvmpipe's rasterising threads have anything to do).

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace crease {

class HelperThread {
 public:
  HelperThread();
  ~HelperThread();  // waits for a running job, then joins
  HelperThread(const HelperThread&) = delete;
  HelperThread& operator=(const HelperThread&) = delete;

  // Runs `job` on the helper. A job already started is waited for first.
  // `job` must not throw; what it refers to must outlive Wait().
  void Start(std::function<void()> job);
  // Returns once the started job (if any) has finished.
  void Wait();

 private:
  void Loop();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> job_;  // guarded by mutex_; empty when none
  bool busy_ = false;          // guarded by mutex_: a job is queued or running
  bool stopping_ = false;      // guarded by mutex_
  std::thread thread_;         // last: starts once the rest is made
};

// Wait()s on destruction: keeps an early return from leaving a job running
// on its caller's data.
class HelperJob {
 public:
  HelperJob(HelperThread* helper, std::function<void()> job) : helper_(helper) {
    helper_->Start(std::move(job));
  }
  ~HelperJob() { helper_->Wait(); }
  HelperJob(const HelperJob&) = delete;
  HelperJob& operator=(const HelperJob&) = delete;
  void Wait() { helper_->Wait(); }

 private:
  HelperThread* helper_;
};

}  // namespace crease

#endif  // CREASE_COMMON_HELPER_THREAD_H_
