// render_bench: what a frame's render target costs the GPU apart from
// drawing, and its clear one way at a time.

#include <algorithm>
#include <array>
#include <string>

#include "absl/strings/str_format.h"
#include "bench/render_bench_scene.h"
#include "benchmark/benchmark.h"
#include "renderer/gl/gl_objects.h"

namespace crease::renderer {
namespace {

// What a frame's target costs the GPU apart from drawing (GL_TIME_ELAPSED
// per step, 64 frames back to back): clearing the 4x multisampled colour and
// depth, and resolving the colour, by a framebuffer blit (as OffscreenTarget
// does) or by a compute shader that also turns the rows top to bottom; with
// the depth as 24 bits (as now), 24 + 8 stencil or 32-bit float, and with the
// multisampled contents invalidated after the resolve or not.
constexpr char kResolveShader[] = R"(#version 450 core
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2DMS u_color;
layout(rgba8, binding = 0) writeonly uniform image2D u_out;
void main() {
  ivec2 size = imageSize(u_out);
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  vec4 sum = texelFetch(u_color, p, 0) + texelFetch(u_color, p, 1) +
             texelFetch(u_color, p, 2) + texelFetch(u_color, p, 3);
  imageStore(u_out, ivec2(p.x, size.y - 1 - p.y), 0.25 * sum);
}
)";

void BM_TargetCost(benchmark::State& state, int width, int height,
                   GLenum depth_format, bool compute, bool invalidate) {
  if (!Gpu().MakeCurrent().ok()) return state.SkipWithError("no context");
  GLuint color = 0, depth = 0, resolved = 0, draw_fb = 0, read_fb = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &color);
  glTextureStorage2DMultisample(color, 4, GL_RGBA8, width, height, GL_TRUE);
  glCreateRenderbuffers(1, &depth);
  glNamedRenderbufferStorageMultisample(depth, 4, depth_format, width, height);
  glCreateTextures(GL_TEXTURE_2D, 1, &resolved);
  glTextureStorage2D(resolved, 1, GL_RGBA8, width, height);
  glCreateFramebuffers(1, &draw_fb);
  glNamedFramebufferTexture(draw_fb, GL_COLOR_ATTACHMENT0, color, 0);
  const GLenum depth_attachment = depth_format == GL_DEPTH24_STENCIL8
                                      ? GL_DEPTH_STENCIL_ATTACHMENT
                                      : GL_DEPTH_ATTACHMENT;
  glNamedFramebufferRenderbuffer(draw_fb, depth_attachment, GL_RENDERBUFFER,
                                 depth);
  glCreateFramebuffers(1, &read_fb);
  glNamedFramebufferTexture(read_fb, GL_COLOR_ATTACHMENT0, resolved, 0);
  auto program = gl::LinkProgram(
      {{GL_COMPUTE_SHADER, "resolve.comp", std::string(kResolveShader)}});
  if (!program.ok() || glCheckNamedFramebufferStatus(draw_fb, GL_FRAMEBUFFER) !=
                           GL_FRAMEBUFFER_COMPLETE) {
    return state.SkipWithError("target or resolve program failed");
  }
  constexpr int kFrames = 64;
  std::array<GLuint, 2 * kFrames> queries{};
  glGenQueries(2 * kFrames, queries.data());
  const std::array<float, 4> white = {1, 1, 1, 1};
  const float far = 1.0f;
  const GLenum attachments[] = {GL_COLOR_ATTACHMENT0, depth_attachment};
  double clear_ns = 0, resolve_ns = 0;
  int64_t frames = 0;
  for (auto _ : state) {
    for (int i = 0; i < kFrames; ++i) {
      glBindFramebuffer(GL_FRAMEBUFFER, draw_fb);
      glViewport(0, 0, width, height);
      glBeginQuery(GL_TIME_ELAPSED, queries[2 * i]);
      glClearNamedFramebufferfv(draw_fb, GL_COLOR, 0, white.data());
      glClearNamedFramebufferfv(draw_fb, GL_DEPTH, 0, &far);
      glEndQuery(GL_TIME_ELAPSED);
      glBeginQuery(GL_TIME_ELAPSED, queries[2 * i + 1]);
      if (compute) {
        glUseProgram(program->get());
        glBindTextureUnit(0, color);
        glBindImageTexture(0, resolved, 0, GL_FALSE, 0, GL_WRITE_ONLY,
                           GL_RGBA8);
        glDispatchCompute((width + 7) / 8, (height + 7) / 8, 1);
        glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT |
                        GL_PIXEL_BUFFER_BARRIER_BIT);
      } else {
        glBlitNamedFramebuffer(draw_fb, read_fb, 0, 0, width, height, 0, 0,
                               width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
      }
      if (invalidate) glInvalidateNamedFramebufferData(draw_fb, 2, attachments);
      glEndQuery(GL_TIME_ELAPSED);
    }
    for (int i = 0; i < kFrames; ++i) {
      GLuint64 clear = 0, resolve = 0;
      glGetQueryObjectui64v(queries[2 * i], GL_QUERY_RESULT, &clear);
      glGetQueryObjectui64v(queries[2 * i + 1], GL_QUERY_RESULT, &resolve);
      clear_ns += static_cast<double>(clear);
      resolve_ns += static_cast<double>(resolve);
    }
    frames += kFrames;
  }
  glDeleteQueries(2 * kFrames, queries.data());
  glDeleteFramebuffers(1, &draw_fb);
  glDeleteFramebuffers(1, &read_fb);
  glDeleteTextures(1, &color);
  glDeleteTextures(1, &resolved);
  glDeleteRenderbuffers(1, &depth);
  state.counters["clear_us"] = clear_ns / 1e3 / std::max<int64_t>(frames, 1);
  state.counters["resolve_us"] =
      resolve_ns / 1e3 / std::max<int64_t>(frames, 1);
  state.SetItemsProcessed(frames);
}

