// render_bench: image encoding at 1080p, and the server's render pool.

#include <string>

#include "absl/strings/str_format.h"
#include "absl/synchronization/blocking_counter.h"
#include "absl/synchronization/mutex.h"
#include "bench/render_bench_scene.h"
#include "benchmark/benchmark.h"
#include "image/image_encoding.h"
#include "renderer/frame_renderer.h"
#ifdef CREASE_BENCH_RENDER_POOL
#include "server/render_pool.h"
#endif

namespace crease::renderer {
namespace {

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
