#ifndef CREASE_WRINKLE_OUTPUTS_WRINKLED_MESH_H_
#define CREASE_WRINKLE_OUTPUTS_WRINKLED_MESH_H_

// The wrinkled mesh of one frame: the refined topology (refined_topology.h)
// placed on the coarse mesh as the renderer tessellates it (positions
// interpolated linearly, the area-weighted smooth normals interpolated and
// normalised), each vertex displaced along its normal by the wrinkles' offset
// there, with the wrinkles' analytic normals (wrinkle_lookup.h).
// docs/algorithm.md, "Wrinkled mesh and per-vertex fields", says why.

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "wrinkle/data/frame_wrinkles.h"
#include "wrinkle/data/refined_topology.h"
#include "wrinkle/outputs/wrinkle_lookup.h"

namespace crease {

struct WrinkledMeshFrame {
  std::vector<float> positions;  // xyz per refined vertex
  std::vector<float> normals;    // unit xyz per refined vertex
};

// Places a refined topology frame after frame. Storage (its own and the
// frame's) is reused: after the first frame only wrinkles outgrowing every
// earlier frame's allocate.
class WrinkledMeshBuilder {
 public:
  // `positions`: packed xyz per coarse vertex; `welded`: per coarse vertex its
  // welded id (MeshTopology::weld_map), so seams and soups share one smooth
  // normal; `wrinkles`: this frame's, valid for the coarse mesh
  // (ValidateFrameWrinkles; empty lists: no wrinkles). Preconditions (checked
  // in debug builds): sizes match the topology.
  void Compute(const RefinedTopology& topology,
               absl::Span<const float> positions,
               absl::Span<const int32_t> welded, const FrameWrinkles& wrinkles,
               WrinkledMeshFrame* out);

  // Storage held, for tests that check it stays put.
  size_t capacity_bytes() const;

 private:
  std::vector<float> normal_sums_;  // per welded id
  WrinkleLookup lookup_;
};

}  // namespace crease

#endif  // CREASE_WRINKLE_OUTPUTS_WRINKLED_MESH_H_