[[maybe_unused]] const bool kTargetCostRegistered = [] {
  for (const auto& [width, height] : {std::pair{640, 480}, {1920, 1080}}) {
    for (const auto& [depth_label, depth_format] :
         {std::pair{"d24", GL_DEPTH_COMPONENT24},
          {"d24s8", GL_DEPTH24_STENCIL8},
          {"d32f", GL_DEPTH_COMPONENT32F}}) {
      for (bool compute : {false, true}) {
        for (bool invalidate : {false, true}) {
          benchmark::RegisterBenchmark(
              absl::StrFormat("BM_TargetCost/%dx%d/%s/%s%s", width, height,
                              depth_label, compute ? "compute" : "blit",
                              invalidate ? "/invalidate" : "")
                  .c_str(),
              [w = width, h = height, d = depth_format, compute,
               invalidate](benchmark::State& state) {
                BM_TargetCost(state, w, h, d, compute, invalidate);
              })
              ->Unit(benchmark::kMillisecond)
              ->UseRealTime();
        }
      }
    }
  }
  return true;
}();

// BM_TargetCost's clear, one way at a time (GL_TIME_ELAPSED, 64 back to
// back): which part costs, and whether another way of clearing is cheaper.
constexpr char kClearColorShader[] = R"(#version 450 core
layout(local_size_x = 8, local_size_y = 8) in;
layout(rgba8, binding = 0) writeonly uniform image2DMS u_color;
void main() {
  ivec2 size = imageSize(u_color);
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  for (int s = 0; s < 4; ++s) imageStore(u_color, p, s, vec4(1.0));
}
)";
constexpr char kFarVertexShader[] = R"(#version 450 core
void main() {
  vec2 p = vec2((gl_VertexID & 1) * 4 - 1, (gl_VertexID & 2) * 2 - 1);
  gl_Position = vec4(p, 1.0, 1.0);
}
)";
constexpr char kFarFragmentShader[] = R"(#version 450 core
void main() {}
)";

enum class ClearWay {
  kColor,
  kDepth,
  kBoth,
  kCombined,
  kDepthHalf,
  kDepthTexture,
  kDepth32Texture,
  kColorCompute,
  kDepthByDrawing
};

