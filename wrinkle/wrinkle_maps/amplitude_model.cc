#include "wrinkle/wrinkle_maps/amplitude_model.h"

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>

#include "absl/base/attributes.h"
#include "absl/strings/str_format.h"
#include "wrinkle/wrinkle_maps/amplitude_terms.h"

namespace crease {
namespace {

using amplitude_internal::DirectionalWeights;
using amplitude_internal::ShrinkFromSquares;
using amplitude_internal::ShrinkOffset;
using amplitude_internal::UnitCompressiveForm;
using amplitude_internal::UnitStructure;

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

// Edge k (corners k and (k + 1) % 3) of a triangle as a combination of the
// columns of its 2x2 edge matrix (corner 1 - corner 0, corner 2 - corner 0;
// EdgeMatrix): c0, c1 - c0, c1.
constexpr double kColumn0Weight[3] = {1.0, -1.0, 0.0};
constexpr double kColumn1Weight[3] = {0.0, 1.0, 1.0};

double EdgeMatrixLengthSquared(const Eigen::Matrix2d& m, int k) {
  const double x = kColumn0Weight[k] * m(0, 0) + kColumn1Weight[k] * m(0, 1);
  const double y = kColumn0Weight[k] * m(1, 0) + kColumn1Weight[k] * m(1, 1);
  return x * x + y * y;
}

}  // namespace

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
  rest_length_squared_.assign(num_edges, 0.0);
  inv_sides_.resize(num_edges);
  for (int e = 0; e < num_edges; ++e) {
    const int sides = side_offset_[e + 1] - side_offset_[e];
    inv_sides_[e] = sides > 0 ? 1.0 / sides : 0.0;
  }
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
  const bool directional =
      params_.sensitivity == SensitivityFormula::kDirectional;
  if (directional) {
    channel_structure_.resize(channels_);
    for (int c = 0; c < channels_; ++c) {
      channel_structure_[c] = UnitStructure(PatternStructureTensor(pattern, c));
    }
    BuildDirectionalFits(corner_uvs);
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
        const double m = directional
                             ? 1.0
                             : SensitivityFromVariation(
                                   PatternVariation(pattern, c, uv0, uv1,
                                                    params_.min_edge_segments),
                                   params_);
        sensitivity_[e * channels_ + c] +=
            static_cast<float>(m / (end - begin));
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

void AmplitudeModel::BuildDirectionalFits(absl::Span<const float> corner_uvs) {
  edge_form_.assign(num_edges(), Eigen::Vector3d::Zero());
  for (int e = 0; e < num_edges(); ++e) {
    const int begin = side_offset_[e], end = side_offset_[e + 1];
    for (int side = begin; side < end; ++side) {
      const size_t f = 6 * static_cast<size_t>(side_face_[side]);
      const int k = side_slot_[side];
      const Eigen::Vector2d d(
          double{corner_uvs[f + 2 * ((k + 1) % 3)]} - corner_uvs[f + 2 * k],
          double{corner_uvs[f + 2 * ((k + 1) % 3) + 1]} -
              corner_uvs[f + 2 * k + 1]);
      const double length_squared = d.squaredNorm();
      if (!(length_squared > 0.0)) continue;
      // dᵀ T d = form · (Txx, Txy, Tyy) for the unit direction d.
      edge_form_[e] +=
          Eigen::Vector3d(d.x() * d.x(), 2.0 * d.x() * d.y(), d.y() * d.y()) /
          (length_squared * (end - begin));
    }
  }
  const size_t num_welded = welded_edge_weight_.size();
  std::vector<Eigen::Matrix3d> normal(num_welded, Eigen::Matrix3d::Zero());
  for (int e = 0; e < num_edges(); ++e) {
    const Eigen::Matrix3d outer = edge_form_[e] * edge_form_[e].transpose();
    normal[edge_welded_[2 * e]] += outer;
    normal[edge_welded_[2 * e + 1]] += outer;
  }
  // Each ring widens the fit by the neighbours' edges: the normal matrix
  // here, its right-hand side each frame (WidenFits), by the same sums.
  for (int ring = 0; ring < params_.direction_fit_rings; ++ring) {
    std::vector<Eigen::Matrix3d> wide = normal;
    for (int e = 0; e < num_edges(); ++e) {
      wide[edge_welded_[2 * e]] += normal[edge_welded_[2 * e + 1]];
      wide[edge_welded_[2 * e + 1]] += normal[edge_welded_[2 * e]];
    }
    normal = std::move(wide);
  }
  welded_fit_inverse_.resize(num_welded);
  for (size_t w = 0; w < num_welded; ++w) {
    // A vertex whose edges run in fewer than three UV directions leaves T
    // undetermined across them: a small ridge keeps it there near 0.
    const double ridge = 1e-3 * std::max(normal[w].trace(), 1e-12);
    welded_fit_inverse_[w] =
        (normal[w] + ridge * Eigen::Matrix3d::Identity()).inverse();
  }
  welded_fit_.assign(num_welded, Eigen::Vector3d::Zero());
  welded_fit_wide_.assign(num_welded, Eigen::Vector3d::Zero());
}

void AmplitudeModel::ComputeRestLengths(
    absl::Span<const float> rest_positions) {
  for (int e = 0; e < num_edges(); ++e) {
    rest_length_squared_[e] = (PackedVertex(rest_positions, edges_[e].v1) -
                               PackedVertex(rest_positions, edges_[e].v0))
                                  .squaredNorm();
    rest_length_[e] = std::sqrt(rest_length_squared_[e]);
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

void AmplitudeModel::ComputeReferenceLengths(
    absl::Span<const Eigen::Matrix2d> references) {
  // L^2 is the mean over the edge's triangles of its squared length in each
  // reference (the root mean square of the lengths): one square root per
  // edge, for L itself.
  const int32_t* offset = side_offset_.data();
  const int32_t* face = side_face_.data();
  const uint8_t* slot = side_slot_.data();
  const double* inv_sides = inv_sides_.data();
  double* __restrict rest_squared = rest_length_squared_.data();
  double* __restrict rest = rest_length_.data();
  const int num = num_edges();
  for (int e = 0; e < num; ++e) {
    double sum = 0.0;
    for (int side = offset[e]; side < offset[e + 1]; ++side) {
      sum += EdgeMatrixLengthSquared(references[face[side]], slot[side]);
    }
    rest_squared[e] = sum * inv_sides[e];
    rest[e] = std::sqrt(rest_squared[e]);
  }
}

template <int kChannels>
void AmplitudeModel::AccumulateEdges(const float* positions) {
  // Local pointers: the sums are stored through double pointers, which the
  // compiler would otherwise assume may alias every member vector and reload
  // them on each edge.
  const Edge* edges = edges_.data();
  const int32_t* welded = edge_welded_.data();
  const float* sensitivity = sensitivity_.data();
  const double* inv_uv_squared = inv_uv_length_squared_.data();
  const double* rest_length = rest_length_.data();
  const double* rest_squared = rest_length_squared_.data();
  double* __restrict shrink = shrink_.data();
  float* __restrict edge_amplitude = edge_amplitude_.data();
  double* __restrict sums = welded_sum_.data();
  double* __restrict uv_scale = welded_uv_scale_.data();
  // kDirectional: each welded vertex's fit right-hand side, Σ form t.
  const Eigen::Vector3d* form = edge_form_.data();
  Eigen::Vector3d* __restrict fit =
      channel_structure_.empty() ? nullptr : welded_fit_.data();
  const bool cap = params_.max_slope > 0.0;
  const double lambda_squared =
      params_.shrink_threshold * params_.shrink_threshold;
  const double offset = ShrinkOffset(params_);
  // The fit is of t against its value at rest (0 for the reconstructed
  // Eq. 1 at lambda = 1; 1 for the literal one), so that a resting edge adds
  // no compression whatever the formula and lambda.
  const double rest_shrink =
      ShrinkFromSquares(1.0, 1.0, lambda_squared, offset);
  const int num = num_edges();
  for (int e = 0; e < num; ++e) {
    const float* a = positions + 3 * static_cast<size_t>(edges[e].v0);
    const float* b = positions + 3 * static_cast<size_t>(edges[e].v1);
    const double dx = double{b[0]} - a[0], dy = double{b[1]} - a[1],
                 dz = double{b[2]} - a[2];
    const double length_squared = dx * dx + dy * dy + dz * dz;
    shrink[e] = ShrinkFromSquares(length_squared, rest_squared[e],
                                  lambda_squared, offset);
    const int32_t w0 = welded[2 * e], w1 = welded[2 * e + 1];
    if (fit != nullptr) {
      const Eigen::Vector3d rhs = form[e] * (shrink[e] - rest_shrink);
      fit[w0] += rhs;
      fit[w1] += rhs;
    }
    if (cap) {
      // Squared length ratio (0 for edges degenerate in UV); the vertex's
      // scale is their root mean square.
      const double ratio_squared = length_squared * inv_uv_squared[e];
      uv_scale[w0] += ratio_squared;
      uv_scale[w1] += ratio_squared;
    }
    const double length_times_shrink = rest_length[e] * shrink[e];
    double* sum0 = sums + static_cast<size_t>(w0) * kChannels;
    double* sum1 = sums + static_cast<size_t>(w1) * kChannels;
    for (int c = 0; c < kChannels; ++c) {
      const double w = length_times_shrink * sensitivity[e * kChannels + c];
      edge_amplitude[e * kChannels + c] = static_cast<float>(w);
      sum0[c] += w;
      sum1[c] += w;
    }
  }
}

absl::Status AmplitudeModel::Update(
    absl::Span<const float> positions,
    absl::Span<const Eigen::Matrix2d> references) {
  if (absl::Status s = ValidateFrame(positions, references); !s.ok()) return s;
  if (params_.rest_lengths == RestLengthSource::kAdaptiveReferences) {
    ComputeReferenceLengths(references);
  }
  std::fill(welded_sum_.begin(), welded_sum_.end(), 0.0);
  std::fill(welded_uv_scale_.begin(), welded_uv_scale_.end(), 0.0);
  std::fill(welded_fit_.begin(), welded_fit_.end(), Eigen::Vector3d::Zero());
  // The channel count as a constant: the per-channel loops unroll.
  switch (channels_) {
    case 1:
      AccumulateEdges<1>(positions.data());
      WidenFits();
      AverageToVertices<1>();
      break;
    case 2:
      AccumulateEdges<2>(positions.data());
      WidenFits();
      AverageToVertices<2>();
      break;
    default:
      AccumulateEdges<3>(positions.data());
      WidenFits();
      AverageToVertices<3>();
      break;
  }
  return absl::OkStatus();
}

void AmplitudeModel::WidenFits() {
  if (channel_structure_.empty()) return;
  const int32_t* welded = edge_welded_.data();
  const int num = num_edges();
  for (int ring = 0; ring < params_.direction_fit_rings; ++ring) {
    // Same size: copies without allocating.
    std::copy(welded_fit_.begin(), welded_fit_.end(), welded_fit_wide_.begin());
    const Eigen::Vector3d* own = welded_fit_.data();
    Eigen::Vector3d* __restrict wide = welded_fit_wide_.data();
    for (int e = 0; e < num; ++e) {
      wide[welded[2 * e]] += own[welded[2 * e + 1]];
      wide[welded[2 * e + 1]] += own[welded[2 * e]];
    }
    welded_fit_.swap(welded_fit_wide_);
  }
}

template <int kChannels>
void AmplitudeModel::CapSlopes() {
  const double* uv_weight = welded_uv_weight_.data();
  const double* uv_scale = welded_uv_scale_.data();
  double* __restrict sums = welded_sum_.data();
  // The limit per channel is max_slope * wavelength_c * world_per_uv / 2 pi.
  double limit_per_scale[kChannels];
  for (int c = 0; c < kChannels; ++c) {
    limit_per_scale[c] =
        params_.max_slope * channel_wavelength_[c] / (2.0 * std::numbers::pi);
  }
  const size_t num_welded = welded_uv_scale_.size();
  for (size_t w = 0; w < num_welded; ++w) {
    // No edge with a UV length: no scale to cap by.
    if (uv_weight[w] == 0.0) continue;
    const double world_per_uv = std::sqrt(uv_scale[w] * uv_weight[w]);
    for (int c = 0; c < kChannels; ++c) {
      const double limit = limit_per_scale[c] * world_per_uv;
      double& a = sums[w * kChannels + c];
      a = std::clamp(a, -limit, limit);
    }
  }
}

template <int kChannels>
void AmplitudeModel::AverageToVertices() {
  // Eq. 3 per welded vertex, then k and the clamp, in place.
  const double* weight = welded_edge_weight_.data();
  double* __restrict sums = welded_sum_.data();
  const double scale = params_.scale;
  const double floor =
      params_.clamp_negative ? 0.0 : -std::numeric_limits<double>::infinity();
  const size_t num_welded = welded_edge_weight_.size();
  const bool directional = !channel_structure_.empty();
  const double sharpness = params_.directional_sharpness;
  const double selectivity = params_.channel_selectivity;
  const Eigen::Vector3d* units = channel_structure_.data();
  for (size_t w = 0; w < num_welded; ++w) {
    double* s = sums + w * kChannels;
    bool positive = false;
    for (int c = 0; c < kChannels; ++c) {
      s[c] = scale * std::max(s[c] * weight[w], floor);
      positive |= s[c] > 0.0;
    }
    // A positive amplitude goes to the channels across the compression
    // (none where the fit finds no compressed direction); a negative one
    // (stretched, with keep_negative) stays on every channel as in Eq. 3.
    if (!directional || !positive) continue;
    // The fit's solve: T = N⁻¹ Σ form t, as (xx, xy, yy); the channels'
    // weights under its T⁺.
    const Eigen::Vector3d t = welded_fit_inverse_[w] * welded_fit_[w];
    double channel_weight[kChannels];
    DirectionalWeights<kChannels>(UnitCompressiveForm(t[0], t[1], t[2]), units,
                                  sharpness, selectivity, channel_weight);
    for (int c = 0; c < kChannels; ++c) {
      if (s[c] > 0.0) s[c] *= channel_weight[c];
    }
  }
  if (params_.max_slope > 0.0) CapSlopes<kChannels>();
  const int32_t* vertex_welded = vertex_welded_.data();
  float* __restrict out = vertex_amplitudes_.data();
  const size_t num_vertices = vertex_welded_.size();
  for (size_t v = 0; v < num_vertices; ++v) {
    const double* s = sums + static_cast<size_t>(vertex_welded[v]) * kChannels;
    for (int c = 0; c < kChannels; ++c) {
      out[v * kChannels + c] = static_cast<float>(s[c]);
    }
  }
}

}  // namespace crease
