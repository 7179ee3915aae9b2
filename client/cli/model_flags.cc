#include "client/cli/model_flags.h"

#include <algorithm>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "common/status_macros.h"

ABSL_FLAG(std::string, model, "sca2015",
          "Wrinkle model: sca2015 (traced wrinkles, the default), "
          "amplitude_maps (Volino 1999: a pattern in UV space whose amplitude "
          "follows the edges' shrinking; needs UVs) or buckling (Decaudin "
          "2005: diamond and twist folds of open tubes, sleeves and trouser "
          "legs, on a fine mesh; --wrinkled_mesh_level and --export give "
          "that mesh).");
ABSL_FLAG(int, calibration_diamonds, 0,
          "buckling: diamonds around a tube of --calibration_radius (Eq. 4's "
          "n0), 2..32 (0: the server's default, 4).");
ABSL_FLAG(double, calibration_radius, 0,
          "buckling: Eq. 4's R0 in model units (0: each tube's own radius).");
ABSL_FLAG(double, fabric_a, 0,
          "buckling: Eq. 3's fabric A (0: from the calibration).");
ABSL_FLAG(double, elastic_compression, -1,
          "buckling: compression the fabric takes before it buckles, 0..0.5 "
          "(-1: the server's default, 0.05).");
ABSL_FLAG(double, twist_gain, -1,
          "buckling: scales the twist folds, 0..4 (-1: the server's default, "
          "1).");
ABSL_FLAG(double, amplitude_scale, 0,
          "amplitude_maps: k, amplitudes times the paper's (0: the server's "
          "default, 1).");
ABSL_FLAG(double, sensitivity_alpha, 0,
          "amplitude_maps: the paper's alpha in an edge's sensitivity "
          "m = alpha A / (1 + alpha A), with --crest_count_sensitivity; "
          "smaller keeps the channels apart (0: the server's default).");
ABSL_FLAG(bool, crest_count_sensitivity, false,
          "amplitude_maps: the paper's Eq. 2 sensitivity (crests crossed, "
          "saturating) instead of the default directional channels (per "
          "vertex, the compression's direction picks the channels whose "
          "crests lie across it).");
ABSL_FLAG(double, directional_sharpness, 0,
          "amplitude_maps: p of the directional channels (a channel at "
          "angle theta to the compression gets cos^p theta of it), 1..64 "
          "(0: the server's default, 4).");
ABSL_FLAG(int32_t, direction_fit_rings, -1,
          "amplitude_maps: rings of neighbours whose edges join a vertex's "
          "fit of the compression's direction, 0..3 (-1: the server's "
          "default, 1).");
ABSL_FLAG(double, channel_selectivity, -1,
          "amplitude_maps: k of the directional channels (each channel's "
          "weight times (r / r_max)^k, r its cos^2 to the compression, so the "
          "nearest channel leads), 0..64 (-1: the server's default, 4).");
ABSL_FLAG(double, max_slope, -1,
          "amplitude_maps: cap each channel's amplitude so the relief's slope "
          "stays under this (0: no cap; -1: the server's default, 1).");
ABSL_FLAG(std::string, pattern, "",
          "amplitude_maps: a PNG pattern (up to 1024 a side; R, G, B are "
          "channels, 0..255 for heights -1..1). Empty: sinusoids at 0, 60 "
          "and 120 degrees.");
ABSL_FLAG(int, pattern_channels, 0,
          "amplitude_maps: channels taken from --pattern, 1..3 (0: 3).");
ABSL_FLAG(double, wavelength, 0,
          "amplitude_maps: the default pattern's wavelength in UV units (0: "
          "the server's default, 3 % of the mesh's diagonal on the "
          "surface).");
ABSL_FLAG(std::string, rest_lengths, "",
          "amplitude_maps: where native edge lengths come from: "
          "rest_positions or adaptive_references (empty: rest positions when "
          "the input has them, else the SCA 2015 adaptive references).");
