#include "wrinkle/io/gltf_mesh.h"

#include <cmath>
#include <limits>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "wrinkle/io/gltf_model.h"

namespace crease::io::gltf_internal {
namespace {

// Extensions that move the geometry out of the accessors, which tinygltf
// does not decode: reading on would give zeros.
constexpr const char* kGeometryExtensions[] = {"KHR_draco_mesh_compression",
                                               "EXT_meshopt_compression"};

// A mesh's vertex count stays well inside int32 (triangle indices).
constexpr int64_t kMaxVertices = int64_t{1} << 28;

// Primitive `p` of the mesh being read, for messages and accessor lookups.
struct PrimitiveRef {
  const tinygltf::Model& model;
  const tinygltf::Primitive& primitive;
  int mesh;
  int index;

  std::string What(std::string_view attribute) const {
    return absl::StrFormat("mesh %d primitive %d %s", mesh, index, attribute);
  }
  // The attribute's accessor, or -1.
  int Attribute(const std::string& name) const {
    const auto it = primitive.attributes.find(name);
    return it == primitive.attributes.end() ? -1 : it->second;
  }
};

// How many JOINTS_n / WEIGHTS_n pairs the primitive has (n = 0, 1, ...).
int InfluenceSets(const PrimitiveRef& ref) {
  int sets = 0;
  while (ref.Attribute(absl::StrCat("JOINTS_", sets)) >= 0 &&
         ref.Attribute(absl::StrCat("WEIGHTS_", sets)) >= 0) {
    ++sets;
  }
  return sets;
}

absl::Status CheckPrimitive(const PrimitiveRef& ref) {
  if (ref.primitive.mode != TINYGLTF_MODE_TRIANGLES) {
    static constexpr const char* kModes[] = {
        "POINTS",    "LINES",          "LINE_LOOP",   "LINE_STRIP",
        "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"};
    const int mode = ref.primitive.mode;
    return absl::InvalidArgumentError(absl::StrFormat(
        "mesh %d primitive %d has mode %d (%s); only TRIANGLES (4) is "
        "supported",
        ref.mesh, ref.index, mode,
        mode >= 0 && mode <= 6 ? kModes[mode] : "not a glTF mode"));
  }
  for (const char* extension : kGeometryExtensions) {
    if (ref.primitive.extensions.count(extension) > 0) {
      return absl::InvalidArgumentError(
          absl::StrFormat("mesh %d primitive %d is compressed with %s, which "
                          "this reader does not decode",
                          ref.mesh, ref.index, extension));
    }
  }
  return absl::OkStatus();
}

// Appends the primitive's triangles, offset by `base` (its first vertex).
absl::Status AppendTriangles(const PrimitiveRef& ref, int64_t vertices,
                             int64_t base, MeshSource* out) {
  if (ref.primitive.indices < 0) {
    if (vertices % 3 != 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: %d vertices without indices are no triangle list",
          ref.What("POSITION"), vertices));
    }
    for (int64_t v = 0; v < vertices; v += 3) {
      out->triangles.push_back({static_cast<int32_t>(base + v),
                                static_cast<int32_t>(base + v + 1),
                                static_cast<int32_t>(base + v + 2)});
    }
    return absl::OkStatus();
  }
  CREASE_ASSIGN_OR_RETURN(
      AccessorData indices,
      ReadAccessor(ref.model, ref.primitive.indices, ref.What("indices"),
                   {TINYGLTF_TYPE_SCALAR}));
  if (!indices.IsUnsignedInteger() || indices.count % 3 != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %d indices of componentType %d%s: expected unsigned integers, a "
        "multiple of 3",
        ref.What("indices"), indices.count, indices.component_type,
        indices.normalized ? " (normalized)" : ""));
  }
  for (int64_t i = 0; i < indices.count; ++i) {
    if (indices.values[i] >= static_cast<double>(vertices)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: index %d is %d, but the primitive has %d "
                          "vertices",
                          ref.What("indices"), i,
                          static_cast<int64_t>(indices.values[i]), vertices));
    }
  }
  for (int64_t i = 0; i < indices.count; i += 3) {
    out->triangles.push_back(
        {static_cast<int32_t>(base + static_cast<int64_t>(indices.values[i])),
         static_cast<int32_t>(base +
                              static_cast<int64_t>(indices.values[i + 1])),
         static_cast<int32_t>(base +
                              static_cast<int64_t>(indices.values[i + 2]))});
  }
  return absl::OkStatus();
}

