#ifndef CREASE_SERVER_MODELS_WRINKLE_MAP_MODEL_H_
#define CREASE_SERVER_MODELS_WRINKLE_MAP_MODEL_H_

// The wrinkle-map model of a session (Volino & Magnenat-Thalmann 1999;
// Parameters.model WRINKLE_MODEL_AMPLITUDE_MAPS, docs/protocol.md
// "Wrinkle-map model"): checked at the Start, its pattern decoded once, the
// model built on the first frame (it needs the analysis's welding) and
// updated after each frame of the analysis.

#include <memory>
#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crease/v1/crease.pb.h"
#include "renderer/pattern_data.h"
#include "server/models/registry.h"
#include "server/models/wrinkle_model.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/wrinkle_maps/amplitude_model.h"
#include "wrinkle/wrinkle_maps/default_pattern.h"
#include "wrinkle/wrinkle_maps/wrinkle_pattern.h"

namespace crease::server {

// Pattern PNGs: at most this many pixels a side (what the renderer holds).
inline constexpr int kMaxPatternPngSize = renderer::kMaxPatternMapSize;
static_assert(kMaxDefaultPatternSize <= renderer::kMaxPatternMapSize);

// A PNG's first `channels` colour channels as a pattern: 0..255 to -1..1,
// rows flipped so that row 0 is v = 0. INVALID_ARGUMENT when it does not
// decode or is over kMaxPatternPngSize a side.
absl::StatusOr<WrinklePattern> DecodePatternPng(std::string_view png,
                                                int channels);

class WrinkleMapModel : public WrinkleModel {
 public:
  // Parameters.amplitude_maps of a Start with WRINKLE_MODEL_AMPLITUDE_MAPS
  // whose topology was validated (`in.corner_uvs`: its UVs, finite). Fills
  // the effective values into `effective` (Started.parameters): the default
  // pattern's wavelength when the Start asks for one or has rest positions
  // to choose it from (DefaultPatternWavelength); without either the first
  // frame chooses it, and VertexAmplitudes.wavelength says which.
  // INVALID_ARGUMENT naming the field: no corner UVs, UVs beyond
  // kMaxUvMagnitude, a parameter out of its range, REST_POSITIONS without
  // rest positions, a pattern PNG that does not decode or is over
  // kMaxPatternPngSize a side.
  static absl::StatusOr<std::unique_ptr<WrinkleModel>> FromStart(
      const ModelStart& in, v1::Parameters* effective);

  WrinkleMapModel(AmplitudeModelParams params,
                  std::shared_ptr<const WrinklePattern> pattern,
                  bool vertex_amplitudes, bool displace)
      : params_(params),
        pattern_(std::move(pattern)),
        vertex_amplitudes_(vertex_amplitudes),
        displace_(displace) {}

  // The field only when the native lengths come from the adaptive
  // references (no rest pose); never the traced wrinkles.
  ModelNeeds needs() const override {
    return {params_.rest_lengths == RestLengthSource::kAdaptiveReferences,
            false};
  }
  // The UV maps and the wrinkled mesh are drawn from SCA 2015's wrinkles:
  // refused rather than sent beside images of another model.
  absl::Status CheckOutputs(const v1::Outputs& outputs) const override;
  // Builds the model on the first frame (on the analysis's welding, the
  // rest positions or else this frame's as the rest pose; the default
  // pattern too when its wavelength waited for this frame), then updates it.
  absl::Status Update(const Session& analysis,
                      const ModelFrame& frame) override;
  // FrameResult.vertex_amplitudes when asked for, and the update's time.
  void FillFrame(v1::FrameResult* result) const override;
  renderer::WrinkleDraw Draw(const Session& analysis) override;
  // The pattern's samples: an uploaded one's, or the default's at its size
  // (the largest when the first frame will choose its wavelength). The same
  // before and after Prepare.
  int64_t MemoryBytes() const override;
  // Makes the default pattern once the session's memory is reserved, when
  // its wavelength is known.
  absl::Status Prepare() override;

 private:
  AmplitudeModelParams params_;
  // An uploaded pattern from the Start; the default one from Prepare, or
  // from the first frame when its wavelength is chosen from it (no rest
  // positions at the Start).
  std::shared_ptr<const WrinklePattern> pattern_;
  // Names pattern_ to the renderer, which keeps a texture per id and so
  // compares no samples: one id for every session of one default wavelength
  // (SharedDefaultPattern) or of one uploaded PNG (SharedUploadedPattern).
  uint64_t pattern_id_ = 0;
  bool uploaded_pattern_ = false;   // pattern_ came with the Start
  double wavelength_ = 0;           // the default pattern's; 0 for a PNG
  bool vertex_amplitudes_ = false;  // Outputs.vertex_amplitudes
  bool displace_ = false;           // images displaced, not bump-mapped
  std::optional<AmplitudeModel> model_;
  double update_ms_ = 0;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_MODELS_WRINKLE_MAP_MODEL_H_
