#ifndef CREASE_RENDERER_GL_SHADER_LIBRARY_H_
#define CREASE_RENDERER_GL_SHADER_LIBRARY_H_
// Internal to renderer/: the GLSL shared between stages, as the stages that
// use it include it: the wrinkle lookup (wrinkle/data/profile_shared.h,
// wrinkle/data/projection_shared.h, wrinkle/data/wrinkle_lookup_shared.h,
// shaders/wrinkle_field.glsl) and the cloth lighting
// (shaders/cloth_lighting.glsl).

#include <string>

namespace crease::renderer::gl {

// A stage's source with the shared wrinkle code inserted after its #version
// line; `#line` directives keep the compiler's line numbers those of the
// files (source string 0 is the stage, 1-4 the library files).
std::string WithWrinkleLibrary(const std::string& body);

// The texture units of the library's buffer textures: WrinkleBuffers::points
// and ::frames. They must match `layout(binding = ...)` of wrinkle_points and
// wrinkle_frames in shaders/wrinkle_field.glsl, and stay clear of the units
// other passes bind (the pattern pass uses 0 and 1, the preview 0).
inline constexpr unsigned kWrinklePointsUnit = 6;
inline constexpr unsigned kWrinkleFramesUnit = 7;

// The same with shaders/cloth_lighting.glsl (source string 5): Shade() and
// its uniforms, which gl::LightingUniforms sets.
std::string WithClothLighting(const std::string& body);

// The same with shaders/uv_texel.glsl (source string 6): TexelInputs and
// ShadeTexel, the UV maps' texel shading. Wrap it in WithWrinkleLibrary,
// which it needs before it.
std::string WithUvTexel(const std::string& body);

}  // namespace crease::renderer::gl

#endif  // CREASE_RENDERER_GL_SHADER_LIBRARY_H_