void BM_ClearCost(benchmark::State& state, int width, int height,
                  ClearWay way) {
  if (!Gpu().MakeCurrent().ok()) return state.SkipWithError("no context");
  const bool depth_texture =
      way == ClearWay::kDepthTexture || way == ClearWay::kDepth32Texture;
  GLuint color = 0, depth = 0, fb = 0, vao = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &color);
  glTextureStorage2DMultisample(color, 4, GL_RGBA8, width, height, GL_TRUE);
  glCreateFramebuffers(1, &fb);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT0, color, 0);
  if (depth_texture) {
    glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &depth);
    glTextureStorage2DMultisample(depth, 4,
                                  way == ClearWay::kDepthTexture
                                      ? GL_DEPTH_COMPONENT24
                                      : GL_DEPTH_COMPONENT32F,
                                  width, height, GL_TRUE);
    glNamedFramebufferTexture(fb, GL_DEPTH_ATTACHMENT, depth, 0);
  } else {
    glCreateRenderbuffers(1, &depth);
    glNamedRenderbufferStorageMultisample(depth, 4, GL_DEPTH_COMPONENT24, width,
                                          height);
    glNamedFramebufferRenderbuffer(fb, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
                                   depth);
  }
  glCreateVertexArrays(1, &vao);
  auto clear_program = gl::LinkProgram(
      {{GL_COMPUTE_SHADER, "clear.comp", std::string(kClearColorShader)}});
  auto far_program = gl::LinkProgram(
      {{GL_VERTEX_SHADER, "far.vert", std::string(kFarVertexShader)},
       {GL_FRAGMENT_SHADER, "far.frag", std::string(kFarFragmentShader)}});
  if (!clear_program.ok() || !far_program.ok() ||
      glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) !=
          GL_FRAMEBUFFER_COMPLETE) {
    return state.SkipWithError("target or programs failed");
  }
  constexpr int kFrames = 64;
  std::array<GLuint, kFrames> queries{};
  glGenQueries(kFrames, queries.data());
  const std::array<float, 4> white = {1, 1, 1, 1};
  const float far = 1.0f;
  double clear_ns = 0;
  int64_t frames = 0;
  for (auto _ : state) {
    for (int i = 0; i < kFrames; ++i) {
      glBindFramebuffer(GL_FRAMEBUFFER, fb);
      glViewport(0, 0, width, height);
      glBeginQuery(GL_TIME_ELAPSED, queries[i]);
      switch (way) {
        case ClearWay::kColor:
          glClearNamedFramebufferfv(fb, GL_COLOR, 0, white.data());
          break;
        case ClearWay::kBoth:
          glClearNamedFramebufferfv(fb, GL_COLOR, 0, white.data());
          [[fallthrough]];
        case ClearWay::kDepth:
        case ClearWay::kDepthTexture:
        case ClearWay::kDepth32Texture:
          glClearNamedFramebufferfv(fb, GL_DEPTH, 0, &far);
          break;
        case ClearWay::kCombined:
          glClearColor(1, 1, 1, 1);
          glClearDepth(1.0);
          glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
          break;
        case ClearWay::kDepthHalf:
          glEnable(GL_SCISSOR_TEST);
          glScissor(0, 0, width, height / 2);
          glClearNamedFramebufferfv(fb, GL_DEPTH, 0, &far);
          glDisable(GL_SCISSOR_TEST);
          break;
        case ClearWay::kColorCompute:
          glUseProgram(clear_program->get());
          glBindImageTexture(0, color, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
          glDispatchCompute((width + 7) / 8, (height + 7) / 8, 1);
          glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT);
          break;
        case ClearWay::kDepthByDrawing:
          glUseProgram(far_program->get());
          glBindVertexArray(vao);
          glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
          glEnable(GL_DEPTH_TEST);
          glDepthFunc(GL_ALWAYS);
          glDrawArrays(GL_TRIANGLES, 0, 3);
          glDepthFunc(GL_LESS);
          glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
          break;
      }
      glEndQuery(GL_TIME_ELAPSED);
    }
    for (GLuint query : queries) {
      GLuint64 elapsed = 0;
      glGetQueryObjectui64v(query, GL_QUERY_RESULT, &elapsed);
      clear_ns += static_cast<double>(elapsed);
    }
    frames += kFrames;
  }
  glDeleteQueries(kFrames, queries.data());
  glDeleteFramebuffers(1, &fb);
  glDeleteVertexArrays(1, &vao);
  glDeleteTextures(1, &color);
  if (depth_texture) {
    glDeleteTextures(1, &depth);
  } else {
    glDeleteRenderbuffers(1, &depth);
  }
  state.counters["clear_us"] = clear_ns / 1e3 / std::max<int64_t>(frames, 1);
  state.SetItemsProcessed(frames);
}

[[maybe_unused]] const bool kClearCostRegistered = [] {
  for (const auto& [width, height] : {std::pair{640, 480}, {1920, 1080}}) {
    for (const auto& [label, way] :
         {std::pair{"color", ClearWay::kColor},
          {"depth", ClearWay::kDepth},
          {"both", ClearWay::kBoth},
          {"combined", ClearWay::kCombined},
          {"depth_half", ClearWay::kDepthHalf},
          {"depth_texture", ClearWay::kDepthTexture},
          {"depth32_texture", ClearWay::kDepth32Texture},
          {"color_compute", ClearWay::kColorCompute},
          {"depth_by_drawing", ClearWay::kDepthByDrawing}}) {
      benchmark::RegisterBenchmark(
          absl::StrFormat("BM_ClearCost/%dx%d/%s", width, height, label)
              .c_str(),
          [width = width, height = height, way = way](benchmark::State& state) {
            BM_ClearCost(state, width, height, way);
          })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  return true;
}();

}  // namespace
}  // namespace crease::renderer
