#include "wrinkle/io/gltf_animation.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "wrinkle/io/gltf_model.h"

namespace crease::io::gltf_internal {
namespace {

// The rotation matrix of a unit quaternion (x y z w).
Eigen::Matrix3d RotationMatrix(const Eigen::Vector4d& q) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  Eigen::Matrix3d r;
  r << 1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
      2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
      2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y);
  return r;
}

// Spherical interpolation the short way round; nearly parallel quaternions
// are blended linearly and normalised (sin(theta) would vanish).
void Slerp(const double* q0, const double* q1_in, double u, double* out) {
  double q1[4] = {q1_in[0], q1_in[1], q1_in[2], q1_in[3]};
  double d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
  if (d < 0) {
    for (double& c : q1) c = -c;
    d = -d;
  }
  if (d > 0.9995) {
    double norm = 0;
    for (int i = 0; i < 4; ++i) {
      out[i] = q0[i] + u * (q1[i] - q0[i]);
      norm += out[i] * out[i];
    }
    norm = std::sqrt(norm);
    for (int i = 0; i < 4; ++i) out[i] /= norm;
    return;
  }
  const double theta = std::acos(d);
  const double a = std::sin((1 - u) * theta);
  const double b = std::sin(u * theta);
  const double s = std::sin(theta);
  for (int i = 0; i < 4; ++i) out[i] = (a * q0[i] + b * q1[i]) / s;
}

void Normalize4(double* q) {
  const double norm =
      std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int i = 0; i < 4; ++i) q[i] /= norm;
}

absl::Status ReadRestTransform(const tinygltf::Node& node, int index,
                               LocalTransform* rest) {
  const auto bad_length = [&](const char* field, size_t length, size_t wanted) {
    return absl::InvalidArgumentError(
        absl::StrFormat("node %d: %s has %d numbers, expected %d", index, field,
                        length, wanted));
  };
  if (!node.matrix.empty()) {
    if (node.matrix.size() != 16) {
      return bad_length("matrix", node.matrix.size(), 16);
    }
    rest->has_matrix = true;
    // Column-major, as glTF stores it.
    for (int i = 0; i < 16; ++i) rest->matrix(i % 4, i / 4) = node.matrix[i];
  }
  if (!node.translation.empty()) {
    if (node.translation.size() != 3) {
      return bad_length("translation", node.translation.size(), 3);
    }
    rest->translation = Eigen::Vector3d(node.translation.data());
  }
  if (!node.rotation.empty()) {
    if (node.rotation.size() != 4) {
      return bad_length("rotation", node.rotation.size(), 4);
    }
    rest->rotation = Eigen::Vector4d(node.rotation.data());
  }
  if (!node.scale.empty()) {
    if (node.scale.size() != 3) {
      return bad_length("scale", node.scale.size(), 3);
    }
    rest->scale = Eigen::Vector3d(node.scale.data());
  }
  return absl::OkStatus();
}

absl::StatusOr<Interpolation> ParseInterpolation(const std::string& name) {
  if (name == "LINEAR") return Interpolation::kLinear;
  if (name == "STEP") return Interpolation::kStep;
  if (name == "CUBICSPLINE") return Interpolation::kCubicSpline;
  return absl::InvalidArgumentError(absl::StrFormat(
      "interpolation \"%s\" is not LINEAR, STEP or CUBICSPLINE", name));
}

bool ParsePath(const std::string& name, ChannelPath* path) {
  if (name == "translation") {
    *path = ChannelPath::kTranslation;
  } else if (name == "rotation") {
    *path = ChannelPath::kRotation;
  } else if (name == "scale") {
    *path = ChannelPath::kScale;
  } else if (name == "weights") {
    *path = ChannelPath::kWeights;
  } else {
    return false;
  }
  return true;
}

absl::StatusOr<std::vector<double>> ReadKeyTimes(const tinygltf::Model& model,
                                                 int accessor) {
  CREASE_ASSIGN_OR_RETURN(
      AccessorData input,
      ReadAccessor(model, accessor, "input", {TINYGLTF_TYPE_SCALAR}));
  if (input.count < 1) {
    return absl::InvalidArgumentError(
        absl::StrFormat("input accessor %d has no keys", accessor));
  }
  for (int64_t k = 0; k < input.count; ++k) {
    const double t = input.values[k];
    if (!std::isfinite(t) || (k > 0 && t < input.values[k - 1])) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "input accessor %d: key %d is at %g s%s: times must be finite and "
          "increasing",
          accessor, k, t,
          k > 0
              ? absl::StrFormat(", key %d at %g s", k - 1, input.values[k - 1])
              : ""));
    }
  }
  return std::move(input.values);
}

