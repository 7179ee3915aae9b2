#include "wrinkle/io/gltf.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "common/status_macros.h"
#include "wrinkle/io/gltf_animation.h"
#include "wrinkle/io/gltf_mesh.h"
#include "wrinkle/io/gltf_model.h"

namespace crease::io {
namespace {

using gltf_internal::Clip;
using gltf_internal::LocalTransform;
using gltf_internal::MeshSource;
using gltf_internal::NodeGraph;
using gltf_internal::SkinSource;

// The most floats an Animation read from glTF may hold (frames * vertices *
// 3): 2 GiB.
constexpr int64_t kMaxOutputFloats = int64_t{1} << 29;

// `0 "Walk", 1 (unnamed)`: what a name or index may pick.
template <typename T>
std::string ListNames(const std::vector<T>& items) {
  if (items.empty()) return "none";
  std::string list;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) list += ", ";
    if (items[i].name.empty()) {
      absl::StrAppend(&list, i, " (unnamed)");
    } else {
      absl::StrAppend(&list, i, " \"", items[i].name, "\"");
    }
  }
  return list;
}

// The item named `wanted`, else the item at index `wanted`; NotFound listing
// the items otherwise.
template <typename T>
absl::StatusOr<int> Pick(const std::vector<T>& items, const std::string& wanted,
                         const char* singular, const char* plural) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].name == wanted) return static_cast<int>(i);
  }
  int index = -1;
  if (!wanted.empty() && absl::c_all_of(wanted, absl::ascii_isdigit) &&
      absl::SimpleAtoi(wanted, &index) &&
      index < static_cast<int>(items.size())) {
    return index;
  }
  return absl::NotFoundError(absl::StrFormat("no %s \"%s\"; the %s are: %s",
                                             singular, wanted, plural,
                                             ListNames(items)));
}

// The node that shows mesh `mesh`: the first one with a skin, else the first
// one; -1 when no node does.
int MeshNode(const tinygltf::Model& model, int mesh) {
  int first = -1;
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    if (model.nodes[n].mesh != mesh) continue;
    if (model.nodes[n].skin >= 0) return static_cast<int>(n);
    if (first < 0) first = static_cast<int>(n);
  }
  return first;
}

bool SkinnedOrMorphed(const tinygltf::Model& model, int mesh) {
  const int node = MeshNode(model, mesh);
  if (node >= 0 && model.nodes[node].skin >= 0) return true;
  for (const tinygltf::Primitive& primitive : model.meshes[mesh].primitives) {
    if (!primitive.targets.empty()) return true;
  }
  return false;
}

absl::StatusOr<int> ChooseMesh(const tinygltf::Model& model,
                               const std::string& wanted) {
  if (model.meshes.empty()) {
    return absl::InvalidArgumentError("the file has no meshes");
  }
  if (!wanted.empty()) return Pick(model.meshes, wanted, "mesh", "meshes");
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    if (SkinnedOrMorphed(model, static_cast<int>(m))) {
      return static_cast<int>(m);
    }
  }
  return 0;
}

// The animation to play, or -1 for none (the file has none and none was
// asked for).
absl::StatusOr<int> ChooseAnimation(const tinygltf::Model& model,
                                    const std::string& wanted) {
  if (wanted.empty()) return model.animations.empty() ? -1 : 0;
  return Pick(model.animations, wanted, "animation", "animations");
}

absl::Status CheckOptions(const GltfOptions& options) {
  if (!std::isfinite(options.fps) || options.fps <= 0 || options.frames < 0 ||
      !std::isfinite(options.t_start)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "fps %g, frames %d, t_start %g: fps must be finite and above 0, "
        "frames at least 0 (0: one clip length), t_start finite",
        options.fps, options.frames, options.t_start));
  }
  return absl::OkStatus();
}

// Per-frame evaluation of a mesh's positions, with every buffer kept from
// frame to frame (no allocation after the first frame).
class FrameEvaluator {
 public:
  FrameEvaluator(const NodeGraph& graph, const Clip& clip,
                 const MeshSource& mesh, const SkinSource* skin, int node,
                 std::vector<double> default_weights)
      : graph_(graph),
        clip_(clip),
        mesh_(mesh),
        skin_(skin),
        node_(node),
        default_weights_(std::move(default_weights)),
        weights_(default_weights_),
        morphed_(mesh.num_targets > 0 ? mesh.positions.size() : 0) {}

