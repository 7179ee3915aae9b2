#include "server/models/wrinkle_map_model.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "common/status_macros.h"
#include "common/stopwatch.h"
#include "image/image_encoding.h"
#include "wrinkle/wrinkle_maps/default_pattern.h"

namespace crease::server {
namespace {

constexpr char kAmplitudeMapsField[] = "start.parameters.amplitude_maps";

absl::Status InvalidAmplitudeMaps(std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrFormat("%s%s", kAmplitudeMapsField, what));
}

absl::StatusOr<AmplitudeModelParams> ModelParams(
    const v1::AmplitudeMapParameters& p, bool has_rest_positions) {
  AmplitudeModelParams params;
  if (p.has_shrink_threshold()) params.shrink_threshold = p.shrink_threshold();
  if (p.has_sensitivity_alpha()) {
    params.sensitivity_alpha = p.sensitivity_alpha();
  }
  if (p.has_scale()) params.scale = p.scale();
  if (p.has_max_slope()) params.max_slope = p.max_slope();
  if (p.literal_shrink()) params.shrink = ShrinkFormula::kLiteral;
  if (p.literal_sensitivity()) {
    params.sensitivity = SensitivityFormula::kLiteral;
  } else if (p.crest_count_sensitivity()) {
    params.sensitivity = SensitivityFormula::kReconstructed;
  }
  if (p.has_directional_sharpness()) {
    params.directional_sharpness = p.directional_sharpness();
  }
  if (p.has_channel_selectivity()) {
    params.channel_selectivity = p.channel_selectivity();
  }
  if (p.has_direction_fit_rings()) {
    if (p.direction_fit_rings() > 3) {
      return InvalidAmplitudeMaps(absl::StrFormat(
          ".direction_fit_rings: %u is outside 0..3", p.direction_fit_rings()));
    }
    params.direction_fit_rings = static_cast<int>(p.direction_fit_rings());
  }
  params.clamp_negative = !p.keep_negative();
  switch (p.rest_lengths()) {
    case v1::AMPLITUDE_REST_LENGTHS_REST_POSITIONS:
      if (!has_rest_positions) {
        return InvalidAmplitudeMaps(
            ".rest_lengths: REST_POSITIONS needs start.topology."
            "rest_positions");
      }
      params.rest_lengths = RestLengthSource::kRestPositions;
      break;
    case v1::AMPLITUDE_REST_LENGTHS_ADAPTIVE_REFERENCES:
      params.rest_lengths = RestLengthSource::kAdaptiveReferences;
      break;
    case v1::AMPLITUDE_REST_LENGTHS_UNSPECIFIED:
      params.rest_lengths = has_rest_positions
                                ? RestLengthSource::kRestPositions
                                : RestLengthSource::kAdaptiveReferences;
      break;
    default:
      return InvalidAmplitudeMaps(
          absl::StrFormat(".rest_lengths: unknown value %d", p.rest_lengths()));
  }
  // The model's ranges (ValidateAmplitudeParams), named as the fields are.
  const struct {
    const char* field;
    double value, low, high;
    bool low_open;
  } ranges[] = {
      {"shrink_threshold", params.shrink_threshold, 0, 10, true},
      {"sensitivity_alpha", params.sensitivity_alpha, 0, 1e6, true},
      {"scale", params.scale, 0, 100, false},
      {"max_slope", params.max_slope, 0, 100, false},
      {"directional_sharpness", params.directional_sharpness, 1, 64, false},
      {"channel_selectivity", params.channel_selectivity, 0, 64, false},
  };
  for (const auto& r : ranges) {
    const bool above_low = r.low_open ? r.value > r.low : r.value >= r.low;
    if (!(above_low && r.value <= r.high)) {
      return InvalidAmplitudeMaps(
          absl::StrFormat(".%s: %g is outside %s%g, %g]", r.field, r.value,
                          r.low_open ? "(" : "[", r.low, r.high));
    }
  }
  if (absl::Status s = ValidateAmplitudeParams(params); !s.ok()) {
    return InvalidAmplitudeMaps(absl::StrFormat(": %s", s.message()));
  }
  return params;
}

// A pattern and the id that names it to the renderer (renderer::PatternMap).
struct NamedPattern {
  WrinklePattern pattern;
  uint64_t id = 0;
};

// `decoded`, or the same pattern (equal in size, channels and every sample)
// that another live session uploaded, with its id: sessions that upload one
// PNG share one copy and one texture on a render thread. The hash only finds
// candidates; samples are compared, so no crafted PNG can take another
// session's id.
std::shared_ptr<const NamedPattern> SharedUploadedPattern(
    WrinklePattern decoded) {
  static absl::Mutex mu(absl::kConstInit);
  static auto* cache =
      new absl::flat_hash_map<size_t,
                              std::vector<std::weak_ptr<const NamedPattern>>>();
  const size_t key =
      absl::HashOf(decoded.width, decoded.height, decoded.channels,
                   decoded.wrap, absl::MakeConstSpan(decoded.samples));
  absl::MutexLock lock(&mu);
  // Forget the patterns no session uses any more (every key's, not only this
  // one's: the map would otherwise keep an entry per PNG ever uploaded).
  absl::erase_if(*cache, [](auto& entry) {
    std::erase_if(entry.second,
                  [](const auto& weak) { return weak.expired(); });
    return entry.second.empty();
  });
  std::vector<std::weak_ptr<const NamedPattern>>& bucket = (*cache)[key];
  for (const auto& weak : bucket) {
    std::shared_ptr<const NamedPattern> alive = weak.lock();
    if (alive && alive->pattern.width == decoded.width &&
        alive->pattern.height == decoded.height &&
        alive->pattern.channels == decoded.channels &&
        alive->pattern.wrap == decoded.wrap &&
        alive->pattern.samples == decoded.samples) {
      return alive;
    }
  }
  auto named = std::make_shared<const NamedPattern>(
      NamedPattern{std::move(decoded), renderer::NewPatternId()});
  bucket.push_back(named);
  return named;
}

// The Start's uploaded pattern, decoded (its size is bounded by
// kMaxPatternPngSize before the decoder allocates) and named. Null without
// one: the default sinusoids, made once the session's memory is reserved.
absl::StatusOr<std::shared_ptr<const NamedPattern>> UploadedPattern(
    const v1::AmplitudeMapParameters& p) {
  if (p.pattern_png().empty()) return nullptr;
  if (p.pattern_channels() > 3) {
    return InvalidAmplitudeMaps(absl::StrFormat(
        ".pattern_channels: %d, need 1..3 (0: 3)", p.pattern_channels()));
  }
  const int channels =
      p.pattern_channels() == 0 ? 3 : static_cast<int>(p.pattern_channels());
  absl::StatusOr<WrinklePattern> pattern =
      DecodePatternPng(p.pattern_png(), channels);
  if (!pattern.ok()) {
    return InvalidAmplitudeMaps(
        absl::StrFormat(".pattern_png: %s", pattern.status().message()));
  }
  return SharedUploadedPattern(*std::move(pattern));
}

// The default pattern's wavelength as the Start decides it: asked for (in
// range), or from the rest positions, or 0 when the first frame will give it.
absl::StatusOr<double> StartWavelength(const ModelStart& in) {
  const v1::AmplitudeMapParameters& p = in.start.parameters().amplitude_maps();
  if (p.has_wavelength()) {
    if (!(p.wavelength() >= kMinPatternWavelength &&
          p.wavelength() <= kMaxPatternWavelength)) {
      return InvalidAmplitudeMaps(absl::StrFormat(
          ".wavelength: %g is outside [1/256, 1]", p.wavelength()));
    }
    return p.wavelength();
  }
  if (in.rest_positions.empty()) return 0.0;
  return DefaultPatternWavelength(in.triangles, in.rest_positions,
                                  in.corner_uvs);
}

// The default pattern at `wavelength`, shared by every session that uses it
// while one does: sessions of one mesh get the same wavelength, so a render
// thread that draws them in turn keeps one texture (the renderer re-uploads
// when the id changes) and the server holds one copy.
absl::StatusOr<std::shared_ptr<const NamedPattern>> SharedDefaultPattern(
    double wavelength) {
  static absl::Mutex mu(absl::kConstInit);
  static auto* cache =
      new absl::flat_hash_map<double, std::weak_ptr<const NamedPattern>>();
  const auto find = [&]() -> std::shared_ptr<const NamedPattern> {
    auto it = cache->find(wavelength);
    return it != cache->end() ? it->second.lock() : nullptr;
  };
  {
    absl::MutexLock lock(&mu);
    if (auto alive = find()) return alive;
  }
  // Made outside the lock, so Starts of other meshes do not wait on it.
  CREASE_ASSIGN_OR_RETURN(WrinklePattern pattern,
                          MakeDefaultPattern(wavelength));
  auto named = std::make_shared<const NamedPattern>(
      NamedPattern{std::move(pattern), renderer::NewPatternId()});
  absl::MutexLock lock(&mu);
  if (auto alive = find()) return alive;  // another Start made it meanwhile
  absl::erase_if(*cache,
                 [](const auto& entry) { return entry.second.expired(); });
  (*cache)[wavelength] = named;
  return named;
}

// `wavelength`: the default pattern's, when it is known at the Start (0
// with a pattern PNG, or when the first frame will give it).
void FillEffective(const AmplitudeModelParams& params, int channels,
                   double wavelength, bool displace,
                   v1::AmplitudeMapParameters* out) {
  out->set_shrink_threshold(params.shrink_threshold);
  out->set_sensitivity_alpha(params.sensitivity_alpha);
  out->set_scale(params.scale);
  out->set_max_slope(params.max_slope);
  out->set_rest_lengths(params.rest_lengths == RestLengthSource::kRestPositions
                            ? v1::AMPLITUDE_REST_LENGTHS_REST_POSITIONS
                            : v1::AMPLITUDE_REST_LENGTHS_ADAPTIVE_REFERENCES);
  out->set_literal_shrink(params.shrink == ShrinkFormula::kLiteral);
  out->set_literal_sensitivity(params.sensitivity ==
                               SensitivityFormula::kLiteral);
  out->set_crest_count_sensitivity(params.sensitivity ==
                                   SensitivityFormula::kReconstructed);
  out->set_directional_sharpness(params.directional_sharpness);
  out->set_channel_selectivity(params.channel_selectivity);
  out->set_direction_fit_rings(
      static_cast<uint32_t>(params.direction_fit_rings));
  out->set_keep_negative(!params.clamp_negative);
  out->set_displace(displace);
  out->clear_pattern_png();  // not echoed: the client has it
  out->set_pattern_channels(static_cast<uint32_t>(channels));
  if (wavelength > 0) {
    out->set_wavelength(wavelength);
  } else {
    out->clear_wavelength();
  }
}

}  // namespace