// The sampler of a channel that is kept: its keys and values, checked
// against the width the path needs.
absl::StatusOr<Sampler> ReadSampler(const tinygltf::Model& model,
                                    const tinygltf::AnimationSampler& source,
                                    std::vector<double> times, int width,
                                    bool weights) {
  Sampler sampler;
  CREASE_ASSIGN_OR_RETURN(sampler.interpolation,
                          ParseInterpolation(source.interpolation));
  sampler.width = width;
  sampler.times = std::move(times);
  const int64_t groups =
      sampler.interpolation == Interpolation::kCubicSpline ? 3 : 1;
  const int64_t keys = static_cast<int64_t>(sampler.times.size());
  const int type = weights      ? TINYGLTF_TYPE_SCALAR
                   : width == 4 ? TINYGLTF_TYPE_VEC4
                                : TINYGLTF_TYPE_VEC3;
  CREASE_ASSIGN_OR_RETURN(AccessorData output,
                          ReadAccessor(model, source.output, "output", {type},
                                       keys * groups * (weights ? width : 1)));
  sampler.values = std::move(output.values);
  return sampler;
}

absl::StatusOr<bool> ReadChannel(const tinygltf::Model& model,
                                 const tinygltf::Animation& animation,
                                 const tinygltf::AnimationChannel& source,
                                 const NodeGraph& graph, int morph_node,
                                 int num_targets, Clip* clip) {
  ChannelPath path;
  if (source.target_node < 0 || !ParsePath(source.target_path, &path)) {
    return false;  // no target, or an extension's: not ours to animate
  }
  if (source.target_node >= graph.num_nodes()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("target node %d does not exist (%d nodes)",
                        source.target_node, graph.num_nodes()));
  }
  if (source.sampler < 0 ||
      source.sampler >= static_cast<int>(animation.samplers.size())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("sampler %d does not exist (%d samplers)",
                        source.sampler, animation.samplers.size()));
  }
  const tinygltf::AnimationSampler& sampler =
      animation.samplers[source.sampler];
  CREASE_ASSIGN_OR_RETURN(std::vector<double> times,
                          ReadKeyTimes(model, sampler.input));
  clip->duration = std::max(clip->duration, times.back());
  const bool weights = path == ChannelPath::kWeights;
  if (weights && source.target_node != morph_node) return false;
  if (weights && num_targets == 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("animates the weights of node %d, whose mesh has no "
                        "morph targets",
                        source.target_node));
  }
  if (!weights && graph.rest[source.target_node].has_matrix) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "animates node %d, which has a matrix (glTF 2.0 allows TRS only)",
        source.target_node));
  }
  const int width = weights                          ? num_targets
                    : path == ChannelPath::kRotation ? 4
                                                     : 3;
  Channel channel;
  channel.node = source.target_node;
  channel.path = path;
  CREASE_ASSIGN_OR_RETURN(
      channel.sampler,
      ReadSampler(model, sampler, std::move(times), width, weights));
  clip->channels.push_back(std::move(channel));
  return true;
}

}  // namespace

Eigen::Matrix4d LocalTransform::ToMatrix() const {
  if (has_matrix) return matrix;
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() =
      RotationMatrix(rotation / rotation.norm()) * scale.asDiagonal();
  m.topRightCorner<3, 1>() = translation;
  return m;
}

absl::StatusOr<NodeGraph> BuildNodeGraph(const tinygltf::Model& model) {
  NodeGraph graph;
  const int n = static_cast<int>(model.nodes.size());
  graph.rest.resize(n);
  graph.parent.assign(n, -1);
  for (int i = 0; i < n; ++i) {
    CREASE_RETURN_IF_ERROR(
        ReadRestTransform(model.nodes[i], i, &graph.rest[i]));
    for (int child : model.nodes[i].children) {
      if (child < 0 || child >= n || child == i || graph.parent[child] >= 0) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "node %d: child %d does not exist, is the node itself or has "
            "another parent",
            i, child));
      }
      graph.parent[child] = i;
    }
  }
  // Roots first, then breadth first: parents come before their children.
  for (int i = 0; i < n; ++i) {
    if (graph.parent[i] < 0) graph.order.push_back(i);
  }
  for (size_t next = 0; next < graph.order.size(); ++next) {
    for (int child : model.nodes[graph.order[next]].children) {
      graph.order.push_back(child);
    }
  }
  if (static_cast<int>(graph.order.size()) != n) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the node hierarchy has a cycle (%d of %d nodes reach no root)",
        n - graph.order.size(), n));
  }
  return graph;
}

