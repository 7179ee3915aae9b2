#include "renderer/gl/gl_objects.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"

namespace crease::renderer::gl {

void DeleteBuffer(GLuint name) { glDeleteBuffers(1, &name); }
void DeleteFramebuffer(GLuint name) { glDeleteFramebuffers(1, &name); }
void DeleteRenderbuffer(GLuint name) { glDeleteRenderbuffers(1, &name); }
void DeleteVertexArray(GLuint name) { glDeleteVertexArrays(1, &name); }
void DeleteShader(GLuint name) { glDeleteShader(name); }
void DeleteProgram(GLuint name) { glDeleteProgram(name); }
void DeleteTexture(GLuint name) { glDeleteTextures(1, &name); }
void DeleteSampler(GLuint name) { glDeleteSamplers(1, &name); }

Buffer MakeBuffer() {
  GLuint name = 0;
  glCreateBuffers(1, &name);
  return Buffer(name);
}

VertexArray MakeVertexArray() {
  GLuint name = 0;
  glCreateVertexArrays(1, &name);
  return VertexArray(name);
}

void SetFloatAttributes(GLuint vao,
                        std::initializer_list<FloatAttribute> attributes) {
  GLuint attribute = 0;
  for (const FloatAttribute& a : attributes) {
    glEnableVertexArrayAttrib(vao, attribute);
    glVertexArrayAttribFormat(vao, attribute, a.components, GL_FLOAT, GL_FALSE,
                              a.offset * sizeof(float));
    glVertexArrayAttribBinding(vao, attribute, 0);
    ++attribute;
  }
}

int DrawTrianglePatches(GLuint vao, int num_patches, int per_draw) {
  glBindVertexArray(vao);
  glPatchParameteri(GL_PATCH_VERTICES, 3);
  int draw_calls = 0;
  for (int first = 0; first < num_patches; first += per_draw) {
    const int count = std::min(per_draw, num_patches - first);
    glDrawArrays(GL_PATCHES, 3 * first, 3 * count);
    ++draw_calls;
  }
  glBindVertexArray(0);
  return draw_calls;
}

namespace {

// The info log of a shader or program, through the matching pair of GL getters.
std::string InfoLog(GLuint name, void (*get_iv)(GLuint, GLenum, GLint*),
                    void (*get_log)(GLuint, GLsizei, GLsizei*, GLchar*)) {
  GLint length = 0;
  get_iv(name, GL_INFO_LOG_LENGTH, &length);
  std::string log(std::max(length, 1), '\0');
  get_log(name, length, nullptr, log.data());
  return log.c_str();  // up to the terminating NUL
}

}  // namespace

absl::StatusOr<Program> LinkProgram(
    std::initializer_list<ShaderSource> sources) {
  std::vector<Shader> shaders;
  Program program(glCreateProgram());
  for (const ShaderSource& source : sources) {
    Shader shader(glCreateShader(source.stage));
    const char* text = source.text.c_str();
    glShaderSource(shader.get(), 1, &text, nullptr);
    glCompileShader(shader.get());
    GLint ok = GL_FALSE;
    glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shader ", source.name, " does not compile: ",
          InfoLog(shader.get(), glGetShaderiv, glGetShaderInfoLog)));
    }
    glAttachShader(program.get(), shader.get());
    shaders.push_back(std::move(shader));
  }
  glLinkProgram(program.get());
  GLint ok = GL_FALSE;
  glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    return absl::InvalidArgumentError(absl::StrCat(
        "program does not link: ",
        InfoLog(program.get(), glGetProgramiv, glGetProgramInfoLog)));
  }
  return program;
}

}  // namespace crease::renderer::gl
