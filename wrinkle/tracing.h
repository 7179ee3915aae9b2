#ifndef CREASE_WRINKLE_TRACING_H_
#define CREASE_WRINKLE_TRACING_H_

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "wrinkle/surface.h"
#include "wrinkle/wrinkle_path.h"

namespace crease {

struct TracingParams {
  double tau = 1.3;  // compression c = 1 / lambda_min needed to seed a wrinkle
  // Hysteresis: once seeded, a wrinkle is traced, extended and kept alive on
  // triangles with c > KeepThreshold() = 1 + keep_fraction (tau - 1). The
  // field is constant per coarse triangle and noisy, so one threshold cut
  // paths after a triangle or two and killed them when one frame dipped.
  double keep_fraction = 0.3;
  double isotropy_ratio = 1.02;  // s1 / s2 below this: direction ill-defined
  int max_segments = 64;         // per traced path
  double smoothing_step = 0.5;   // how far toward the local geodesic (Fig. 5.1)

  double KeepThreshold() const { return 1.0 + keep_fraction * (tau - 1.0); }
};

// Scratch state reused across traces so tracing does not allocate once warm.
struct TraceScratch {
  std::vector<uint32_t> visit_stamp;  // per face
  uint32_t stamp = 0;
  std::vector<EdgePoint> back_points, forward_points;
  std::vector<int32_t> back_faces, forward_faces;
};

// True if the triangle may carry a wrinkle: compressed beyond the keep
// threshold, not degenerate.
bool IsWrinkleFace(const StretchTensor& t, const TracingParams& params);
// True if a wrinkle may be seeded in the triangle: compressed beyond tau, not
// degenerate.
bool IsSeedFace(const StretchTensor& t, const TracingParams& params);

// Walks from `start` (a 3D point in `face`, on its slot `entry_slot` or inside
// when -1) along `direction`, crossing into neighbours, and appends the edge
// points where it leaves each triangle and the triangles themselves. Stops
// where the next triangle is below tau, at a boundary, on re-entering a
// triangle, where it would cross another path in `segments` or come within
// `spacing` of one (that segment is not taken), or at `max_segments`.
void TraceDirection(const SurfaceFrame& surface, int32_t face, int entry_slot,
                    const Eigen::Vector3d& start, Eigen::Vector3d direction,
                    const TracingParams& params, const SegmentIndex& segments,
                    int32_t path_index, int max_segments, double spacing,
                    TraceScratch& scratch, std::vector<EdgePoint>* points,
                    std::vector<int32_t>* faces);

// Traces both ways from a seed inside `face` along its wrinkle direction,
// keeping `spacing` from other paths. Returns false when fewer than 2 edge
// points result.
bool TraceFromSeed(const SurfaceFrame& surface, int32_t face,
                   const Eigen::Vector3d& seed, const TracingParams& params,
                   const SegmentIndex& segments, int32_t path_index,
                   double spacing, TraceScratch& scratch, WrinklePath* path);

// One pass of tangential Laplacian smoothing: each interior point moves `step`
// of the way along its edge toward where the straight chord between its
// neighbours, in the two triangles unfolded into a plane, crosses that edge.
void SmoothPath(const SurfaceFrame& surface, double step, WrinklePath* path);

}  // namespace crease

#endif  // CREASE_WRINKLE_TRACING_H_
