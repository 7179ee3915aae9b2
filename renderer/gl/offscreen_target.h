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

// A multisampled colour + depth framebuffer and a single-sampled one it
// resolves into for readback.
class OffscreenTarget {
 public:
  // InvalidArgument for sizes outside 1..4096 (or the GL limits) or more
  // samples than the GL supports. samples <= 1: no multisampling.
  static absl::StatusOr<OffscreenTarget> Create(int width, int height,
                                                int samples);

  // Binds the drawing framebuffer and sets the viewport.
  void Bind() const;
  void Clear(const std::array<float, 4>& rgba) const;
  // Resolves (if multisampled) and reads RGBA8, rows top to bottom.
  image::RgbaImage Read() const;
  // Resolves (if multisampled) and binds the single-sampled colour as
  // GL_READ_FRAMEBUFFER with pack alignment 1: what Read and an
  // asynchronous read-back (PixelReadback) read from.
  void BindResolvedForRead() const;

  int width() const { return width_; }
  int height() const { return height_; }
  int samples() const { return samples_; }

 private:
  OffscreenTarget() = default;
  int width_ = 0, height_ = 0, samples_ = 0;
  Framebuffer draw_, resolve_;
  Renderbuffer draw_color_, draw_depth_, resolve_color_;
};

// Keeps `*target` when it already has this size and sample count (samples
// <= 1 counting as 1), else frees it and makes a new one: renderers call this
// per frame so a steady stream reuses its framebuffers.
absl::Status EnsureOffscreenTarget(int width, int height, int samples,
                                   std::optional<OffscreenTarget>* target);

}  // namespace crease::renderer::gl

#endif  // CREASE_RENDERER_GL_OFFSCREEN_TARGET_H_
