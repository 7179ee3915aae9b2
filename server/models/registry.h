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
#include "server/server_options.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::server {

// A validated Start as the models read it: its topology checked (indices in
// range; rest positions and corner UVs finite, 3 a vertex and 6 a triangle,
// or none).
struct ModelStart {
  const v1::Start& start;
  absl::Span<const io::Triangle> triangles;
  absl::Span<const float> rest_positions;
  absl::Span<const float> corner_uvs;
  const ServerLimits& limits;
};

// The Start's model (UNSPECIFIED: SCA 2015); its effective parameters into
// `effective`. INVALID_ARGUMENT naming the field for an unknown model or the
// model's own refusals (RESOURCE_EXHAUSTED for one over a limit). The caller
// then checks the Start's outputs with the model's CheckOutputs.
absl::StatusOr<std::unique_ptr<WrinkleModel>> ModelFromStart(
    const ModelStart& in, v1::Parameters* effective);

}  // namespace crease::server

#endif  // CREASE_SERVER_MODELS_REGISTRY_H_
