#ifndef CREASE_WRINKLE_OUTPUTS_WRINKLE_LOOKUP_H_
#define CREASE_WRINKLE_OUTPUTS_WRINKLE_LOOKUP_H_

// One frame's wrinkles looked up on the CPU at points of the surface, by the
// renderer's rule: the smooth projection onto each wrinkle listed on the
// point's triangle, the cross-section there, the offsets combined as the
// highest crest plus the deepest valley (CombineOffset), and the normal bent
// across each wrinkle by the profile's slope, blended weighted by the
// envelope. The per-segment projection, the offset and the
// direction across are wrinkle_lookup_shared.h's, which the shaders run too.
// Every wrinkle counts at its full height: a mesh is not a view, so none of
// the renderer's level of detail (which fades and leaves out wrinkles narrow
// on screen) applies.

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <vector>

#include "wrinkle/data/frame_wrinkles.h"

namespace crease {

struct WrinkleSample {
  // Along the unit smooth normal: the highest crest plus the deepest valley
  // (below 0 in a valley beside a ridge).
  float offset = 0;
  // Unit: the smooth normal bent across each wrinkle whose support holds the
  // point:
  // (n - s d) / sqrt(1 + s^2), s the profile's slope d offset / d distance
  // and d the direction across, blended weighted by each one's envelope
  // (the profile without shoulders, never negative) times its height: the
  // renderer's per-pixel normal (WrinkleShading) for a vanishing pixel
  // footprint. The smooth normal where none does.
  Eigen::Vector3f normal = Eigen::Vector3f::UnitZ();
};

class WrinkleLookup {
 public:
  // Takes one frame's wrinkles (valid for the mesh they will be looked up on:
  // ValidateFrameWrinkles). Storage is reused: after the first frames it
  // allocates only when the wrinkles outgrow every earlier frame's.
  void Prepare(const FrameWrinkles& wrinkles);

  // Whether any wrinkle is listed on `triangle` (else Evaluate gives the
  // smooth surface there).
  bool Lists(int triangle) const {
    return !range_offsets_.empty() &&
           range_offsets_[triangle + 1] > range_offsets_[triangle];
  }

  // The wrinkles at surface point p of `triangle`, whose unit smooth normal
  // there is n.
  WrinkleSample Evaluate(int triangle, const Eigen::Vector3f& p,
                         const Eigen::Vector3f& n) const;

  // Storage held, for tests that check it stays put.
  size_t capacity_bytes() const {
    return (points_.capacity() + frames_.capacity()) * sizeof(Eigen::Vector4f) +
           range_offsets_.capacity() * sizeof(int32_t) +
           ranges_.capacity() * sizeof(Range);
  }

 private:
  // Refined points [first, last] of one wrinkle listed on a triangle, its own
  // ends among them (else -1), and a sphere holding every point they lift.
  struct Range {
    int32_t first = 0, last = 0;
    int32_t first_end = -1, last_end = -1;
    Eigen::Vector4f bounds = Eigen::Vector4f::Zero();
  };
  // The projection of p onto one range: squared distance (1e30: none), the
  // point q, the width and height there.
  struct Projection {
    float d2 = 1e30f;
    Eigen::Vector3f q = Eigen::Vector3f::Zero();
    float width = 0, height = 0;
  };
  Projection Project(const Range& range, const Eigen::Vector3f& p) const;
  Eigen::Vector4f BoundsOf(int32_t first, int32_t last) const;

  // Per refined point: xyz + full width, and the bisector normal + height (the
  // renderer's points and frames buffers, without its level of detail).
  std::vector<Eigen::Vector4f> points_, frames_;
  // Per triangle (CSR), as FrameWrinkles lists them.
  std::vector<int32_t> range_offsets_;
  std::vector<Range> ranges_;
  FrameWrinkles thinned_;  // the given wrinkles as drawn (ThinRefinedPoints)
};

}  // namespace crease

#endif  // CREASE_WRINKLE_OUTPUTS_WRINKLE_LOOKUP_H_
