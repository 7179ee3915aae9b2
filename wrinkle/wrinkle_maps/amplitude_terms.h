#ifndef CREASE_WRINKLE_WRINKLE_MAPS_AMPLITUDE_TERMS_H_
#define CREASE_WRINKLE_WRINKLE_MAPS_AMPLITUDE_TERMS_H_

// The per-edge and per-vertex terms of the amplitude model that its frame
// loop (amplitude_model.cc) and the public helpers (amplitude_terms.cc) both
// evaluate, inline: Eq. 1's shrink from squared lengths, and the channels'
// directional weights. Internal to wrinkle/wrinkle_maps.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "absl/base/attributes.h"
#include "wrinkle/wrinkle_maps/amplitude_model.h"

namespace crease::amplitude_internal {

// Eq. 1 from squared lengths, no square root per frame: t = 2 / (1 +
// lambda^2 l^2 / L^2) - 1 written as 2 L^2 / (L^2 + lambda^2 l^2) - 1, one
// division; `offset` is 1 for the reconstruction, 0 for the literal reading.
// No native length: t = 0.
inline double ShrinkFromSquares(double current_squared, double rest_squared,
                                double lambda_squared, double offset) {
  if (!(rest_squared > 0.0)) return 0.0;
  return 2.0 * rest_squared /
             (rest_squared + lambda_squared * current_squared) -
         offset;
}

inline double ShrinkOffset(const AmplitudeModelParams& params) {
  return params.shrink == ShrinkFormula::kReconstructed ? 1.0 : 0.0;
}

// T⁺ / λ_max(T⁺) as (xx, 2 xy, yy), so that a channel's ratio is one dot
// product with its S / λ_max(S) as (xx, xy, yy); zero when nothing is
// compressed.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline Eigen::Vector3d UnitCompressiveForm(
    double xx, double xy, double yy) {
  const double half_trace = 0.5 * (xx + yy), half_gap = 0.5 * (xx - yy);
  const double radius = std::sqrt(half_gap * half_gap + xy * xy);
  const double largest = half_trace + radius, smallest = half_trace - radius;
  if (!(largest > 0.0)) return Eigen::Vector3d::Zero();
  if (smallest >= 0.0) {
    return Eigen::Vector3d(xx, 2.0 * xy, yy) / largest;
  }
  // Only the compressed direction: v vᵀ, v the eigenvector of λ₁.
  Eigen::Vector2d v = Eigen::Vector2d(half_gap + radius, xy);
  if (!(v.squaredNorm() > 0.0)) v = Eigen::Vector2d(0.0, 1.0);
  v.normalize();
  return Eigen::Vector3d(v.x() * v.x(), 2.0 * v.x() * v.y(), v.y() * v.y());
}

// S / λ_max(S) as (xx, xy, yy); zero for a flat channel.
inline Eigen::Vector3d UnitStructure(const Eigen::Matrix2d& s) {
  const double radius = std::hypot(0.5 * (s(0, 0) - s(1, 1)), s(0, 1));
  const double largest = 0.5 * s.trace() + radius;
  if (!(largest > 0.0)) return Eigen::Vector3d::Zero();
  return Eigen::Vector3d(s(0, 0), s(0, 1), s(1, 1)) / largest;
}

// ratio^(sharpness / 2), the common sharpnesses without std::pow.
inline double Sharpen(double ratio, double sharpness) {
  ratio = std::clamp(ratio, 0.0, 1.0);
  if (sharpness == 4.0) return ratio * ratio;
  if (sharpness == 2.0) return ratio;
  return std::pow(ratio, 0.5 * sharpness);
}

// (r_c / r_max)^selectivity with `relative` = r_c / r_max in [0, 1].
ABSL_ATTRIBUTE_ALWAYS_INLINE inline double Selective(double relative,
                                                     double selectivity) {
  if (selectivity == 4.0) return (relative * relative) * (relative * relative);
  if (selectivity == 0.0) return 1.0;
  return std::pow(relative, selectivity);
}

// The channels' weights under a vertex's compression: `form` its unit
// compressive form (zero: nothing compressed, so every weight is 0), `units`
// the channels' unit structures (zero: flat, weight 0). Each gets its ratio
// sharpened, times its ratio over the leading one's to the power
// `selectivity`.
template <int kChannels>
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void DirectionalWeights(
    const Eigen::Vector3d& form, const Eigen::Vector3d* units, double sharpness,
    double selectivity, double* weights) {
  double ratio[kChannels];
  double leading = 0.0;
  for (int c = 0; c < kChannels; ++c) {
    ratio[c] = std::clamp(form.dot(units[c]), 0.0, 1.0);
    leading = std::max(leading, ratio[c]);
  }
  const double inverse_leading = leading > 0.0 ? 1.0 / leading : 0.0;
  for (int c = 0; c < kChannels; ++c) {
    weights[c] = Sharpen(ratio[c], sharpness) *
                 Selective(ratio[c] * inverse_leading, selectivity);
  }
}

}  // namespace crease::amplitude_internal

#endif  // CREASE_WRINKLE_WRINKLE_MAPS_AMPLITUDE_TERMS_H_
