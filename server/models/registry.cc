#include "server/models/registry.h"

#include "absl/strings/str_format.h"
#include "server/models/buckling_model.h"
#include "server/models/sca2015_model.h"
#include "server/models/wrinkle_map_model.h"

namespace crease::server {

absl::StatusOr<std::unique_ptr<WrinkleModel>> ModelFromStart(
    const ModelStart& in, v1::Parameters* effective) {
  const v1::Start& start = in.start;
  switch (start.parameters().model()) {
    case v1::WRINKLE_MODEL_UNSPECIFIED:
    case v1::WRINKLE_MODEL_SCA2015:
      return Sca2015Model::FromStart(start, effective);
    case v1::WRINKLE_MODEL_AMPLITUDE_MAPS:
      return WrinkleMapModel::FromStart(in, effective);
    case v1::WRINKLE_MODEL_BUCKLING:
      return BucklingModel::FromStart(in, effective);
    default:
      return absl::InvalidArgumentError(
          absl::StrFormat("start.parameters.model: unknown value %d",
                          start.parameters().model()));
  }
}

}  // namespace crease::server
