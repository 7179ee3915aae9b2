#ifndef CREASE_RENDERER_GPU_CONTEXT_H_
#define CREASE_RENDERER_GPU_CONTEXT_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace crease::renderer {

struct GpuContextOptions {
  // GL debug output (KHR_debug messages go to stderr). On by default in debug
  // builds.
#ifdef NDEBUG
  bool debug_output = false;
#else
  bool debug_output = true;
#endif
  // Skip the EGL device platform (e.g. to force Mesa's software rasteriser).
  bool allow_device_platform = true;
  // Set (>= 0): the EGL device of this index (eglQueryDevicesEXT's order, as
  // HardwareEglDevices lists them) and nothing else; a failure is an error.
  // -1: the first hardware device that works, else the software platforms.
  int device = -1;
};

struct GpuInfo {
  std::string platform;  // "device", "surfaceless" or "default"
  int device = -1;       // the EGL device's index on the device platform
  // Why each platform or device tried before the chosen one gave no context
  // (empty when the first worked): tells an operator why a GPU is not used.
  std::string passed_over;
  bool robust = false;  // the context reports resets (CheckHealth sees loss)
  std::string vendor;
  std::string renderer;  // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::string version;   // GL_VERSION
  int max_tessellation_level = 0;
  int max_samples = 0;
  int max_texture_size = 0;
};

// A headless OpenGL 4.5 core context through EGL, with no window system: the
// EGL device platform first (NVIDIA GPUs; Mesa's software device is skipped
// there), then Mesa's surfaceless platform (llvmpipe where there is no GPU),
// then the default display. Rendering goes into framebuffer objects
// (OffscreenTarget). The context is current on the creating thread; use it from
// one thread at a time.
class GpuContext {
 public:
  // FailedPrecondition naming every platform tried and why it failed.
  static absl::StatusOr<std::unique_ptr<GpuContext>> Create(
      const GpuContextOptions& options = {});
  ~GpuContext();
  GpuContext(const GpuContext&) = delete;
  GpuContext& operator=(const GpuContext&) = delete;

  // Makes the context current on the calling thread.
  absl::Status MakeCurrent();
  // After a frame: Unavailable when the context was lost (a GPU reset; make
  // a new GpuContext), Internal naming the first GL error; OK otherwise.
  // Clears the GL error flags.
  absl::Status CheckHealth();
  // For tests: makes an invalid GL call, so the next CheckHealth fails.
  void RaiseGlErrorForTest();

  // The indices of the EGL devices that are not Mesa's software device (the
  // GPUs), or an empty list where the device platform is missing.
  static std::vector<int> HardwareEglDevices();
  const GpuInfo& info() const { return info_; }

 private:
  struct Egl;
  GpuContext();
  std::unique_ptr<Egl> egl_;
  GpuInfo info_;
};

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_GPU_CONTEXT_H_
