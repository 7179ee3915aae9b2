#ifndef CREASE_SERVER_MODELS_REGISTRY_H_
#define CREASE_SERVER_MODELS_REGISTRY_H_

// The one place the server reads Parameters.model. A new wrinkle model adds
// its case here, its folder of files beside these, its enum value in
// proto/crease/v1/crease.proto, its draw descriptor (renderer::WrinkleDraw)
// and its section in the docs (docs/architecture.md, "Wrinkle models").

#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crease/v1/crease.pb.h"
#include "server/models/wrinkle_model.h"

namespace crease::server {

// The Start's model (UNSPECIFIED: SCA 2015), from its validated topology
// (`corner_uvs`: finite, 6 per triangle, or none); its effective parameters
// into `effective`. INVALID_ARGUMENT naming the field for an unknown model
// or the model's own refusals. The caller then checks the Start's outputs
// with the model's CheckOutputs.
absl::StatusOr<std::unique_ptr<WrinkleModel>> ModelFromStart(
    const v1::Start& start, absl::Span<const float> corner_uvs,
    v1::Parameters* effective);

}  // namespace crease::server

#endif  // CREASE_SERVER_MODELS_REGISTRY_H_
