// render_bench: the UV-space normal and height maps, their corner tangents
// and their dilation.

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench/render_bench_scene.h"
#include "benchmark/benchmark.h"
#include "image/image_encoding.h"
#include "renderer/frame_data.h"
#include "renderer/gl/scene_lighting.h"
#include "renderer/uv_map_dilation.h"
#include "renderer/uv_map_renderer.h"
#include "tests/testing/bundled_path.h"
#include "wrinkle/io/gltf.h"

namespace crease::renderer {
namespace {

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

}  // namespace
}  // namespace crease::renderer
