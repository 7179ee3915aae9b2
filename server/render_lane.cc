#include "server/render_lane.h"

#include <malloc.h>

#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"

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

}  // namespace

const FrameWrinkles* TracedFrame(const RenderJob& job) {
  const auto* traced = std::get_if<renderer::TracedWrinkles>(&job.wrinkles);
  return traced != nullptr ? traced->frame : nullptr;
}

const renderer::RenderMesh& ScreenMesh(const RenderJob& job) {
  const auto* own = std::get_if<renderer::MeshWrinkles>(&job.wrinkles);
  return own != nullptr ? own->mesh : job.mesh;
}

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
  auto completion = std::make_shared<FrameEncoding>();
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
  if (screen)
    PostEncodingTask(encoders, completion, &FrameEncoding::EncodeScreen);
  if (maps) {
    PostEncodingTask(encoders, completion, &FrameEncoding::EncodeNormal);
    PostEncodingTask(encoders, completion, &FrameEncoding::EncodeHeight);
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

}  // namespace crease::server
