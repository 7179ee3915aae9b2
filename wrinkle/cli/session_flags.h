#ifndef CREASE_WRINKLE_CLI_SESSION_FLAGS_H_
#define CREASE_WRINKLE_CLI_SESSION_FLAGS_H_

// The flags that tune an SCA 2015 Session (--tau, --keep_fraction,
// --min_width, --min_width_fraction, --min_seed_segments, --dormant_frames,
// --seed_at_peaks, --seed_spacing_across, --join_gap_widths,
// --smooth_each_frame, --min_seed_aspect, --inner_band_aspect,
// --length_weight, --seed,
// --weld_tolerance), defined once for the programs that run one in process
// (crease-analyze, crease-render). Programs only: it defines flags.

#include "absl/status/statusor.h"
#include "wrinkle/sca2015/session.h"

namespace crease::cli {

// The flags' SessionParams, for an animation of `frame_rate` frames a second
// (the program's --fps; 0: 30). InvalidArgument unless --tau exceeds 1,
// --min_width is >= 0, --keep_fraction is in [0, 1], --min_width_fraction
// in (0, 1) and the frame rate in [1, 1000].
absl::StatusOr<SessionParams> SessionParamsFromFlags(double frame_rate = 0);

}  // namespace crease::cli

#endif  // CREASE_WRINKLE_CLI_SESSION_FLAGS_H_
