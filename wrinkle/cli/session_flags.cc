#include "wrinkle/cli/session_flags.h"

#include <cstdint>

#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "wrinkle/sca2015/frame_rate.h"

ABSL_FLAG(
    double, weld_tolerance, 1e-6,
    "Weld vertices closer than this fraction of the bounding-box diagonal "
    "(negative: no welding).");
ABSL_FLAG(double, tau, 1.3,
          "Compression threshold: wrinkles are seeded where c > tau.");
ABSL_FLAG(double, keep_fraction, 0.3,
          "Hysteresis: wrinkles are traced and kept where c > 1 + "
          "keep_fraction (tau - 1); 1: one threshold.");
ABSL_FLAG(double, min_width, 0.0,
          "L_min, the minimal wrinkle width in model units (0: "
          "--min_width_fraction of the bounding-box diagonal at the first "
          "frame, at least a tenth of the median edge).");
ABSL_FLAG(double, min_width_fraction, 0.005,
          "L_min as a fraction of the bounding-box diagonal when --min_width "
          "is 0.");
ABSL_FLAG(int, min_seed_segments, 4,
          "A new wrinkle must cross at least this many triangles.");
ABSL_FLAG(int, dormant_frames, 12,
          "Frames at 30 fps a wrinkle with no compression left stays before "
          "it fades out (at another --fps, as long in time).");
ABSL_FLAG(bool, seed_at_peaks, true,
          "Seed only in triangles no neighbour of which is more compressed.");
ABSL_FLAG(double, seed_spacing_across, 1.5,
          "Seeds keep this fraction of their triangle's extent along the "
          "compression direction from other wrinkles.");
ABSL_FLAG(double, join_gap_widths, 2.0,
          "Join wrinkles whose ends meet head on within this many L_max (0: "
          "never).");
ABSL_FLAG(bool, smooth_each_frame, true,
          "Smooth every wrinkle path once a frame (false: only when traced, "
          "as the papers do).");
ABSL_FLAG(double, min_seed_aspect, 3.0,
          "A new wrinkle must be at least this many L_max long.");
ABSL_FLAG(double, inner_band_aspect, 6.0,
          "A compressed band inside the cloth (a belt, a drawstring) gets "
          "pleats across it when it is at least this many times as long as "
          "thick, in the cloth's own length (0: no pleats there).");
ABSL_FLAG(double, length_weight, 1.0,
          "Weight of the persistence solve's segment-length term (0: Eq. 5.2 "
          "as printed).");
ABSL_FLAG(int, field_smoothing_passes, 4,
          "Passes smoothing the compression field's directions over "
          "neighbouring compressed triangles before wrinkles follow them (0: "
          "one direction per triangle, as the papers).");
ABSL_FLAG(int, field_smoothing_rings, 1,
          "Rings of neighbours around the triangles wrinkles may follow whose "
          "directions are smoothed too (at most the passes - 1); further ones "
          "pull with their own.");
ABSL_FLAG(double, max_turn_degrees, 12.0,
          "A traced wrinkle turns at most this much from one triangle to the "
          "next (180: as the field says).");
ABSL_FLAG(double, family_spacing_widths, 2.0,
          "A fold seeded at a compression peak brings siblings this many of "
          "its widths apart across it, while the cloth is compressed (0: "
          "none).");
ABSL_FLAG(bool, align_where_compressed, true,
          "The persistence solve turns wrinkles towards the field only where "
          "the cloth is compressed, from the keep threshold (none) to tau "
          "(full) (false: everywhere alike, as the papers' Eq. 5.2).");
ABSL_FLAG(double, noise_floor, 0.01,
          "Input noise (deviation of edge lengths per frame) up to this "
          "leaves the papers' rules as they are; above it the labeling, "
          "references and field allow for the excess (inf: never).");
ABSL_FLAG(double, noise_sigma_factor, 8.0,
          "Labeling sigma widened by this times the noise above the floor.");
ABSL_FLAG(double, noise_stretch_factor, 6.0,
          "A Stretch replaces a reference only past 1 + this times the noise "
          "above the floor.");
ABSL_FLAG(double, noise_band_factor, 6.0,
          "A Rest reference averages in shapes within 1 +- this times the "
          "noise above the floor.");
ABSL_FLAG(double, noise_field_factor, 5.0,
          "The compression field loses this times the noise above the floor.");
ABSL_FLAG(uint64_t, seed, 1, "Seed of the wrinkle seeding PRNG.");

