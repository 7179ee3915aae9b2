#ifndef CREASE_WRINKLE_SCA2015_REFERENCE_H_
#define CREASE_WRINKLE_SCA2015_REFERENCE_H_

#include <Eigen/Core>

#include "wrinkle/core/stretch.h"
#include "wrinkle/sca2015/labeling.h"

namespace crease {

struct ReferenceParams {
  // Compress: singular values of F = M R^-1 move toward 1 as
  // S' = (1 - relaxation) S + relaxation I each frame (the papers' 0.95 /
  // 0.05). The update runs once per frame, so the rate depends on the
  // animation's frame rate.
  double compress_relaxation = 0.05;
  // Stretch replaces the reference only when both singular values exceed
  // 1 + stretch_margin: a margin above the input's noise keeps a noisy
  // triangle from ratcheting its reference up to its longest jitter.
  double stretch_margin = 0.0;
  // Rest: where both singular values lie within 1 +- rest_noise_band, the
  // difference is the input's noise, not a deformation, and the reference
  // moves rest_averaging of the way to the current shape (a running mean:
  // a noisy first frame is not frozen into the reference). 0: Rest keeps
  // the reference, as in the papers.
  double rest_noise_band = 0.0;
  double rest_averaging = 0.05;
};

// What one triangle's reference shape did this frame.
enum class ReferenceUpdate { kKept, kRelaxed, kReplaced };

// Adapts one triangle's reference edge matrix to its label (SCA 2015 §4.2),
// given the current edge matrix and the SVD of F = current * reference^-1
// before the update:
//   Compress: R <- V S'^-1 U^T M (keeps U and V, so only the magnitudes
//   change);
//   Stretch: R <- M when both singular values exceed 1 + stretch_margin;
//   Rest: R unchanged, or, within 1 +- rest_noise_band, R <- R + w (M - R).
// Writes the SVD of the updated F to *updated (no second decomposition
// needed, except for the Rest average).
ReferenceUpdate UpdateReference(Label label, const Eigen::Matrix2d& current,
                                const Svd2& svd, const ReferenceParams& params,
                                Eigen::Matrix2d* reference, Svd2* updated);

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_REFERENCE_H_
