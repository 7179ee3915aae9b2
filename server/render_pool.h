#ifndef CREASE_SERVER_RENDER_POOL_H_
#define CREASE_SERVER_RENDER_POOL_H_

#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "renderer/frame_renderer.h"

namespace crease::server {

enum class ImageEncoding { kJpeg, kPng };

// One frame to draw. Everything borrowed stays valid and unchanged until `done`
// has run (the session waits for its image before it reads the next frame).
struct RenderJob {
  absl::Span<const float> positions;
  absl::Span<const io::Triangle> triangles;
  const WrinkleTracker* wrinkles = nullptr;
  renderer::RenderOptions options;
  ImageEncoding encoding = ImageEncoding::kJpeg;
  int jpeg_quality = 90;
};

struct RenderOutcome {
  absl::StatusOr<std::string> encoded;
  double queue_ms = 0;  // waiting for a render thread
  double render_ms = 0;
  double encode_ms = 0;
};

// Render threads, each owning one EGL context and FrameRenderer, fed by a
// bounded queue (DESIGN.md §5).
class RenderPool {
 public:
  // Fails (naming what EGL tried) if any thread cannot get a context.
  static absl::StatusOr<std::unique_ptr<RenderPool>> Create(int threads,
                                                            int queue_capacity);
  // Finishes the queued jobs, then joins.
  ~RenderPool();

  // Queues `job`; blocks while the queue is full. `done` runs on a render
  // thread.
  void Submit(RenderJob job, absl::AnyInvocable<void(RenderOutcome) &&> done);

  const std::string& renderer_name() const { return renderer_name_; }
  int threads() const { return static_cast<int>(threads_.size()); }

 private:
  struct Queued {
    RenderJob job;
    absl::AnyInvocable<void(RenderOutcome) &&> done;
    int64_t queued_ns;
  };
  RenderPool() = default;
  void Run(int index);

  absl::Mutex mu_;
  std::deque<Queued> queue_ ABSL_GUARDED_BY(mu_);
  size_t capacity_ = 1;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  int ready_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Status startup_ ABSL_GUARDED_BY(mu_);
  std::string renderer_name_;
  std::vector<std::thread> threads_;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_RENDER_POOL_H_