ABSL_FLAG(bool, displace, false,
          "amplitude_maps: images displace a tessellated mesh by the pattern "
          "instead of bump-mapping the coarse mesh.");
ABSL_FLAG(bool, vertex_amplitudes, false,
          "amplitude_maps: ask for the per-vertex amplitudes and write "
          "out/frame_NNNN_amplitudes.csv per frame.");
ABSL_FLAG(bool, compare_models, false,
          "With --contact_sheet: one more session per other wrinkle model "
          "draws the same frames, and the sheet's rows become plain | SCA 2015 "
          "| wrinkle maps | buckling (the wrinkle maps left out without UVs, "
          "the buckling model where the mesh has no open tube).");

namespace crease::client {
namespace {

absl::Status NeedsUvs(const v1::Start& start, const char* what) {
  if (start.topology().corner_uvs_size() > 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrFormat(
      "%s needs UVs in the input (OBJ vt, glTF TEXCOORD_0)", what));
}

// For the flags whose -1 means "the server's default": another negative
// value is a mistake, not the default.
absl::Status CheckDefaultOrValue(const char* flag, double value) {
  if (value >= 0 || value == -1) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrFormat(
      "--%s: %g is negative (-1 means the server's default)", flag, value));
}

absl::Status FillAmplitudeMaps(v1::AmplitudeMapParameters* params) {
  if (const double k = absl::GetFlag(FLAGS_amplitude_scale); k != 0) {
    params->set_scale(k);
  }
  if (const double a = absl::GetFlag(FLAGS_sensitivity_alpha); a != 0) {
    params->set_sensitivity_alpha(a);
  }
  params->set_crest_count_sensitivity(
      absl::GetFlag(FLAGS_crest_count_sensitivity));
  if (const double p = absl::GetFlag(FLAGS_directional_sharpness); p != 0) {
    params->set_directional_sharpness(p);
  }
  if (const double k = absl::GetFlag(FLAGS_channel_selectivity); k >= 0) {
    params->set_channel_selectivity(k);
  }
  if (const int32_t rings = absl::GetFlag(FLAGS_direction_fit_rings);
      rings >= 0) {
    params->set_direction_fit_rings(static_cast<uint32_t>(rings));
  }
  if (const double s = absl::GetFlag(FLAGS_max_slope); s >= 0) {
    params->set_max_slope(s);
  }
  if (const double w = absl::GetFlag(FLAGS_wavelength); w != 0) {
    params->set_wavelength(w);
  }
  const std::string rest = absl::GetFlag(FLAGS_rest_lengths);
  if (rest == "rest_positions") {
    params->set_rest_lengths(v1::AMPLITUDE_REST_LENGTHS_REST_POSITIONS);
  } else if (rest == "adaptive_references") {
    params->set_rest_lengths(v1::AMPLITUDE_REST_LENGTHS_ADAPTIVE_REFERENCES);
  } else if (!rest.empty()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--rest_lengths: %s, need rest_positions or adaptive_references",
        rest));
  }
  params->set_displace(absl::GetFlag(FLAGS_displace));
  if (const std::string path = absl::GetFlag(FLAGS_pattern); !path.empty()) {
    CREASE_ASSIGN_OR_RETURN(std::string png, files::ReadFileToString(path));
    params->set_pattern_png(std::move(png));
    params->set_pattern_channels(
        static_cast<uint32_t>(absl::GetFlag(FLAGS_pattern_channels)));
  }
  return absl::OkStatus();
}

void FillBuckling(v1::BucklingParameters* params) {
  if (const int n = absl::GetFlag(FLAGS_calibration_diamonds); n != 0) {
    params->set_calibration_diamonds(static_cast<uint32_t>(std::max(n, 0)));
  }
  if (const double r = absl::GetFlag(FLAGS_calibration_radius); r != 0) {
    params->set_calibration_radius(r);
  }
  if (const double a = absl::GetFlag(FLAGS_fabric_a); a != 0) {
    params->set_fabric_a(a);
  }
  if (const double e = absl::GetFlag(FLAGS_elastic_compression); e != -1) {
    params->set_elastic_compression(e);
  }
  if (const double g = absl::GetFlag(FLAGS_twist_gain); g != -1) {
    params->set_twist_gain(g);
  }
}

}  // namespace

