#include "wrinkle/amplitude_model.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <numbers>

#include "absl/strings/str_format.h"

namespace crease {
namespace {

// Segments per texel the edge spans: resolves a bilinear pattern.
constexpr double kSegmentsPerTexel = 2.0;

Eigen::Vector3d PackedVertex(absl::Span<const float> positions, int32_t v) {
  const size_t i = 3 * static_cast<size_t>(v);
  return Eigen::Vector3d(positions[i], positions[i + 1], positions[i + 2]);
}

// True when every value is finite (exponent bits not all set); a loop
// without early exit on integers vectorises (the per-frame check).
bool AllFinite(absl::Span<const float> values) {
  uint32_t non_finite = 0;
  for (float v : values) {
    non_finite |= (std::bit_cast<uint32_t>(v) & 0x7f800000u) == 0x7f800000u;
  }
  return non_finite == 0;
}

absl::Status CheckPacked(absl::Span<const float> values, size_t expected,
                         const char* name, const char* per, int count,
                         int floats_per) {
  if (values.size() != expected) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: %d floats, expected %d (%d per %s for %d)", name,
                        values.size(), expected, floats_per, per, count));
  }
  if (AllFinite(values)) return absl::OkStatus();
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: %s %d has a non-finite value (float %d)", name,
                          per, i / floats_per, i % floats_per));
    }
  }
  return absl::OkStatus();
}

// Length of edge k (corners k and (k + 1) % 3) in a 2x2 edge matrix whose
// columns are corner 1 - corner 0 and corner 2 - corner 0 (EdgeMatrix).
double EdgeMatrixLength(const Eigen::Matrix2d& m, int k) {
  if (k == 0) return m.col(0).norm();
  if (k == 1) return (m.col(1) - m.col(0)).norm();
  return m.col(1).norm();
}

}  // namespace

absl::Status ValidateAmplitudeParams(const AmplitudeModelParams& params) {
  const auto out_of_range = [](const char* name, double value,
                               const char* range) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "amplitude model: %s is %g, expected %s", name, value, range));
  };
  if (!(params.shrink_threshold > 0.0 && params.shrink_threshold <= 10.0)) {
    return out_of_range("shrink_threshold", params.shrink_threshold, "(0, 10]");
  }
  if (!(params.sensitivity_alpha > 0.0 && params.sensitivity_alpha <= 1e6)) {
    return out_of_range("sensitivity_alpha", params.sensitivity_alpha,
                        "(0, 1e6]");
  }
  if (!(params.scale >= 0.0 && params.scale <= 100.0)) {
    return out_of_range("scale", params.scale, "[0, 100]");
  }
  if (!(params.max_slope >= 0.0 && params.max_slope <= 100.0)) {
    return out_of_range("max_slope", params.max_slope, "[0, 100]");
  }
  if (params.min_edge_segments < 1 ||
      params.min_edge_segments > kMaxEdgeSegments) {
    return out_of_range("min_edge_segments", params.min_edge_segments,
                        "1..1024");
  }
  return absl::OkStatus();
}

namespace {

// Eq. 1 from l^2 and L^2 (no square roots per frame).
double ShrinkFromSquares(double current_squared, double rest_squared,
                         const AmplitudeModelParams& params) {
  if (!(rest_squared > 0.0)) return 0.0;  // no native length: no wrinkles
  const double lambda = params.shrink_threshold;
  const double x_squared = lambda * lambda * current_squared / rest_squared;
  const double t = 2.0 / (1.0 + x_squared);
  return params.shrink == ShrinkFormula::kReconstructed ? t - 1.0 : t;
}

}  // namespace

double ShrinkTerm(double current_length, double rest_length,
                  const AmplitudeModelParams& params) {
  if (!(rest_length > 0.0)) return 0.0;
  return ShrinkFromSquares(current_length * current_length,
                           rest_length * rest_length, params);
}

double SensitivityFromVariation(double variation,
                                const AmplitudeModelParams& params) {
  const double a = params.sensitivity_alpha * variation;
  return params.sensitivity == SensitivityFormula::kReconstructed
             ? a / (1.0 + a)
             : 1.0 / (1.0 + a);
}

