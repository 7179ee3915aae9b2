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
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "renderer/frame_renderer.h"
#include "renderer/pattern_data.h"
#include "renderer/uv_maps.h"
#include "wrinkle/stopwatch.h"

namespace crease::server {

enum class ImageEncoding { kJpeg, kPng };

// One frame to draw. Everything borrowed stays valid and unchanged until `done`
// has run (the session waits for its image before it reads the next frame).
struct RenderJob {
  renderer::RenderMesh mesh;  // with corner_uvs when uv_maps is set
  const FrameWrinkles* wrinkles = nullptr;
  // Set: the screen image draws the wrinkle-map model instead of `wrinkles`
  // (Parameters.model WRINKLE_MODEL_AMPLITUDE_MAPS), borrowing its storage.
  std::optional<renderer::PatternWrinkles> pattern;
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
};

struct RenderOutcome {
  absl::StatusOr<std::string> encoded;  // the screen image, when asked for
  // When the job asked for them.
  std::optional<absl::StatusOr<EncodedUvMaps>> uv_maps;
  double uv_maps_ms = 0;
  double queue_ms = 0;  // waiting for a render thread
  double render_ms = 0;
  double encode_ms = 0;
};

// Render threads, each owning one EGL context and FrameRenderer, fed by one
// FIFO queue. Submitting never blocks: each session has at most one frame in
// work, so the queue holds at most one job per image session, and a worker
// that hands a render over goes straight back to other sessions' frames.
class RenderPool {
 public:
  // Fails (naming what EGL tried) if any thread cannot get a context.
  static absl::StatusOr<std::unique_ptr<RenderPool>> Create(int threads);
  // Finishes the queued jobs, then joins.
  ~RenderPool();

  // Queues `job` and returns. `done` runs on a render thread.
  void Submit(RenderJob job, absl::AnyInvocable<void(RenderOutcome) &&> done);

  const std::string& renderer_name() const { return renderer_name_; }
  int threads() const { return static_cast<int>(threads_.size()); }

 private:
  struct Queued {
    RenderJob job;
    absl::AnyInvocable<void(RenderOutcome) &&> done;
    Stopwatch queued;
  };
  // What one render thread owns: its context and renderers.
  struct ThreadRenderers;
  RenderPool() = default;
  void Run(int index);
  static void RenderOne(Queued& item, ThreadRenderers& renderers,
                        RenderOutcome* outcome);

  absl::Mutex mu_;
  std::deque<Queued> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  int ready_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Status startup_ ABSL_GUARDED_BY(mu_);
  std::string renderer_name_;
  std::vector<std::thread> threads_;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_RENDER_POOL_H_
