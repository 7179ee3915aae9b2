#ifndef CREASE_WRINKLE_IO_GLTF_H_
#define CREASE_WRINKLE_IO_GLTF_H_

// glTF 2.0 in (.glb and .gltf): one mesh of the file, animated by one of its
// animations, sampled at a frame rate into an Animation (the same plain data
// as an OBJ + PC2 pair). tinygltf parses; the evaluation (skinning, morph
// targets, node animation) is ours and follows the glTF 2.0 specification:
//
// * Mesh: every primitive of the chosen mesh, concatenated in glTF order, the
//   source's vertex order kept; a primitive without indices gets 0, 1, 2, ...
//   (a triangle soup stays one). Only mode TRIANGLES.
// * Morph targets first: p = p_bind + sum_k w_k d_k (POSITION displacements),
//   with the weights of an animated `weights` channel on the mesh's node, else
//   the node's `weights`, else the mesh's, else 0.
// * Skinned (the mesh's node has a skin): linear-blend skinning,
//   p = sum_i w_i (G(joint_i) IBM_i) p, in world space; the skinned node's own
//   transform is ignored, as the specification says. Joint weights are
//   normalised to sum to 1.
// * Not skinned: p placed by the world transform of the mesh's node (the
//   first node that instantiates the mesh; identity when none does).
// * Node animation: translation / rotation / scale channels with LINEAR (slerp
//   for rotations), STEP or CUBICSPLINE samplers, clamped outside the keys.
//   Frame f is sampled at t = t_start + f / fps; with `loop`, t wraps modulo
//   the clip's duration (its last key time).
// * UVs: TEXCOORD_0 per triangle corner, v flipped (v = 1 - v_glTF) so that v
//   grows upwards as in OBJ; none unless every primitive has TEXCOORD_0.
//
// Images are never decoded, and external files (buffers of a .gltf) are read
// only from the file's own directory. Errors name the file and the element
// (mesh, primitive, accessor, node, animation, channel) with the numbers.

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "wrinkle/io/animation.h"

namespace crease::io {

struct GltfOptions {
  // Mesh by name, or by index when no mesh has that name; empty: the first
  // mesh that is skinned or has morph targets, else mesh 0.
  std::string mesh;
  // Animation by name, or by index when none has that name; empty: animation
  // 0, or none (one still frame unless `frames` says more) when the file has
  // no animations.
  std::string animation;
  double fps = 30.0;  // samples per second, > 0
  // Frames to sample; 0: one clip length, round(duration * fps) + 1.
  int frames = 0;
  bool loop = false;     // t wraps modulo the clip duration
  double t_start = 0.0;  // seconds, the time of frame 0
};

// Reads a .glb or .gltf (told apart by the GLB magic, not the name). External
// buffers are looked up beside `path`. NotFound for a missing file or
// external buffer and for an unknown mesh or animation (the message lists
// what there is); InvalidArgument for everything else that is wrong with the
// file or the options.
absl::StatusOr<Animation> ReadGltf(const std::string& path,
                                   const GltfOptions& options = {});

// The same from bytes in memory. External files are read from `base_dir`
// when it is given, else refused (only data: URIs and the GLB's own BIN
// chunk), which is what the fuzz target and tests use.
absl::StatusOr<Animation> ParseGltf(std::string_view bytes,
                                    std::string_view name_for_errors,
                                    const GltfOptions& options = {},
                                    const std::string* base_dir = nullptr);

}  // namespace crease::io

#endif  // CREASE_WRINKLE_IO_GLTF_H_