// Scales each vertex's weights (from `first` on) to sum to 1, as the
// reference evaluation does: exporters leave sums a few ulps off 1, and a
// vertex must not shrink towards the origin.
absl::Status NormalizeWeights(const PrimitiveRef& ref, int64_t vertices,
                              size_t first, MeshSource* out) {
  for (int64_t v = 0; v < vertices; ++v) {
    double* w = &out->weights[first + v * out->influences];
    double sum = 0;
    for (int i = 0; i < out->influences; ++i) sum += w[i];
    if (!(sum > 0) || !std::isfinite(sum)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: the weights of vertex %d sum to %g",
                          ref.What("WEIGHTS_0"), v, sum));
    }
    for (int i = 0; i < out->influences; ++i) w[i] /= sum;
  }
  return absl::OkStatus();
}

// Appends `sets` * 4 joints and weights per vertex, padded with zero weights
// up to out->influences.
absl::Status AppendInfluences(const PrimitiveRef& ref, int64_t vertices,
                              int sets, int num_joints, MeshSource* out) {
  const size_t first = out->joints.size();
  out->joints.resize(first + vertices * out->influences, 0);
  out->weights.resize(first + vertices * out->influences, 0.0);
  for (int s = 0; s < sets; ++s) {
    const std::string joints_name = absl::StrCat("JOINTS_", s);
    const std::string weights_name = absl::StrCat("WEIGHTS_", s);
    CREASE_ASSIGN_OR_RETURN(
        AccessorData joints,
        ReadAccessor(ref.model, ref.Attribute(joints_name),
                     ref.What(joints_name), {TINYGLTF_TYPE_VEC4}, vertices));
    CREASE_ASSIGN_OR_RETURN(
        AccessorData weights,
        ReadAccessor(ref.model, ref.Attribute(weights_name),
                     ref.What(weights_name), {TINYGLTF_TYPE_VEC4}, vertices));
    if (!joints.IsUnsignedInteger()) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: componentType %d%s: joints are unsigned integers",
          ref.What(joints_name), joints.component_type,
          joints.normalized ? " (normalized)" : ""));
    }
    for (int64_t v = 0; v < vertices; ++v) {
      for (int c = 0; c < 4; ++c) {
        const double joint = joints.values[v * 4 + c];
        const double weight = weights.values[v * 4 + c];
        const size_t at = first + v * out->influences + s * 4 + c;
        if (weight != 0 && joint >= num_joints) {
          return absl::InvalidArgumentError(absl::StrFormat(
              "%s: vertex %d has joint %d with weight %g, but the skin has %d "
              "joints",
              ref.What(joints_name), v, static_cast<int64_t>(joint), weight,
              num_joints));
        }
        // A joint without weight may be anything: it is never used.
        out->joints[at] = weight != 0 ? static_cast<int32_t>(joint) : 0;
        out->weights[at] = weight;
      }
    }
  }
  return NormalizeWeights(ref, vertices, first, out);
}

