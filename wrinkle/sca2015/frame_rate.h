#ifndef CREASE_WRINKLE_SCA2015_FRAME_RATE_H_
#define CREASE_WRINKLE_SCA2015_FRAME_RATE_H_

#include "absl/status/status.h"
#include "wrinkle/sca2015/session.h"

namespace crease {

// The frame rate the per-frame rules of SessionParams are written for: the
// papers' and every bundled animation's.
inline constexpr double kCalibrationFrameRate = 30.0;

// Frame rates a session accepts, in frames a second.
inline constexpr double kMinFrameRate = 1.0;
inline constexpr double kMaxFrameRate = 1000.0;

// OK for a finite rate within [kMinFrameRate, kMaxFrameRate], else
// InvalidArgument naming it.
absl::Status ValidateFrameRate(double frame_rate);

// `params`, written for kCalibrationFrameRate, converted to act as fast in
// time at params.frame_rate (docs/algorithm.md, "Frame rate"). With r the
// rate over 30:
//   - the labeling reads a frame's change as over r frames
//     (LabelingParams::rate_exponent = r), its noise allowance likewise;
//   - a relaxation of x a frame (the Compress references, the Rest average,
//     the each-frame smoothing, the persistence solve's pull to the field)
//     becomes 1 - (1 - x)^(1 / r), the same share per second;
//   - the frames a wrinkle fades over become fade_frames r, and the frames
//     it may lie dormant round(dormant_frames r), at least 1 where they were;
//   - a bound on the change a frame (shape compression and band) becomes
//     (1 + x)^(1 / r) - 1, and the band's growth x / r;
//   - the length update, which moves by whole segments, runs every round(r)
//     frames with its bound raised to (1 + x)^(period / r) - 1, and seeds
//     are drawn every round(r) frames.
// At 30 fps `params` is returned unchanged, bit for bit.
SessionParams AtFrameRate(const SessionParams& params);

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_FRAME_RATE_H_
