#ifndef CREASE_RENDERER_GL_STREAM_BUFFER_H_
#define CREASE_RENDERER_GL_STREAM_BUFFER_H_
// Internal to renderer/: a GL buffer refilled every frame.

#include <epoxy/gl.h>

#include <algorithm>
#include <vector>

#include "renderer/gl/gl_objects.h"

namespace crease::renderer::gl {

// A buffer refilled every frame. Its storage only grows (doubling), so a
// steady stream of frames reuses it: reallocating each frame cost page faults
// on llvmpipe. The previous frame's draws are done (Render reads its pixels
// back) before the next overwrites it.
class StreamBuffer {
 public:
  StreamBuffer() : buffer_(MakeBuffer()) {}
  GLuint get() const { return buffer_.get(); }
  // Copies `data` (at least one element is uploaded, so a binding is valid).
  template <typename T>
  void Upload(std::vector<T>& data) {
    if (data.empty()) data.resize(1);
    const size_t bytes = data.size() * sizeof(T);
    if (bytes > capacity_) {
      capacity_ = std::max(bytes, 2 * capacity_);
      glNamedBufferData(buffer_.get(), capacity_, nullptr, GL_DYNAMIC_DRAW);
    }
    glNamedBufferSubData(buffer_.get(), 0, bytes, data.data());
  }
  template <typename T>
  void UploadStorage(GLuint binding, std::vector<T>& data) {
    Upload(data);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer_.get());
  }

 private:
  Buffer buffer_;
  size_t capacity_ = 0;
};

}  // namespace crease::renderer::gl

#endif  // CREASE_RENDERER_GL_STREAM_BUFFER_H_