  // Positions at time t, xyz per vertex, into out[0 .. 3 * vertices).
  void Evaluate(double t, float* out) {
    std::copy(default_weights_.begin(), default_weights_.end(),
              weights_.begin());
    gltf_internal::ApplyClip(clip_, graph_, t, &local_, &weights_);
    gltf_internal::WorldTransforms(graph_, local_, &world_);
    const double* positions = mesh_.positions.data();
    if (mesh_.num_targets > 0) {
      Morph();
      positions = morphed_.data();
    }
    if (skin_ != nullptr) {
      Skin(positions, out);
    } else {
      Place(positions, out);
    }
  }

 private:
  // p + sum_k w_k d_k for every vertex, before skinning (glTF 2.0 §3.7.2.2).
  void Morph() {
    const int targets = mesh_.num_targets;
    for (int v = 0; v < mesh_.num_vertices(); ++v) {
      for (int c = 0; c < 3; ++c) {
        double p = mesh_.positions[3 * v + c];
        for (int k = 0; k < targets; ++k) {
          p += weights_[k] * mesh_.target_offsets[(v * targets + k) * 3 + c];
        }
        morphed_[3 * v + c] = p;
      }
    }
  }

  // Linear-blend skinning: sum_i w_i (G(joint_i) IBM_i) p, in world space.
  void Skin(const double* positions, float* out) {
    joint_matrices_.resize(skin_->joint_nodes.size());
    for (size_t j = 0; j < skin_->joint_nodes.size(); ++j) {
      joint_matrices_[j].noalias() =
          world_[skin_->joint_nodes[j]] * skin_->inverse_bind[j];
    }
    const int influences = mesh_.influences;
    for (int v = 0; v < mesh_.num_vertices(); ++v) {
      const double* p = positions + 3 * v;
      double sum[3] = {0, 0, 0};
      for (int i = 0; i < influences; ++i) {
        const double w = mesh_.weights[v * influences + i];
        if (w == 0) continue;
        const Eigen::Matrix4d& m =
            joint_matrices_[mesh_.joints[v * influences + i]];
        for (int r = 0; r < 3; ++r) {
          sum[r] +=
              w * (m(r, 0) * p[0] + m(r, 1) * p[1] + m(r, 2) * p[2] + m(r, 3));
        }
      }
      for (int r = 0; r < 3; ++r) out[3 * v + r] = static_cast<float>(sum[r]);
    }
  }

  // A mesh without a skin, placed by its node's world transform.
  void Place(const double* positions, float* out) {
    const Eigen::Matrix4d m =
        node_ >= 0 ? world_[node_] : Eigen::Matrix4d::Identity();
    for (int v = 0; v < mesh_.num_vertices(); ++v) {
      const double* p = positions + 3 * v;
      for (int r = 0; r < 3; ++r) {
        out[3 * v + r] = static_cast<float>(m(r, 0) * p[0] + m(r, 1) * p[1] +
                                            m(r, 2) * p[2] + m(r, 3));
      }
    }
  }

  const NodeGraph& graph_;
  const Clip& clip_;
  const MeshSource& mesh_;
  const SkinSource* skin_;  // null: not skinned
  const int node_;
  const std::vector<double> default_weights_;
  std::vector<double> weights_;
  std::vector<double> morphed_;
  std::vector<LocalTransform> local_;
  std::vector<Eigen::Matrix4d> world_;
  std::vector<Eigen::Matrix4d> joint_matrices_;
};

// Frame f's time: t_start + f / fps, wrapped into [0, duration) with loop.
double FrameTime(const GltfOptions& options, double duration, int f) {
  double t = options.t_start + f / options.fps;
  if (options.loop && duration > 0) {
    t = std::fmod(t, duration);
    if (t < 0) t += duration;
  }
  return t;
}

absl::StatusOr<int> FrameCount(const GltfOptions& options, double duration,
                               int vertices) {
  // Python's round() (to even) in the reference evaluation: nearbyint.
  const double frames = options.frames > 0
                            ? options.frames
                            : std::nearbyint(duration * options.fps) + 1;
  if (!(frames * vertices * 3 <= static_cast<double>(kMaxOutputFloats))) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%g frames of %d vertices (a clip of %g s at %g fps) are more than "
        "the reader's limit of %d floats",
        frames, vertices, duration, options.fps, kMaxOutputFloats));
  }
  return static_cast<int>(frames);
}

