// Frame time of the headless renderer (llvmpipe here) with and without
// wrinkles: the CPU half, single frames, the draw pipeline, batches and
// frame times. Each render includes upload, draw and read-back. The program
// also holds render_target_bench.cc, pattern_bench.cc, uv_maps_bench.cc and
// encode_pool_bench.cc.

#include <algorithm>
#include <array>
#include <chrono>
#include <deque>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench/render_bench_scene.h"
#include "benchmark/benchmark.h"
#include "renderer/frame_data.h"
#include "renderer/frame_renderer.h"
#include "renderer/gl/scene_lighting.h"
#include "renderer/pixel_readback.h"

namespace crease::renderer {
namespace {

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

}  // namespace
}  // namespace crease::renderer

BENCHMARK_MAIN();
