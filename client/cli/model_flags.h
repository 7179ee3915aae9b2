#ifndef CREASE_CLIENT_CLI_MODEL_FLAGS_H_
#define CREASE_CLIENT_CLI_MODEL_FLAGS_H_

// crease-client's choice of wrinkle model (--model and the wrinkle-map
// model's parameters) and --compare_models, the contact sheet's third column.

#include <vector>

#include "absl/status/statusor.h"
#include "crease/v1/crease.pb.h"

namespace crease::client {

// InvalidArgument for a wrinkle-map flag whose -1 ("the server's default")
// is mistyped as another negative value (--channel_selectivity,
// --direction_fit_rings, --max_slope), whichever --model is asked for: a
// --compare_models run draws the wrinkle maps too. Run it before anything is
// written or connected; ApplyModelFlags and ComparisonStarts assume it passed.
absl::Status CheckModelFlags();

// Sets Parameters.model, .amplitude_maps (reading
// --pattern) or .buckling, and Outputs.vertex_amplitudes as the flags ask.
// InvalidArgument for an unknown --model or --rest_lengths, a --pattern that
// cannot be read, or the wrinkle-map model on a mesh without UVs.
absl::Status ApplyModelFlags(v1::Start* start);

// With --compare_models: the Starts of sessions drawing the same images with
// each other model, in the order SCA 2015, wrinkle maps, buckling (images
// only; each model's parameters as the flags give them), leaving out the
// wrinkle maps when the mesh has no UVs; else none. InvalidArgument for a
// --pattern that cannot be read.
absl::StatusOr<std::vector<v1::Start>> ComparisonStarts(const v1::Start& start);

}  // namespace crease::client

#endif  // CREASE_CLIENT_CLI_MODEL_FLAGS_H_