void WorldTransforms(const NodeGraph& graph,
                     const std::vector<LocalTransform>& local,
                     std::vector<Eigen::Matrix4d>* world) {
  world->resize(graph.rest.size());
  for (int i : graph.order) {
    const int parent = graph.parent[i];
    (*world)[i] = parent < 0
                      ? local[i].ToMatrix()
                      : Eigen::Matrix4d((*world)[parent] * local[i].ToMatrix());
  }
}

void Sampler::Sample(double t, bool is_rotation, double* out) const {
  const int n = static_cast<int>(times.size());
  const int groups = interpolation == Interpolation::kCubicSpline ? 3 : 1;
  const int value_group = groups == 3 ? 1 : 0;
  const auto value = [&](int k) {
    return values.data() +
           (static_cast<size_t>(k) * groups + value_group) * width;
  };
  if (t <= times[0] || t >= times[n - 1]) {
    const double* v = value(t <= times[0] ? 0 : n - 1);
    std::copy(v, v + width, out);
    return;
  }
  // times[k] <= t < times[k + 1], so t1 > t0.
  const int k = static_cast<int>(
      std::upper_bound(times.begin(), times.end(), t) - times.begin() - 1);
  const double t0 = times[k];
  const double t1 = times[k + 1];
  const double u = (t - t0) / (t1 - t0);
  if (interpolation == Interpolation::kStep) {
    std::copy(value(k), value(k) + width, out);
  } else if (interpolation == Interpolation::kCubicSpline) {
    // Hermite spline (glTF 2.0 Appendix C): tangents scaled by the interval.
    const double dt = t1 - t0;
    const double* p0 = value(k);
    const double* m0 = p0 + width;  // out-tangent of key k
    const double* p1 = value(k + 1);
    const double* m1 = p1 - width;  // in-tangent of key k + 1
    const double u2 = u * u;
    const double u3 = u2 * u;
    for (int i = 0; i < width; ++i) {
      out[i] = (2 * u3 - 3 * u2 + 1) * p0[i] + (u3 - 2 * u2 + u) * m0[i] * dt +
               (-2 * u3 + 3 * u2) * p1[i] + (u3 - u2) * m1[i] * dt;
    }
    if (is_rotation) Normalize4(out);
  } else if (is_rotation) {
    Slerp(value(k), value(k + 1), u, out);
  } else {
    const double* a = value(k);
    const double* b = value(k + 1);
    for (int i = 0; i < width; ++i) out[i] = (1 - u) * a[i] + u * b[i];
  }
}

absl::StatusOr<Clip> ReadClip(const tinygltf::Model& model, int index,
                              const NodeGraph& graph, int morph_node,
                              int num_targets) {
  const tinygltf::Animation& animation = model.animations[index];
  Clip clip;
  for (size_t c = 0; c < animation.channels.size(); ++c) {
    absl::StatusOr<bool> kept =
        ReadChannel(model, animation, animation.channels[c], graph, morph_node,
                    num_targets, &clip);
    if (!kept.ok()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("animation %d (\"%s\") channel %d: %s", index,
                          animation.name, c, kept.status().message()));
    }
  }
  return clip;
}

void ApplyClip(const Clip& clip, const NodeGraph& graph, double t,
               std::vector<LocalTransform>* local,
               std::vector<double>* weights) {
  local->assign(graph.rest.begin(), graph.rest.end());
  for (const Channel& channel : clip.channels) {
    LocalTransform& node = (*local)[channel.node];
    const bool rotation = channel.path == ChannelPath::kRotation;
    switch (channel.path) {
      case ChannelPath::kTranslation:
        channel.sampler.Sample(t, rotation, node.translation.data());
        break;
      case ChannelPath::kRotation:
        channel.sampler.Sample(t, rotation, node.rotation.data());
        break;
      case ChannelPath::kScale:
        channel.sampler.Sample(t, rotation, node.scale.data());
        break;
      case ChannelPath::kWeights:
        channel.sampler.Sample(t, rotation, weights->data());
        break;
    }
  }
}

}  // namespace crease::io::gltf_internal
