// crease-buckle: the buckling model (Decaudin, Thomaszewski & Cani 2005;
// docs/algorithm.md, "Buckling of tubes") on an animation, offline. Finds
// the open tubes (or takes --tube_triangles), folds every frame and writes
// the fine mesh as OUT/buckled.obj (topology, UVs, rest shape) and
// OUT/buckled.pc2 (one sample a frame), with what each frame folded and
// cost on stdout.
//
//   crease-buckle --obj data/cloth_pants_knee.obj
//       --pc2 data/cloth_pants_knee.pc2 --out /tmp/knee

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "common/flags_usage.h"
#include "common/stopwatch.h"
#include "wrinkle/buckling/buckling_mesh.h"
#include "wrinkle/io/animation_input.h"
#include "wrinkle/io/obj.h"
#include "wrinkle/io/pc2.h"

ABSL_FLAG(std::string, out, "", "Output directory (created if missing).");
ABSL_FLAG(double, fps, 0, "With --gltf: samples per second (0: 30).");
ABSL_FLAG(int, frames, 0, "Process at most this many frames (0: all).");
ABSL_FLAG(int, calibration_diamonds, 4,
          "n0 of Eq. 4: diamonds a tube of calibration_radius shows.");
ABSL_FLAG(double, calibration_radius, 0,
          "R0 of Eq. 4 in model units (0: each tube's own mean radius).");
ABSL_FLAG(double, fabric_a, 0, "A of Eq. 3 (0: from the calibration).");
ABSL_FLAG(double, twist_gain, 1, "Scales the twist folds, 0..4.");
ABSL_FLAG(int, smoothing_passes, 1, "Box filter passes, 0..8.");
ABSL_FLAG(bool, digest_literal, false,
          "The digest's reconstruction: diamond depth times "
          "clamp(1 - h/h0), no centre ridges, the lattice spline surface, "
          "folds along the normal.");

namespace crease {
namespace {

BucklingParams ParamsFromFlags() {
  BucklingParams params;
  params.calibration_diamonds = absl::GetFlag(FLAGS_calibration_diamonds);
  params.calibration_radius = absl::GetFlag(FLAGS_calibration_radius);
  params.fabric_a = absl::GetFlag(FLAGS_fabric_a);
  params.twist_gain = absl::GetFlag(FLAGS_twist_gain);
  params.smoothing_passes = absl::GetFlag(FLAGS_smoothing_passes);
  if (absl::GetFlag(FLAGS_digest_literal)) {
    params.diamond_depth = DiamondDepth::kCompressionGain;
    params.centre_ridges = false;
    params.smooth_surface = SmoothSurface::kLatticeSpline;
    params.radial_folds = false;
  }
  return params;
}

// OUT/buckled.obj (the fine mesh's topology, UVs and first frame) and
// OUT/buckled.pc2 (`cache`, every frame).
absl::Status WriteFineMesh(const BucklingMesh& mesh,
                           const io::PointCache& cache,
                           const std::string& out) {
  std::filesystem::create_directories(out);
  io::TriangleMesh fine;
  fine.positions.assign(cache.positions.begin(),
                        cache.positions.begin() + 3 * cache.num_points);
  fine.triangles.assign(mesh.triangles().begin(), mesh.triangles().end());
  for (const io::Triangle& t : fine.triangles) {
    for (int32_t v : t) {
      fine.corner_uvs.push_back(mesh.uvs()[2 * v]);
      fine.corner_uvs.push_back(mesh.uvs()[2 * v + 1]);
    }
  }
  if (absl::Status s = io::WriteObj(out + "/buckled.obj", fine); !s.ok()) {
    return s;
  }
  return io::WritePc2(out + "/buckled.pc2", cache);
}

absl::Status Run() {
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty()) return absl::InvalidArgumentError("--out is required");
  absl::StatusOr<io::Animation> animation =
      io::LoadAnimation(io::AnimationInputFromFlags(
          absl::GetFlag(FLAGS_fps), absl::GetFlag(FLAGS_frames)));
  if (!animation.ok()) return animation.status();
  const absl::Span<const float> rest = animation->frames.Sample(0);
  absl::StatusOr<MeshTopology> topology =
      MeshTopology::Build(animation->mesh.triangles, rest);
  if (!topology.ok()) return topology.status();
  absl::StatusOr<std::vector<Tube>> tubes = FindTubes(*topology, rest, {});
  if (!tubes.ok()) return tubes.status();
  const BucklingParams params = ParamsFromFlags();
  absl::StatusOr<BucklingMesh> mesh =
      BucklingMesh::Create(*topology, rest, *std::move(tubes), params);
  if (!mesh.ok()) return mesh.status();
  for (size_t t = 0; t < mesh->layouts().size(); ++t) {
    const TubeLayout& l = mesh->layouts()[t];
    std::printf(
        "tube %zu: %zu triangles, radius %.4g, A %.4g, n %d, %d rows of "
        "height %.4g..%.4g\n",
        t, mesh->tubes()[t].triangles.size(), l.radius, l.fabric_a, l.diamonds,
        l.rows, *std::min_element(l.row_heights.begin(), l.row_heights.end()),
        *std::max_element(l.row_heights.begin(), l.row_heights.end()));
  }
  io::PointCache cache;
  cache.num_points = mesh->num_vertices();
  int frames = animation->num_frames();
  if (absl::GetFlag(FLAGS_frames) > 0) {
    frames = std::min(frames, absl::GetFlag(FLAGS_frames));
  }
  for (int f = 0; f < frames; ++f) {
    Stopwatch watch;
    if (absl::Status s = mesh->Update(animation->frames.Sample(f)); !s.ok()) {
      return s;
    }
    const double ms = watch.Lap();
    const BucklingFrameStats& s = mesh->stats();
    std::printf(
        "frame %d: %.3f ms, deepest diamond %.4g, highest twist %.4g, "
        "farthest offset %.4g, axial ratio %.3f\n",
        f, ms, s.max_diamond_depth, s.max_twist_height, s.max_fold_offset,
        s.min_axial_ratio);
    cache.positions.insert(cache.positions.end(), mesh->positions().begin(),
                           mesh->positions().end());
    ++cache.num_samples;
  }
  return WriteFineMesh(*mesh, cache, out);
}

}  // namespace
}  // namespace crease

int main(int argc, char** argv) {
  crease::SetFlagsUsage(
      "Folds an animation's tubes with the buckling model (Decaudin 2005) "
      "and writes the fine mesh as OBJ + PC2.",
      {"wrinkle/cli/crease_buckle.cc", "wrinkle/io/animation_input.cc"});
  absl::ParseCommandLine(argc, argv);
  if (absl::Status s = crease::Run(); !s.ok()) {
    std::fprintf(stderr, "crease-buckle: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}
