// Per-frame cost of the buckling model (Decaudin 2005,
// wrinkle/buckling/buckling_mesh.h) on the trouser knee (data/
// cloth_pants_knee: one tube of 792 triangles) and on synthetic cylinders of
// growing size, and the bytes its mesh needs per frame against the coarse
// mesh's.
//
// Each iteration is one BucklingMesh::Update on the next frame (cycling).
// Counters: median µs per frame and per primitive, primitives, fine
// vertices, and bytes per frame of the fine mesh (positions and normals, 24
// a vertex) and of the coarse positions (12 a vertex), before protobuf's few
// bytes of framing.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "common/median.h"
#include "common/stopwatch.h"
#include "tests/testing/bundled_path.h"
#include "wrinkle/buckling/buckling_mesh.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/io/animation.h"

namespace crease {
namespace {

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  std::exit(1);
}

// The knee, or a cylinder of radius 0.1 and length `length` squeezed and
// twisted over 60 frames.
io::Animation Input(double length) {
  if (length == 0) {
    absl::StatusOr<io::Animation> knee =
        io::ReadAnimation(testing::BundledPath("cloth_pants_knee.obj"),
                          testing::BundledPath("cloth_pants_knee.pc2"));
    if (!knee.ok()) Fail(std::string(knee.status().message()));
    return *std::move(knee);
  }
  io::Animation a;
  a.mesh =
      MakeOpenCylinder(0.1, length, 24, static_cast<int>(length / 0.03) + 1);
  a.frames.num_points = a.mesh.num_vertices();
  for (int f = 0; f < 60; ++f) {
    const double squeeze = 1 - 0.3 * f / 59, turn = 0.5 * f / 59;
    for (int v = 0; v < a.mesh.num_vertices(); ++v) {
      const float* p = &a.mesh.positions[3 * v];
      const double angle = turn * p[1] / length;
      a.frames.positions.insert(
          a.frames.positions.end(),
          {static_cast<float>(p[0] * std::cos(angle) + p[2] * std::sin(angle)),
           static_cast<float>(p[1] * squeeze),
           static_cast<float>(-p[0] * std::sin(angle) +
                              p[2] * std::cos(angle))});
    }
    ++a.frames.num_samples;
  }
  return a;
}

void BM_Buckling(benchmark::State& state, double length) {
  const io::Animation anim = Input(length);
  const absl::Span<const float> rest = anim.frames.Sample(0);
  absl::StatusOr<MeshTopology> topology =
      MeshTopology::Build(anim.mesh.triangles, rest);
  if (!topology.ok()) Fail(std::string(topology.status().message()));
  absl::StatusOr<std::vector<Tube>> tubes = FindTubes(*topology, rest, {});
  if (!tubes.ok()) Fail(std::string(tubes.status().message()));
  absl::StatusOr<BucklingMesh> mesh =
      BucklingMesh::Create(*topology, rest, *std::move(tubes), {});
  if (!mesh.ok()) Fail(std::string(mesh.status().message()));
  std::vector<double> us;
  int frame = 0;
  for (auto _ : state) {
    const absl::Span<const float> positions =
        anim.frames.Sample(frame++ % anim.num_frames());
    Stopwatch watch;
    if (!mesh->Update(positions).ok()) Fail("update failed");
    us.push_back(1e3 * watch.Lap());
    benchmark::DoNotOptimize(mesh->positions().data());
  }
  const double median = Median(us);
  state.counters["median_us"] = median;
  state.counters["primitives"] = mesh->num_primitives();
  state.counters["us_per_primitive"] = median / mesh->num_primitives();
  state.counters["coarse_triangles"] = anim.mesh.num_triangles();
  state.counters["fine_vertices"] = mesh->num_vertices();
  state.counters["fine_bytes"] = 24.0 * mesh->num_vertices();
  state.counters["coarse_bytes"] = 12.0 * anim.mesh.num_vertices();
}

BENCHMARK_CAPTURE(BM_Buckling, knee, 0.0)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Buckling, cylinder_0_6m, 0.6)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Buckling, cylinder_2_4m, 2.4)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace crease

BENCHMARK_MAIN();