absl::StatusOr<WrinklePattern> DecodePatternPng(std::string_view png,
                                                int channels) {
  // The size is checked from the header, before the decoder allocates.
  CREASE_ASSIGN_OR_RETURN(image::RgbaImage image,
                          image::DecodePng(png, kMaxPatternPngSize));
  WrinklePattern pattern;
  pattern.width = image.width;
  pattern.height = image.height;
  pattern.channels = channels;
  pattern.samples.resize(static_cast<size_t>(image.width) * image.height *
                         channels);
  for (int y = 0; y < image.height; ++y) {
    // The image's top row is v = 1: the pattern's last row.
    const uint8_t* row =
        &image.pixels[4 * static_cast<size_t>(image.height - 1 - y) *
                      image.width];
    float* out =
        &pattern.samples[static_cast<size_t>(y) * image.width * channels];
    for (int x = 0; x < image.width; ++x) {
      for (int c = 0; c < channels; ++c) {
        out[x * channels + c] = row[4 * x + c] / 127.5f - 1.0f;
      }
    }
  }
  CREASE_RETURN_IF_ERROR(ValidatePattern(pattern));
  return pattern;
}

absl::StatusOr<std::unique_ptr<WrinkleModel>> WrinkleMapModel::FromStart(
    const ModelStart& in, v1::Parameters* effective) {
  const v1::Start& start = in.start;
  if (in.corner_uvs.empty()) {
    return absl::InvalidArgumentError(
        "start.parameters.model: WRINKLE_MODEL_AMPLITUDE_MAPS needs "
        "start.topology.corner_uvs (the pattern lies in UV space)");
  }
  for (size_t i = 0; i < in.corner_uvs.size(); ++i) {
    if (std::abs(in.corner_uvs[i]) > kMaxUvMagnitude) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "start.topology.corner_uvs: triangle %d corner %d is %g, over %g "
          "from 0 (the wrinkle-map model's limit)",
          i / 6, i / 2 % 3, in.corner_uvs[i], kMaxUvMagnitude));
    }
  }
  const v1::AmplitudeMapParameters& a = start.parameters().amplitude_maps();
  CREASE_ASSIGN_OR_RETURN(AmplitudeModelParams params,
                          ModelParams(a, !in.rest_positions.empty()));
  CREASE_ASSIGN_OR_RETURN(std::shared_ptr<const NamedPattern> uploaded,
                          UploadedPattern(a));
  double wavelength = 0.0;  // the default pattern's, if known now
  if (!uploaded) {
    CREASE_ASSIGN_OR_RETURN(wavelength, StartWavelength(in));
  }
  effective->set_model(v1::WRINKLE_MODEL_AMPLITUDE_MAPS);
  FillEffective(params,
                uploaded ? uploaded->pattern.channels : kMaxPatternChannels,
                wavelength, a.displace(), effective->mutable_amplitude_maps());
  auto model = std::make_unique<WrinkleMapModel>(
      params,
      uploaded
          ? std::shared_ptr<const WrinklePattern>(uploaded, &uploaded->pattern)
          : nullptr,
      start.outputs().vertex_amplitudes(), a.displace());
  model->wavelength_ = wavelength;
  if (uploaded) {
    model->pattern_id_ = uploaded->id;
    model->uploaded_pattern_ = true;
  }
  return model;
}

