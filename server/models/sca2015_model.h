#ifndef CREASE_SERVER_MODELS_SCA2015_MODEL_H_
#define CREASE_SERVER_MODELS_SCA2015_MODEL_H_

// SCA 2015 (Gillette, Peters et al., "Real-Time Dynamic Wrinkling of Coarse
// Animated Cloth"), Parameters.model WRINKLE_MODEL_SCA2015 and the default.
// Its work is the shared analysis itself (wrinkle/sca2015/session.h, steps
// 1-11): it asks for all of it and draws the traced wrinkles.

#include <memory>

#include "server/models/wrinkle_model.h"
#include "wrinkle/data/frame_wrinkles.h"

namespace crease::server {

class Sca2015Model : public WrinkleModel {
 public:
  static absl::StatusOr<std::unique_ptr<WrinkleModel>> FromStart(
      const v1::Start& start, v1::Parameters* effective);

  ModelNeeds needs() const override { return {true, true}; }
  absl::Status CheckOutputs(const v1::Outputs& outputs) const override;
  absl::Status Update(const Session&, const ModelFrame&) override {
    return absl::OkStatus();
  }
  // The paths, labels and tensors are the analysis's outputs, which the
  // served session fills for every model.
  void FillFrame(v1::FrameResult*) const override {}
  renderer::WrinkleDraw Draw(const Session& analysis) override;

 private:
  FrameWrinkles frame_wrinkles_;  // the frame's wrinkles, while it renders
};

}  // namespace crease::server

#endif  // CREASE_SERVER_MODELS_SCA2015_MODEL_H_
