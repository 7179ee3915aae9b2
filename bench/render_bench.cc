// Frame time of the headless renderer (llvmpipe here) with and without
// wrinkles, and image encode times. Each render includes upload, draw,
// glReadPixels.

#include <cstdio>
#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "renderer/frame_renderer.h"
#include "renderer/image_encoding.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/session.h"

namespace crease::renderer {
namespace {

struct Scene {
  std::unique_ptr<GpuContext> gpu;
  std::unique_ptr<FrameRenderer> renderer;
  io::Animation animation;
  std::unique_ptr<Session> session;
  int frame = 0;
};

// The trouser knee at its first full bend (frame 36), wrinkles traced with
// L_min 1.2 cm.
Scene& PantsScene() {
  static Scene* scene = [] {
    auto* s = new Scene();
    s->gpu = *GpuContext::Create();
    s->renderer = *FrameRenderer::Create(s->gpu.get());
    const std::string stem = std::string(CREASE_DATA_DIR) + "/cloth_pants_knee";
    s->animation = *io::ReadAnimation(stem + ".obj", stem + ".pc2");
    SessionParams params;
    params.wrinkles.min_width = 0.012;
    s->session = *Session::Create(s->animation.mesh.triangles,
                                  s->animation.mesh.positions, params);
    s->frame = 36;
    for (int f = 0; f <= s->frame; ++f) {
      (void)s->session->ProcessFrame(s->animation.frames.Sample(f));
    }
    return s;
  }();
  return *scene;
}

void BM_Render(benchmark::State& state) {
  Scene& scene = PantsScene();
  RenderOptions options;
  options.width = static_cast<int>(state.range(0));
  options.height = static_cast<int>(state.range(1));
  options.wrinkles = state.range(2) != 0;
  for (auto _ : state) {
    auto image = scene.renderer->Render(
        scene.animation.frames.Sample(scene.frame),
        scene.animation.mesh.triangles, &scene.session->wrinkles(), options);
    if (!image.ok()) {
      state.SkipWithError(std::string(image.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(image->pixels.data());
  }
  state.counters["wrinkles"] =
      static_cast<double>(scene.session->wrinkles().wrinkles().size());
}
BENCHMARK(BM_Render)
    ->ArgNames({"w", "h", "wrinkled"})
    ->Args({640, 480, 0})
    ->Args({640, 480, 1})
    ->Args({1920, 1080, 0})
    ->Args({1920, 1080, 1})
    ->Unit(benchmark::kMillisecond);

RgbaImage Frame1080p() {
  Scene& scene = PantsScene();
  RenderOptions options;
  options.width = 1920;
  options.height = 1080;
  return *scene.renderer->Render(scene.animation.frames.Sample(scene.frame),
                                 scene.animation.mesh.triangles,
                                 &scene.session->wrinkles(), options);
}

void BM_EncodeJpeg1080p(benchmark::State& state) {
  const RgbaImage image = Frame1080p();
  for (auto _ : state) benchmark::DoNotOptimize(EncodeJpeg(image, 90)->size());
}
BENCHMARK(BM_EncodeJpeg1080p)->Unit(benchmark::kMillisecond);

void BM_EncodePng1080p(benchmark::State& state) {
  const RgbaImage image = Frame1080p();
  for (auto _ : state) benchmark::DoNotOptimize(EncodePng(image, 1)->size());
}
BENCHMARK(BM_EncodePng1080p)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace crease::renderer

BENCHMARK_MAIN();
