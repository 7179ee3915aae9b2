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
};

// What one triangle's reference shape did this frame.
enum class ReferenceUpdate { kKept, kRelaxed, kReplaced };

// Adapts one triangle's reference edge matrix to its label (SCA 2015 §4.2),
// given the current edge matrix and the SVD of F = current * reference^-1
// before the update:
//   Compress: R <- V S'^-1 U^T M (keeps U and V, so only the magnitudes
//   change); Stretch:  R <- M when both singular values exceed 1; Rest:     R
//   unchanged.
// Writes the SVD of the updated F to *updated (no second decomposition needed).
ReferenceUpdate UpdateReference(Label label, const Eigen::Matrix2d& current,
                                const Svd2& svd, const ReferenceParams& params,
                                Eigen::Matrix2d* reference, Svd2* updated);

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_REFERENCE_H_
