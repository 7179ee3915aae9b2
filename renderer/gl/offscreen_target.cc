#include "renderer/gl/offscreen_target.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_format.h"

namespace crease::renderer::gl {
namespace {

Renderbuffer MakeRenderbuffer(GLenum format, int samples, int width,
                              int height) {
  GLuint name = 0;
  glCreateRenderbuffers(1, &name);
  if (samples > 1) {
    glNamedRenderbufferStorageMultisample(name, samples, format, width, height);
  } else {
    glNamedRenderbufferStorage(name, format, width, height);
  }
  return Renderbuffer(name);
}

Framebuffer MakeFramebuffer() {
  GLuint name = 0;
  glCreateFramebuffers(1, &name);
  return Framebuffer(name);
}

}  // namespace

absl::StatusOr<OffscreenTarget> OffscreenTarget::Create(int width, int height,
                                                        int samples) {
  GLint max_size = 0, max_samples = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  const int limit = std::min(kMaxImageSide, static_cast<int>(max_size));
  if (width < 1 || height < 1 || width > limit || height > limit) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "image size %dx%d: each side must be 1..%d", width, height, limit));
  }
  if (samples > max_samples) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%d samples per pixel requested, the GL supports at most %d", samples,
        max_samples));
  }
  OffscreenTarget t;
  t.width_ = width;
  t.height_ = height;
  t.samples_ = std::max(samples, 1);
  t.draw_ = MakeFramebuffer();
  t.draw_color_ = MakeRenderbuffer(GL_RGBA8, t.samples_, width, height);
  t.draw_depth_ =
      MakeRenderbuffer(GL_DEPTH_COMPONENT24, t.samples_, width, height);
  glNamedFramebufferRenderbuffer(t.draw_.get(), GL_COLOR_ATTACHMENT0,
                                 GL_RENDERBUFFER, t.draw_color_.get());
  glNamedFramebufferRenderbuffer(t.draw_.get(), GL_DEPTH_ATTACHMENT,
                                 GL_RENDERBUFFER, t.draw_depth_.get());
  if (glCheckNamedFramebufferStatus(t.draw_.get(), GL_FRAMEBUFFER) !=
      GL_FRAMEBUFFER_COMPLETE) {
    return absl::InternalError("offscreen framebuffer incomplete");
  }
  if (t.samples_ > 1) {
    t.resolve_ = MakeFramebuffer();
    t.resolve_color_ = MakeRenderbuffer(GL_RGBA8, 1, width, height);
    glNamedFramebufferRenderbuffer(t.resolve_.get(), GL_COLOR_ATTACHMENT0,
                                   GL_RENDERBUFFER, t.resolve_color_.get());
    if (glCheckNamedFramebufferStatus(t.resolve_.get(), GL_FRAMEBUFFER) !=
        GL_FRAMEBUFFER_COMPLETE) {
      return absl::InternalError("resolve framebuffer incomplete");
    }
  }
  return t;
}

void OffscreenTarget::Bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, draw_.get());
  glViewport(0, 0, width_, height_);
}

void OffscreenTarget::Clear(const std::array<float, 4>& rgba) const {
  glClearNamedFramebufferfv(draw_.get(), GL_COLOR, 0, rgba.data());
  const float depth = 1.0f;
  glClearNamedFramebufferfv(draw_.get(), GL_DEPTH, 0, &depth);
}

void OffscreenTarget::BindResolvedForRead() const {
  GLuint source = draw_.get();
  if (samples_ > 1) {
    glBlitNamedFramebuffer(draw_.get(), resolve_.get(), 0, 0, width_, height_,
                           0, 0, width_, height_, GL_COLOR_BUFFER_BIT,
                           GL_NEAREST);
    source = resolve_.get();
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, source);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
}

image::RgbaImage OffscreenTarget::Read() const {
  image::RgbaImage image;
  image.width = width_;
  image.height = height_;
  image.pixels.resize(static_cast<size_t>(width_) * height_ * 4);
  BindResolvedForRead();
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE,
               image.pixels.data());
  // GL rows run bottom to top; images top to bottom.
  const size_t row = static_cast<size_t>(width_) * 4;
  std::vector<uint8_t> swap(row);
  for (int y = 0; y < height_ / 2; ++y) {
    uint8_t* a = image.pixels.data() + y * row;
    uint8_t* b = image.pixels.data() + (height_ - 1 - y) * row;
    std::memcpy(swap.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, swap.data(), row);
  }
  return image;
}

absl::Status EnsureOffscreenTarget(int width, int height, int samples,
                                   std::optional<OffscreenTarget>* target) {
  if (*target && (*target)->width() == width && (*target)->height() == height &&
      (*target)->samples() == std::max(samples, 1)) {
    return absl::OkStatus();
  }
  target->reset();
  absl::StatusOr<OffscreenTarget> made =
      OffscreenTarget::Create(width, height, samples);
  if (!made.ok()) return made.status();
  target->emplace(*std::move(made));
  return absl::OkStatus();
}

}  // namespace crease::renderer::gl
