#include "server/render_pool.h"

#include <algorithm>
#include <limits>
#include <thread>
#include <variant>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "renderer/gpu_context.h"
#include "server/render_lane.h"

namespace crease::server {

absl::StatusOr<std::unique_ptr<RenderPool>> RenderPool::Create(
    const RenderPoolOptions& options) {
  if (options.threads_per_gpu < 1) {
    return absl::InvalidArgumentError("render threads per GPU < 1");
  }
  if (options.frames_in_flight < 1) {
    return absl::InvalidArgumentError("frames in flight < 1");
  }
  std::unique_ptr<RenderPool> pool(new RenderPool());
  pool->prepare_off_gl_thread_ = options.prepare_off_gl_thread;
  pool->prepared_keep_ = static_cast<size_t>(
      std::max(1, options.threads_per_gpu) *
      std::max<size_t>(1, options.gpus.size()) * options.frames_in_flight);

  std::vector<int> devices = options.gpus;
  if (devices.empty()) devices.push_back(-1);
  const int gl_threads =
      static_cast<int>(devices.size()) * options.threads_per_gpu;
  pool->encode_threads_ =
      options.encode_threads > 0
          ? options.encode_threads
          : std::max(2, static_cast<int>(std::thread::hardware_concurrency()) -
                            gl_threads);
  pool->encoders_ = std::make_unique<ThreadPool>(pool->encode_threads_);
  {
    absl::MutexLock lock(&pool->mu_);
    for (int device : devices) pool->queues_.emplace_back().device = device;
  }
  for (size_t q = 0; q < devices.size(); ++q) {
    for (int t = 0; t < options.threads_per_gpu; ++t) {
      pool->lanes_.push_back(std::make_unique<Lane>(
          pool.get(), static_cast<int>(q), devices[q], options.frames_in_flight,
          options.buffer_sets));
    }
  }
  absl::Status startup;
  {
    absl::MutexLock lock(&pool->mu_);
    RenderPool* p = pool.get();
    pool->mu_.Await(absl::Condition(
        +[](RenderPool* p) ABSL_EXCLUSIVE_LOCKS_REQUIRED(p->mu_) {
          return p->ready_ == static_cast<int>(p->lanes_.size());
        },
        p));
    startup = pool->startup_;
  }
  if (!startup.ok()) return startup;  // the destructor joins the threads
  if (devices.size() > 1) {
    pool->renderer_name_ =
        absl::StrCat(devices.size(), " GPUs: ", pool->renderer_name_);
  }
  return pool;
}

void RenderPool::Ready(const absl::Status& status,
                       const renderer::GpuInfo* info) {
  absl::MutexLock lock(&mu_);
  startup_.Update(status);
  // Which EGL platform was found tells an operator whether the GPU is in
  // use (device) or software rendering (surfaceless).
  if (info != nullptr && renderer_name_.empty()) {
    renderer_name_ = absl::StrCat(
        info->renderer, " via EGL ", info->platform, " platform",
        info->device >= 0 ? absl::StrCat(" (device ", info->device, ")") : "");
    passed_over_ = info->passed_over;
  }
  ++ready_;
}

absl::StatusOr<std::vector<int>> ParseGpuList(absl::string_view text) {
  std::vector<int> gpus;
  if (text.empty()) return gpus;
  if (text == "all") {
    gpus = renderer::GpuContext::HardwareEglDevices();
    if (gpus.empty()) {
      return absl::InvalidArgumentError(
          "--gpus all: EGL lists no GPU (no device platform, or only Mesa's "
          "software device); leave --gpus empty for software rendering");
    }
    return gpus;
  }
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    int index = -1;
    if (!absl::SimpleAtoi(part, &index) || index < 0 || index > 15) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--gpus: '", part, "' is not an EGL device index 0..15 or 'all'"));
    }
    if (std::find(gpus.begin(), gpus.end(), index) != gpus.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--gpus: device ", index, " named twice"));
    }
    gpus.push_back(index);
  }
  return gpus;
}

RenderPool::~RenderPool() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  lanes_.clear();     // each finishes its queue's jobs, then joins
  encoders_.reset();  // runs the encodings left, then joins
}

