#include "server/render_pool.h"

#include <malloc.h>

#include <algorithm>
#include <limits>
#include <variant>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/status_macros.h"
#include "image/image_encoding.h"
#include "renderer/gpu_context.h"
#include "renderer/pixel_readback.h"
#include "renderer/uv_map_renderer.h"

namespace crease::server {
namespace {

// Images larger than this (1080p; the framebuffers are ~40 bytes a pixel with
// 4x MSAA, depth and the resolve) are drawn in framebuffers made for them and
// freed right after, with the heap's free pages given back: one 4096x4096
// request used to keep ~600 MB per GL thread until a smaller one came.
constexpr int64_t kKeptTargetPixels = 1920 * 1080;

// A GL thread that has had no frame for this long gives back the read-back
// buffers larger than a 640x480 frame: 16 slots of 1080p frames are 133 MB
// that no session's budget counts once those sessions have ended; 16 of
// 640x480 are 20 MB, within kServerBaseBytes.
constexpr absl::Duration kIdleTrimAfter = absl::Seconds(2);
constexpr size_t kIdleKeptSlotBytes = size_t{640} * 480 * 4;

// UV-map buffers (a 1024² pair is 6 MB) kept for reuse between frames: a GL
// thread draws into one, an encoding thread gives it back.
struct UvBufferPool {
  absl::Mutex mu;
  std::vector<std::unique_ptr<renderer::UvMaps>> free ABSL_GUARDED_BY(mu);

  std::unique_ptr<renderer::UvMaps> Take() {
    absl::MutexLock lock(&mu);
    if (free.empty()) return std::make_unique<renderer::UvMaps>();
    std::unique_ptr<renderer::UvMaps> maps = std::move(free.back());
    free.pop_back();
    return maps;
  }
  void Give(std::unique_ptr<renderer::UvMaps> maps) {
    absl::MutexLock lock(&mu);
    if (free.size() < 4) free.push_back(std::move(maps));
  }
};

// One frame's encoding, split into tasks (the screen image, the normal map,
// the height map) that encoding threads run side by side; the last to end
// answers.
struct Completion {
  RenderOutcome outcome;
  absl::AnyInvocable<void(RenderOutcome) &&> done;
  ImageEncoding encoding = ImageEncoding::kJpeg;
  int jpeg_quality = 90;
  bool uv_maps_raw = false;
  renderer::ReadbackPixels pixels;            // set: encode the screen image
  std::unique_ptr<renderer::UvMaps> uv_maps;  // set: encode the maps
  std::shared_ptr<UvBufferPool> uv_pool;
  absl::StatusOr<std::string> normal_map, height_map;
  std::atomic<int> left{0};
  Stopwatch handed;  // since the GL thread handed the frame over

