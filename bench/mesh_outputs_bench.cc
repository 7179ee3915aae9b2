// Per-frame cost of the engine-ready mesh outputs (docs/protocol.md,
// "Wrinkled mesh", "Per-vertex fields"): the wrinkled mesh at levels 1-4 and
// the per-vertex fields on the Fox, Cesium Man and the trouser knee, and the
// bytes each adds to a frame's answer against paths only.
//
// A Session is run over the animation once, up front, and each frame's
// inputs kept (wrinkles, compression field, labels); each iteration then
// computes the output for the next frame (cycling), as the server does after
// the frame's steps. Counters: the median per-frame time (us), the refined
// mesh's size, and bytes per frame as protobuf encodes them: the output's
// own, and a paths-only FrameResult's (the median over the frames).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "common/median.h"
#include "common/stopwatch.h"
#include "crease/v1/crease.pb.h"
#include "server/session_setup.h"
#include "tests/testing/bundled_path.h"
#include "wrinkle/data/refined_topology.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/outputs/vertex_fields.h"
#include "wrinkle/outputs/wrinkled_mesh.h"
#include "wrinkle/sca2015/session.h"

namespace crease {
namespace {

// A paths-only answer, as the server fills it (FillFrameResult: the
// wrinkles and the stage timings, each timing at least 1 us so that every
// one is encoded whatever this machine's speed).
v1::FrameResult PathsOnly(const Session& session, uint32_t index) {
  v1::FrameResult result;
  result.set_index(index);
  v1::Outputs paths;
  paths.set_paths(true);
  server::FillFrameResult(session, paths, &result);
  v1::StageTimings* t = result.mutable_timings();
  for (auto [get, set] :
       {std::pair{&v1::StageTimings::tensors_ms,
                  &v1::StageTimings::set_tensors_ms},
        std::pair{&v1::StageTimings::labeling_ms,
                  &v1::StageTimings::set_labeling_ms},
        std::pair{&v1::StageTimings::reference_ms,
                  &v1::StageTimings::set_reference_ms},
        std::pair{&v1::StageTimings::evolve_ms,
                  &v1::StageTimings::set_evolve_ms},
        std::pair{&v1::StageTimings::seed_ms, &v1::StageTimings::set_seed_ms},
        std::pair{&v1::StageTimings::shape_ms,
                  &v1::StageTimings::set_shape_ms}}) {
    (t->*set)((t->*get)() + 1e-3);
  }
  return result;
}

// One animation run through a Session, with what each frame's outputs need.
struct Recorded {
  io::Animation animation;
  std::vector<int32_t> welded;
  std::vector<FrameWrinkles> wrinkles;
  std::vector<std::vector<StretchTensor>> fields;
  std::vector<std::vector<Label>> labels;
  std::vector<double> paths_bytes;
  double wrinkled_triangles = 0;  // share of triangles with a wrinkle listed
};

const Recorded& Record(const std::string& name) {
  static auto* cache = new std::map<std::string, Recorded>();
  if (auto it = cache->find(name); it != cache->end()) return it->second;
  Recorded& r = (*cache)[name];
  auto anim = io::ReadAnimation(testing::BundledPath(name + ".obj"),
                                testing::BundledPath(name + ".pc2"));
  if (!anim.ok()) {
    std::fprintf(stderr, "%s\n", std::string(anim.status().message()).c_str());
    std::exit(1);
  }
  r.animation = *std::move(anim);
  auto session =
      *Session::Create(r.animation.mesh.triangles, r.animation.mesh.positions);
  r.welded = session->topology().weld_map();
  const int frames = r.animation.num_frames();
  r.wrinkles.resize(frames);
  for (int f = 0; f < frames; ++f) {
    if (!session->ProcessFrame(r.animation.frames.Sample(f)).ok()) {
      std::fprintf(stderr, "%s: frame %d rejected\n", name.c_str(), f);
      std::exit(1);
    }
    session->tracker().ExportFrame(&r.wrinkles[f]);
    r.fields.emplace_back(session->compression_field().begin(),
                          session->compression_field().end());
    r.labels.emplace_back(session->labels().begin(), session->labels().end());
    r.paths_bytes.push_back(static_cast<double>(
        PathsOnly(*session, static_cast<uint32_t>(f)).ByteSizeLong()));
    const std::vector<int32_t>& offsets = r.wrinkles[f].range_offsets;
    for (size_t t = 0; t + 1 < offsets.size(); ++t) {
      r.wrinkled_triangles += offsets[t + 1] > offsets[t];
    }
  }
  r.wrinkled_triangles /=
      static_cast<double>(frames) * r.animation.mesh.num_triangles();
  return r;
}

void BM_WrinkledMesh(benchmark::State& state, const char* name) {
  const Recorded& r = Record(name);
  const int level = static_cast<int>(state.range(0));
  const RefinedTopology topology = *RefineTopology(
      r.animation.mesh.triangles, r.animation.mesh.num_vertices(), level);
  WrinkledMeshBuilder builder;
  WrinkledMeshFrame mesh;
  std::vector<double> us;
  size_t f = 0;
  for (auto _ : state) {
    Stopwatch stopwatch;
    builder.Compute(topology, r.animation.frames.Sample(static_cast<int>(f)),
                    r.welded, r.wrinkles[f], &mesh);
    us.push_back(stopwatch.Lap() * 1e3);
    benchmark::DoNotOptimize(mesh.positions.data());
    f = (f + 1) % r.wrinkles.size();
  }
  v1::FrameResult answer;
  answer.mutable_wrinkled_mesh()->mutable_positions()->Add(
      mesh.positions.begin(), mesh.positions.end());
  answer.mutable_wrinkled_mesh()->mutable_normals()->Add(mesh.normals.begin(),
                                                         mesh.normals.end());
  v1::WrinkledMeshTopology started;
  for (const auto& t : topology.triangles) {
    started.mutable_triangles()->Add(t.begin(), t.end());
  }
  state.counters["median_us"] = Median(us);
  state.counters["vertices"] = topology.num_vertices();
  state.counters["triangles"] = topology.num_triangles();
  state.counters["wrinkled_tri_share"] = r.wrinkled_triangles;
  state.counters["mesh_bytes"] = static_cast<double>(answer.ByteSizeLong());
  state.counters["paths_bytes"] = Median(r.paths_bytes);
  state.counters["started_bytes"] = static_cast<double>(started.ByteSizeLong());
}

void BM_VertexFields(benchmark::State& state, const char* name) {
  const Recorded& r = Record(name);
  VertexFieldBuilder builder;
  VertexFields fields;
  std::vector<double> us;
  size_t f = 0;
  for (auto _ : state) {
    Stopwatch stopwatch;
    builder.Compute(r.animation.frames.Sample(static_cast<int>(f)),
                    r.animation.mesh.triangles, r.welded, r.fields[f],
                    r.labels[f], &fields);
    us.push_back(stopwatch.Lap() * 1e3);
    benchmark::DoNotOptimize(fields.compression.data());
    f = (f + 1) % r.fields.size();
  }
  v1::FrameResult answer;
  v1::VertexFields* out = answer.mutable_vertex_fields();
  out->mutable_compression()->Add(fields.compression.begin(),
                                  fields.compression.end());
  out->mutable_directions()->Add(fields.directions.begin(),
                                 fields.directions.end());
  out->mutable_label_weights()->Add(fields.label_weights.begin(),
                                    fields.label_weights.end());
  state.counters["median_us"] = Median(us);
  state.counters["vertices"] = r.animation.mesh.num_vertices();
  state.counters["fields_bytes"] = static_cast<double>(answer.ByteSizeLong());
  state.counters["paths_bytes"] = Median(r.paths_bytes);
}

BENCHMARK_CAPTURE(BM_WrinkledMesh, fox_walk, "fox_walk")
    ->DenseRange(1, 4)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WrinkledMesh, cesiumman_walk, "cesiumman_walk")
    ->DenseRange(1, 4)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WrinkledMesh, cloth_pants_knee, "cloth_pants_knee")
    ->Arg(2)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_VertexFields, fox_walk, "fox_walk")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_VertexFields, cesiumman_walk, "cesiumman_walk")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_VertexFields, cloth_pants_knee, "cloth_pants_knee")
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace crease

BENCHMARK_MAIN();