int64_t WrinkleMapModel::MemoryBytes() const {
  if (uploaded_pattern_) {  // decoded at the Start
    return static_cast<int64_t>(pattern_->samples.size() * sizeof(float));
  }
  // The default pattern; the largest when the first frame decides.
  const int64_t side = DefaultPatternSize(
      wavelength_ > 0.0 ? wavelength_ : kMinPatternWavelength);
  return side * side * kMaxPatternChannels *
         static_cast<int64_t>(sizeof(float));
}

absl::Status WrinkleMapModel::Prepare() {
  if (pattern_ || wavelength_ == 0.0) return absl::OkStatus();
  CREASE_ASSIGN_OR_RETURN(std::shared_ptr<const NamedPattern> shared,
                          SharedDefaultPattern(wavelength_));
  pattern_id_ = shared->id;
  pattern_ = std::shared_ptr<const WrinklePattern>(shared, &shared->pattern);
  return absl::OkStatus();
}

absl::Status WrinkleMapModel::CheckOutputs(const v1::Outputs& outputs) const {
  if (outputs.has_uv_maps() && outputs.uv_maps().size() > 0) {
    return absl::InvalidArgumentError(
        "start.outputs.uv_maps: drawn from SCA 2015's wrinkles, not with "
        "WRINKLE_MODEL_AMPLITUDE_MAPS (its vertex_amplitudes and pattern "
        "are the model's whole output)");
  }
  if (outputs.wrinkled_mesh().level() > 0) {
    return absl::InvalidArgumentError(
        "start.outputs.wrinkled_mesh: drawn from SCA 2015's wrinkles, not "
        "with WRINKLE_MODEL_AMPLITUDE_MAPS");
  }
  return absl::OkStatus();
}

