#ifndef CREASE_SERVER_FRAME_ENCODING_H_
#define CREASE_SERVER_FRAME_ENCODING_H_

// A drawn frame's encoding, off the GL threads: the screen image (JPEG or
// PNG) and the UV maps (PNG or raw) are tasks that encoding threads run side
// by side; the last to end answers the session.

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "common/stopwatch.h"
#include "renderer/pixel_readback.h"
#include "renderer/uv_maps.h"
#include "server/render_pool.h"
#include "server/thread_pool.h"

namespace crease::server {

// UV-map buffers (a 1024² pair is 6 MB) kept for reuse between frames: a GL
// thread draws into one, an encoding thread gives it back.
class UvBufferPool {
 public:
  std::unique_ptr<renderer::UvMaps> Take();
  // Keeps at most 4; the rest are freed.
  void Give(std::unique_ptr<renderer::UvMaps> maps);

 private:
  absl::Mutex mu_;
  std::vector<std::unique_ptr<renderer::UvMaps>> free_ ABSL_GUARDED_BY(mu_);
};

// One frame's encoding. The GL thread fills it, sets `left` to the number of
// tasks and posts them with PostEncodingTask.
struct FrameEncoding {
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

  void EncodeScreen();
  // The maps as the wire carries them: PNG, or raw rows (the height map's
  // 16-bit values little-endian).
  void EncodeNormal();
  void EncodeHeight();
  // Runs `done` with the outcome; on the thread that ended the last task (or
  // on the GL thread when there was nothing to encode).
  void Answer();
};

// Runs `task` of `encoding` on `encoders`; the last task answers.
void PostEncodingTask(ThreadPool* encoders,
                      std::shared_ptr<FrameEncoding> encoding,
                      void (FrameEncoding::*task)());

}  // namespace crease::server

#endif  // CREASE_SERVER_FRAME_ENCODING_H_
