#include "renderer/gl/offscreen_target.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_format.h"
#include "renderer/gl/target_passes.h"

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

Texture MakeColorTexture(int samples, int width, int height) {
  GLuint name = 0;
  if (samples > 1) {
    glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &name);
    glTextureStorage2DMultisample(name, samples, GL_RGBA8, width, height,
                                  GL_TRUE);
  } else {
    glCreateTextures(GL_TEXTURE_2D, 1, &name);
    glTextureStorage2D(name, 1, GL_RGBA8, width, height);
  }
  return Texture(name);
}

Framebuffer MakeFramebuffer() {
  GLuint name = 0;
  glCreateFramebuffers(1, &name);
  return Framebuffer(name);
}

}  // namespace

absl::StatusOr<OffscreenTarget> OffscreenTarget::Create(
    int width, int height, int samples, const TargetPasses* passes) {
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
  t.passes_ = passes;
  if (passes != nullptr && t.samples_ > 1) {
    // Compute passes read and write the samples as a texture and an image:
    // past either limit the GL's own clear and blit serve instead.
    GLint texture_samples = 0, image_samples = 0;
    glGetIntegerv(GL_MAX_COLOR_TEXTURE_SAMPLES, &texture_samples);
    glGetIntegerv(GL_MAX_IMAGE_SAMPLES, &image_samples);
    t.passes_fit_ = t.samples_ <= std::min(texture_samples, image_samples);
  }
  t.draw_ = MakeFramebuffer();
  if (t.uses_passes()) {
    t.draw_color_texture_ = MakeColorTexture(t.samples_, width, height);
    glNamedFramebufferTexture(t.draw_.get(), GL_COLOR_ATTACHMENT0,
                              t.draw_color_texture_.get(), 0);
  } else {
    t.draw_color_ = MakeRenderbuffer(GL_RGBA8, t.samples_, width, height);
    glNamedFramebufferRenderbuffer(t.draw_.get(), GL_COLOR_ATTACHMENT0,
                                   GL_RENDERBUFFER, t.draw_color_.get());
  }
  t.draw_depth_ =
      MakeRenderbuffer(GL_DEPTH_COMPONENT24, t.samples_, width, height);
  glNamedFramebufferRenderbuffer(t.draw_.get(), GL_DEPTH_ATTACHMENT,
                                 GL_RENDERBUFFER, t.draw_depth_.get());
  if (glCheckNamedFramebufferStatus(t.draw_.get(), GL_FRAMEBUFFER) !=
      GL_FRAMEBUFFER_COMPLETE) {
    return absl::InternalError("offscreen framebuffer incomplete");
  }
  if (t.samples_ > 1) {
    t.resolve_ = MakeFramebuffer();
    if (t.uses_passes()) {
      t.resolve_color_texture_ = MakeColorTexture(1, width, height);
      glNamedFramebufferTexture(t.resolve_.get(), GL_COLOR_ATTACHMENT0,
                                t.resolve_color_texture_.get(), 0);
    } else {
      t.resolve_color_ = MakeRenderbuffer(GL_RGBA8, 1, width, height);
      glNamedFramebufferRenderbuffer(t.resolve_.get(), GL_COLOR_ATTACHMENT0,
                                     GL_RENDERBUFFER, t.resolve_color_.get());
    }
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

void OffscreenTarget::Clear(const std::array<float, 4>& rgba,
                            const PixelBox* depth_box) const {
  const float depth = 1.0f;
  if (!uses_passes()) {
    glClearNamedFramebufferfv(draw_.get(), GL_COLOR, 0, rgba.data());
    glClearNamedFramebufferfv(draw_.get(), GL_DEPTH, 0, &depth);
    return;
  }
  passes_->Clear(draw_color_texture_.get(), width_, height_, rgba);
  if (depth_box == nullptr) {
    glClearNamedFramebufferfv(draw_.get(), GL_DEPTH, 0, &depth);
    return;
  }
  const int x0 = std::clamp(depth_box->x0, 0, width_);
  const int y0 = std::clamp(depth_box->y0, 0, height_);
  const int x1 = std::clamp(depth_box->x1, x0, width_);
  const int y1 = std::clamp(depth_box->y1, y0, height_);
  if (x1 == x0 || y1 == y0) return;
  glEnable(GL_SCISSOR_TEST);
  glScissor(x0, y0, x1 - x0, y1 - y0);
  glClearNamedFramebufferfv(draw_.get(), GL_DEPTH, 0, &depth);
  glDisable(GL_SCISSOR_TEST);
}

void OffscreenTarget::BindResolvedForRead() const {
  GLuint source = draw_.get();
  if (uses_passes()) {
    passes_->Resolve(draw_color_texture_.get(), resolve_color_texture_.get(),
                     width_, height_);
    source = resolve_.get();
  } else if (samples_ > 1) {
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
  const size_t bytes = static_cast<size_t>(width_) * height_ * 4;
  if (uses_passes()) {
    // On a GPU: through a pixel buffer in CPU memory, which the GPU writes
    // directly, then one copy into the image (no zero fill). A read into
    // the image's own (pageable) memory took 2.4 ms of a 1080p frame whose
    // drawing took 0.4 (docs/benchmarks.md).
    BindResolvedForRead();
    if (read_buffer_.get() == 0) {  // made once, kept with the target
      read_buffer_ = MakeBuffer();
      glNamedBufferStorage(read_buffer_.get(), static_cast<GLsizeiptr>(bytes),
                           nullptr, GL_MAP_READ_BIT | GL_CLIENT_STORAGE_BIT);
    }
    const Buffer& buffer = read_buffer_;
    glBindBuffer(GL_PIXEL_PACK_BUFFER, buffer.get());
    glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    const auto* mapped = static_cast<const uint8_t*>(glMapNamedBufferRange(
        buffer.get(), 0, static_cast<GLsizeiptr>(bytes), GL_MAP_READ_BIT));
    if (mapped != nullptr) {
      image.pixels.assign(mapped, mapped + bytes);
      glUnmapNamedBuffer(buffer.get());
    } else {
      image.pixels.assign(bytes, 0);  // a lost context: CheckHealth says so
    }
    return image;
  }
  image.pixels.resize(bytes);
  BindResolvedForRead();
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE,
               image.pixels.data());
  if (rows_top_down()) return image;
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
                                   std::optional<OffscreenTarget>* target,
                                   const TargetPasses* passes) {
  if (*target && (*target)->width() == width && (*target)->height() == height &&
      (*target)->samples() == std::max(samples, 1) &&
      (*target)->passes() == passes) {
    return absl::OkStatus();
  }
  target->reset();
  absl::StatusOr<OffscreenTarget> made =
      OffscreenTarget::Create(width, height, samples, passes);
  if (!made.ok()) return made.status();
  target->emplace(*std::move(made));
  return absl::OkStatus();
}

}  // namespace crease::renderer::gl