// Samples every frame into an Animation; InvalidArgument at the first
// vertex that is not finite.
absl::StatusOr<Animation> SampleFrames(const GltfOptions& options,
                                       const Clip& clip, MeshSource& mesh,
                                       FrameEvaluator& evaluator) {
  const int vertices = mesh.num_vertices();
  CREASE_ASSIGN_OR_RETURN(const int frames,
                          FrameCount(options, clip.duration, vertices));
  Animation animation;
  animation.frames.num_points = vertices;
  animation.frames.num_samples = frames;
  animation.frames.positions.resize(static_cast<size_t>(frames) * vertices * 3);
  for (int f = 0; f < frames; ++f) {
    const double t = FrameTime(options, clip.duration, f);
    float* out = animation.frames.positions.data() +
                 static_cast<size_t>(f) * vertices * 3;
    evaluator.Evaluate(t, out);
    for (int i = 0; i < 3 * vertices; ++i) {
      if (!std::isfinite(out[i])) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "frame %d (t = %g s): vertex %d is not finite (%g); check the "
            "transforms, weights and inverse bind matrices",
            f, t, i / 3, out[i]));
      }
    }
  }
  const auto first = animation.frames.Sample(0);
  animation.mesh.positions.assign(first.begin(), first.end());
  animation.mesh.triangles = std::move(mesh.triangles);
  animation.mesh.corner_uvs = std::move(mesh.corner_uvs);
  return animation;
}

absl::StatusOr<Animation> Evaluate(const tinygltf::Model& model,
                                   const GltfOptions& options) {
  CREASE_RETURN_IF_ERROR(CheckOptions(options));
  CREASE_ASSIGN_OR_RETURN(const int mesh_index,
                          ChooseMesh(model, options.mesh));
  CREASE_ASSIGN_OR_RETURN(const int animation_index,
                          ChooseAnimation(model, options.animation));
  CREASE_ASSIGN_OR_RETURN(const NodeGraph graph,
                          gltf_internal::BuildNodeGraph(model));
  const int node = MeshNode(model, mesh_index);
  const int skin_index = node >= 0 ? model.nodes[node].skin : -1;
  std::optional<SkinSource> skin;
  if (skin_index >= 0) {
    if (skin_index >= static_cast<int>(model.skins.size()) ||
        model.skins[skin_index].joints.empty()) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "node %d: skin %d does not exist or has no joints (%d skins)", node,
          skin_index, model.skins.size()));
    }
    CREASE_ASSIGN_OR_RETURN(skin, gltf_internal::ReadSkin(model, skin_index));
  }
  CREASE_ASSIGN_OR_RETURN(
      MeshSource mesh,
      gltf_internal::ReadMeshSource(
          model, mesh_index,
          skin ? static_cast<int>(skin->joint_nodes.size()) : 0));
  if (mesh.triangles.empty()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("mesh %d has no triangles", mesh_index));
  }
  CREASE_ASSIGN_OR_RETURN(std::vector<double> default_weights,
                          gltf_internal::DefaultMorphWeights(
                              model, node, mesh_index, mesh.num_targets));
  Clip clip;
  if (animation_index >= 0) {
    CREASE_ASSIGN_OR_RETURN(
        clip, gltf_internal::ReadClip(model, animation_index, graph, node,
                                      mesh.num_targets));
  }
  FrameEvaluator evaluator(graph, clip, mesh, skin ? &*skin : nullptr, node,
                           std::move(default_weights));
  return SampleFrames(options, clip, mesh, evaluator);
}

absl::Status WithName(std::string_view name, const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrFormat("%s: %s", name, status.message()));
}

}  // namespace

absl::StatusOr<Animation> ParseGltf(std::string_view bytes,
                                    std::string_view name_for_errors,
                                    const GltfOptions& options,
                                    const std::string* base_dir) {
  absl::StatusOr<tinygltf::Model> model =
      gltf_internal::LoadModel(bytes, base_dir);
  if (!model.ok()) return WithName(name_for_errors, model.status());
  absl::StatusOr<Animation> animation = Evaluate(*model, options);
  if (!animation.ok()) return WithName(name_for_errors, animation.status());
  return animation;
}

absl::StatusOr<Animation> ReadGltf(const std::string& path,
                                   const GltfOptions& options) {
  CREASE_ASSIGN_OR_RETURN(const std::string bytes,
                          files::ReadFileToString(path));
  // "." rather than "": buffer URIs are then joined to a directory, so an
  // absolute one stays inside it too.
  const std::filesystem::path parent =
      std::filesystem::path(path).parent_path();
  const std::string base_dir = (parent.empty() ? "." : parent).string();
  return ParseGltf(bytes, path, options, &base_dir);
}

}  // namespace crease::io
