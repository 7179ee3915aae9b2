#ifndef CREASE_SERVER_AMPLITUDE_MAPS_H_
#define CREASE_SERVER_AMPLITUDE_MAPS_H_

// The wrinkle-map model of a session (Volino & Magnenat-Thalmann 1999;
// Parameters.model WRINKLE_MODEL_AMPLITUDE_MAPS, docs/protocol.md
// "Wrinkle-map model"): checked at the Start, its pattern decoded once, the
// model built on the first frame (it needs the Session's welding) and
// updated after each frame of the Session. A session on SCA 2015 holds and
// computes nothing here.

#include <memory>
#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crease/v1/crease.pb.h"
#include "renderer/pattern_data.h"
#include "wrinkle/amplitude_model.h"
#include "wrinkle/session.h"
#include "wrinkle/wrinkle_pattern.h"

namespace crease::server {

// Pattern PNGs: at most this many pixels a side (what the renderer holds).
inline constexpr int kMaxPatternPngSize = renderer::kMaxPatternMapSize;

// A Start's wrinkle-map model, validated.
struct AmplitudeMapsSetup {
  bool enabled = false;  // Parameters.model is WRINKLE_MODEL_AMPLITUDE_MAPS
  AmplitudeModelParams params;
  std::shared_ptr<const WrinklePattern> pattern;
  bool vertex_amplitudes = false;  // Outputs.vertex_amplitudes
  bool displace = false;           // images displaced, not bump-mapped
};

// Parameters.model, .amplitude_maps and Outputs.vertex_amplitudes of a Start
// whose topology was validated (`corner_uvs`: its UVs, finite). Fills the
// effective values into `effective` (Started.parameters). INVALID_ARGUMENT
// naming the field: the model without corner UVs, vertex_amplitudes without
// the model, UVs beyond kMaxUvMagnitude, a parameter out of its range,
// REST_POSITIONS without rest positions, a pattern PNG that does not decode
// or is over kMaxPatternPngSize a side.
absl::StatusOr<AmplitudeMapsSetup> ValidateAmplitudeMaps(
    const v1::Start& start, absl::Span<const float> corner_uvs,
    v1::Parameters* effective);

// A PNG's first `channels` colour channels as a pattern: 0..255 to -1..1,
// rows flipped so that row 0 is v = 0. INVALID_ARGUMENT when it does not
// decode or is over kMaxPatternPngSize a side.
absl::StatusOr<WrinklePattern> DecodePatternPng(std::string_view png,
                                                int channels);

// One session's model, frame after frame (one thread at a time).
class AmplitudeMaps {
 public:
  AmplitudeMaps() = default;
  explicit AmplitudeMaps(AmplitudeMapsSetup setup) : setup_(std::move(setup)) {}

  bool enabled() const { return setup_.enabled; }

  // After the Session's frame `positions`: builds the model on the first
  // call (on the Session's welding, `rest_positions` or else these
  // positions as the rest pose) and updates it. Errors are the model's.
  absl::Status Update(const Session& session,
                      absl::Span<const float> rest_positions,
                      absl::Span<const float> corner_uvs,
                      absl::Span<const float> positions);

  // FrameResult.vertex_amplitudes when asked for, and the update's time.
  void FillFrame(double update_ms, v1::FrameResult* result) const;

  // What the renderer draws, borrowing this object's storage (valid until
  // the next Update).
  renderer::PatternWrinkles Wrinkles() const;

 private:
  AmplitudeMapsSetup setup_;
  std::optional<AmplitudeModel> model_;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_AMPLITUDE_MAPS_H_