  void EncodeScreen() {
    outcome.encoded = encoding == ImageEncoding::kPng
                          ? image::EncodePng(pixels.rows())
                          : image::EncodeJpeg(pixels.rows(), jpeg_quality);
    pixels = renderer::ReadbackPixels();  // the slot goes back at once
    outcome.encode_ms = handed.Elapsed();
  }
  // The maps as the wire carries them: PNG, or raw rows (the height map's
  // 16-bit values little-endian).
  void EncodeNormal() {
    if (uv_maps_raw) {
      normal_map = std::string(uv_maps->normal.pixels.begin(),
                               uv_maps->normal.pixels.end());
    } else {
      normal_map = image::EncodePng(uv_maps->normal, 1, image::PngFilter::kSub);
    }
  }
  void EncodeHeight() {
    const renderer::UvMaps& maps = *uv_maps;
    if (uv_maps_raw) {
      std::string raw(2 * maps.height.size(), '\0');
      for (size_t i = 0; i < maps.height.size(); ++i) {
        raw[2 * i] = static_cast<char>(maps.height[i] & 0xff);
        raw[2 * i + 1] = static_cast<char>(maps.height[i] >> 8);
      }
      height_map = std::move(raw);
    } else {
      height_map = image::EncodePngGray16(maps.size, maps.size, maps.height, 1,
                                          image::PngFilter::kSub);
    }
  }
  // Runs on the thread that ended the last task.
  void Answer() {
    if (uv_maps != nullptr) {
      if (!normal_map.ok()) {
        outcome.uv_maps = normal_map.status();
      } else if (!height_map.ok()) {
        outcome.uv_maps = height_map.status();
      } else {
        EncodedUvMaps encoded;
        encoded.size = uv_maps->size;
        encoded.height_range = uv_maps->height_range;
        encoded.height_zero = uv_maps->height_zero;
        encoded.normal_map = *std::move(normal_map);
        encoded.height_map = *std::move(height_map);
        outcome.uv_maps = std::move(encoded);
      }
      outcome.uv_maps_ms += handed.Elapsed();
      uv_pool->Give(std::move(uv_maps));
    }
    std::move(done)(std::move(outcome));
  }
};

// Runs `task` of `completion` on `encoders`; the last task answers.
void PostTask(ThreadPool* encoders, std::shared_ptr<Completion> completion,
              void (Completion::*task)()) {
  encoders->Post([completion = std::move(completion), task] {
    ((*completion).*task)();
    if (completion->left.fetch_sub(1) == 1) completion->Answer();
  });
}

// SCA 2015's traced wrinkles of `job` (null for another model's job).
const FrameWrinkles* TracedFrame(const RenderJob& job) {
  const auto* traced = std::get_if<renderer::TracedWrinkles>(&job.wrinkles);
  return traced != nullptr ? traced->frame : nullptr;
}

// The mesh the screen image draws: the buckling model's own, else the job's.
const renderer::RenderMesh& ScreenMesh(const RenderJob& job) {
  const auto* own = std::get_if<renderer::MeshWrinkles>(&job.wrinkles);
  return own != nullptr ? own->mesh : job.mesh;
}

}  // namespace

// One GL thread: its context, renderers and read-back ring, and the frames
// it has drawn whose pixels are still on their way.
class RenderPool::Lane {
 public:
  Lane(RenderPool* pool, int queue, int device, int frames_in_flight,
       int buffer_sets)
      : pool_(pool),
        queue_(queue),
        device_(device),
        slots_(frames_in_flight),
        buffer_sets_(buffer_sets > 0 ? buffer_sets : frames_in_flight + 1),
        uv_buffers_(std::make_shared<UvBufferPool>()),
        thread_([this] { Run(); }) {}
  ~Lane() { thread_.join(); }

 private:
  struct Pending {
    Queued item;
    RenderOutcome outcome;
    std::optional<renderer::ReadbackTicket> ticket;
    std::unique_ptr<renderer::UvMaps> uv_maps;
    Stopwatch drawn;  // since its drawing began
    bool large = false;
  };

  absl::Status MakeRenderers();
  void DropRenderers();
  void Run();
  void Draw(Pending& frame);
  void DrawUvMaps(Pending& frame);
  // The screen image of a job not prepared off this thread, by its model.
  absl::StatusOr<renderer::ReadbackTicket> DrawScreen(const RenderJob& job);
  void FinishOldest();
  void Fail(Pending& frame, const absl::Status& status);
  // With nothing in flight and read-back buffers above what 640x480 frames
  // need, waits kIdleTrimAfter for work and trims them if none came.
  void TrimWhenIdle();
  // Brings the pool's held_readback_bytes() up to date with this lane's.
  void ReportHeldBytes();

