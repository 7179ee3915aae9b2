// Per-frame cost of the compression-field stages of a Session (tensors,
// labeling, references) on the bundled animations and on synthetic sheets of
// 1k-50k triangles.
//
// Each iteration processes the next frame of the animation (cycling). Besides
// Google Benchmark's mean time per iteration, every benchmark reports the
// *median* per-frame time of each stage as measured inside Session (counters
// tensors_us, labeling_us, reference_us, total_us) and the median total per
// triangle (ns_per_tri).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "common/median.h"
#include "tests/testing/bundled_path.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/sca2015/session.h"

namespace crease {
namespace {

struct Frames {
  io::TriangleMesh mesh;
  std::vector<std::vector<float>> positions;
};

void RunFrames(benchmark::State& state, const Frames& frames,
               const SessionParams& params = {}) {
  auto session =
      Session::Create(frames.mesh.triangles, frames.mesh.positions, params);
  if (!session.ok()) {
    state.SkipWithError(std::string(session.status().message()).c_str());
    return;
  }
  // Warm up: the first frame initialises, the second runs the first max flow.
  for (int i = 0; i < 2; ++i)
    (void)(*session)->ProcessFrame(frames.positions[i]);
  std::vector<double> tensors, labeling, reference, field, evolve, seed, shape,
      total;
  double wrinkles = 0;
  size_t next = 2 % frames.positions.size();
  for (auto _ : state) {
    const absl::Status s = (*session)->ProcessFrame(frames.positions[next]);
    if (!s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      return;
    }
    const StageTimings& t = (*session)->timings();
    tensors.push_back(t.tensors_ms * 1e3);
    labeling.push_back(t.labeling_ms * 1e3);
    reference.push_back(t.reference_ms * 1e3);
    field.push_back(t.field_ms() * 1e3);
    evolve.push_back(t.evolve_ms * 1e3);
    seed.push_back(t.seed_ms * 1e3);
    shape.push_back(t.shape_ms * 1e3);
    total.push_back(t.total_ms() * 1e3);
    wrinkles += static_cast<double>((*session)->tracker().wrinkles().size());
    next = (next + 1) % frames.positions.size();
  }
  const double triangles = static_cast<double>(frames.mesh.num_triangles());
  state.counters["tris"] = triangles;
  state.counters["tensors_us"] = Median(tensors);
  state.counters["labeling_us"] = Median(labeling);
  state.counters["reference_us"] = Median(reference);
  state.counters["field_us"] = Median(field);
  state.counters["evolve_us"] = Median(evolve);
  state.counters["seed_us"] = Median(seed);
  state.counters["shape_us"] = Median(shape);
  state.counters["wrinkles"] = wrinkles / std::max<double>(1, total.size());
  const double median_total = Median(total);
  state.counters["total_us"] = median_total;
  state.counters["ns_per_tri"] = median_total * 1e3 / triangles;
}

const Frames& LoadDataSet(const std::string& name) {
  static auto* cache = new std::vector<std::pair<std::string, Frames>>();
  for (const auto& [key, frames] : *cache) {
    if (key == name) return frames;
  }
  auto anim = io::ReadAnimation(testing::BundledPath(name + ".obj"),
                                testing::BundledPath(name + ".pc2"));
  if (!anim.ok()) {
    std::fprintf(stderr, "%s\n", std::string(anim.status().message()).c_str());
    std::exit(1);
  }
  Frames frames;
  frames.mesh = anim->mesh;
  for (int f = 0; f < anim->num_frames(); ++f) {
    const auto sample = anim->frames.Sample(f);
    frames.positions.emplace_back(sample.begin(), sample.end());
  }
  cache->emplace_back(name, std::move(frames));
  return cache->back().second;
}

const Frames& SyntheticSheet(int side_x, int side_z) {
  static auto* cache = new std::vector<std::pair<int, Frames>>();
  const int key = side_x * 100000 + side_z;
  for (const auto& [k, frames] : *cache) {
    if (k == key) return frames;
  }
  Frames frames;
  frames.mesh = MakeGridSheet(side_x, side_z, 1.0f, 1.0f);
  constexpr int kPeriod = 60;
  frames.positions.resize(kPeriod);
  for (int f = 0; f < kPeriod; ++f) {
    AnimateSheet(frames.mesh, f, kPeriod, 0.3f, &frames.positions[f]);
  }
  cache->emplace_back(key, std::move(frames));
  return cache->back().second;
}

void BM_DataSet(benchmark::State& state, const char* name) {
  RunFrames(state, LoadDataSet(name));
}

// The same with wrinkles popping in and out (fade_frames 0): what fading costs.
void BM_DataSetNoFade(benchmark::State& state, const char* name) {
  SessionParams params;
  params.wrinkles.fade_frames = 0;
  RunFrames(state, LoadDataSet(name), params);
}

// The same frames declared 60 fps (SessionParams::frame_rate): what the
// converted per-frame rules cost (the labeling's power of each triangle's
// inter-frame values; the length update and seeding every other frame).
void BM_DataSetAt60Fps(benchmark::State& state, const char* name) {
  SessionParams params;
  params.frame_rate = 60;
  RunFrames(state, LoadDataSet(name), params);
}

void BM_Sheet(benchmark::State& state) {
  RunFrames(state, SyntheticSheet(static_cast<int>(state.range(0)),
                                  static_cast<int>(state.range(1))));
}

BENCHMARK_CAPTURE(BM_DataSet, cloth_drape_sphere, "cloth_drape_sphere")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DataSet, fox_walk, "fox_walk")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DataSet, cloth_skirt_walk, "cloth_skirt_walk")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DataSet, cloth_pants_knee, "cloth_pants_knee")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DataSet, cesiumman_walk, "cesiumman_walk")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DataSetNoFade, fox_walk, "fox_walk")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DataSetNoFade, cloth_pants_knee, "cloth_pants_knee")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DataSetNoFade, cesiumman_walk, "cesiumman_walk")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DataSetAt60Fps, fox_walk, "fox_walk")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DataSetAt60Fps, cesiumman_walk, "cesiumman_walk")
    ->Unit(benchmark::kMicrosecond);
// Sheets of 1,012 / 10,080 / 49,928 triangles.
BENCHMARK(BM_Sheet)
    ->Args({22, 23})
    ->Args({70, 72})
    ->Args({158, 158})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace crease

BENCHMARK_MAIN();