double PatternVariation(const WrinklePattern& pattern, int channel,
                        const Eigen::Vector2f& uv0, const Eigen::Vector2f& uv1,
                        int min_edge_segments) {
  const Eigen::Vector2f delta = uv1 - uv0;
  const double texels =
      std::hypot(static_cast<double>(delta.x()) * pattern.width,
                 static_cast<double>(delta.y()) * pattern.height);
  const int n =
      static_cast<int>(std::clamp(std::ceil(kSegmentsPerTexel * texels),
                                  static_cast<double>(min_edge_segments),
                                  static_cast<double>(kMaxEdgeSegments)));
  double sum = 0.0;
  float previous = SamplePattern(pattern, channel, uv0);
  for (int k = 1; k <= n; ++k) {
    const float s = static_cast<float>(k) / static_cast<float>(n);
    const float h = SamplePattern(pattern, channel, uv0 + s * delta);
    sum += static_cast<double>(h - previous) * (h - previous);
    previous = h;
  }
  return n * sum;
}

absl::StatusOr<AmplitudeModel> AmplitudeModel::Create(
    const MeshTopology& topology, absl::Span<const float> corner_uvs,
    const WrinklePattern& pattern, absl::Span<const float> rest_positions,
    const AmplitudeModelParams& params) {
  if (absl::Status s = ValidateAmplitudeParams(params); !s.ok()) return s;
  if (absl::Status s = ValidatePattern(pattern); !s.ok()) return s;
  const int num_triangles = topology.num_triangles();
  if (corner_uvs.empty()) {
    return absl::InvalidArgumentError(
        "corner_uvs: none; the amplitude model places its pattern in UV "
        "space and needs 6 floats per triangle");
  }
  if (absl::Status s =
          CheckPacked(corner_uvs, 6 * static_cast<size_t>(num_triangles),
                      "corner_uvs", "triangle", num_triangles, 6);
      !s.ok()) {
    return s;
  }
  for (size_t i = 0; i < corner_uvs.size(); ++i) {
    if (std::abs(corner_uvs[i]) > kMaxUvMagnitude) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "corner_uvs: triangle %d corner %d has %c = %g, expected |%c| <= %g",
          i / 6, i % 6 / 2, "uv"[i % 2], corner_uvs[i], "uv"[i % 2],
          kMaxUvMagnitude));
    }
  }
  if (params.rest_lengths == RestLengthSource::kRestPositions) {
    if (absl::Status s = CheckPacked(
            rest_positions, 3 * static_cast<size_t>(topology.num_vertices()),
            "rest_positions", "vertex", topology.num_vertices(), 3);
        !s.ok()) {
      return s;
    }
  }
  AmplitudeModel model;
  model.params_ = params;
  model.channels_ = pattern.channels;
  model.num_triangles_ = num_triangles;
  model.BuildEdges(topology);
  model.ComputeSensitivities(corner_uvs, pattern);
  if (params.rest_lengths == RestLengthSource::kRestPositions) {
    model.ComputeRestLengths(rest_positions);
  }
  return model;
}

void AmplitudeModel::BuildEdges(const MeshTopology& topology) {
  const int num_edges = topology.num_edges();
  edges_.resize(num_edges);
  edge_welded_.resize(2 * static_cast<size_t>(num_edges));
  side_offset_.assign(1, 0);
  vertex_welded_ = topology.weld_map();
  std::vector<int> incident(topology.num_welded_vertices(), 0);
  for (int e = 0; e < num_edges; ++e) {
    const MeshTopology::Edge& edge = topology.edge(e);
    edges_[e] = {edge.v0, edge.v1};
    edge_welded_[2 * e] = vertex_welded_[edge.v0];
    edge_welded_[2 * e + 1] = vertex_welded_[edge.v1];
    ++incident[edge_welded_[2 * e]];
    ++incident[edge_welded_[2 * e + 1]];
    for (int32_t f : topology.edge_faces(e)) {
      const std::array<int32_t, 3>& face_edges = topology.face_edges(f);
      const int slot =
          static_cast<int>(std::find(face_edges.begin(), face_edges.end(), e) -
                           face_edges.begin());
      side_face_.push_back(f);
      side_slot_.push_back(static_cast<uint8_t>(slot));
    }
    side_offset_.push_back(static_cast<int32_t>(side_face_.size()));
  }
  welded_edge_weight_.resize(incident.size());
  for (size_t w = 0; w < incident.size(); ++w) {
    welded_edge_weight_[w] = incident[w] > 0 ? 1.0 / incident[w] : 0.0;
  }
  const size_t edge_channels = static_cast<size_t>(num_edges) * channels_;
  sensitivity_.assign(edge_channels, 0.0f);
  edge_amplitude_.assign(edge_channels, 0.0f);
  rest_length_.assign(num_edges, 0.0);
  shrink_.assign(num_edges, 0.0);
  welded_sum_.assign(incident.size() * channels_, 0.0);
  vertex_amplitudes_.assign(vertex_welded_.size() * channels_, 0.0f);
}

