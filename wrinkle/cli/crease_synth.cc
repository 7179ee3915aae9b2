// crease-synth: writes the synthetic animations the tests use as OBJ + PC2,
// so crease-analyze, crease-render and the service can be run on garments
// nobody tuned on (docs/algorithm.md, "Synthetic animations").
//
//   crease-synth --shape sleeve --out /tmp/sleeve     (sleeve.obj, sleeve.pc2)
//   crease-analyze --obj /tmp/sleeve.obj --pc2 /tmp/sleeve.pc2
//
// Shapes (30 frames a second):
//   sleeve         a coarse sleeve (a tube 12 around, 576 triangles) bending
//                  at its elbow by --angle degrees over 1 s, held 2 s,
//                  straightened over 1 s and left straight 0.8 s.
//   gathered_edge  a hanging 1 m sheet (768 triangles) whose top edge is
//                  gathered to 40 % of its width over 1.5 s and held 2.5 s
//                  (GatheredEdgeAnimation turned to hang from that edge).
//   pushed_sheet   a hanging 1 m sheet (1,152 triangles) pushed together in
//                  its own plane, its middle to 60 % over 1 s, held 2 s, let
//                  go over 1 s, left 0.8 s.
//   cinched_cuff   an upright sleeve 12 cm across (16 around, 384 triangles)
//                  whose bottom ring an elastic cuff draws in to half its
//                  length over 1 s, held 2 s, let go over 1 s, left 0.8 s.
//   belted_sleeve  the cuff's sleeve drawn in to half at its middle by a belt
//                  one row deep either side, on the same schedule.
//   twisted_tube   an upright tube 20 cm across (16 around, 512 triangles)
//                  whose top turns by --twist degrees about its axis over
//                  1 s, held 2 s, turned back over 1 s and left 0.8 s.

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/flags_usage.h"
#include "common/status_macros.h"
#include "wrinkle/core/synthetic_animations.h"
#include "wrinkle/io/obj.h"
#include "wrinkle/io/pc2.h"

ABSL_FLAG(std::string, shape, "sleeve",
          "sleeve, gathered_edge, pushed_sheet, cinched_cuff, "
          "belted_sleeve or twisted_tube.");
ABSL_FLAG(std::string, out, "",
          "Output stem: writes STEM.obj (the rest shape: the first frame "
          "without its noise) and STEM.pc2 (every frame); required.");
ABSL_FLAG(double, angle, 100, "sleeve: the elbow's bend in degrees, 0..150.");
ABSL_FLAG(bool, skinned, false,
          "sleeve: two bones blended linearly (a game engine's skinning, the "
          "inside caves in) instead of a circular bend.");
ABSL_FLAG(double, noise, 0,
          "sleeve: move each coordinate of each vertex by up to this fraction "
          "of the radius, afresh every frame, 0..0.5.");
ABSL_FLAG(uint64_t, noise_seed, 1, "sleeve: seed of the noise.");
ABSL_FLAG(double, twist, 150,
          "twisted_tube: the top's turn about the axis in degrees, -360..360 "
          "(negative: the other way round).");
ABSL_FLAG(int, around, 12, "sleeve: vertices round the tube, 3..256.");
ABSL_FLAG(int, rings, 25, "sleeve: rings of vertices along it, 2..1024.");

