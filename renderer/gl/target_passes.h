#ifndef CREASE_RENDERER_GL_TARGET_PASSES_H_
#define CREASE_RENDERER_GL_TARGET_PASSES_H_
// Internal to renderer/: a multisampled target's clear and resolve as compute
// passes (shaders/target_clear.comp, target_resolve.comp).

#include <epoxy/gl.h>

#include <array>

#include "absl/status/statusor.h"
#include "renderer/gl/gl_objects.h"

namespace crease::renderer::gl {

// Where a GPU draws with few raster units and many compute units (an
// H100/H200 runs graphics on 2 TPCs of 66), a 4x target's glClear and
// blit resolve took most of a 640x480 frame; on the compute units they cost
// a ninth and a third (docs/benchmarks.md). llvmpipe runs them slower than
// its own clear and blit, so it keeps those (OnHardwareGpu).
class TargetPasses {
 public:
  static absl::StatusOr<TargetPasses> Create();

  // Sets every sample of `target` (a GL_TEXTURE_2D_MULTISAMPLE RGBA8
  // texture) to `rgba`. Drawing into it afterwards sees the values.
  void Clear(GLuint target, int width, int height,
             const std::array<float, 4>& rgba) const;
  // Averages the samples of `target` into `resolved` (a GL_TEXTURE_2D
  // RGBA8 texture of the same size), rows turned top to bottom; a read of
  // `resolved` afterwards sees them. Leaves no program bound.
  void Resolve(GLuint target, GLuint resolved, int width, int height) const;

 private:
  TargetPasses() = default;
  Program clear_, resolve_;
  GLint clear_color_ = -1;
};

// Whether the current context draws on a hardware GPU, not a software
// rasteriser (GL_RENDERER naming llvmpipe, softpipe or SwiftShader): where
// the GPU's paths pay (TargetPasses, reads through pixel buffers).
bool OnHardwareGpu();

}  // namespace crease::renderer::gl

#endif  // CREASE_RENDERER_GL_TARGET_PASSES_H_
