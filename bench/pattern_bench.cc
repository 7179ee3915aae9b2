// render_bench: the wrinkle-map model's frames (Volino 1999) on the Fox.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench/render_bench_scene.h"
#include "benchmark/benchmark.h"
#include "renderer/frame_renderer.h"
#include "tests/testing/bundled_path.h"
#include "wrinkle/io/gltf.h"
#include "wrinkle/wrinkle_maps/amplitude_model.h"
#include "wrinkle/wrinkle_maps/default_pattern.h"

namespace crease::renderer {
namespace {

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

}  // namespace
}  // namespace crease::renderer