void AmplitudeModel::ComputeSensitivities(absl::Span<const float> corner_uvs,
                                          const WrinklePattern& pattern) {
  uv_length_.assign(num_edges(), 0.0);
  channel_wavelength_.resize(channels_);
  for (int c = 0; c < channels_; ++c) {
    channel_wavelength_[c] = PatternWavelength(pattern, c);
  }
  const auto corner_uv = [&](int32_t f, int corner) {
    const size_t i = 6 * static_cast<size_t>(f) + 2 * corner;
    return Eigen::Vector2f(corner_uvs[i], corner_uvs[i + 1]);
  };
  for (int e = 0; e < num_edges(); ++e) {
    const int begin = side_offset_[e];
    const int end = side_offset_[e + 1];
    // Each triangle maps the edge into UV on its own (they differ at seams):
    // m is the mean over the edge's triangles.
    for (int side = begin; side < end; ++side) {
      const int32_t f = side_face_[side];
      const int k = side_slot_[side];
      const Eigen::Vector2f uv0 = corner_uv(f, k);
      const Eigen::Vector2f uv1 = corner_uv(f, (k + 1) % 3);
      uv_length_[e] += (uv1 - uv0).cast<double>().norm() / (end - begin);
      for (int c = 0; c < channels_; ++c) {
        const double a =
            PatternVariation(pattern, c, uv0, uv1, params_.min_edge_segments);
        sensitivity_[e * channels_ + c] += static_cast<float>(
            SensitivityFromVariation(a, params_) / (end - begin));
      }
    }
  }
  // Edges that count towards each welded vertex's world / UV scale.
  std::vector<int> counted(welded_edge_weight_.size(), 0);
  for (int e = 0; e < num_edges(); ++e) {
    if (uv_length_[e] <= 1e-12) continue;
    ++counted[edge_welded_[2 * e]];
    ++counted[edge_welded_[2 * e + 1]];
  }
  welded_uv_weight_.resize(counted.size());
  for (size_t w = 0; w < counted.size(); ++w) {
    welded_uv_weight_[w] = counted[w] > 0 ? 1.0 / counted[w] : 0.0;
  }
  welded_uv_scale_.assign(counted.size(), 0.0);
  // Per edge 1 / its UV length squared (0: left out), so a frame needs no
  // square root per edge for the scale.
  inv_uv_length_squared_.resize(num_edges());
  for (int e = 0; e < num_edges(); ++e) {
    inv_uv_length_squared_[e] =
        uv_length_[e] > 1e-12 ? 1.0 / (uv_length_[e] * uv_length_[e]) : 0.0;
  }
}

void AmplitudeModel::ComputeRestLengths(
    absl::Span<const float> rest_positions) {
  for (int e = 0; e < num_edges(); ++e) {
    rest_length_[e] = (PackedVertex(rest_positions, edges_[e].v1) -
                       PackedVertex(rest_positions, edges_[e].v0))
                          .norm();
  }
}

absl::Status AmplitudeModel::ValidateFrame(
    absl::Span<const float> positions,
    absl::Span<const Eigen::Matrix2d> references) const {
  if (absl::Status s = CheckPacked(positions, 3 * vertex_welded_.size(),
                                   "positions", "vertex", num_vertices(), 3);
      !s.ok()) {
    return s;
  }
  if (params_.rest_lengths != RestLengthSource::kAdaptiveReferences) {
    return absl::OkStatus();
  }
  if (references.size() != static_cast<size_t>(num_triangles_)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "references: %d matrices, expected one per triangle (%d) for rest "
        "lengths from the adaptive references",
        references.size(), num_triangles_));
  }
  for (size_t f = 0; f < references.size(); ++f) {
    if (!references[f].allFinite()) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "references: triangle %d has a non-finite reference", f));
    }
  }
  return absl::OkStatus();
}

double AmplitudeModel::ReferenceLength(
    int e, absl::Span<const Eigen::Matrix2d> references) const {
  const int begin = side_offset_[e];
  const int end = side_offset_[e + 1];
  double sum = 0.0;
  for (int side = begin; side < end; ++side) {
    sum += EdgeMatrixLength(references[side_face_[side]], side_slot_[side]);
  }
  return end > begin ? sum / (end - begin) : 0.0;
}

