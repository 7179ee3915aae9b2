#include "renderer/gl/pattern_pass.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "common/status_macros.h"
#include "renderer/gl/shader_library.h"

namespace crease::shaders {
extern const char kShader_pattern_vert[];
extern const char kShader_pattern_tesc[];
extern const char kShader_pattern_tese[];
extern const char kShader_pattern_frag[];
}  // namespace crease::shaders

namespace crease::renderer::gl {
namespace {

// Floats per corner: position, normal, uv, 3 amplitudes, weight, lod.
constexpr int kCornerFloats = 13;

// GPU bytes of a pattern's texture: two RGBA16F layers a channel, and a
// third more for the mip levels.
int64_t PatternTextureBytes(const PatternMap& p) {
  return int64_t{p.width} * p.height * 2 * p.channels * 8 * 4 / 3;
}

}  // namespace

absl::StatusOr<std::unique_ptr<PatternPass>> PatternPass::Create() {
  std::unique_ptr<PatternPass> pass(new PatternPass());
  CREASE_ASSIGN_OR_RETURN(
      pass->program_,
      LinkProgram(
          {{GL_VERTEX_SHADER, "pattern.vert", shaders::kShader_pattern_vert},
           {GL_TESS_CONTROL_SHADER, "pattern.tesc",
            shaders::kShader_pattern_tesc},
           {GL_TESS_EVALUATION_SHADER, "pattern.tese",
            shaders::kShader_pattern_tese},
           {GL_FRAGMENT_SHADER, "pattern.frag",
            WithClothLighting(shaders::kShader_pattern_frag)}}));
  const GLuint p = pass->program_.get();
  pass->lighting_ = LightingUniforms(p);
  pass->view_projection_ = glGetUniformLocation(p, "u_view_projection");
  pass->displace_ = glGetUniformLocation(p, "u_displace");
  pass->channels_ = glGetUniformLocation(p, "u_channels");
  pass->wavelength_ = glGetUniformLocation(p, "u_wavelength");
  pass->fade_pixels_ = glGetUniformLocation(p, "u_fade_pixels");
  pass->texels_ = glGetUniformLocation(p, "u_texels");
  pass->leading_power_ = glGetUniformLocation(p, "u_leading_power");
  glGetIntegerv(GL_MAX_TESS_GEN_LEVEL, &pass->max_level_);
  // Anisotropic filtering sharpens the pattern at grazing angles for free on
  // a GPU, but on Mesa's software rasterisers it made the bump-mapped Fox at
  // 640x480 cost 203-229 ms instead of 10.8 ms at any level from 2x to 16x
  // (render_bench, docs/benchmarks.md); trilinear mip-mapping alone still
  // filters by the footprint (SubPixelPatternDoesNotAlias passes), only
  // blurrier along a grazing view. So software gets none.
  const char* gl_renderer =
      reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const bool software =
      gl_renderer != nullptr && (std::strstr(gl_renderer, "llvmpipe") ||
                                 std::strstr(gl_renderer, "softpipe"));
  if (!software &&
      (epoxy_gl_version() >= 46 ||
       epoxy_has_gl_extension("GL_EXT_texture_filter_anisotropic") ||
       epoxy_has_gl_extension("GL_ARB_texture_filter_anisotropic"))) {
    glGetFloatv(GL_MAX_TEXTURE_MAX_ANISOTROPY, &pass->max_anisotropy_);
    pass->max_anisotropy_ = std::clamp(pass->max_anisotropy_, 1.0f, 16.0f);
  }
  GLuint sampler = 0;
  glCreateSamplers(1, &sampler);
  pass->displacement_sampler_ = Sampler(sampler);
  glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  pass->vao_ = MakeVertexArray();
  const GLuint vao = pass->vao_.get();
  glVertexArrayVertexBuffer(vao, 0, pass->corners_buffer_.get(), 0,
                            kCornerFloats * sizeof(float));
  SetFloatAttributes(vao, {{3, 0}, {3, 3}, {2, 6}, {3, 8}, {2, 11}});
  return pass;
}

bool PatternPass::UsePattern(const PatternMap& p) {
  ++draws_;
  const auto same_shape = [&](const PatternTexture& t) {
    return t.texture.get() != 0 && t.width == p.width && t.height == p.height &&
           t.channels == p.channels && t.repeat == p.repeat;
  };
  if (p.id == 0) {
    const bool same =
        same_shape(unnamed_) &&
        std::equal(p.samples.begin(), p.samples.end(), unnamed_.samples.begin(),
                   unnamed_.samples.end());
    if (!same) {
      BuildTexture(p, &unnamed_);
      unnamed_.samples.assign(p.samples.begin(), p.samples.end());
    }
    current_ = &unnamed_;
    return !same;
  }
  for (PatternTexture& t : named_) {
    if (t.id == p.id && same_shape(t)) {
      t.last_used = draws_;
      current_ = &t;
      return false;
    }
  }
  // Not kept: make room (the least recently drawn first), then build it.
  const int64_t bytes = PatternTextureBytes(p);
  const auto total = [&] {
    int64_t sum = 0;
    for (const PatternTexture& t : named_) sum += t.bytes;
    return sum;
  };
  std::erase_if(named_, [&](const PatternTexture& t) { return t.id == p.id; });
  while (!named_.empty() &&
         (static_cast<int>(named_.size()) >= kMaxNamedPatterns ||
          total() + bytes > kMaxNamedPatternBytes)) {
    named_.erase(
        std::min_element(named_.begin(), named_.end(),
                         [](const PatternTexture& a, const PatternTexture& b) {
                           return a.last_used < b.last_used;
                         }));
  }
  PatternTexture& t = named_.emplace_back();
  BuildTexture(p, &t);
  t.last_used = draws_;
  current_ = &t;
  return true;
}

void PatternPass::BuildTexture(const PatternMap& p, PatternTexture* out) {
  out->id = p.id;
  out->width = p.width;
  out->height = p.height;
  out->channels = p.channels;
  out->repeat = p.repeat;
  out->bytes = PatternTextureBytes(p);
  BuildPatternLayers(p, &layers_);
  out->wavelengths = PatternWavelengths(p, layers_);
  out->detail_wavelengths = PatternDetailWavelengths(p, layers_);
  GLuint name = 0;
  glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &name);
  out->texture = Texture(name);
  const int levels =
      std::bit_width(static_cast<unsigned>(std::max(p.width, p.height)));
  // Half floats: heights in [-1, 1], slopes per texel within [-1, 1].
  glTextureStorage3D(name, levels, GL_RGBA16F, p.width, p.height,
                     2 * p.channels);
  glTextureSubImage3D(name, 0, 0, 0, 0, p.width, p.height, 2 * p.channels,
                      GL_RGBA, GL_FLOAT, layers_.data());
  glTextureParameteri(name, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTextureParameteri(name, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  const GLint wrap = p.repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE;
  glTextureParameteri(name, GL_TEXTURE_WRAP_S, wrap);
  glTextureParameteri(name, GL_TEXTURE_WRAP_T, wrap);
  if (max_anisotropy_ > 1.0f) {
    glTextureParameterf(name, GL_TEXTURE_MAX_ANISOTROPY, max_anisotropy_);
  }
  glGenerateTextureMipmap(name);
}

void PatternPass::UploadCorners(const RenderMesh& mesh,
                                const PatternWrinkles& wrinkles) {
  normals_.Compute(mesh);
  const std::vector<float>& interleaved = normals_.interleaved();
  const int channels = wrinkles.pattern.channels;
  corners_.assign(mesh.triangles.size() * 3 * kCornerFloats, 0.0f);
  float* out = corners_.data();
  for (size_t f = 0; f < mesh.triangles.size(); ++f) {
    for (int k = 0; k < 3; ++k, out += kCornerFloats) {
      const int32_t v = mesh.triangles[f][k];
      std::copy_n(&interleaved[6 * static_cast<size_t>(v)], 6, out);
      std::copy_n(&mesh.corner_uvs[6 * f + 2 * k], 2, out + 6);
      std::copy_n(&wrinkles.amplitudes[static_cast<size_t>(channels) * v],
                  channels, out + 8);
      out[11] = tessellation_.weight[v];
      out[12] = tessellation_.lod[v];
    }
  }
  corners_buffer_.Upload(corners_);
}

void PatternPass::SetUniforms(const SceneView& view,
                              const RenderOptions& options, int channels,
                              bool displace, float leading_power) {
  glUseProgram(program_.get());
  glUniformMatrix4fv(view_projection_, 1, GL_FALSE,
                     view.view_projection.data());
  lighting_.Set(view, options.base_color);
  glUniform1i(displace_, displace ? 1 : 0);
  glUniform1i(channels_, channels);
  glUniform1f(leading_power_, leading_power);
  glUniform3fv(wavelength_, 1, current_->wavelengths.data());
  // A wavelength holds one crest and one valley, about two of an SCA
  // wrinkle's widths: the same fade (LevelOfDetailFade) at twice the pixels.
  glUniform2f(fade_pixels_, 2.0f * kFadeStart * options.min_wrinkle_pixels,
              2.0f * options.min_wrinkle_pixels);
  glUniform2f(texels_, static_cast<float>(current_->width),
              static_cast<float>(current_->height));
  glBindTextureUnit(0, current_->texture.get());
  glBindTextureUnit(1, current_->texture.get());
  const GLint wrap = current_->repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE;
  glSamplerParameteri(displacement_sampler_.get(), GL_TEXTURE_WRAP_S, wrap);
  glSamplerParameteri(displacement_sampler_.get(), GL_TEXTURE_WRAP_T, wrap);
  glBindSampler(1, displacement_sampler_.get());
}

void PatternPass::Draw(const RenderMesh& mesh, const PatternWrinkles& wrinkles,
                       const RenderOptions& options, const SceneView& view,
                       RenderStats* stats) {
  const bool uploaded = UsePattern(wrinkles.pattern);
  const int channels = options.wrinkles ? wrinkles.pattern.channels : 0;
  const bool displace = wrinkles.displace && channels > 0;
  if (displace) {
    FillPatternTessellation(
        mesh, wrinkles, current_->wavelengths, current_->detail_wavelengths,
        {view.view_projection, options.width, options.height,
         options.min_edge_pixels, max_level_, wrinkles.seam_fade},
        &tessellation_);
  } else {
    ClearPatternTessellation(mesh.positions.size() / 3, mesh.triangles.size(),
                             &tessellation_);
  }
  UploadCorners(mesh, wrinkles);
  levels_buffer_.UploadStorage(0, tessellation_.levels);
  SetUniforms(view, options, channels, displace,
              wrinkles.leading_channel_power);
  const int draw_calls = DrawTrianglePatches(
      vao_.get(), static_cast<int>(mesh.triangles.size()),
      PatchesPerDraw(tessellation_.max_level, options.max_patches_per_draw));
  glBindSampler(1, 0);
  *stats = {};
  stats->tessellated_triangles = tessellation_.tessellated_triangles;
  stats->draw_calls = draw_calls;
  stats->pattern_uploads = uploaded ? 1 : 0;
}

}  // namespace crease::renderer::gl
