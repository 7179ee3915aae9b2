#ifndef CREASE_RENDERER_GL_GL_OBJECTS_H_
#define CREASE_RENDERER_GL_GL_OBJECTS_H_

// Internal to renderer/: RAII owners of GL objects. Needs a current GpuContext.

#include <epoxy/gl.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "absl/status/statusor.h"

namespace crease::renderer::gl {

// Owns one GL name and deletes it with `Deleter` (a function taking the name).
template <void (*Deleter)(GLuint)>
class GlName {
 public:
  GlName() = default;
  explicit GlName(GLuint name) : name_(name) {}
  ~GlName() { Reset(); }
  GlName(GlName&& other) noexcept : name_(std::exchange(other.name_, 0)) {}
  GlName& operator=(GlName&& other) noexcept {
    if (this != &other) {
      Reset();
      name_ = std::exchange(other.name_, 0);
    }
    return *this;
  }
  GlName(const GlName&) = delete;
  GlName& operator=(const GlName&) = delete;

  GLuint get() const { return name_; }
  void Reset() {
    if (name_ != 0) Deleter(name_);
    name_ = 0;
  }

 private:
  GLuint name_ = 0;
};

void DeleteBuffer(GLuint name);
void DeleteFramebuffer(GLuint name);
void DeleteRenderbuffer(GLuint name);
void DeleteVertexArray(GLuint name);
void DeleteShader(GLuint name);
void DeleteProgram(GLuint name);
void DeleteTexture(GLuint name);
void DeleteSampler(GLuint name);

using Buffer = GlName<DeleteBuffer>;
using Framebuffer = GlName<DeleteFramebuffer>;
using Renderbuffer = GlName<DeleteRenderbuffer>;
using VertexArray = GlName<DeleteVertexArray>;
using Shader = GlName<DeleteShader>;
using Program = GlName<DeleteProgram>;
using Texture = GlName<DeleteTexture>;
using Sampler = GlName<DeleteSampler>;

Buffer MakeBuffer();
VertexArray MakeVertexArray();

// Float attributes 0, 1, ... of `vao`, read from its binding 0, each
// {components, offset in floats} of an interleaved vertex.
struct FloatAttribute {
  int components;
  int offset;
};
void SetFloatAttributes(GLuint vao,
                        std::initializer_list<FloatAttribute> attributes);

// Draws `num_patches` triangles from `vao` as 3-vertex patches, at most
// `per_draw` (PatchesPerDraw) a call; returns the draw calls made.
int DrawTrianglePatches(GLuint vao, int num_patches, int per_draw);

struct ShaderSource {
  GLenum stage;      // GL_VERTEX_SHADER, GL_TESS_CONTROL_SHADER, ...
  std::string name;  // for error messages
  std::string text;
};

// Compiles and links; InvalidArgument with the stage's name and the GL info
// log.
absl::StatusOr<Program> LinkProgram(
    std::initializer_list<ShaderSource> sources);

}  // namespace crease::renderer::gl

#endif  // CREASE_RENDERER_GL_GL_OBJECTS_H_