namespace crease::cli {

absl::StatusOr<SessionParams> SessionParamsFromFlags(double frame_rate) {
  SessionParams params;
  if (frame_rate != 0) {
    if (!ValidateFrameRate(frame_rate).ok()) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--fps: %g frames a second is outside [%g, %g] (0: %g)", frame_rate,
          kMinFrameRate, kMaxFrameRate, kCalibrationFrameRate));
    }
    params.frame_rate = frame_rate;
  }
  params.topology.weld_relative_tolerance = absl::GetFlag(FLAGS_weld_tolerance);
  params.wrinkles.tracing.tau = absl::GetFlag(FLAGS_tau);
  params.wrinkles.tracing.keep_fraction = absl::GetFlag(FLAGS_keep_fraction);
  params.wrinkles.min_width = absl::GetFlag(FLAGS_min_width);
  params.wrinkles.min_width_fraction = absl::GetFlag(FLAGS_min_width_fraction);
  params.wrinkles.seed = absl::GetFlag(FLAGS_seed);
  params.noise_floor = absl::GetFlag(FLAGS_noise_floor);
  params.noise_sigma_factor = absl::GetFlag(FLAGS_noise_sigma_factor);
  params.noise_stretch_factor = absl::GetFlag(FLAGS_noise_stretch_factor);
  params.noise_band_factor = absl::GetFlag(FLAGS_noise_band_factor);
  params.noise_field_factor = absl::GetFlag(FLAGS_noise_field_factor);
  params.wrinkles.min_seed_segments = absl::GetFlag(FLAGS_min_seed_segments);
  params.wrinkles.dormant_frames = absl::GetFlag(FLAGS_dormant_frames);
  params.wrinkles.seed_at_peaks = absl::GetFlag(FLAGS_seed_at_peaks);
  params.wrinkles.min_seed_aspect = absl::GetFlag(FLAGS_min_seed_aspect);
  params.wrinkles.inner_band_aspect = absl::GetFlag(FLAGS_inner_band_aspect);
  params.wrinkles.pleats_in_inner_bands = params.wrinkles.inner_band_aspect > 0;
  params.wrinkles.persistence.length_weight =
      absl::GetFlag(FLAGS_length_weight);
  params.wrinkles.join_gap_widths = absl::GetFlag(FLAGS_join_gap_widths);
  params.wrinkles.smooth_each_frame = absl::GetFlag(FLAGS_smooth_each_frame);
  params.wrinkles.align_where_compressed =
      absl::GetFlag(FLAGS_align_where_compressed);
  params.wrinkles.seed_spacing_across =
      absl::GetFlag(FLAGS_seed_spacing_across);
  params.field_smoothing.passes = absl::GetFlag(FLAGS_field_smoothing_passes);
  params.field_smoothing.rings = absl::GetFlag(FLAGS_field_smoothing_rings);
  params.wrinkles.tracing.max_turn_degrees =
      absl::GetFlag(FLAGS_max_turn_degrees);
  params.wrinkles.family_spacing_widths =
      absl::GetFlag(FLAGS_family_spacing_widths);
  if (!(params.noise_floor >= 0) ||
      !(params.noise_sigma_factor >= 0 && params.noise_sigma_factor < 1e6 &&
        params.noise_stretch_factor >= 0 && params.noise_stretch_factor < 1e6 &&
        params.noise_band_factor >= 0 && params.noise_band_factor < 1e6 &&
        params.noise_field_factor >= 0 && params.noise_field_factor < 1e6)) {
    return absl::InvalidArgumentError(
        "--noise_floor must be >= 0 (inf: never allow for noise) and the "
        "--noise_*_factor flags finite and >= 0");
  }
  if (params.field_smoothing.passes < 0 ||
      !(params.wrinkles.tracing.max_turn_degrees > 0) ||
      !(params.wrinkles.family_spacing_widths >= 0) ||
      !(params.wrinkles.inner_band_aspect >= 0 &&
        params.wrinkles.inner_band_aspect < 1e6)) {
    return absl::InvalidArgumentError(
        "--field_smoothing_passes must be >= 0, --max_turn_degrees > 0, "
        "--family_spacing_widths >= 0 and --inner_band_aspect finite and "
        ">= 0");
  }
  if (!(params.wrinkles.tracing.tau > 1.0) || params.wrinkles.min_width < 0 ||
      !(params.wrinkles.tracing.keep_fraction >= 0 &&
        params.wrinkles.tracing.keep_fraction <= 1) ||
      !(params.wrinkles.min_width_fraction > 0 &&
        params.wrinkles.min_width_fraction < 1)) {
    return absl::InvalidArgumentError(
        "--tau must exceed 1, --min_width be >= 0, --keep_fraction be in "
        "[0, 1] and --min_width_fraction in (0, 1)");
  }
  return params;
}

}  // namespace crease::cli