  RenderPool* const pool_;
  const int queue_, device_, slots_, buffer_sets_;
  std::shared_ptr<UvBufferPool> uv_buffers_;
  std::unique_ptr<renderer::GpuContext> gpu_;
  std::unique_ptr<renderer::FrameRenderer> frame_;
  std::unique_ptr<renderer::PixelReadback> readback_;
  // Made on the first job that asks for UV maps: a paths-and-images server
  // never compiles its shaders.
  std::unique_ptr<renderer::UvMapRenderer> uv_renderer_;
  std::deque<Pending> pending_;
  bool broken_ = false;         // the context failed a check: make a fresh one
  bool trim_pending_ = false;   // a read-back slot is larger than 1080p
  int64_t reported_bytes_ = 0;  // this lane's part of held_readback_bytes_
  std::thread thread_;          // last: starts once the rest is made
};

absl::Status RenderPool::Lane::MakeRenderers() {
  // All or nothing: a lane has its context and both renderers, or none.
  renderer::GpuContextOptions options;
  options.device = device_;
  CREASE_ASSIGN_OR_RETURN(std::unique_ptr<renderer::GpuContext> gpu,
                          renderer::GpuContext::Create(options));
  absl::StatusOr<std::unique_ptr<renderer::FrameRenderer>> frame =
      renderer::FrameRenderer::Create(gpu.get(), buffer_sets_);
  if (!frame.ok()) return frame.status();
  absl::StatusOr<std::unique_ptr<renderer::PixelReadback>> readback =
      renderer::PixelReadback::Create(gpu.get(), slots_);
  if (!readback.ok()) {
    frame->reset();  // its GL objects go while the context is current
    return readback.status();
  }
  gpu_ = std::move(gpu);
  frame_ = *std::move(frame);
  readback_ = *std::move(readback);
  return absl::OkStatus();
}

void RenderPool::Lane::DropRenderers() {
  // What a failed context drew is never answered: the frames still in flight
  // fail with the one that found the failure.
  if (broken_) {
    for (Pending& frame : pending_) {
      if (frame.ticket) (void)readback_->Finish(*frame.ticket);
      frame.ticket.reset();
      Fail(frame, absl::UnavailableError(
                      "the frame was drawn on a GPU context that failed "
                      "since; the renderer starts a fresh one"));
    }
  }
  while (!pending_.empty()) FinishOldest();
  // GL objects go before their context; the read-back ring waits for the
  // encoding threads to give its slots back.
  uv_renderer_.reset();
  readback_.reset();
  ReportHeldBytes();
  frame_.reset();
  gpu_.reset();
  broken_ = false;
}

void RenderPool::Lane::Fail(Pending& frame, const absl::Status& status) {
  if (frame.item.job.screen) frame.outcome.encoded = status;
  if (frame.item.job.uv_maps) frame.outcome.uv_maps = status;
  frame.uv_maps.reset();
}

void RenderPool::Lane::DrawUvMaps(Pending& frame) {
  const RenderJob& job = frame.item.job;
  Stopwatch watch;
  if (uv_renderer_ == nullptr) {
    absl::StatusOr<std::unique_ptr<renderer::UvMapRenderer>> made =
        renderer::UvMapRenderer::Create(gpu_.get());
    if (!made.ok()) {
      frame.outcome.uv_maps = made.status();
      return;
    }
    uv_renderer_ = *std::move(made);
  }
  std::unique_ptr<renderer::UvMaps> maps = uv_buffers_->Take();
  const absl::Status drawn = uv_renderer_->Render(job.mesh, TracedFrame(job),
                                                  *job.uv_maps, maps.get());
  frame.outcome.uv_maps_ms = watch.Lap();
  if (drawn.ok()) {
    frame.uv_maps = std::move(maps);
  } else {
    frame.outcome.uv_maps = drawn;
  }
}

absl::StatusOr<renderer::ReadbackTicket> RenderPool::Lane::DrawScreen(
    const RenderJob& job) {
  if (const auto* pattern =
          std::get_if<renderer::PatternWrinkles>(&job.wrinkles)) {
    return frame_->RenderPatternToReadback(job.mesh, *pattern, job.options,
                                           readback_.get());
  }
  return frame_->RenderToReadback(ScreenMesh(job), TracedFrame(job),
                                  job.options, readback_.get());
}

void RenderPool::Lane::Draw(Pending& frame) {
  const RenderJob& job = frame.item.job;
  if (frame_ == nullptr) {
    if (absl::Status made = MakeRenderers(); !made.ok()) {
      Fail(frame, absl::UnavailableError(absl::StrCat(
                      "no GPU context to draw on: ", made.message())));
      return;
    }
  }
  if (pool_->inject_gl_error_.exchange(false)) gpu_->RaiseGlErrorForTest();
  if (job.screen) {
    absl::StatusOr<renderer::ReadbackTicket> ticket =
        frame.item.prepared != nullptr
            ? frame_->DrawToReadback(*frame.item.prepared, readback_.get())
            : DrawScreen(job);
    if (ticket.ok()) {
      frame.ticket = *ticket;
    } else {
      frame.outcome.encoded = ticket.status();
    }
  }
  if (job.uv_maps) DrawUvMaps(frame);
  if (absl::Status health = gpu_->CheckHealth(); !health.ok()) {
    // Never answer with what a failed context drew.
    if (frame.ticket) (void)readback_->Finish(*frame.ticket);
    frame.ticket.reset();
    Fail(frame, absl::UnavailableError(absl::StrCat(
                    "the frame was not drawn (", health.message(),
                    "); the renderer starts a fresh GPU context")));
    broken_ = true;
  }
}

void RenderPool::Lane::FinishOldest() {
  Pending frame = std::move(pending_.front());
  pending_.pop_front();
  auto completion = std::make_shared<Completion>();
  if (frame.ticket) {
    absl::StatusOr<renderer::ReadbackPixels> pixels =
        readback_->Finish(*frame.ticket);
    if (pixels.ok()) {
      completion->pixels = *std::move(pixels);
    } else {
      frame.outcome.encoded = pixels.status();
      broken_ = true;
    }
  }
  frame.outcome.render_ms = frame.drawn.Lap();
  const RenderJob& job = frame.item.job;
  completion->outcome = std::move(frame.outcome);
  completion->done = std::move(frame.item.done);
  completion->encoding = job.encoding;
  completion->jpeg_quality = job.jpeg_quality;
  completion->uv_maps_raw = job.uv_maps_raw;
  completion->uv_maps = std::move(frame.uv_maps);
  completion->uv_pool = uv_buffers_;
  // A context that failed since this frame was drawn: its pixels are not
  // trusted either.
  if (broken_ && completion->pixels.rows().data != nullptr) {
    completion->pixels = renderer::ReadbackPixels();
    completion->outcome.encoded = absl::UnavailableError(
        "the frame's GPU context failed; the renderer starts a fresh one");
  }
  const bool screen = completion->pixels.rows().data != nullptr;
  const bool maps = completion->uv_maps != nullptr;
  completion->left = (screen ? 1 : 0) + (maps ? 2 : 0);
  ThreadPool* encoders = pool_->encoders_.get();
  if (screen) PostTask(encoders, completion, &Completion::EncodeScreen);
  if (maps) {
    PostTask(encoders, completion, &Completion::EncodeNormal);
    PostTask(encoders, completion, &Completion::EncodeHeight);
  }
  if (!screen && !maps) completion->Answer();  // errors only
  pool_->Handed(queue_);
  if (frame.large && frame_ != nullptr) {
    (void)frame_->ReleaseTarget();  // an error: kept, no harm
    malloc_trim(0);
    trim_pending_ = true;  // its slot is leased to the encoder for now
  }
}

void RenderPool::Lane::TrimWhenIdle() {
  if (!pending_.empty() || readback_ == nullptr ||
      readback_->largest_slot_bytes() <= kIdleKeptSlotBytes) {
    return;
  }
  if (pool_->AwaitWork(queue_, kIdleTrimAfter)) return;
  // Nothing came: every slot is free (nothing pending), its lease back or
  // soon; a leased one is trimmed on a later idle wait.
  (void)readback_->Trim(kIdleKeptSlotBytes);
  ReportHeldBytes();
}

void RenderPool::Lane::ReportHeldBytes() {
  const int64_t held =
      readback_ != nullptr ? static_cast<int64_t>(readback_->held_bytes()) : 0;
  pool_->held_readback_bytes_.fetch_add(held - reported_bytes_);
  reported_bytes_ = held;
}

void RenderPool::Lane::Run() {
  // The context is current on this thread only; it and the renderers live
  // and die here.
  const absl::Status made = MakeRenderers();
  pool_->Ready(made, made.ok() ? &gpu_->info() : nullptr);
  if (!made.ok()) return;
  while (true) {
    if (broken_) DropRenderers();  // the next frame makes a fresh context
    if (trim_pending_ && readback_ != nullptr) {
      // The large frame's slot is freed once its lease has come back.
      trim_pending_ =
          !readback_->Trim(static_cast<size_t>(kKeptTargetPixels) * 4);
      ReportHeldBytes();
    }
    TrimWhenIdle();
    Queued item;
    // With frames in flight, look for more work without waiting: the GPU
    // draws the next frame while earlier pixels travel.
    if (!pool_->Take(queue_, /*wait=*/pending_.empty(), &item)) {
      if (pending_.empty()) break;  // stopping, and nothing is left
      FinishOldest();
      continue;
    }
    if (static_cast<int>(pending_.size()) >= slots_) FinishOldest();
    Pending frame;
    frame.item = std::move(item);
    frame.outcome.queue_ms = frame.item.queued.Lap();
    const RenderJob& job = frame.item.job;
    frame.large = job.screen &&
                  static_cast<int64_t>(job.options.width) * job.options.height >
                      kKeptTargetPixels;
    if (job.abandoned != nullptr && job.abandoned->load()) {
      Fail(frame, absl::CancelledError("the call was cancelled"));
    } else {
      Draw(frame);
    }
    pool_->GivePrepared(std::move(frame.item.prepared));
    pending_.push_back(std::move(frame));
    ReportHeldBytes();
    while (!pending_.empty() &&
           (!pending_.front().ticket ||
            readback_->Arrived(*pending_.front().ticket))) {
      FinishOldest();
    }
  }
  DropRenderers();
}

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
