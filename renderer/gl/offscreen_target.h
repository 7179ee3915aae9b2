#ifndef CREASE_RENDERER_GL_OFFSCREEN_TARGET_H_
#define CREASE_RENDERER_GL_OFFSCREEN_TARGET_H_

// Internal to renderer/: where frames are drawn and read back.

#include <array>
#include <optional>

#include "absl/status/statusor.h"
#include "image/rgba_image.h"
#include "renderer/gl/gl_objects.h"

namespace crease::renderer::gl {

inline constexpr int kMaxImageSide = 4096;

class TargetPasses;  // target_passes.h

// Pixels [x0, x1) x [y0, y1) of a target, rows counted from the bottom (GL's
// window coordinates).
struct PixelBox {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// A multisampled colour + depth framebuffer and a single-sampled one it
// resolves into for readback.
class OffscreenTarget {
 public:
  // InvalidArgument for sizes outside 1..4096 (or the GL limits) or more
  // samples than the GL supports. samples <= 1: no multisampling. With
  // `passes` (kept by the caller for the target's lifetime) a multisampled
  // target is cleared and resolved by them, on the compute units, and its
  // resolved rows run top to bottom (rows_top_down).
  static absl::StatusOr<OffscreenTarget> Create(
      int width, int height, int samples, const TargetPasses* passes = nullptr);

  // Binds the drawing framebuffer and sets the viewport.
  void Bind() const;
  // Clears the colour to `rgba` and the depth to the far plane; with
  // `depth_box` (used with passes only), the depth within it alone: a frame
  // that draws nowhere else needs no more, and on a GPU with few raster
  // units the depth clear costs in proportion to its area.
  void Clear(const std::array<float, 4>& rgba,
             const PixelBox* depth_box = nullptr) const;
  // Resolves (if multisampled) and reads RGBA8, rows top to bottom.
  image::RgbaImage Read() const;
  // Resolves (if multisampled) and binds the single-sampled colour as
  // GL_READ_FRAMEBUFFER with pack alignment 1: what Read and an
  // asynchronous read-back (PixelReadback) read from.
  void BindResolvedForRead() const;
  // Whether the rows BindResolvedForRead leaves run top to bottom (an
  // image's order) rather than bottom to top (GL's).
  bool rows_top_down() const { return uses_passes(); }

  int width() const { return width_; }
  int height() const { return height_; }
  int samples() const { return samples_; }
  const TargetPasses* passes() const { return passes_; }

 private:
  OffscreenTarget() = default;
  bool uses_passes() const {
    return passes_ != nullptr && samples_ > 1 && passes_fit_;
  }
  int width_ = 0, height_ = 0, samples_ = 0;
  const TargetPasses* passes_ = nullptr;  // asked for
  bool passes_fit_ = false;  // the sample count is within their limits
  Framebuffer draw_, resolve_;
  Renderbuffer draw_color_, draw_depth_, resolve_color_;
  // With passes: the colour attachments as textures (compute reads and
  // writes them).
  Texture draw_color_texture_, resolve_color_texture_;
  mutable Buffer read_buffer_;  // Read's, with passes: made on first use
};

// Keeps `*target` when it already has this size, sample count (samples <= 1
// counting as 1) and passes, else frees it and makes a new one: renderers
// call this per frame so a steady stream reuses its framebuffers.
absl::Status EnsureOffscreenTarget(int width, int height, int samples,
                                   std::optional<OffscreenTarget>* target,
                                   const TargetPasses* passes = nullptr);

}  // namespace crease::renderer::gl

#endif  // CREASE_RENDERER_GL_OFFSCREEN_TARGET_H_
