#ifndef CREASE_WRINKLE_IO_GLTF_MESH_H_
#define CREASE_WRINKLE_IO_GLTF_MESH_H_

// Internal to crease_gltf: one glTF mesh gathered into flat arrays (every
// primitive concatenated), with what skinning and morphing need, and a skin's
// joints and inverse bind matrices.

#include <cstdint>
#include <vector>

#include "Eigen/Core"
#include "absl/status/statusor.h"
#include "tiny_gltf.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::io::gltf_internal {

struct MeshSource {
  std::vector<double> positions;  // bind pose, xyz per vertex
  std::vector<Triangle> triangles;
  std::vector<float> corner_uvs;  // u v per corner, v up; empty: none
  // Morph targets: POSITION displacements, [vertex][target][xyz].
  int num_targets = 0;
  std::vector<double> target_offsets;
  // Skinning: `influences` joints per vertex (4 per JOINTS_n / WEIGHTS_n
  // set), indices into the skin's joints, weights summing to 1; 0 when the
  // mesh is not skinned.
  int influences = 0;
  std::vector<int32_t> joints;  // [vertex][influence]
  std::vector<double> weights;  // [vertex][influence]

  int num_vertices() const { return static_cast<int>(positions.size() / 3); }
};

// Gathers mesh `mesh` (which must exist). With `num_joints` > 0 it is skinned
// by a skin of that many joints, and every primitive needs JOINTS_0 and
// WEIGHTS_0. InvalidArgument, naming the primitive and the attribute, for a
// mode other than TRIANGLES, a missing or malformed accessor, an index out of
// range, a joint out of range with a weight, weights that do not sum to more
// than 0, or primitives whose morph target counts differ; also for
// geometry-compression extensions tinygltf cannot decode.
absl::StatusOr<MeshSource> ReadMeshSource(const tinygltf::Model& model,
                                          int mesh, int num_joints);

struct SkinSource {
  std::vector<int> joint_nodes;
  std::vector<Eigen::Matrix4d> inverse_bind;  // one per joint
};

// Skin `skin` (which must exist): joints must be nodes, the inverse bind
// matrices (identity when absent) MAT4 floats, at least one per joint.
absl::StatusOr<SkinSource> ReadSkin(const tinygltf::Model& model, int skin);

// The morph weights a node shows when no animation sets them: the node's
// `weights`, else the mesh's, else zeros. InvalidArgument when a list has
// another length than the target count.
absl::StatusOr<std::vector<double>> DefaultMorphWeights(
    const tinygltf::Model& model, int node, int mesh, int num_targets);

}  // namespace crease::io::gltf_internal

#endif  // CREASE_WRINKLE_IO_GLTF_MESH_H_