absl::Status AmplitudeModel::Update(
    absl::Span<const float> positions,
    absl::Span<const Eigen::Matrix2d> references) {
  if (absl::Status s = ValidateFrame(positions, references); !s.ok()) return s;
  const bool from_references =
      params_.rest_lengths == RestLengthSource::kAdaptiveReferences;
  std::fill(welded_sum_.begin(), welded_sum_.end(), 0.0);
  std::fill(welded_uv_scale_.begin(), welded_uv_scale_.end(), 0.0);
  const bool cap = params_.max_slope > 0.0;
  // Local pointers: the sums are stored through double pointers, which the
  // compiler would otherwise assume may alias every member vector and reload
  // them on each edge.
  const float* p = positions.data();
  const Edge* edges = edges_.data();
  const int32_t* welded = edge_welded_.data();
  const float* sensitivity = sensitivity_.data();
  const double* inv_uv_squared = inv_uv_length_squared_.data();
  double* __restrict rest_length = rest_length_.data();
  double* __restrict shrink = shrink_.data();
  float* __restrict edge_amplitude = edge_amplitude_.data();
  double* __restrict sums = welded_sum_.data();
  double* __restrict uv_scale = welded_uv_scale_.data();
  const int channels = channels_;
  const int num = num_edges();
  for (int e = 0; e < num; ++e) {
    if (from_references) rest_length[e] = ReferenceLength(e, references);
    const float* a = p + 3 * static_cast<size_t>(edges[e].v0);
    const float* b = p + 3 * static_cast<size_t>(edges[e].v1);
    const double dx = double{b[0]} - a[0], dy = double{b[1]} - a[1],
                 dz = double{b[2]} - a[2];
    const double length_squared = dx * dx + dy * dy + dz * dz;
    const double rest = rest_length[e];
    shrink[e] = ShrinkFromSquares(length_squared, rest * rest, params_);
    const int32_t w0 = welded[2 * e], w1 = welded[2 * e + 1];
    if (cap) {
      // Squared length ratio (0 for edges degenerate in UV); the vertex's
      // scale is their root mean square.
      const double ratio_squared = length_squared * inv_uv_squared[e];
      uv_scale[w0] += ratio_squared;
      uv_scale[w1] += ratio_squared;
    }
    const double length_times_shrink = rest * shrink[e];
    double* sum0 = sums + static_cast<size_t>(w0) * channels;
    double* sum1 = sums + static_cast<size_t>(w1) * channels;
    for (int c = 0; c < channels; ++c) {
      const double w = length_times_shrink * sensitivity[e * channels + c];
      edge_amplitude[e * channels + c] = static_cast<float>(w);
      sum0[c] += w;
      sum1[c] += w;
    }
  }
  AverageToVertices();
  return absl::OkStatus();
}

void AmplitudeModel::CapSlopes() {
  const size_t num_welded = welded_uv_scale_.size();
  for (size_t w = 0; w < num_welded; ++w) {
    // No edge with a UV length: no scale to cap by.
    if (welded_uv_weight_[w] == 0.0) continue;
    const double world_per_uv =
        std::sqrt(welded_uv_scale_[w] * welded_uv_weight_[w]);
    for (int c = 0; c < channels_; ++c) {
      const double limit = params_.max_slope * channel_wavelength_[c] *
                           world_per_uv / (2.0 * std::numbers::pi);
      double& a = welded_sum_[w * channels_ + c];
      a = std::clamp(a, -limit, limit);
    }
  }
}

void AmplitudeModel::AverageToVertices() {
  // Eq. 3 per welded vertex, then k and the clamp, in place.
  const size_t num_welded = welded_edge_weight_.size();
  for (size_t w = 0; w < num_welded; ++w) {
    for (int c = 0; c < channels_; ++c) {
      double s = welded_sum_[w * channels_ + c] * welded_edge_weight_[w];
      if (params_.clamp_negative) s = std::max(s, 0.0);
      welded_sum_[w * channels_ + c] = params_.scale * s;
    }
  }
  if (params_.max_slope > 0.0) CapSlopes();
  for (size_t v = 0; v < vertex_welded_.size(); ++v) {
    const double* s = &welded_sum_[vertex_welded_[v] * channels_];
    for (int c = 0; c < channels_; ++c) {
      vertex_amplitudes_[v * channels_ + c] = static_cast<float>(s[c]);
    }
  }
}

}  // namespace crease