void RenderPool::Submit(RenderJob job,
                        absl::AnyInvocable<void(RenderOutcome) &&> done) {
  Queued item{std::move(job), std::move(done), Stopwatch(), nullptr};
  const RenderJob& j = item.job;
  if (prepare_off_gl_thread_ && j.screen &&
      !std::holds_alternative<renderer::PatternWrinkles>(j.wrinkles) &&
      (j.abandoned == nullptr || !j.abandoned->load())) {
    PrepareThenEnqueue(std::move(item));
    return;
  }
  absl::MutexLock lock(&mu_);
  EnqueueLocked(std::move(item));
}

void RenderPool::EnqueueLocked(Queued item) {
  size_t best = 0;
  int best_load = std::numeric_limits<int>::max();
  for (size_t q = 0; q < queues_.size(); ++q) {
    const int load = static_cast<int>(queues_[q].jobs.size()) + queues_[q].busy;
    if (load < best_load) {
      best = q;
      best_load = load;
    }
  }
  queues_[best].jobs.push_back(std::move(item));
}

void RenderPool::PrepareThenEnqueue(Queued item) {
  {
    absl::MutexLock lock(&mu_);
    ++preparing_;
  }
  encoders_->Post([this, item = std::move(item)]() mutable {
    item.prepared = TakePrepared();
    const absl::Status prepared = renderer::FrameRenderer::Prepare(
        ScreenMesh(item.job), TracedFrame(item.job), item.job.options,
        item.prepared.get());
    // A frame that fails here is queued unprepared: the GL thread's own
    // attempt answers it with the same error, UV maps and all.
    if (!prepared.ok()) GivePrepared(std::move(item.prepared));
    item.queued = Stopwatch();  // queue_ms: the wait for a GL thread only
    absl::MutexLock lock(&mu_);
    EnqueueLocked(std::move(item));
    --preparing_;
  });
}

std::unique_ptr<renderer::PreparedFrame> RenderPool::TakePrepared() {
  absl::MutexLock lock(&prepared_mu_);
  if (prepared_free_.empty()) {
    return std::make_unique<renderer::PreparedFrame>();
  }
  std::unique_ptr<renderer::PreparedFrame> frame =
      std::move(prepared_free_.back());
  prepared_free_.pop_back();
  return frame;
}

void RenderPool::GivePrepared(std::unique_ptr<renderer::PreparedFrame> frame) {
  if (frame == nullptr) return;
  absl::MutexLock lock(&prepared_mu_);
  // As many as the GL threads can hold in flight; a burst's extra ones go,
  // so a burst of large meshes does not keep their storage.
  if (prepared_free_.size() < prepared_keep_) {
    prepared_free_.push_back(std::move(frame));
  }
}

bool RenderPool::AwaitWork(int queue, absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  struct Args {
    RenderPool* pool;
    int queue;
  } args{this, queue};
  return mu_.AwaitWithTimeout(
      absl::Condition(
          +[](Args* a) ABSL_EXCLUSIVE_LOCKS_REQUIRED(a->pool->mu_) {
            return a->pool->stopping_ ||
                   !a->pool->queues_[a->queue].jobs.empty();
          },
          &args),
      timeout);
}

bool RenderPool::Take(int queue, bool wait, Queued* item) {
  absl::MutexLock lock(&mu_);
  if (wait) {
    struct Args {
      RenderPool* pool;
      int queue;
    } args{this, queue};
    mu_.Await(absl::Condition(
        +[](Args* a) ABSL_EXCLUSIVE_LOCKS_REQUIRED(a->pool->mu_) {
          return (a->pool->stopping_ && a->pool->preparing_ == 0) ||
                 !a->pool->queues_[a->queue].jobs.empty();
        },
        &args));
  }
  GpuQueue& q = queues_[queue];
  if (q.jobs.empty()) return false;
  *item = std::move(q.jobs.front());
  q.jobs.pop_front();
  ++q.busy;
  return true;
}

void RenderPool::Handed(int queue) {
  absl::MutexLock lock(&mu_);
  --queues_[queue].busy;
}

}  // namespace crease::server
