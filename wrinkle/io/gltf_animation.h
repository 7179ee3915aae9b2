#ifndef CREASE_WRINKLE_IO_GLTF_ANIMATION_H_
#define CREASE_WRINKLE_IO_GLTF_ANIMATION_H_

// Internal to crease_gltf: the node hierarchy and its transforms, and one
// animation clip sampled at a time (glTF 2.0 §3.11, Appendix C).

#include <vector>

#include "Eigen/Core"
#include "absl/status/statusor.h"
#include "tiny_gltf.h"

namespace crease::io::gltf_internal {

// A node's local transform: translation, rotation (x y z w), scale, or a
// fixed matrix (which animation may not touch).
struct LocalTransform {
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();
  Eigen::Vector4d rotation = Eigen::Vector4d(0, 0, 0, 1);
  Eigen::Vector3d scale = Eigen::Vector3d::Ones();
  bool has_matrix = false;
  Eigen::Matrix4d matrix = Eigen::Matrix4d::Identity();

  // T R S, with the rotation normalised first.
  Eigen::Matrix4d ToMatrix() const;
};

// Every node's rest transform and parent, and an order with parents before
// their children.
struct NodeGraph {
  std::vector<LocalTransform> rest;
  std::vector<int> parent;  // -1 for roots
  std::vector<int> order;

  int num_nodes() const { return static_cast<int>(rest.size()); }
};

// InvalidArgument for a TRS or matrix of the wrong length, a child that does
// not exist or has two parents, and a cycle.
absl::StatusOr<NodeGraph> BuildNodeGraph(const tinygltf::Model& model);

// world[i] = world[parent[i]] * local[i] for every node; `world` is resized
// to the node count (no allocation once it has that size).
void WorldTransforms(const NodeGraph& graph,
                     const std::vector<LocalTransform>& local,
                     std::vector<Eigen::Matrix4d>* world);

enum class Interpolation { kLinear, kStep, kCubicSpline };
enum class ChannelPath { kTranslation, kRotation, kScale, kWeights };

// One animation sampler: key times and `width` values per key (for
// CUBICSPLINE three groups per key: in-tangent, value, out-tangent).
struct Sampler {
  std::vector<double> times;
  std::vector<double> values;
  int width = 0;
  Interpolation interpolation = Interpolation::kLinear;

  // The value at time t into out[0..width): clamped to the first and last
  // keys; LINEAR rotations by slerp, CUBICSPLINE ones normalised.
  void Sample(double t, bool is_rotation, double* out) const;
};

struct Channel {
  int node = -1;
  ChannelPath path = ChannelPath::kTranslation;
  Sampler sampler;
};

struct Clip {
  std::vector<Channel> channels;
  double duration = 0.0;  // the last key time over every channel
};

// Animation `index`'s channels. A `weights` channel is kept only when it
// animates `morph_node`, whose mesh has `num_targets` morph targets; channels
// without a target node or with another path (extensions) are left out.
// InvalidArgument for bad samplers: key times that are not finite or go
// backwards, outputs whose count does not match the keys, an interpolation
// that is not LINEAR, STEP or CUBICSPLINE, a TRS channel on a node with a
// matrix.
absl::StatusOr<Clip> ReadClip(const tinygltf::Model& model, int index,
                              const NodeGraph& graph, int morph_node,
                              int num_targets);

// `local` set to the rest transforms with the clip at time t applied, and
// `weights` (sized num_targets by the caller) overwritten if the clip
// animates them. No allocation once `local` has the node count.
void ApplyClip(const Clip& clip, const NodeGraph& graph, double t,
               std::vector<LocalTransform>* local,
               std::vector<double>* weights);

}  // namespace crease::io::gltf_internal

#endif  // CREASE_WRINKLE_IO_GLTF_ANIMATION_H_
