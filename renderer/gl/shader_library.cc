#include "renderer/gl/shader_library.h"

namespace crease::shaders {
extern const char kShader_profile_shared_h[];
extern const char kShader_projection_shared_h[];
extern const char kShader_wrinkle_lookup_shared_h[];
extern const char kShader_wrinkle_field_glsl[];
extern const char kShader_cloth_lighting_glsl[];
extern const char kShader_uv_texel_glsl[];
}  // namespace crease::shaders

namespace crease::renderer::gl {

std::string WithWrinkleLibrary(const std::string& body) {
  const size_t line_end = body.find('\n') + 1;
  return body.substr(0, line_end) + "#line 1 1\n" +
         shaders::kShader_profile_shared_h + "#line 1 2\n" +
         shaders::kShader_projection_shared_h + "#line 1 3\n" +
         shaders::kShader_wrinkle_lookup_shared_h + "#line 1 4\n" +
         shaders::kShader_wrinkle_field_glsl + "#line 2 0\n" +
         body.substr(line_end);
}

std::string WithUvTexel(const std::string& body) {
  const size_t line_end = body.find('\n') + 1;
  return body.substr(0, line_end) + "#line 1 6\n" +
         shaders::kShader_uv_texel_glsl + "#line 2 0\n" + body.substr(line_end);
}

std::string WithClothLighting(const std::string& body) {
  const size_t line_end = body.find('\n') + 1;
  return body.substr(0, line_end) + "#line 1 5\n" +
         shaders::kShader_cloth_lighting_glsl + "#line 2 0\n" +
         body.substr(line_end);
}

}  // namespace crease::renderer::gl
