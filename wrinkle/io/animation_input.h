#ifndef CREASE_WRINKLE_IO_ANIMATION_INPUT_H_
#define CREASE_WRINKLE_IO_ANIMATION_INPUT_H_

// The animation a command-line program reads (crease-client, crease-load,
// crease-render): an OBJ + PC2 pair, or one mesh of a glTF 2.0 file animated
// by one of its animations (gltf.h), as the flags --obj, --pc2, --gltf,
// --mesh, --animation and --loop (defined in animation_input.cc, once for
// every program) with the program's --fps and --frames say. Only programs
// link it (target crease_animation_input): it defines flags.

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "wrinkle/io/animation.h"

namespace crease::io {

struct AnimationInput {
  std::string obj;
  std::string pc2;
  std::string gltf;
  std::string mesh;       // glTF only: name or index; empty: the default
  std::string animation;  // glTF only: name or index; empty: the first
  bool loop = false;      // glTF only
  double fps = 0;         // glTF: samples per second (0: 30)
  int frames = 0;         // glTF: frames to sample (0: one clip length)
};

// The input flags; `fps` and `frames` are the program's own --fps and
// --frames (crease-client's also pace and limit the sending).
AnimationInput AnimationInputFromFlags(double fps, int frames);

// InvalidArgument unless the input is either --obj with --pc2 or --gltf, and
// --mesh, --animation and --loop come only with --gltf.
absl::Status CheckAnimationInput(const AnimationInput& input);

// Checks the input and reads the animation.
absl::StatusOr<Animation> LoadAnimation(const AnimationInput& input);

}  // namespace crease::io

#endif  // CREASE_WRINKLE_IO_ANIMATION_INPUT_H_
