#ifndef CREASE_SERVER_RENDER_POOL_H_
#define CREASE_SERVER_RENDER_POOL_H_

#include <atomic>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "common/stopwatch.h"
#include "renderer/frame_renderer.h"
#include "renderer/pattern_data.h"
#include "renderer/uv_maps.h"
#include "server/thread_pool.h"

namespace crease::server {

enum class ImageEncoding { kJpeg, kPng };

// One frame to draw. Everything borrowed stays valid and unchanged until `done`
// has run (the session waits for its image before it reads the next frame).
struct RenderJob {
  renderer::RenderMesh mesh;  // with corner_uvs when uv_maps is set
  // The session's model's wrinkles, borrowing its storage. The UV maps are
  // drawn from SCA 2015's traced wrinkles only (a Start asking for them with
  // another model is refused).
  renderer::WrinkleDraw wrinkles;
  // Draw the screen image with `options` (Outputs.image).
  bool screen = true;
  renderer::RenderOptions options;
  // Draw the UV-space maps too (Outputs.uv_maps), PNG-encoded unless raw.
  std::optional<renderer::UvMapOptions> uv_maps;
  bool uv_maps_raw = false;
  ImageEncoding encoding = ImageEncoding::kJpeg;
  int jpeg_quality = 90;
  // Set (by the session) once nobody wants the image: a call cancelled or past
  // the shutdown grace. The job is then skipped, answered CANCELLED.
  const std::atomic<bool>* abandoned = nullptr;
};

// A frame's UV-space maps as they go on the wire (v1::UvMaps).
struct EncodedUvMaps {
  int size = 0;
  std::string normal_map, height_map;
  float height_range = 0;
  int height_zero = 0;
};

struct RenderOutcome {
  absl::StatusOr<std::string> encoded;  // the screen image, when asked for
  // When the job asked for them.
  std::optional<absl::StatusOr<EncodedUvMaps>> uv_maps;
  double uv_maps_ms = 0;  // drawing, reading and encoding the maps
  double queue_ms = 0;    // waiting for a GL thread
  double render_ms = 0;   // drawing until the pixels are in CPU memory
  double encode_ms = 0;   // waiting for an encoding thread and encoding
};

// --gpus: "" (the default choice), "all" (every GPU EGL lists) or
// comma-separated EGL device indices. InvalidArgument naming the bad part, or
// "all" where EGL lists no GPU.
absl::StatusOr<std::vector<int>> ParseGpuList(absl::string_view text);

struct RenderPoolOptions {
  // EGL device indices (GpuContext::HardwareEglDevices) to render on, one
  // queue each; empty: one queue on the first GPU that works, else software
  // rendering (llvmpipe).
  std::vector<int> gpus;
  // GL threads (one context each) draining each GPU's queue; they only draw
  // and read back.
  int threads_per_gpu = 1;
  // Threads that encode JPEG / PNG (screen images and UV maps) off the GL
  // threads; 0: the cores left after the GL threads, at least 2.
  int encode_threads = 0;
  // Frames each GL thread keeps in flight (drawn, pixels travelling or being
  // encoded) before it waits for the oldest. 16, not 4: on an H200 the GPU
  // finished 4 frames before the GL thread had queued the next, and the pool
  // drew 1,769 Fox frames/s (640 x 480) against 2,351 with 16, the drawing and
  // read-back ceiling (docs/benchmarks.md). Each slot keeps a read-back
  // buffer of the largest frame it has held, up to 1080p (8 MB), until the
  // GL thread has been idle for 2 s.
  int frames_in_flight = 16;
  // Sets of per-frame GPU inputs each GL thread rotates through
  // (FrameRenderer::Create); 0: frames_in_flight + 1, so a frame never
  // overwrites inputs the GPU may still read. Smaller only to measure what
  // the rotation saves.
  int buffer_sets = 0;
  // Prepare wrinkled screen frames (FrameRenderer::Prepare: normals, wrinkle
  // buffers, culling) on the encoding pool before they reach a GL thread,
  // which then only uploads and draws; false: on the GL thread (a baseline
  // to measure against: docs/benchmarks.md has both, on llvmpipe and an
  // H200).
  bool prepare_off_gl_thread = true;
};

// The render path (docs/architecture.md, "How an image frame moves"): one
// queue per GPU, drained by its GL threads, which draw queued jobs back to
// back and read each frame back asynchronously (PixelReadback: pixel buffers
// and fences), so the GPU draws the next frames while earlier pixels travel;
// a CPU pool encodes the pixels straight from the mapped buffers and calls
// `done`. Submitting never blocks: each session has at most one frame in
// work, so a queue holds at most one job per image session.
class RenderPool {
 public:
  // Fails (naming what EGL tried) if any GL thread cannot get a context.
  static absl::StatusOr<std::unique_ptr<RenderPool>> Create(
      const RenderPoolOptions& options);
  static absl::StatusOr<std::unique_ptr<RenderPool>> Create(int threads) {
    RenderPoolOptions options;
    options.threads_per_gpu = threads;
    return Create(options);
  }
  // Finishes the queued jobs, then joins.
  ~RenderPool();

