// The amplitude model's parameters check and its public terms
// (amplitude_model.h): Eq. 1's shrink, the sensitivity, the channels'
// directional weights and a pattern's variation along an edge.

#include "wrinkle/wrinkle_maps/amplitude_terms.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "absl/strings/str_format.h"
#include "wrinkle/wrinkle_maps/amplitude_model.h"

namespace crease {
namespace {

// Segments per texel the edge spans: resolves a bilinear pattern.
constexpr double kSegmentsPerTexel = 2.0;

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
  if (!(params.directional_sharpness >= 1.0 &&
        params.directional_sharpness <= 64.0)) {
    return out_of_range("directional_sharpness", params.directional_sharpness,
                        "[1, 64]");
  }
  if (!(params.channel_selectivity >= 0.0 &&
        params.channel_selectivity <= 64.0)) {
    return out_of_range("channel_selectivity", params.channel_selectivity,
                        "[0, 64]");
  }
  if (params.direction_fit_rings < 0 || params.direction_fit_rings > 3) {
    return out_of_range("direction_fit_rings", params.direction_fit_rings,
                        "0..3");
  }
  if (params.min_edge_segments < 1 ||
      params.min_edge_segments > kMaxEdgeSegments) {
    return out_of_range("min_edge_segments", params.min_edge_segments,
                        "1..1024");
  }
  return absl::OkStatus();
}

double ShrinkTerm(double current_length, double rest_length,
                  const AmplitudeModelParams& params) {
  if (!(rest_length > 0.0)) return 0.0;
  return amplitude_internal::ShrinkFromSquares(
      current_length * current_length, rest_length * rest_length,
      params.shrink_threshold * params.shrink_threshold,
      amplitude_internal::ShrinkOffset(params));
}

double SensitivityFromVariation(double variation,
                                const AmplitudeModelParams& params) {
  const double a = params.sensitivity_alpha * variation;
  return params.sensitivity == SensitivityFormula::kLiteral ? 1.0 / (1.0 + a)
                                                            : a / (1.0 + a);
}

std::array<double, kMaxPatternChannels> ChannelWeights(
    const Eigen::Matrix2d& compression,
    absl::Span<const Eigen::Matrix2d> structures, double sharpness,
    double selectivity) {
  std::array<double, kMaxPatternChannels> weights = {};
  const size_t channels =
      std::min<size_t>(structures.size(), kMaxPatternChannels);
  const Eigen::Vector3d form = amplitude_internal::UnitCompressiveForm(
      compression(0, 0), 0.5 * (compression(0, 1) + compression(1, 0)),
      compression(1, 1));
  Eigen::Vector3d units[kMaxPatternChannels] = {Eigen::Vector3d::Zero(),
                                                Eigen::Vector3d::Zero(),
                                                Eigen::Vector3d::Zero()};
  for (size_t c = 0; c < channels; ++c)
    units[c] = amplitude_internal::UnitStructure(structures[c]);
  amplitude_internal::DirectionalWeights<kMaxPatternChannels>(
      form, units, sharpness, selectivity, weights.data());
  return weights;
}

double ChannelWeight(const Eigen::Matrix2d& compression,
                     const Eigen::Matrix2d& structure, double sharpness) {
  return ChannelWeights(compression, absl::MakeConstSpan(&structure, 1),
                        sharpness, 0.0)[0];
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

}  // namespace crease
