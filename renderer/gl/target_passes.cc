#include "renderer/gl/target_passes.h"

#include <string_view>

#include "common/status_macros.h"

namespace crease::shaders {
extern const char kShader_target_clear_comp[];
extern const char kShader_target_resolve_comp[];
}  // namespace crease::shaders

namespace crease::renderer::gl {
namespace {

constexpr int kGroup = 8;                   // the shaders' local size, each way
constexpr GLuint kResolveTextureUnit = 15;  // target_resolve.comp's binding

GLuint Groups(int pixels) {
  return static_cast<GLuint>((pixels + kGroup - 1) / kGroup);
}

}  // namespace

absl::StatusOr<TargetPasses> TargetPasses::Create() {
  TargetPasses passes;
  CREASE_ASSIGN_OR_RETURN(passes.clear_,
                          LinkProgram({{GL_COMPUTE_SHADER, "target_clear.comp",
                                        shaders::kShader_target_clear_comp}}));
  CREASE_ASSIGN_OR_RETURN(
      passes.resolve_, LinkProgram({{GL_COMPUTE_SHADER, "target_resolve.comp",
                                     shaders::kShader_target_resolve_comp}}));
  passes.clear_color_ = glGetUniformLocation(passes.clear_.get(), "u_color");
  return passes;
}

void TargetPasses::Clear(GLuint target, int width, int height,
                         const std::array<float, 4>& rgba) const {
  glUseProgram(clear_.get());
  glUniform4fv(clear_color_, 1, rgba.data());
  glBindImageTexture(0, target, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  glDispatchCompute(Groups(width), Groups(height), 1);
  // The draws that follow write the same texture through the framebuffer;
  // the resolve fetches the samples no draw covers straight from the stores.
  glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
  glUseProgram(0);
}

void TargetPasses::Resolve(GLuint target, GLuint resolved, int width,
                           int height) const {
  glUseProgram(resolve_.get());
  glBindTextureUnit(kResolveTextureUnit, target);
  glBindImageTexture(1, resolved, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  glDispatchCompute(Groups(width), Groups(height), 1);
  // glReadPixels reads `resolved` through a framebuffer, maybe into a pixel
  // buffer.
  glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT |
                  GL_TEXTURE_UPDATE_BARRIER_BIT);
  glBindTextureUnit(kResolveTextureUnit, 0);
  glUseProgram(0);
}

bool OnHardwareGpu() {
  const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  if (name == nullptr) return false;
  const std::string_view renderer(name);
  for (std::string_view software : {"llvmpipe", "softpipe", "SwiftShader"}) {
    if (renderer.find(software) != std::string_view::npos) return false;
  }
  return true;
}

}  // namespace crease::renderer::gl