  // Queues `job` on the least busy GPU and returns. `done` runs on an
  // encoding thread (or a GL thread, for a job that failed before encoding).
  void Submit(RenderJob job, absl::AnyInvocable<void(RenderOutcome) &&> done);

  const std::string& renderer_name() const { return renderer_name_; }
  // Why EGL passed over the platforms or devices it tried before the one
  // used (GpuInfo::passed_over of the first GL thread); empty: none.
  const std::string& passed_over() const { return passed_over_; }
  int threads() const { return static_cast<int>(lanes_.size()); }
  // Bytes of read-back buffers the GL threads hold (each slot keeps one of
  // the largest frame it carried, until the thread has been idle a while:
  // kIdleTrimAfter in render_lane.cc).
  int64_t held_readback_bytes() const { return held_readback_bytes_.load(); }
  int gpus() const { return static_cast<int>(queues_.size()); }
  int encode_threads() const { return encode_threads_; }

  // For tests: the next frame a GL thread draws fails its GL check, as a
  // lost context or a driver error would make it; the thread then makes a
  // fresh context.
  void InjectGlErrorForTest() { inject_gl_error_.store(true); }

 private:
  struct Queued {
    RenderJob job;
    absl::AnyInvocable<void(RenderOutcome) &&> done;
    Stopwatch queued;
    // Set: the screen frame's CPU half, made on the encoding pool.
    std::unique_ptr<renderer::PreparedFrame> prepared;
  };
  struct GpuQueue {
    int device = -1;
    std::deque<Queued> jobs;
    int busy = 0;  // jobs taken by its GL threads and not yet handed over
  };
  class Lane;  // render_lane.h: one GL thread
  RenderPool() = default;
  // Blocks until `queue` has a job or the pool stops (`wait`), else returns
  // at once; false when there is none.
  bool Take(int queue, bool wait, Queued* item);
  // Waits at most `timeout` for a job on `queue` (or the pool stopping);
  // false when none came.
  bool AwaitWork(int queue, absl::Duration timeout);
  void Handed(int queue);  // a taken job left its GL thread
  // Queues `item` on the least busy GPU.
  void EnqueueLocked(Queued item) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Prepares `item`'s screen frame on the encoding pool, then queues it
  // (unprepared when Prepare fails: the GL thread then answers the error).
  void PrepareThenEnqueue(Queued item);
  std::unique_ptr<renderer::PreparedFrame> TakePrepared();
  void GivePrepared(std::unique_ptr<renderer::PreparedFrame> frame);
  void Ready(const absl::Status& status, const renderer::GpuInfo* info);

  absl::Mutex mu_;
  std::deque<GpuQueue> queues_ ABSL_GUARDED_BY(mu_);  // never moved
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  int preparing_ ABSL_GUARDED_BY(mu_) = 0;  // jobs on the encoding pool
  bool prepare_off_gl_thread_ = true;
  size_t prepared_keep_ = 8;  // free PreparedFrames kept: GL threads x slots
  absl::Mutex prepared_mu_;
  std::vector<std::unique_ptr<renderer::PreparedFrame>> prepared_free_
      ABSL_GUARDED_BY(prepared_mu_);
  int ready_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Status startup_ ABSL_GUARDED_BY(mu_);
  std::string renderer_name_;
  std::string passed_over_;
  int encode_threads_ = 0;
  std::atomic<bool> inject_gl_error_{false};
  std::atomic<int64_t> held_readback_bytes_{0};
  std::unique_ptr<ThreadPool> encoders_;  // joined after the lanes
  std::vector<std::unique_ptr<Lane>> lanes_;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_RENDER_POOL_H_