absl::Status WrinkleMapModel::Update(const Session& analysis,
                                     const ModelFrame& frame) {
  Stopwatch watch;
  if (!pattern_) {
    // The default pattern, if Prepare has not made it: at the scale-aware
    // wavelength of this first frame when the Start had no rest pose.
    if (wavelength_ == 0.0) {
      CREASE_ASSIGN_OR_RETURN(
          wavelength_, DefaultPatternWavelength(
                           frame.triangles, frame.positions, frame.corner_uvs));
    }
    CREASE_RETURN_IF_ERROR(Prepare());
  }
  if (!model_) {
    CREASE_ASSIGN_OR_RETURN(
        AmplitudeModel model,
        AmplitudeModel::Create(analysis.topology(), frame.corner_uvs, *pattern_,
                               frame.rest_positions.empty()
                                   ? frame.positions
                                   : frame.rest_positions,
                               params_));
    model_ = std::move(model);
  }
  CREASE_RETURN_IF_ERROR(
      model_->Update(frame.positions, analysis.references()));
  update_ms_ = watch.Lap();
  return absl::OkStatus();
}

void WrinkleMapModel::FillFrame(v1::FrameResult* result) const {
  if (!model_) return;
  result->mutable_timings()->set_amplitude_maps_ms(update_ms_);
  if (!vertex_amplitudes_) return;
  v1::VertexAmplitudes* out = result->mutable_vertex_amplitudes();
  out->set_channels(static_cast<uint32_t>(model_->channels()));
  if (wavelength_ > 0) out->set_wavelength(wavelength_);
  const absl::Span<const float> amplitudes = model_->vertex_amplitudes();
  out->mutable_amplitudes()->Add(amplitudes.begin(), amplitudes.end());
}

renderer::WrinkleDraw WrinkleMapModel::Draw(const Session&) {
  renderer::PatternWrinkles wrinkles;
  if (!model_) return wrinkles;
  const WrinklePattern& pattern = *pattern_;
  wrinkles.pattern = {pattern.width,
                      pattern.height,
                      pattern.channels,
                      pattern.samples,
                      pattern.wrap == PatternWrap::kRepeat,
                      pattern_id_};
  wrinkles.amplitudes = model_->vertex_amplitudes();
  wrinkles.displace = displace_;
  return wrinkles;
}

}  // namespace crease::server
