#include "wrinkle/sca2015/frame_rate.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"

namespace crease {
namespace {

// A share x taken each calibration frame, as a share each of r frames.
double RelaxationPerFrame(double x, double r) {
  return 1.0 - std::pow(1.0 - x, 1.0 / r);
}

// A bound of 1 + x on a change over `frames` calibration frames.
double ChangeBound(double x, double frames) {
  return std::pow(1.0 + x, frames) - 1.0;
}

int FramesAtRate(int frames, double r) {
  if (frames <= 0) return frames;
  return std::max(1, static_cast<int>(std::lround(frames * r)));
}

// The persistence solve pulls a segment to the field by alpha against unit
// weights on its other terms: a share alpha / (1 + alpha) of the way a
// frame, converted as a relaxation.
double AlignmentWeightPerFrame(double alpha, double r) {
  if (!(alpha > 0)) return alpha;
  const double share = RelaxationPerFrame(alpha / (1.0 + alpha), r);
  return share / (1.0 - share);
}

}  // namespace

absl::Status ValidateFrameRate(double frame_rate) {
  if (!(frame_rate >= kMinFrameRate && frame_rate <= kMaxFrameRate)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("frame_rate: %g frames a second is outside [%g, %g]",
                        frame_rate, kMinFrameRate, kMaxFrameRate));
  }
  return absl::OkStatus();
}

SessionParams AtFrameRate(const SessionParams& params) {
  SessionParams out = params;
  if (params.frame_rate == kCalibrationFrameRate) return out;
  const double r = params.frame_rate / kCalibrationFrameRate;
  out.labeling.rate_exponent = params.labeling.rate_exponent * r;
  ReferenceParams& reference = out.reference;
  reference.compress_relaxation =
      RelaxationPerFrame(params.reference.compress_relaxation, r);
  reference.rest_averaging =
      RelaxationPerFrame(params.reference.rest_averaging, r);
  WrinkleParams& wrinkles = out.wrinkles;
  const WrinkleParams& given = params.wrinkles;
  wrinkles.dormant_frames = FramesAtRate(given.dormant_frames, r);
  wrinkles.fade_frames = given.fade_frames * r;
  wrinkles.each_frame_smoothing_step =
      RelaxationPerFrame(given.each_frame_smoothing_step, r);
  wrinkles.persistence.alpha =
      AlignmentWeightPerFrame(given.persistence.alpha, r);
  wrinkles.max_shape_change = ChangeBound(given.max_shape_change, 1.0 / r);
  wrinkles.band_growth = given.band_growth / r;
  const int period = std::max(
      1, static_cast<int>(std::lround(given.length_update_period * r)));
  wrinkles.length_update_period = period;
  wrinkles.seed_period =
      std::max(1, static_cast<int>(std::lround(given.seed_period * r)));
  wrinkles.max_length_change = ChangeBound(
      given.max_length_change,
      static_cast<double>(period) / (given.length_update_period * r));
  return out;
}

}  // namespace crease
