#include "wrinkle/sca2015/input_noise.h"

#include <algorithm>
#include <cmath>

namespace crease {
namespace {

// Weight of the newest frame in the mean over frames.
constexpr double kNewFrameWeight = 0.1;
// A third difference's deviation under white noise of deviation 1, times the
// median of |x| for a unit normal x.
const double kMedianPerSigma = 0.6745 * std::sqrt(20.0);

}  // namespace

InputNoiseEstimate::InputNoiseEstimate(size_t num_triangles)
    : stride_(
          std::max<size_t>(1, (num_triangles + kMaxSampled - 1) / kMaxSampled)),
      history_((num_triangles + stride_ - 1) / stride_) {
  magnitudes_.reserve(2 * history_.size());
}

void InputNoiseEstimate::AddFrame(
    absl::Span<const Eigen::Matrix2d> edge_matrices,
    absl::Span<const uint8_t> degenerate) {
  magnitudes_.clear();
  for (size_t i = 0; i < history_.size(); ++i) {
    const size_t f = i * stride_;
    History& h = history_[i];
    if (degenerate[f]) {
      h.valid_frames = 0;
      continue;
    }
    const Eigen::Matrix2d& m = edge_matrices[f];
    const std::array<double, 2> log_length = {
        std::log(m(0, 0)),
        0.5 * std::log(m(0, 1) * m(0, 1) + m(1, 1) * m(1, 1))};
    auto& past = h.log_lengths;
    if (h.valid_frames >= 3) {
      for (int e = 0; e < 2; ++e) {
        magnitudes_.push_back(std::abs(log_length[e] - 3 * past[0][e] +
                                       3 * past[1][e] - past[2][e]));
      }
    }
    past[2] = past[1];
    past[1] = past[0];
    past[0] = log_length;
    ++h.valid_frames;
  }
  if (magnitudes_.empty()) return;
  const auto middle = magnitudes_.begin() + magnitudes_.size() / 2;
  std::nth_element(magnitudes_.begin(), middle, magnitudes_.end());
  const double frame_sigma = *middle / kMedianPerSigma;
  sigma_ = have_sigma_ ? sigma_ + kNewFrameWeight * (frame_sigma - sigma_)
                       : frame_sigma;
  have_sigma_ = true;
}

}  // namespace crease
