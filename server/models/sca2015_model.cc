#include "server/models/sca2015_model.h"

namespace crease::server {

absl::StatusOr<std::unique_ptr<WrinkleModel>> Sca2015Model::FromStart(
    const v1::Start& start, v1::Parameters* effective) {
  (void)start;  // SCA 2015's parameters are the Session's (SessionSetup)
  effective->set_model(v1::WRINKLE_MODEL_SCA2015);
  return std::make_unique<Sca2015Model>();
}

absl::Status Sca2015Model::CheckOutputs(const v1::Outputs& outputs) const {
  if (outputs.vertex_amplitudes()) {
    return absl::InvalidArgumentError(
        "start.outputs.vertex_amplitudes: needs start.parameters.model "
        "WRINKLE_MODEL_AMPLITUDE_MAPS");
  }
  return absl::OkStatus();
}

renderer::WrinkleDraw Sca2015Model::Draw(const Session& analysis) {
  analysis.tracker().ExportFrame(&frame_wrinkles_);
  return renderer::TracedWrinkles{&frame_wrinkles_};
}

}  // namespace crease::server
