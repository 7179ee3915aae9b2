#include "wrinkle/io/animation_input.h"

#include "absl/flags/flag.h"
#include "common/status_macros.h"
#include "wrinkle/io/gltf.h"

ABSL_FLAG(std::string, obj, "",
          "Mesh (topology and rest shape), OBJ; with --pc2.");
ABSL_FLAG(std::string, pc2, "", "Vertex animation, PC2; with --obj.");
ABSL_FLAG(std::string, gltf, "",
          "A glTF 2.0 file (.glb or .gltf) instead of --obj and --pc2: one "
          "mesh, skinned and/or morphed by one animation, sampled at --fps "
          "(30 when --fps is 0) for --frames frames (0: one clip length), "
          "with its UVs.");
ABSL_FLAG(std::string, mesh, "",
          "With --gltf: the mesh, by name or index (default: the first "
          "skinned or morphed mesh, else the first).");
ABSL_FLAG(std::string, animation, "",
          "With --gltf: the animation, by name or index (default: the "
          "first).");
ABSL_FLAG(bool, loop, false,
          "With --gltf: wrap time modulo the clip's duration, for --frames "
          "longer than one clip.");

namespace crease::io {

// The rate glTF animations are sampled at when --fps leaves it open.
constexpr double kDefaultGltfFps = 30.0;

AnimationInput AnimationInputFromFlags(double fps, int frames) {
  return AnimationInput{.obj = absl::GetFlag(FLAGS_obj),
                        .pc2 = absl::GetFlag(FLAGS_pc2),
                        .gltf = absl::GetFlag(FLAGS_gltf),
                        .mesh = absl::GetFlag(FLAGS_mesh),
                        .animation = absl::GetFlag(FLAGS_animation),
                        .loop = absl::GetFlag(FLAGS_loop),
                        .fps = fps,
                        .frames = frames};
}

absl::Status CheckAnimationInput(const AnimationInput& input) {
  const bool obj_pc2 = !input.obj.empty() || !input.pc2.empty();
  if (!input.gltf.empty() && obj_pc2) {
    return absl::InvalidArgumentError(
        "--gltf replaces --obj and --pc2: give one or the other");
  }
  if (input.gltf.empty() && (input.obj.empty() || input.pc2.empty())) {
    return absl::InvalidArgumentError(
        "an animation is required: --obj with --pc2, or --gltf");
  }
  if (input.gltf.empty() &&
      (!input.mesh.empty() || !input.animation.empty() || input.loop)) {
    return absl::InvalidArgumentError(
        "--mesh, --animation and --loop choose what --gltf reads; an OBJ + "
        "PC2 pair has one mesh and one animation");
  }
  return absl::OkStatus();
}

absl::StatusOr<Animation> LoadAnimation(const AnimationInput& input) {
  CREASE_RETURN_IF_ERROR(CheckAnimationInput(input));
  if (input.gltf.empty()) return ReadAnimation(input.obj, input.pc2);
  GltfOptions options;
  options.mesh = input.mesh;
  options.animation = input.animation;
  options.fps = input.fps > 0 ? input.fps : kDefaultGltfFps;
  options.frames = input.frames > 0 ? input.frames : 0;
  options.loop = input.loop;
  return ReadGltf(input.gltf, options);
}

}  // namespace crease::io
