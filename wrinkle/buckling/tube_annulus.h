#ifndef CREASE_WRINKLE_BUCKLING_TUBE_ANNULUS_H_
#define CREASE_WRINKLE_BUCKLING_TUBE_ANNULUS_H_

// What finding a tube (tube.cc) and charting it (tube_chart.cc) share: the
// annulus check on a part's triangles, and caller positions of welded
// vertices. Internal to wrinkle/buckling.

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "wrinkle/core/mesh.h"

namespace crease::tube_internal {

// The annulus checks on a set of triangles, without positions. On success
// fills the two boundary loops (welded vertices in order).
absl::Status CheckAnnulus(const MeshTopology& topology,
                          absl::Span<const int32_t> triangles,
                          std::vector<std::vector<int32_t>>* loops);

inline Eigen::Vector3d Position(absl::Span<const float> positions, int32_t v) {
  return {positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]};
}

// Welded vertex -> one caller vertex with that id, over a part's triangles
// only (so a mesh of many parts costs each part its own size).
using CallerMap = absl::flat_hash_map<int32_t, int32_t>;
CallerMap CallerOfWelded(const MeshTopology& topology,
                         absl::Span<const int32_t> triangles);

}  // namespace crease::tube_internal

#endif  // CREASE_WRINKLE_BUCKLING_TUBE_ANNULUS_H_
