#ifndef CREASE_SERVER_RENDER_LANE_H_
#define CREASE_SERVER_RENDER_LANE_H_

// One GL thread of the render pool: its context, renderers and read-back ring,
// and the frames it has drawn whose pixels are still on their way. It only
// draws and reads back; encoding runs on the pool's encoding threads
// (frame_encoding.h).

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <thread>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/stopwatch.h"
#include "renderer/frame_renderer.h"
#include "renderer/gpu_context.h"
#include "renderer/pixel_readback.h"
#include "renderer/uv_map_renderer.h"
#include "server/frame_encoding.h"
#include "server/render_pool.h"

namespace crease::server {

// SCA 2015's traced wrinkles of `job` (null for another model's job).
const FrameWrinkles* TracedFrame(const RenderJob& job);

// The mesh the screen image draws: the buckling model's own, else the job's.
const renderer::RenderMesh& ScreenMesh(const RenderJob& job);

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

}  // namespace crease::server

#endif  // CREASE_SERVER_RENDER_LANE_H_
