#ifndef CREASE_RENDERER_GL_STREAM_BUFFER_H_
#define CREASE_RENDERER_GL_STREAM_BUFFER_H_
// Internal to renderer/: a GL buffer refilled every frame.

#include <epoxy/gl.h>

#include <algorithm>
#include <array>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "renderer/gl/gl_objects.h"

namespace crease::renderer::gl {

// A buffer refilled every frame. Its storage only grows (doubling), so a
// steady stream of frames reuses it: reallocating each frame cost page faults
// on llvmpipe. FrameRenderer rotates through several (FrameBufferSet), so
// the GPU is done with one before it is refilled.
class StreamBuffer {
 public:
  StreamBuffer() : buffer_(MakeBuffer()) {}
  GLuint get() const { return buffer_.get(); }
  // Copies `data` (at least one element is uploaded, a zero one for empty
  // data, so a binding is valid).
  template <typename T>
  void Upload(const std::vector<T>& data) {
    const T zero{};
    const void* source = data.empty() ? &zero : data.data();
    const size_t bytes = std::max<size_t>(data.size(), 1) * sizeof(T);
    if (bytes > capacity_) {
      capacity_ = std::max(bytes, 2 * capacity_);
      glNamedBufferData(buffer_.get(), capacity_, nullptr, GL_DYNAMIC_DRAW);
    }
    glNamedBufferSubData(buffer_.get(), 0, bytes, source);
  }
  template <typename T>
  void UploadStorage(GLuint binding, const std::vector<T>& data) {
    Upload(data);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer_.get());
  }

 private:
  Buffer buffer_;
  size_t capacity_ = 0;
};

// A StreamBuffer of vec4s that shaders read as a samplerBuffer (texelFetch)
// on a texture unit. llvmpipe gathers an SSBO element lane by lane, checking
// bounds for each; a buffer texture's fetch is cheaper (docs/benchmarks.md,
// "Screen images"). The texture follows
// the buffer object, whose storage Upload may reallocate, so it is attached
// once.
class TexelBuffer {
 public:
  TexelBuffer() {
    GLuint name = 0;
    glCreateTextures(GL_TEXTURE_BUFFER, 1, &name);
    texture_ = Texture(name);
    glTextureBuffer(texture_.get(), GL_RGBA32F, buffer_.get());
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels_);
  }
  // ResourceExhausted past the driver's buffer-texture size (the GL minimum
  // is 65,536 texels; llvmpipe and desktop GPUs take 2^27), which a texture
  // would otherwise clamp silently.
  absl::Status Upload(GLuint unit,
                      const std::vector<std::array<float, 4>>& data) {
    if (data.size() > static_cast<size_t>(max_texels_)) {
      return absl::ResourceExhaustedError(
          absl::StrFormat("%d wrinkle samples; this GL driver reads at most %d",
                          data.size(), max_texels_));
    }
    buffer_.Upload(data);
    glBindTextureUnit(unit, texture_.get());
    return absl::OkStatus();
  }

 private:
  StreamBuffer buffer_;
  Texture texture_;
  GLint max_texels_ = 0;  // the driver's, read once (not per frame)
};

}  // namespace crease::renderer::gl

#endif  // CREASE_RENDERER_GL_STREAM_BUFFER_H_
