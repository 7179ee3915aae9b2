#include "renderer/gl/gl_objects.h"

#include <vector>

#include "absl/strings/str_cat.h"

namespace crease::renderer::gl {

void DeleteBuffer(GLuint name) { glDeleteBuffers(1, &name); }
void DeleteFramebuffer(GLuint name) { glDeleteFramebuffers(1, &name); }
void DeleteRenderbuffer(GLuint name) { glDeleteRenderbuffers(1, &name); }
void DeleteVertexArray(GLuint name) { glDeleteVertexArrays(1, &name); }
void DeleteShader(GLuint name) { glDeleteShader(name); }
void DeleteProgram(GLuint name) { glDeleteProgram(name); }

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
      GLint length = 0;
      glGetShaderiv(shader.get(), GL_INFO_LOG_LENGTH, &length);
      std::string log(std::max(length, 1), '\0');
      glGetShaderInfoLog(shader.get(), length, nullptr, log.data());
      return absl::InvalidArgumentError(absl::StrCat(
          "shader ", source.name, " does not compile: ", log.c_str()));
    }
    glAttachShader(program.get(), shader.get());
    shaders.push_back(std::move(shader));
  }
  glLinkProgram(program.get());
  GLint ok = GL_FALSE;
  glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint length = 0;
    glGetProgramiv(program.get(), GL_INFO_LOG_LENGTH, &length);
    std::string log(std::max(length, 1), '\0');
    glGetProgramInfoLog(program.get(), length, nullptr, log.data());
    return absl::InvalidArgumentError(
        absl::StrCat("program does not link: ", log.c_str()));
  }
  return program;
}

}  // namespace crease::renderer::gl
