// Frame time of the headless renderer (llvmpipe here) with and without
// wrinkles, and image encode times. Each render includes upload, draw,
// glReadPixels.

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/synchronization/blocking_counter.h"
#include "absl/synchronization/mutex.h"
#include "benchmark/benchmark.h"
#include "image/image_encoding.h"
#include "renderer/frame_data.h"
#include "renderer/frame_renderer.h"
#include "renderer/gl/gl_objects.h"
#include "renderer/gl/scene_lighting.h"
#include "renderer/pattern_data.h"
#include "renderer/pixel_readback.h"
#include "renderer/uv_map_dilation.h"
#include "renderer/uv_map_renderer.h"
#include "renderer/uv_maps.h"
#ifdef CREASE_BENCH_RENDER_POOL
#include "server/render_pool.h"
#endif
#include "tests/testing/bundled_path.h"
#include "wrinkle/core/mesh.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/io/gltf.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/wrinkle_maps/amplitude_model.h"
#include "wrinkle/wrinkle_maps/default_pattern.h"
#include "wrinkle/wrinkle_maps/wrinkle_pattern.h"

namespace crease::renderer {
namespace {

struct Scene {
  std::unique_ptr<FrameRenderer> renderer;
  io::Animation animation;
  std::unique_ptr<Session> session;
  int frame = 0;
  FrameWrinkles wrinkles;  // the session's at `frame`