namespace crease {
namespace {

// (x, y, z) -> (x, -z, y): a quarter turn about +x.
void HangUp(std::vector<float>* positions) {
  for (size_t i = 0; i + 2 < positions->size(); i += 3) {
    const float y = (*positions)[i + 1], z = (*positions)[i + 2];
    (*positions)[i + 1] = -z;
    (*positions)[i + 2] = y;
  }
}

// The sleeve's own flags left at their defaults: another shape would
// silently ignore them.
absl::Status SleeveFlagsUnset(const std::string& shape) {
  const SleeveBendParams sleeve;
  if (absl::GetFlag(FLAGS_angle) != sleeve.angle_degrees ||
      absl::GetFlag(FLAGS_skinned) || absl::GetFlag(FLAGS_noise) != 0 ||
      absl::GetFlag(FLAGS_noise_seed) != sleeve.noise_seed ||
      absl::GetFlag(FLAGS_around) != sleeve.around ||
      absl::GetFlag(FLAGS_rings) != sleeve.rings) {
    return absl::InvalidArgumentError(
        absl::StrCat("--angle, --skinned, --noise, --noise_seed, --around and "
                     "--rings shape the sleeve only, not --shape ",
                     shape));
  }
  return absl::OkStatus();
}

// The sleeve from its flags, checked.
absl::StatusOr<SyntheticAnimation> SleeveFromFlags() {
  if (absl::GetFlag(FLAGS_twist) != TwistedTubeParams{}.twist_degrees) {
    return absl::InvalidArgumentError(
        "--twist shapes the twisted tube only, not --shape sleeve");
  }
  const double angle = absl::GetFlag(FLAGS_angle);
  if (!(angle >= 0 && angle <= 150)) {
    return absl::InvalidArgumentError("--angle must be in [0, 150] degrees");
  }
  const double noise = absl::GetFlag(FLAGS_noise);
  if (!(noise >= 0 && noise <= 0.5)) {
    return absl::InvalidArgumentError("--noise must be in [0, 0.5]");
  }
  const int around = absl::GetFlag(FLAGS_around);
  const int rings = absl::GetFlag(FLAGS_rings);
  if (around < 3 || around > 256 || rings < 2 || rings > 1024) {
    return absl::InvalidArgumentError(
        "--around must be in [3, 256] and --rings in [2, 1024]");
  }
  SleeveBendParams params;
  params.angle_degrees = angle;
  params.around = around;
  params.rings = rings;
  params.skinned = absl::GetFlag(FLAGS_skinned);
  params.noise = noise;
  params.noise_seed = absl::GetFlag(FLAGS_noise_seed);
  return SleeveBendAnimation(params);
}

// The garments with no flags of their own: the gathered edge and the pushed
// sheet hung as curtains, the cuff and the belted sleeve.
absl::StatusOr<SyntheticAnimation> FixedGarment(const std::string& shape) {
  CREASE_RETURN_IF_ERROR(SleeveFlagsUnset(shape));
  if (absl::GetFlag(FLAGS_twist) != TwistedTubeParams{}.twist_degrees) {
    return absl::InvalidArgumentError(
        "--twist shapes the twisted tube only, not --shape " + shape);
  }
  if (shape == "cinched_cuff") return CinchedCuffAnimation(CinchedCuffParams{});
  if (shape == "belted_sleeve") {
    return CinchedCuffAnimation(BeltedSleeveParams());
  }
  // Hung up: the sheet turned a quarter about +x, so its gathered (or
  // pushed) edge is at the top and it faces +z, the way a viewer sees a
  // curtain.
  SyntheticAnimation animation =
      shape == "pushed_sheet" ? PushedSheetAnimation(PushedSheetParams{})
                              : GatheredEdgeAnimation(GatheredEdgeParams{});
  HangUp(&animation.rest.positions);
  for (std::vector<float>& frame : animation.frames) HangUp(&frame);
  return animation;
}

absl::StatusOr<SyntheticAnimation> TwistedTubeFromFlags() {
  CREASE_RETURN_IF_ERROR(SleeveFlagsUnset("twisted_tube"));
  const double twist = absl::GetFlag(FLAGS_twist);
  if (!(twist >= -360 && twist <= 360)) {
    return absl::InvalidArgumentError("--twist must be in [-360, 360]");
  }
  TwistedTubeParams params;
  params.twist_degrees = twist;
  return TwistedTubeAnimation(params);
}

absl::StatusOr<SyntheticAnimation> AnimationFromFlags(
    const std::string& shape) {
  if (shape == "sleeve") return SleeveFromFlags();
  if (shape == "gathered_edge" || shape == "cinched_cuff" ||
      shape == "belted_sleeve" || shape == "pushed_sheet") {
    return FixedGarment(shape);
  }
  if (shape == "twisted_tube") return TwistedTubeFromFlags();
  return absl::InvalidArgumentError(
      absl::StrCat("--shape: '", shape,
                   "' is none of sleeve, gathered_edge, pushed_sheet, "
                   "cinched_cuff, belted_sleeve and twisted_tube"));
}

absl::Status Run() {
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty()) return absl::InvalidArgumentError("--out is required");
  const std::string shape = absl::GetFlag(FLAGS_shape);
  CREASE_ASSIGN_OR_RETURN(const SyntheticAnimation animation,
                          AnimationFromFlags(shape));
  io::PointCache cache;
  cache.num_points = animation.rest.num_vertices();
  cache.num_samples = static_cast<int>(animation.frames.size());
  for (const std::vector<float>& frame : animation.frames) {
    cache.positions.insert(cache.positions.end(), frame.begin(), frame.end());
  }
  // The rest shape: the first frame, without its noise if any.
  CREASE_RETURN_IF_ERROR(io::WriteObj(out + ".obj", animation.rest));
  CREASE_RETURN_IF_ERROR(io::WritePc2(out + ".pc2", cache));
  std::printf("%s: %d vertices, %d triangles, %d frames -> %s.obj, %s.pc2\n",
              shape.c_str(), animation.rest.num_vertices(),
              animation.rest.num_triangles(), cache.num_samples, out.c_str(),
              out.c_str());
  return absl::OkStatus();
}

}  // namespace
}  // namespace crease

int main(int argc, char** argv) {
  crease::SetFlagsUsage(
      "Writes a synthetic animation as OBJ + PC2: crease-synth --shape sleeve "
      "--out /tmp/sleeve",
      {"wrinkle/cli/crease_synth.cc"});
  absl::ParseCommandLine(argc, argv);
  const absl::Status status = crease::Run();
  if (!status.ok()) {
    std::fprintf(stderr, "crease-synth: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
