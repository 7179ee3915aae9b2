#ifndef CREASE_WRINKLE_SCA2015_TRACING_H_
#define CREASE_WRINKLE_SCA2015_TRACING_H_

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "wrinkle/core/surface.h"
#include "wrinkle/sca2015/wrinkle_path.h"

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
  // A trace turns at most this much where it crosses into the next triangle:
  // it heads for the field's direction there but keeps its own heading
  // within this angle. A fold bends smoothly; the field, one tensor per
  // coarse triangle, does not (docs/algorithm.md, "Tracing"). 180: the
  // field's direction whatever the turn (the papers).
  double max_turn_degrees = 12.0;

  double KeepThreshold() const { return 1.0 + keep_fraction * (tau - 1.0); }
};

// Scratch state reused across traces so tracing does not allocate once warm.
// What one trace crossed: the edge points where it leaves each triangle, and
// those triangles (faces[i] holds the segment that ends at points[i]). Kept
// by the caller and reused, so tracing does not allocate once warm.
// Why a trace stopped.
enum class TraceEnd {
  kMaxSegments,  // it ran its max_segments
  kBelowKeep,    // the next triangle is not compressed enough to carry it
  kBoundary,     // the mesh's border
  kRevisit,      // it would re-enter a triangle it crossed
  kOtherPath,    // it would cross or come too near another path
  kTurnedBack,   // the field turns back through the entry edge
};
struct TracedEdges {
  std::vector<EdgePoint> points;
  std::vector<int32_t> faces;
  TraceEnd end = TraceEnd::kMaxSegments;
  void clear() {
    points.clear();
    faces.clear();
    end = TraceEnd::kMaxSegments;
  }
};

struct TraceScratch {
  std::vector<uint32_t> visit_stamp;  // per face
  uint32_t stamp = 0;
  TracedEdges back, forward;
};

// Where one trace starts and how far it may go.
struct TraceRequest {
  int32_t face = -1;    // the triangle it starts in
  int entry_slot = -1;  // the slot of `face` it enters by; -1: starts inside
  Eigen::Vector3d start = Eigen::Vector3d::Zero();  // a 3D point in `face`
  Eigen::Vector3d direction = Eigen::Vector3d::Zero();
  int32_t path_index = -1;  // the path traced: its own segments do not stop it
  int max_segments = 0;
  double spacing = 0;  // kept from every other path
};

// True if the triangle may carry a wrinkle: compressed beyond the keep
// threshold, not degenerate.
bool IsWrinkleFace(const StretchTensor& t, const TracingParams& params);
// True if a wrinkle may be seeded in the triangle: compressed beyond tau, not
// degenerate.
bool IsSeedFace(const StretchTensor& t, const TracingParams& params);

// The direction a trace heading `heading` takes in a triangle (normal `n`)
// whose field gives `field_dir` (either sign): field_dir signed to continue
// the heading, turned back towards the heading, within the triangle's plane,
// until it is at most `max_turn_degrees` from it. Zero when the heading lies
// along the normal.
Eigen::Vector3d BoundedTurn(const Eigen::Vector3d& heading,
                            const Eigen::Vector3d& field_dir,
                            const Eigen::Vector3d& n, double max_turn_degrees);

// Walks from the request's start along its direction, crossing into
// neighbours, and appends to `out` the edge points where it leaves each
// triangle and the triangles themselves. Stops where the next triangle is
// below the keep threshold, at a boundary, on re-entering a triangle, where it
// would cross another path in `segments` or come within the request's spacing
// of one (that segment is not taken), or at its max_segments; out->end says
// which. The caller sizes scratch.visit_stamp to the triangles and bumps
// scratch.stamp for each new trace (TraceFromSeed does both).
void TraceDirection(const SurfaceFrame& surface, const TracingParams& params,
                    const SegmentIndex& segments, const TraceRequest& request,
                    TraceScratch& scratch, TracedEdges* out);

// Traces both ways from a seed inside `face` along its wrinkle direction,
// keeping `spacing` from other paths. A non-zero `heading` (a sibling's
// parallel) is where it starts instead: turned towards the field's direction
// by at most params.max_turn_degrees. Returns false when fewer than 2 edge
// points result.
bool TraceFromSeed(const SurfaceFrame& surface, int32_t face,
                   const Eigen::Vector3d& seed, const TracingParams& params,
                   const SegmentIndex& segments, int32_t path_index,
                   double spacing, TraceScratch& scratch, WrinklePath* path,
                   const Eigen::Vector3d& heading = Eigen::Vector3d::Zero());

// One pass of tangential Laplacian smoothing: each interior point moves `step`
// of the way along its edge toward where the straight chord between its
// neighbours, in the two triangles unfolded into a plane, crosses that edge.
void SmoothPath(const SurfaceFrame& surface, double step, WrinklePath* path);

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_TRACING_H_