  // As the server gives it: the closure found once (ClosedAndConsistent).
  RenderMesh mesh() const {
    RenderMesh mesh{animation.frames.Sample(frame), animation.mesh.triangles,
                    session->topology().weld_map()};
    if (!closed) {
      std::vector<uint64_t> edges;
      closed = ClosedAndConsistent(mesh.triangles, mesh.welded, &edges);
    }
    mesh.closed_and_consistent = closed;
    return mesh;
  }
  mutable std::optional<bool> closed;
};

GpuContext& Gpu() {
  static GpuContext* gpu = GpuContext::Create()->release();
  return *gpu;
}

// A bundled animation with default Session parameters (but L_min if
// min_width > 0), stopped at the frame with the most wrinkles among its first
// 60.
Scene& SceneOf(const std::string& name, double min_width = 0) {
  static auto* scenes = new std::map<std::string, std::unique_ptr<Scene>>();
  std::unique_ptr<Scene>& scene =
      (*scenes)[absl::StrFormat("%s@%g", name, min_width)];
  if (scene != nullptr) return *scene;
  scene = std::make_unique<Scene>();
  scene->renderer = *FrameRenderer::Create(&Gpu());
  scene->animation = *io::ReadAnimation(testing::BundledPath(name + ".obj"),
                                        testing::BundledPath(name + ".pc2"));
  const int frames = std::min(60, scene->animation.num_frames());
  size_t most = 0;
  for (int pass = 0; pass < 2; ++pass) {
    SessionParams params;
    if (min_width > 0) params.wrinkles.min_width = min_width;
    scene->session = *Session::Create(scene->animation.mesh.triangles,
                                      scene->animation.mesh.positions, params);
    for (int f = 0; f < frames; ++f) {
      (void)scene->session->ProcessFrame(scene->animation.frames.Sample(f));
      const size_t count = scene->session->tracker().wrinkles().size();
      if (pass == 0 && count > most) {
        most = count;
        scene->frame = f;
      }
      if (pass == 1 && f == scene->frame) break;
    }
  }
  scene->session->tracker().ExportFrame(&scene->wrinkles);
  return *scene;
}

// The CPU half of a wrinkled frame, which the GL thread does before its
// uploads: smooth normals, the wrinkle buffers and the culling decision.
void BM_FramePrepare(benchmark::State& state, const std::string& name) {
  Scene& scene = SceneOf(name);
  const RenderMesh mesh = scene.mesh();
  RenderOptions options;
  const auto view = gl::SceneViewFor(mesh.positions, options);
  if (!view.ok()) {
    state.SkipWithError(std::string(view.status().message()).c_str());
    return;
  }
  SmoothNormals normals;
  WrinkleBuffers buffers;
  std::vector<uint64_t> scratch;
  for (auto _ : state) {
    normals.Compute(mesh);
    FillWrinkleBuffers(
        mesh, scene.wrinkles,
        {view->view_projection, options.width, options.height,
         options.min_edge_pixels, options.min_wrinkle_pixels, 64},
        &buffers);
    benchmark::DoNotOptimize(ClassifyClosure(mesh, &scratch));
  }
}
BENCHMARK_CAPTURE(BM_FramePrepare, fox_walk, std::string("fox_walk"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FramePrepare, cesiumman_walk,
                  std::string("cesiumman_walk"))
    ->Unit(benchmark::kMicrosecond);

void BM_Render(benchmark::State& state, const std::string& name,
               double min_width, int width, int height, bool wrinkled) {
  Scene& scene = SceneOf(name, min_width);
  RenderOptions options;
  options.width = width;
  options.height = height;
  options.wrinkles = wrinkled;
  RenderStats stats;
  for (auto _ : state) {
    auto image =
        scene.renderer->Render(scene.mesh(), &scene.wrinkles, options, &stats);
    if (!image.ok()) {
      state.SkipWithError(std::string(image.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(image->pixels.data());
  }
  state.counters["frame"] = scene.frame;
  state.counters["triangles"] =
      static_cast<double>(scene.animation.mesh.triangles.size());
  state.counters["wrinkles"] =
      static_cast<double>(scene.session->tracker().wrinkles().size());
  // Of those: shaded, displacing, and the triangles tessellated for them.
  state.counters["drawn"] = stats.drawn_wrinkles;
  state.counters["displaced"] = stats.displaced_wrinkles;
  state.counters["tessellated"] = stats.tessellated_triangles;
}

// 64 frames drawn back to back by one renderer, prepared once: drawn only
// ("draw"), or read back through a ring of `slots` pixel buffers, each freed
// as soon as it arrives ("readback", no encoding): the GPU's drawing and its
// read-back bandwidth, apart from the pool's encoding.
void BM_DrawPipeline(benchmark::State& state, const std::string& name,
                     int width, int height, bool read_back, int slots,
                     TargetWork target_work = TargetWork::kAuto) {
  Scene& scene = SceneOf(name);
  auto own_renderer = FrameRenderer::Create(
      &Gpu(), FrameRenderer::kDefaultBufferSets, target_work);
  if (!own_renderer.ok()) {
    state.SkipWithError("renderer failed");
    return;
  }
  FrameRenderer* renderer = own_renderer->get();
  RenderOptions options;
  options.width = width;
  options.height = height;
  PreparedFrame prepared;
  absl::Status status =
      FrameRenderer::Prepare(scene.mesh(), &scene.wrinkles, options, &prepared);
  auto readback = PixelReadback::Create(&Gpu(), slots);
  if (!status.ok() || !readback.ok()) {
    state.SkipWithError("prepare or read-back ring failed");
    return;
  }
  constexpr int kFrames = 64;
  for (auto _ : state) {
    std::deque<ReadbackTicket> pending;
    for (int i = 0; i < kFrames && status.ok(); ++i) {
      if (!read_back) {
        status = renderer->Draw(prepared);
        continue;
      }
      if (static_cast<int>(pending.size()) == slots) {
        status = (*readback)->Finish(pending.front()).status();
        pending.pop_front();
      }
      auto ticket = renderer->DrawToReadback(prepared, readback->get());
      if (ticket.ok()) pending.push_back(*ticket);
      if (!ticket.ok()) status = ticket.status();
    }
    for (const ReadbackTicket& t : pending) (void)(*readback)->Finish(t);
    // Everything drawn is done once one frame is read back synchronously.
    auto image = renderer->Render(scene.mesh(), &scene.wrinkles, options);
    if (!status.ok() || !image.ok()) {
      state.SkipWithError("a frame failed");
      return;
    }
  }
  state.SetItemsProcessed(state.iterations() * kFrames);
}

// Where a drawn frame's time goes: per frame, the GPU's own time for its
// commands (a GL_TIME_ELAPSED query around each Draw), the GL thread's time
// to issue them, and the wall time of 64 frames back to back. GPU time near
// the wall time: the GPU is the limit; well under it: issuing is. Wrinkled
// and plain frames with the renderer's own choice of target work (compute
// passes on a GPU), and wrinkled ones with the GL's clear and blit
// ("fixed_target").
void BM_FrameTimes(benchmark::State& state, const std::string& name, int width,
                   int height, bool wrinkled, TargetWork target_work,
                   bool displacement = true) {
  Scene& scene = SceneOf(name);
  RenderOptions options;
  options.width = width;
  options.height = height;
  options.displacement = displacement;
  PreparedFrame prepared;
  absl::Status status = FrameRenderer::Prepare(
      scene.mesh(), wrinkled ? &scene.wrinkles : nullptr, options, &prepared);
  auto renderer = FrameRenderer::Create(
      &Gpu(), FrameRenderer::kDefaultBufferSets, target_work);
  if (!status.ok() || !renderer.ok()) {
    state.SkipWithError("prepare or renderer failed");
    return;
  }
  constexpr int kFrames = 64;
  // One query per frame, read after all 64: the frames stay back to back.
  std::array<GLuint, kFrames> queries{};
  glGenQueries(kFrames, queries.data());
  double gpu_ns = 0, issue_ns = 0;
  int64_t frames = 0;
  for (auto _ : state) {
    for (int i = 0; i < kFrames && status.ok(); ++i) {
      glBeginQuery(GL_TIME_ELAPSED, queries[i]);
      const auto t0 = std::chrono::steady_clock::now();
      status = (*renderer)->Draw(prepared);
      issue_ns += std::chrono::duration<double, std::nano>(
                      std::chrono::steady_clock::now() - t0)
                      .count();
      glEndQuery(GL_TIME_ELAPSED);
    }
    for (GLuint query : queries) {
      GLuint64 elapsed = 0;
      glGetQueryObjectui64v(query, GL_QUERY_RESULT, &elapsed);
      gpu_ns += static_cast<double>(elapsed);
    }
    frames += kFrames;
  }
  glDeleteQueries(kFrames, queries.data());
  if (!status.ok()) state.SkipWithError(std::string(status.message()).c_str());
  state.counters["gpu_us"] = gpu_ns / 1e3 / std::max<int64_t>(frames, 1);
  state.counters["issue_us"] = issue_ns / 1e3 / std::max<int64_t>(frames, 1);
  state.SetItemsProcessed(frames);
}

[[maybe_unused]] const bool kFrameTimesRegistered = [] {
  for (const auto& [width, height] :
       {std::pair{160, 120}, {640, 480}, {1920, 1080}}) {
    for (const auto& [label, wrinkled, work, displacement] :
         {std::tuple{"wrinkled", true, TargetWork::kAuto, true},
          {"plain", false, TargetWork::kAuto, true},
          {"wrinkled/fixed_target", true, TargetWork::kFixedFunction, true},
          {"wrinkled/no_displacement", true, TargetWork::kAuto, false}}) {
      benchmark::RegisterBenchmark(
          absl::StrFormat("BM_FrameTimes/fox_walk/%dx%d/%s", width, height,
                          label)
              .c_str(),
          // Copies: C++20 before clang 16 cannot capture structured
          // bindings.
          [w = width, h = height, wr = wrinkled, wk = work,
           d = displacement](benchmark::State& state) {
            BM_FrameTimes(state, "fox_walk", w, h, wr, wk, d);
          })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  return true;
}();

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

// BM_DrawPipeline's read-back, `batch` frames to a target (stacked, one
// clear, resolve and read-back each: FrameRenderer::DrawBatchToReadback),
// each batch's pixels split per frame and freed as they arrive.
void BM_DrawBatches(benchmark::State& state, const std::string& name, int width,
                    int height, int batch, bool wrinkled = true,
                    int samples = 4) {
  Scene& scene = SceneOf(name);
  RenderOptions options;
  options.width = width;
  options.height = height;
  options.samples = samples;
  constexpr int kFrames = 64, kSlots = 4;
  std::vector<PreparedFrame> prepared(batch);
  std::vector<const PreparedFrame*> frames;
  absl::Status status;
  for (PreparedFrame& p : prepared) {
    status.Update(FrameRenderer::Prepare(
        scene.mesh(), wrinkled ? &scene.wrinkles : nullptr, options, &p));
    frames.push_back(&p);
  }
  auto renderer = FrameRenderer::Create(&Gpu(), batch * (kSlots + 1));
  auto readback = PixelReadback::Create(&Gpu(), kSlots);
  if (!status.ok() || !readback.ok() || !renderer.ok()) {
    state.SkipWithError("prepare, renderer or read-back ring failed");
    return;
  }
  for (auto _ : state) {
    std::deque<ReadbackTicket> pending;
    auto finish = [&] {
      auto pixels = (*readback)->Finish(pending.front());
      pending.pop_front();
      if (!pixels.ok()) return pixels.status();
      return std::move(*pixels).Split(batch).status();
    };
    for (int i = 0; i < kFrames / batch && status.ok(); ++i) {
      if (static_cast<int>(pending.size()) == kSlots) status = finish();
      auto ticket = (*renderer)->DrawBatchToReadback(frames, readback->get());
      if (ticket.ok()) pending.push_back(*ticket);
      if (!ticket.ok()) status = ticket.status();
    }
    while (!pending.empty() && status.ok()) status = finish();
    if (!status.ok()) {
      state.SkipWithError(std::string(status.message()).c_str());
      return;
    }
  }
  state.SetItemsProcessed(state.iterations() * (kFrames / batch) * batch);
}

[[maybe_unused]] const bool kBatchesRegistered = [] {
  for (const auto& [width, height] : {std::pair{640, 480}, {1920, 1080}}) {
    for (int batch : {1, 2, 4, 8}) {
      if (batch > FrameRenderer::MaxBatchFrames(height)) continue;
      benchmark::RegisterBenchmark(
          absl::StrFormat("BM_DrawBatches/fox_walk/%dx%d/batch:%d", width,
                          height, batch)
              .c_str(),
          [width = width, height = height,
           batch = batch](benchmark::State& state) {
            BM_DrawBatches(state, "fox_walk", width, height, batch);
          })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  for (const auto& [label, wrinkled, samples] :
       {std::tuple{"plain", false, 4}, {"samples:1", true, 1}}) {
    for (int batch : {1, 8}) {
      benchmark::RegisterBenchmark(
          absl::StrFormat("BM_DrawBatches/fox_walk/640x480/batch:%d/%s", batch,
                          label)
              .c_str(),
          [batch = batch, wrinkled = wrinkled,
           samples = samples](benchmark::State& state) {
            BM_DrawBatches(state, "fox_walk", 640, 480, batch, wrinkled,
                           samples);
          })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  return true;
}();

[[maybe_unused]] const bool kPipelineRegistered = [] {
  for (const auto& [width, height] : {std::pair{640, 480}, {1920, 1080}}) {
    for (const auto& [mode, read_back, slots, work] :
         {std::tuple{"draw", false, 1, TargetWork::kAuto},
          {"readback/slots:4", true, 4, TargetWork::kAuto},
          {"readback/slots:16", true, 16, TargetWork::kAuto},
          {"draw/fixed_target", false, 1, TargetWork::kFixedFunction},
          {"readback/slots:4/fixed_target", true, 4,
           TargetWork::kFixedFunction}}) {
      benchmark::RegisterBenchmark(
          absl::StrFormat("BM_DrawPipeline/fox_walk/%dx%d/%s", width, height,
                          mode)
              .c_str(),
          [width = width, height = height, read_back = read_back, slots = slots,
           work = work](benchmark::State& state) {
            BM_DrawPipeline(state, "fox_walk", width, height, read_back, slots,
                            work);
          })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  return true;
}();

struct RenderSet {
  const char* name;
  const char* label;
  double min_width;  // 0: the default L_min
};
// Every bundled set with default parameters, and the trouser knee with the
// demo's wider wrinkles (L_min 1.2 cm), which displace at 640 x 480 too.
const RenderSet kSets[] = {
    {"cloth_drape_sphere", "cloth_drape_sphere", 0},
    {"cloth_pants_knee", "cloth_pants_knee", 0},
    {"cloth_pants_knee", "cloth_pants_knee_Lmin1.2cm", 0.012},
    {"cloth_skirt_walk", "cloth_skirt_walk", 0},
    {"fox_walk", "fox_walk", 0},
    {"cesiumman_walk", "cesiumman_walk", 0}};

[[maybe_unused]] const bool kRegistered = [] {
  for (const RenderSet& set : kSets) {
    for (auto [w, h] : {std::pair{640, 480}, std::pair{1920, 1080}}) {
      for (bool wrinkled : {false, true}) {
        benchmark::RegisterBenchmark(
            absl::StrFormat("BM_Render/%s/%dx%d/%s", set.label, w, h,
                            wrinkled ? "wrinkled" : "plain")
                .c_str(),
            [set, w = w, h = h, wrinkled](benchmark::State& state) {
              BM_Render(state, set.name, set.min_width, w, h, wrinkled);
            })
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  return true;
}();

// The wrinkle-map model (Volino 1999) on the Fox of Fox.glb (Walk, frame 30:
// the crack test's), amplitudes from AmplitudeModel with rest lengths from
// the rest pose at the paper's scale (k = 1), the default sinusoid pattern.
struct PatternScene {
  std::unique_ptr<FrameRenderer> renderer;
  io::Animation animation;
  std::vector<float> positions;
  std::vector<int32_t> welded;
  WrinklePattern pattern;
  // Another session's default, at 1.25 times the wavelength (same tile
  // size), for frames that alternate between two patterns.
  WrinklePattern other_pattern;
  std::vector<float> amplitudes;
};

PatternScene& FoxPatternScene() {
  static PatternScene* scene = [] {
    auto* s = new PatternScene();
    s->renderer = *FrameRenderer::Create(&Gpu());
    io::GltfOptions gltf;
    gltf.animation = "Walk";
    gltf.frames = 31;
    gltf.loop = true;
    s->animation = *io::ReadGltf(testing::BundledPath("Fox.glb"), gltf);
    const io::TriangleMesh& mesh = s->animation.mesh;
    const auto topology = *MeshTopology::Build(mesh.triangles, mesh.positions);
    s->welded = topology.weld_map();
    // The service's default for this mesh (1/37.1 UV: a 512² tile).
    const double wavelength = *DefaultPatternWavelength(
        mesh.triangles, mesh.positions, mesh.corner_uvs);
    s->pattern = *MakeDefaultPattern(wavelength);
    s->other_pattern = *MakeDefaultPattern(1.25 * wavelength);
    auto model = *AmplitudeModel::Create(topology, mesh.corner_uvs, s->pattern,
                                         mesh.positions, {});
    const auto positions = s->animation.frames.Sample(30);
    s->positions.assign(positions.begin(), positions.end());
    (void)model.Update(s->positions);
    const auto amplitudes = model.vertex_amplitudes();
    s->amplitudes.assign(amplitudes.begin(), amplitudes.end());
    return s;
  }();
  return *scene;
}

// kBumpAlternating: bump-mapped, every other frame with the other pattern,
// as a render thread drawing two sessions of different meshes in turn.
enum class PatternRun { kPlain, kBump, kDisplaced, kBumpAlternating };

void BM_RenderPattern(benchmark::State& state, int width, int height,
                      PatternRun run) {
  PatternScene& scene = FoxPatternScene();
  const RenderMesh mesh{scene.positions, scene.animation.mesh.triangles,
                        scene.welded, scene.animation.mesh.corner_uvs};
  // Named, as the server names its patterns: no per-frame sample compare.
  static const uint64_t pattern_id = NewPatternId();
  static const uint64_t other_id = NewPatternId();
  const auto wrinkles_of = [&](const WrinklePattern& p, uint64_t id) {
    PatternWrinkles w{{p.width, p.height, p.channels, p.samples,
                       p.wrap == PatternWrap::kRepeat, id},
                      scene.amplitudes};
    w.displace = run == PatternRun::kDisplaced;
    return w;
  };
  const PatternWrinkles wrinkles[2] = {
      wrinkles_of(scene.pattern, pattern_id),
      wrinkles_of(scene.other_pattern, other_id)};
  RenderOptions options;
  options.width = width;
  options.height = height;
  RenderStats stats;
  int frame = 0, uploads = 0;
  for (auto _ : state) {
    const int which = run == PatternRun::kBumpAlternating ? (frame++ & 1) : 0;
    auto image = run == PatternRun::kPlain
                     ? scene.renderer->Render(mesh, nullptr, options, &stats)
                     : scene.renderer->RenderPattern(mesh, wrinkles[which],
                                                     options, &stats);
    uploads += stats.pattern_uploads;
    if (!image.ok()) {
      state.SkipWithError(std::string(image.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(image->pixels.data());
  }
  state.counters["triangles"] =
      static_cast<double>(scene.animation.mesh.triangles.size());
  state.counters["tessellated"] = stats.tessellated_triangles;
  state.counters["uploads"] =
      benchmark::Counter(uploads, benchmark::Counter::kAvgIterations);
}

[[maybe_unused]] const bool kPatternRegistered = [] {
  for (auto [run, label] :
       {std::pair{PatternRun::kPlain, "plain"},
        std::pair{PatternRun::kBump, "bump"},
        std::pair{PatternRun::kDisplaced, "displaced"},
        std::pair{PatternRun::kBumpAlternating, "bump/two_patterns"}}) {
    benchmark::RegisterBenchmark(
        absl::StrFormat("BM_RenderPattern/Fox.glb/640x480/%s", label).c_str(),
        [run = run](benchmark::State& state) {
          BM_RenderPattern(state, 640, 480, run);
        })
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

// The UV-space maps of a bundled character at its most wrinkled frame, with
// the UVs of the glTF it was made from (same vertices, same order).
// `flat` draws the maps with no wrinkles: the fixed cost of a size (raster,
// readback, dilation) that the wrinkle lookups come on top of.
// kDrawnWhole: whole triangles, no pruning (max_pieces_per_edge 1): what the
// pieces save, or cost, on this renderer.
enum class UvMapsRun { kFlat, kDrawn, kDrawnWhole, kPng };

// The corner UVs of bundled set `name` from the glTF it was made from (same
// vertices, same order); empty, with the benchmark skipped, if it is not.
const std::vector<float>& CornerUvsOf(benchmark::State& state,
                                      const std::string& name,
                                      const std::string& gltf) {
  Scene& scene = SceneOf(name);
  static auto* uvs = new std::map<std::string, std::vector<float>>();
  std::vector<float>& corner_uvs = (*uvs)[name];
  if (corner_uvs.empty()) {
    io::GltfOptions options;
    options.frames = 1;
    auto animation = io::ReadGltf(testing::BundledPath(gltf), options);
    if (!animation.ok() ||
        animation->mesh.triangles != scene.animation.mesh.triangles) {
      state.SkipWithError("the glTF's mesh is not the bundled one");
      return corner_uvs;
    }
    corner_uvs = animation->mesh.corner_uvs;
  }
  return corner_uvs;
}

void BM_UvMaps(benchmark::State& state, const std::string& name,
               const std::string& gltf, int size, UvMapsRun run) {
  Scene& scene = SceneOf(name);
  const std::vector<float>& corner_uvs = CornerUvsOf(state, name, gltf);
  if (corner_uvs.empty()) return;
  static UvMapRenderer* renderer = UvMapRenderer::Create(&Gpu())->release();
  UvMapOptions options;
  options.size = size;
  if (run == UvMapsRun::kDrawnWhole) {
    options.max_pieces_per_edge = 1;
    options.prune_lookups = false;
  }
  UvMaps maps;
  RenderMesh mesh = scene.mesh();
  mesh.corner_uvs = corner_uvs;
  size_t bytes = 0;
  // The GPU's own time for a frame's maps (a GL_TIME_ELAPSED query around
  // each), against the wall time: how much of it the GPU works.
  GLuint query = 0;
  glGenQueries(1, &query);
  double gpu_ns = 0;
  std::array<double, 7> phases{};  // UvMapPhaseTimes' order
  for (auto _ : state) {
    glBeginQuery(GL_TIME_ELAPSED, query);
    if (absl::Status s = renderer->Render(
            mesh, run == UvMapsRun::kFlat ? nullptr : &scene.wrinkles, options,
            &maps);
        !s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      return;
    }
    glEndQuery(GL_TIME_ELAPSED);
    GLuint64 elapsed = 0;
    glGetQueryObjectui64v(query, GL_QUERY_RESULT, &elapsed);
    gpu_ns += static_cast<double>(elapsed);
    const UvMapPhaseTimes& t = renderer->last_phase_times();
    for (auto [sum, us] : {std::pair{&phases[0], t.setup_us},
                           {&phases[1], t.lists_us},
                           {&phases[2], t.corners_wait_us},
                           {&phases[3], t.pieces_us},
                           {&phases[4], t.draw_us},
                           {&phases[5], t.read_us},
                           {&phases[6], t.refill_us}}) {
      *sum += us;
    }
    if (run == UvMapsRun::kPng) {
      auto normal = image::EncodePng(maps.normal, 1, image::PngFilter::kSub);
      auto height = image::EncodePngGray16(size, size, maps.height, 1,
                                           image::PngFilter::kSub);
      bytes = normal->size() + height->size();
    }
    benchmark::DoNotOptimize(maps.height.data());
  }
  glDeleteQueries(1, &query);
  state.counters["frame"] = scene.frame;
  state.counters["png_bytes"] = static_cast<double>(bytes);
  const double runs =
      std::max<double>(static_cast<double>(state.iterations()), 1);
  state.counters["gpu_us"] = gpu_ns / 1e3 / runs;
  const char* names[] = {"setup_us", "lists_us", "corners_us", "pieces_us",
                         "draw_us",  "read_us",  "refill_us"};
  for (size_t i = 0; i < phases.size(); ++i) {
    state.counters[names[i]] = phases[i] / runs;
  }
}

// The wrinkles of a bundled animation's first 60 frames, each as its session
// had them, and the session's weld map (kept past the session).
struct UvMapsWalk {
  std::vector<int32_t> welded;
  std::vector<FrameWrinkles> wrinkles;
};

const UvMapsWalk& UvMapsWalkOf(const std::string& name) {
  static auto* walks = new std::map<std::string, UvMapsWalk>();
  UvMapsWalk& walk = (*walks)[name];
  if (!walk.wrinkles.empty()) return walk;
  const io::Animation& animation = SceneOf(name).animation;
  auto session = *Session::Create(animation.mesh.triangles,
                                  animation.mesh.positions, SessionParams{});
  const int frames = std::min(60, animation.num_frames());
  for (int f = 0; f < frames; ++f) {
    (void)session->ProcessFrame(animation.frames.Sample(f));
    session->tracker().ExportFrame(&walk.wrinkles.emplace_back());
  }
  const auto& weld = session->topology().weld_map();
  walk.welded.assign(weld.begin(), weld.end());
  return walk;
}

// The UV-space maps frame after frame through the first 60 frames of a walk
// (the wrinkles each frame's session had), as a session asking for maps
// pays: the mean per frame is the benchmark's time. Each frame is visited
// three times; the counters give, over each frame's quickest visit (wall),
// the median frame and the slowest frame and which it was. BM_UvMaps' drawn
// frame is the walk's most wrinkled.
void BM_UvMapsWalk(benchmark::State& state, const std::string& name,
                   const std::string& gltf, int size) {
  Scene& scene = SceneOf(name);
  const std::vector<float>& corner_uvs = CornerUvsOf(state, name, gltf);
  if (corner_uvs.empty()) return;
  const UvMapsWalk& walk = UvMapsWalkOf(name);
  const io::Animation& animation = scene.animation;
  const auto mesh_at = [&](size_t f) {
    return RenderMesh{animation.frames.Sample(static_cast<int>(f)),
                      animation.mesh.triangles, walk.welded, corner_uvs};
  };
  static UvMapRenderer* renderer = UvMapRenderer::Create(&Gpu())->release();
  UvMapOptions options;
  options.size = size;
  UvMaps maps;
  // The base for these UVs is made once per session, not per frame.
  if (absl::Status s = renderer->Render(mesh_at(0), nullptr, options, &maps);
      !s.ok()) {
    state.SkipWithError(std::string(s.message()).c_str());
    return;
  }
  // Each frame's quickest visit: a visit the machine's noise slowed says
  // nothing about the frame.
  std::vector<double> quickest(walk.wrinkles.size(),
                               std::numeric_limits<double>::infinity());
  size_t next = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    if (absl::Status s = renderer->Render(mesh_at(next), &walk.wrinkles[next],
                                          options, &maps);
        !s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(maps.height.data());
    quickest[next] =
        std::min(quickest[next], std::chrono::duration<double, std::milli>(
                                     std::chrono::steady_clock::now() - start)
                                     .count());
    next = (next + 1) % walk.wrinkles.size();
  }
  // Frames are visited in order: the last one seen means every one was.
  if (std::isinf(quickest.back())) return;
  const size_t slowest = static_cast<size_t>(
      std::max_element(quickest.begin(), quickest.end()) - quickest.begin());
  state.counters["slowest_frame"] = static_cast<double>(slowest);
  state.counters["slowest_ms"] = quickest[slowest];
  std::vector<double> sorted = quickest;
  std::sort(sorted.begin(), sorted.end());
  const size_t half = sorted.size() / 2;
  state.counters["median_frame_ms"] =
      sorted.size() % 2 == 1 ? sorted[half]
                             : 0.5 * (sorted[half - 1] + sorted[half]);
}

// The maps' tangent frames alone (CPU, each frame): the face tangents,
// angle-weighted and summed per (welded vertex, UV), then per corner made
// orthogonal to the smooth normal.
void BM_CornerTangents(benchmark::State& state, const std::string& name,
                       const std::string& gltf) {
  Scene& scene = SceneOf(name);
  const std::vector<float>& corner_uvs = CornerUvsOf(state, name, gltf);
  if (corner_uvs.empty()) return;
  RenderMesh mesh = scene.mesh();
  mesh.corner_uvs = corner_uvs;
  SmoothNormals normals;
  normals.Compute(mesh);
  std::vector<float> tangents;
  TangentScratch scratch;
  for (auto _ : state) {
    CornerTangents(mesh, normals.interleaved(), &tangents, &scratch);
    benchmark::DoNotOptimize(tangents.data());
  }
  state.counters["corners"] = static_cast<double>(tangents.size() / 4);
}

BENCHMARK_CAPTURE(BM_CornerTangents, fox_walk, "fox_walk", "Fox.glb")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CornerTangents, cesiumman_walk, "cesiumman_walk",
                  "CesiumMan.glb")
    ->Unit(benchmark::kMicrosecond);

// The dilation made again around a frame's wrinkles, looked at over the whole
// of a 1024² map: the plan recorded on the set's flat maps, refilled on its
// most wrinkled frame's (drawn undilated). Every recorded fill is looked at;
// those whose texels the wrinkles changed are re-made (a frame looks only
// near its pieces).
void BM_DilationRefill(benchmark::State& state, const std::string& name,
                       const std::string& gltf) {
  Scene& scene = SceneOf(name);
  const std::vector<float>& corner_uvs = CornerUvsOf(state, name, gltf);
  if (corner_uvs.empty()) return;
  static UvMapRenderer* renderer = UvMapRenderer::Create(&Gpu())->release();
  RenderMesh mesh = scene.mesh();
  mesh.corner_uvs = corner_uvs;
  UvMapOptions options;
  options.dilate_texels = 0;
  UvMaps flat, maps;
  if (!renderer->Render(mesh, nullptr, options, &flat).ok() ||
      !renderer->Render(mesh, &scene.wrinkles, options, &maps).ok()) {
    state.SkipWithError("the maps were not drawn");
    return;
  }
  DilationPlan plan;
  plan.Build(UvMapOptions().dilate_texels, &flat);
  const TexelBox everything{0, 0, maps.size - 1, maps.size - 1};
  for (auto _ : state) {
    plan.Refill({&everything, 1}, &maps);
    benchmark::DoNotOptimize(maps.height.data());
  }
  state.counters["fills"] = static_cast<double>(plan.fills());
}

BENCHMARK_CAPTURE(BM_DilationRefill, cesiumman_walk, "cesiumman_walk",
                  "CesiumMan.glb")
    ->Unit(benchmark::kMicrosecond);

[[maybe_unused]] const bool kUvMapsRegistered = [] {
  for (auto [name, gltf] : {std::pair{"fox_walk", "Fox.glb"},
                            std::pair{"cesiumman_walk", "CesiumMan.glb"}}) {
    for (auto [run, label] : {std::pair{UvMapsRun::kFlat, "flat"},
                              std::pair{UvMapsRun::kDrawn, "drawn"},
                              std::pair{UvMapsRun::kDrawnWhole, "drawn_whole"},
                              std::pair{UvMapsRun::kPng, "png"}}) {
      benchmark::RegisterBenchmark(
          absl::StrFormat("BM_UvMaps/%s/1024/%s", name, label).c_str(),
          [name = name, gltf = gltf, run = run](benchmark::State& state) {
            BM_UvMaps(state, name, gltf, 1024, run);
          })
          ->Unit(benchmark::kMillisecond);
    }
    // Three whole walks of 60 frames (each frame visited alike).
    benchmark::RegisterBenchmark(
        absl::StrFormat("BM_UvMapsWalk/%s/1024", name).c_str(),
        [name = name, gltf = gltf](benchmark::State& state) {
          BM_UvMapsWalk(state, name, gltf, 1024);
        })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(180)
        ->UseRealTime();
  }
  return true;
}();

image::RgbaImage Frame1080p() {
  Scene& scene = SceneOf("cloth_pants_knee");
  RenderOptions options;
  options.width = 1920;
  options.height = 1080;
  return *scene.renderer->Render(scene.mesh(), &scene.wrinkles, options);
}

void BM_EncodeJpeg1080p(benchmark::State& state) {
  const image::RgbaImage image = Frame1080p();
  for (auto _ : state)
    benchmark::DoNotOptimize(image::EncodeJpeg(image, 90)->size());
}
BENCHMARK(BM_EncodeJpeg1080p)->Unit(benchmark::kMillisecond);

void BM_EncodePng1080p(benchmark::State& state) {
  const image::RgbaImage image = Frame1080p();
  size_t bytes = 0;
  for (auto _ : state) bytes = image::EncodePng(image, 1)->size();
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_EncodePng1080p)->Unit(benchmark::kMillisecond);

#ifdef CREASE_BENCH_RENDER_POOL
// The render path the server uses (server::RenderPool: one queue, GL threads
// drawing back to back with read-backs in flight, encoding on a CPU pool),
// fed `in_flight` frames at a time as that many image sessions would: frames
// per second in all (items_per_second) is the renderer's ceiling on this
// machine. GL threads and encoders as the server's defaults pick them.
// `variant` changes one thing of the default frame, to place the render
// path's cost: "" (wrinkled, 4x MSAA), "plain" (no wrinkles), "samples:1"
// (no MSAA), "flat_wrinkles" (per-pixel normals only, no tessellation),
// "buffer_sets:1" (every frame's inputs in the same GL buffers),
// "prepare_on_gl_thread" / "prepare_off_gl_thread" (the frame's CPU half on
// the GL thread, or on the encoding pool as by default),
// "slots:4" (4 frames in flight, not 16, the default until the H200 measured
// it).
void BM_RenderPool(benchmark::State& state, const std::string& name, int width,
                   int height, int in_flight, int gl_threads,
                   const std::string& variant = "") {
  Scene& scene = SceneOf(name);
  server::RenderPoolOptions options;
  options.threads_per_gpu = gl_threads;
  if (variant == "buffer_sets:1") options.buffer_sets = 1;
  if (variant == "prepare_on_gl_thread") options.prepare_off_gl_thread = false;
  if (variant == "prepare_off_gl_thread") options.prepare_off_gl_thread = true;
  if (variant == "slots:4") options.frames_in_flight = 4;
  auto pool = server::RenderPool::Create(options);
  if (!pool.ok()) {
    state.SkipWithError(std::string(pool.status().message()).c_str());
    return;
  }
  const RenderMesh mesh = scene.mesh();
  int64_t frames = 0;
  std::string error;
  for (auto _ : state) {
    absl::BlockingCounter left(in_flight);
    absl::Mutex mu;
    for (int i = 0; i < in_flight; ++i) {
      server::RenderJob job;
      job.mesh = mesh;
      job.wrinkles = renderer::TracedWrinkles{&scene.wrinkles};
      job.options.width = width;
      job.options.height = height;
      job.options.wrinkles = variant != "plain";
      job.options.samples = variant == "samples:1" ? 1 : 4;
      job.options.displacement = variant != "flat_wrinkles";
      (*pool)->Submit(std::move(job), [&](server::RenderOutcome outcome) {
        if (!outcome.encoded.ok()) {
          absl::MutexLock lock(&mu);
          error = std::string(outcome.encoded.status().message());
        }
        left.DecrementCount();
      });
    }
    left.Wait();
    frames += in_flight;
  }
  if (!error.empty()) state.SkipWithError(error.c_str());
  state.SetItemsProcessed(frames);
  state.counters["encode_threads"] = (*pool)->encode_threads();
}

[[maybe_unused]] const bool kPoolRegistered = [] {
  for (int gl_threads : {1, 2}) {
    for (int in_flight : {1, 16, 64}) {
      benchmark::RegisterBenchmark(
          absl::StrFormat("BM_RenderPool/fox_walk/640x480/jpeg/in_flight:%d/"
                          "gl_threads:%d",
                          in_flight, gl_threads)
              .c_str(),
          [in_flight = in_flight,
           gl_threads = gl_threads](benchmark::State& state) {
            BM_RenderPool(state, "fox_walk", 640, 480, in_flight, gl_threads);
          })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  // Where a frame's GPU time goes (64 in flight, one GL thread).
  for (const char* variant :
       {"plain", "samples:1", "flat_wrinkles", "buffer_sets:1",
        "prepare_on_gl_thread", "prepare_off_gl_thread", "slots:4"}) {
    benchmark::RegisterBenchmark(
        absl::StrFormat("BM_RenderPool/fox_walk/640x480/jpeg/in_flight:64/"
                        "gl_threads:1/%s",
                        variant)
            .c_str(),
        [variant = variant](benchmark::State& state) {
          BM_RenderPool(state, "fox_walk", 640, 480, 64, 1, variant);
        })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  // 256 frames an iteration: the drain at each iteration's end weighs less.
  benchmark::RegisterBenchmark(
      "BM_RenderPool/fox_walk/640x480/jpeg/in_flight:256/gl_threads:1",
      [](benchmark::State& state) {
        BM_RenderPool(state, "fox_walk", 640, 480, 256, 1);
      })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  for (const auto& [width, height] : {std::pair{160, 120}, {1920, 1080}}) {
    benchmark::RegisterBenchmark(
        absl::StrFormat("BM_RenderPool/fox_walk/%dx%d/jpeg/in_flight:64/"
                        "gl_threads:1",
                        width, height)
            .c_str(),
        [width = width, height = height](benchmark::State& state) {
          BM_RenderPool(state, "fox_walk", width, height, 64, 1);
        })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  return true;
}();
#endif  // CREASE_BENCH_RENDER_POOL

}  // namespace
}  // namespace crease::renderer

BENCHMARK_MAIN();
