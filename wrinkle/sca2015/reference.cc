#include "wrinkle/sca2015/reference.h"

#include <cmath>

namespace crease {

ReferenceUpdate UpdateReference(Label label, const Eigen::Matrix2d& current,
                                const Svd2& svd, const ReferenceParams& params,
                                Eigen::Matrix2d* reference, Svd2* updated) {
  *updated = svd;
  switch (label) {
    case Label::kCompress: {
      const double r = params.compress_relaxation;
      updated->s1 = (1.0 - r) * svd.s1 + r;
      updated->s2 = (1.0 - r) * svd.s2 + r;
      const Eigen::Vector2d inv_s(1.0 / updated->s1, 1.0 / updated->s2);
      *reference = svd.v * inv_s.asDiagonal() * svd.u.transpose() * current;
      return ReferenceUpdate::kRelaxed;
    }
    case Label::kStretch:
      // Both tested, as the papers do: s1 >= s2 holds only up to rounding.
      if (svd.s1 > 1.0 + params.stretch_margin &&
          svd.s2 > 1.0 + params.stretch_margin) {
        *reference = current;
        updated->s1 = updated->s2 = 1.0;
        updated->v = svd.u;  // F = I = U I U^T
        return ReferenceUpdate::kReplaced;
      }
      return ReferenceUpdate::kKept;
    case Label::kRest:
      if (params.rest_noise_band > 0 &&
          std::abs(svd.s1 - 1.0) < params.rest_noise_band &&
          std::abs(svd.s2 - 1.0) < params.rest_noise_band) {
        const double w = params.rest_averaging;
        *reference = (1.0 - w) * *reference + w * current;
        *updated = ClosedFormSvd(current * Inverse2(*reference));
        return ReferenceUpdate::kRelaxed;
      }
      return ReferenceUpdate::kKept;
  }
  return ReferenceUpdate::kKept;
}

}  // namespace crease