absl::Status CheckModelFlags() {
  CREASE_RETURN_IF_ERROR(CheckDefaultOrValue(
      "channel_selectivity", absl::GetFlag(FLAGS_channel_selectivity)));
  CREASE_RETURN_IF_ERROR(CheckDefaultOrValue(
      "direction_fit_rings", absl::GetFlag(FLAGS_direction_fit_rings)));
  return CheckDefaultOrValue("max_slope", absl::GetFlag(FLAGS_max_slope));
}

absl::Status ApplyModelFlags(v1::Start* start) {
  const std::string model = absl::GetFlag(FLAGS_model);
  v1::Parameters* parameters = start->mutable_parameters();
  if (model == "amplitude_maps") {
    CREASE_RETURN_IF_ERROR(NeedsUvs(*start, "--model amplitude_maps"));
    parameters->set_model(v1::WRINKLE_MODEL_AMPLITUDE_MAPS);
    CREASE_RETURN_IF_ERROR(
        FillAmplitudeMaps(parameters->mutable_amplitude_maps()));
    start->mutable_outputs()->set_vertex_amplitudes(
        absl::GetFlag(FLAGS_vertex_amplitudes));
  } else if (model == "buckling") {
    parameters->set_model(v1::WRINKLE_MODEL_BUCKLING);
    FillBuckling(parameters->mutable_buckling());
    if (absl::GetFlag(FLAGS_vertex_amplitudes)) {
      return absl::InvalidArgumentError(
          "--vertex_amplitudes needs --model amplitude_maps");
    }
  } else if (model != "sca2015") {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--model: %s, need sca2015, amplitude_maps or buckling", model));
  } else if (absl::GetFlag(FLAGS_vertex_amplitudes)) {
    return absl::InvalidArgumentError(
        "--vertex_amplitudes needs --model amplitude_maps");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<v1::Start>> ComparisonStarts(
    const v1::Start& start) {
  std::vector<v1::Start> starts;
  if (!absl::GetFlag(FLAGS_compare_models)) return starts;
  const v1::WrinkleModel own =
      start.parameters().model() == v1::WRINKLE_MODEL_UNSPECIFIED
          ? v1::WRINKLE_MODEL_SCA2015
          : start.parameters().model();
  for (const v1::WrinkleModel model :
       {v1::WRINKLE_MODEL_SCA2015, v1::WRINKLE_MODEL_AMPLITUDE_MAPS,
        v1::WRINKLE_MODEL_BUCKLING}) {
    if (model == own) continue;
    if (model == v1::WRINKLE_MODEL_AMPLITUDE_MAPS &&
        start.topology().corner_uvs_size() == 0) {
      continue;  // the caller says so
    }
    v1::Start other = start;
    v1::Outputs* outputs = other.mutable_outputs();
    const v1::ImageRequest image = outputs->image();
    outputs->Clear();
    *outputs->mutable_image() = image;
    v1::Parameters* parameters = other.mutable_parameters();
    parameters->clear_amplitude_maps();
    parameters->clear_buckling();
    parameters->set_model(model);
    if (model == v1::WRINKLE_MODEL_AMPLITUDE_MAPS) {
      CREASE_RETURN_IF_ERROR(
          FillAmplitudeMaps(parameters->mutable_amplitude_maps()));
    } else if (model == v1::WRINKLE_MODEL_BUCKLING) {
      FillBuckling(parameters->mutable_buckling());
    }
    starts.push_back(std::move(other));
  }
  return starts;
}

}  // namespace crease::client