// Appends each vertex's displacement under every morph target.
absl::Status AppendTargets(const PrimitiveRef& ref, int64_t vertices,
                           MeshSource* out) {
  const int num_targets = out->num_targets;
  const size_t first = out->target_offsets.size();
  out->target_offsets.resize(first + vertices * num_targets * 3, 0.0);
  for (int k = 0; k < num_targets; ++k) {
    const auto& target = ref.primitive.targets[k];
    const auto it = target.find("POSITION");
    if (it == target.end()) continue;  // moves no vertex
    CREASE_ASSIGN_OR_RETURN(
        AccessorData offsets,
        ReadAccessor(ref.model, it->second,
                     ref.What(absl::StrFormat("target %d POSITION", k)),
                     {TINYGLTF_TYPE_VEC3}, vertices));
    for (int64_t v = 0; v < vertices; ++v) {
      for (int c = 0; c < 3; ++c) {
        out->target_offsets[first + (v * num_targets + k) * 3 + c] =
            offsets.values[v * 3 + c];
      }
    }
  }
  return absl::OkStatus();
}

// TEXCOORD_0 per vertex into `vertex_uvs`, v flipped; false when the
// primitive has none.
absl::StatusOr<bool> AppendVertexUvs(const PrimitiveRef& ref, int64_t vertices,
                                     std::vector<float>* vertex_uvs) {
  const int accessor = ref.Attribute("TEXCOORD_0");
  if (accessor < 0) return false;
  CREASE_ASSIGN_OR_RETURN(
      AccessorData uvs,
      ReadAccessor(ref.model, accessor, ref.What("TEXCOORD_0"),
                   {TINYGLTF_TYPE_VEC2}, vertices));
  for (int64_t v = 0; v < vertices; ++v) {
    vertex_uvs->push_back(static_cast<float>(uvs.values[2 * v]));
    vertex_uvs->push_back(static_cast<float>(1.0 - uvs.values[2 * v + 1]));
  }
  return true;
}

// Appends primitive `ref` to `out`; `all_uvs` turns false when it has none.
absl::Status AppendPrimitive(const PrimitiveRef& ref, int num_joints,
                             MeshSource* out, std::vector<float>* vertex_uvs,
                             bool* all_uvs) {
  CREASE_RETURN_IF_ERROR(CheckPrimitive(ref));
  const int position = ref.Attribute("POSITION");
  if (position < 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "mesh %d primitive %d has no POSITION", ref.mesh, ref.index));
  }
  CREASE_ASSIGN_OR_RETURN(
      AccessorData positions,
      ReadAccessor(ref.model, position, ref.What("POSITION"),
                   {TINYGLTF_TYPE_VEC3}));
  const int64_t base = out->num_vertices();
  const int64_t vertices = positions.count;
  if (base + vertices > kMaxVertices) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "mesh %d has more than %d vertices", ref.mesh, kMaxVertices));
  }
  out->positions.insert(out->positions.end(), positions.values.begin(),
                        positions.values.end());
  CREASE_RETURN_IF_ERROR(AppendTriangles(ref, vertices, base, out));
  if (num_joints > 0) {
    const int sets = InfluenceSets(ref);
    if (sets == 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "mesh %d primitive %d is skinned but has no JOINTS_0 and WEIGHTS_0",
          ref.mesh, ref.index));
    }
    CREASE_RETURN_IF_ERROR(
        AppendInfluences(ref, vertices, sets, num_joints, out));
  }
  if (static_cast<int>(ref.primitive.targets.size()) != out->num_targets) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "mesh %d primitive %d has %d morph targets, primitive 0 has %d: "
        "glTF wants the same number",
        ref.mesh, ref.index, ref.primitive.targets.size(), out->num_targets));
  }
  CREASE_RETURN_IF_ERROR(AppendTargets(ref, vertices, out));
  CREASE_ASSIGN_OR_RETURN(const bool has_uvs,
                          AppendVertexUvs(ref, vertices, vertex_uvs));
  *all_uvs = *all_uvs && has_uvs;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<MeshSource> ReadMeshSource(const tinygltf::Model& model,
                                          int mesh, int num_joints) {
  for (const std::string& required : model.extensionsRequired) {
    for (const char* extension : kGeometryExtensions) {
      if (required == extension) {
        return absl::InvalidArgumentError(
            absl::StrCat("the file requires ", extension,
                         ", which this reader does not decode"));
      }
    }
  }
  const tinygltf::Mesh& source = model.meshes[mesh];
  MeshSource out;
  if (!source.primitives.empty()) {
    out.num_targets = static_cast<int>(source.primitives[0].targets.size());
  }
  for (size_t p = 0; p < source.primitives.size(); ++p) {
    const PrimitiveRef ref{model, source.primitives[p], mesh,
                           static_cast<int>(p)};
    out.influences = std::max(out.influences, 4 * InfluenceSets(ref));
  }
  std::vector<float> vertex_uvs;
  bool all_uvs = true;
  for (size_t p = 0; p < source.primitives.size(); ++p) {
    const PrimitiveRef ref{model, source.primitives[p], mesh,
                           static_cast<int>(p)};
    CREASE_RETURN_IF_ERROR(
        AppendPrimitive(ref, num_joints, &out, &vertex_uvs, &all_uvs));
  }
  if (num_joints == 0) out.influences = 0;
  if (all_uvs && !out.triangles.empty()) {
    out.corner_uvs.reserve(out.triangles.size() * 6);
    for (const Triangle& t : out.triangles) {
      for (int32_t v : t) {
        out.corner_uvs.push_back(vertex_uvs[2 * v]);
        out.corner_uvs.push_back(vertex_uvs[2 * v + 1]);
      }
    }
  }
  return out;
}

