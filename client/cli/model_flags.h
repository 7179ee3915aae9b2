#ifndef CREASE_CLIENT_CLI_MODEL_FLAGS_H_
#define CREASE_CLIENT_CLI_MODEL_FLAGS_H_

// crease-client's choice of wrinkle model (--model and the wrinkle-map
// model's parameters) and --compare_models, the contact sheet's third column.

#include <optional>

#include "absl/status/statusor.h"
#include "crease/v1/crease.pb.h"

namespace crease::client {

// Sets Parameters.model, .amplitude_maps (reading --pattern) or .buckling,
// and Outputs.vertex_amplitudes as the flags ask. InvalidArgument for an
// unknown --model or --rest_lengths, a --pattern that cannot be read, or
// the wrinkle-map model on a mesh without UVs.
absl::Status ApplyModelFlags(v1::Start* start);

// With --compare_models: the Start of a session drawing the same images with
// the other model (images only; the wrinkle-map model's parameters as the
// flags give them); else nothing. InvalidArgument when the mesh has no UVs.
absl::StatusOr<std::optional<v1::Start>> ComparisonStart(
    const v1::Start& start);

}  // namespace crease::client

#endif  // CREASE_CLIENT_CLI_MODEL_FLAGS_H_