absl::StatusOr<SkinSource> ReadSkin(const tinygltf::Model& model, int skin) {
  const tinygltf::Skin& source = model.skins[skin];
  SkinSource out;
  const int num_joints = static_cast<int>(source.joints.size());
  for (int joint : source.joints) {
    if (joint < 0 || joint >= static_cast<int>(model.nodes.size())) {
      return absl::InvalidArgumentError(
          absl::StrFormat("skin %d: joint node %d does not exist (%d nodes)",
                          skin, joint, model.nodes.size()));
    }
    out.joint_nodes.push_back(joint);
  }
  if (source.inverseBindMatrices < 0) {
    out.inverse_bind.assign(num_joints, Eigen::Matrix4d::Identity());
    return out;
  }
  CREASE_ASSIGN_OR_RETURN(
      AccessorData matrices,
      ReadAccessor(model, source.inverseBindMatrices,
                   absl::StrFormat("skin %d inverseBindMatrices", skin),
                   {TINYGLTF_TYPE_MAT4}));
  if (matrices.count < num_joints) {
    return absl::InvalidArgumentError(
        absl::StrFormat("skin %d: %d inverse bind matrices for %d joints", skin,
                        matrices.count, num_joints));
  }
  out.inverse_bind.resize(num_joints);
  for (int j = 0; j < num_joints; ++j) {
    // Column-major, as glTF stores it.
    for (int i = 0; i < 16; ++i) {
      out.inverse_bind[j](i % 4, i / 4) = matrices.values[16 * j + i];
    }
  }
  return out;
}

absl::StatusOr<std::vector<double>> DefaultMorphWeights(
    const tinygltf::Model& model, int node, int mesh, int num_targets) {
  const std::vector<double>* lists[] = {
      node >= 0 ? &model.nodes[node].weights : nullptr,
      &model.meshes[mesh].weights};
  for (const std::vector<double>* weights : lists) {
    if (weights == nullptr || weights->empty()) continue;
    if (static_cast<int>(weights->size()) != num_targets) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s has %d morph weights for %d targets",
          weights == lists[0] ? absl::StrFormat("node %d", node)
                              : absl::StrFormat("mesh %d", mesh),
          weights->size(), num_targets));
    }
    return *weights;
  }
  return std::vector<double>(num_targets, 0.0);
}

}  // namespace crease::io::gltf_internal
