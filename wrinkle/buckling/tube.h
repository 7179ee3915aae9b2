#ifndef CREASE_WRINKLE_BUCKLING_TUBE_H_
#define CREASE_WRINKLE_BUCKLING_TUBE_H_

// Tubular parts of a coarse mesh for the buckling model (Decaudin,
// Thomaszewski & Cani 2005; docs/algorithm.md, "Buckling of tubes"): an open
// tube between two boundary loops, found automatically or described by the
// client, and its chart: every point of the tube by its angle around the
// axis and its normalised height between the two loops, at rest.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "wrinkle/core/mesh.h"

namespace crease {

// A client's description of one tube: its triangles (the caller's indices)
// and, optionally, its axis. Without an axis it runs through the centroids of
// the part's two boundary loops.
// Or, instead of triangles, two rings of vertices (closed loops of mesh
// edges, in order): the tube is the part between them.
struct TubeDescription {
  std::vector<int32_t> triangles;
  std::optional<Eigen::Vector3d> axis_origin;
  std::optional<Eigen::Vector3d> axis_direction;
  std::vector<int32_t> ring_a, ring_b;  // caller vertex indices
};

// The triangles between two rings of vertices (each a closed loop of mesh
// edges): the part that is reached from ring_a's edges without crossing
// either ring and that reaches ring_b. INVALID_ARGUMENT naming the ring and
// why: a vertex out of range or there twice, fewer than 3 vertices, two
// consecutive vertices that share no edge, no part between the rings, or
// (with `owned`: the triangles of other tubes, to which the part is added)
// a part another tube holds, found before the part is filled.
absl::StatusOr<std::vector<int32_t>> TrianglesBetweenRings(
    const MeshTopology& topology, absl::Span<const int32_t> ring_a,
    absl::Span<const int32_t> ring_b,
    absl::flat_hash_set<int32_t>* owned = nullptr);

// The most tubes a mesh may have (described, or found).
inline constexpr size_t kMaxTubes = 1024;

// A point on the coarse surface: three caller vertices and their weights
// (summing to 1), so that it follows the animation.
struct SurfacePoint {
  int32_t vertices[3] = {0, 0, 0};
  float weights[3] = {1, 0, 0};
};

// One tube, validated: an annulus (connected, manifold, two boundary loops,
// Euler characteristic 0) whose chart is one-to-one at rest.
struct Tube {
  std::vector<int32_t> triangles;  // caller triangle indices
  Eigen::Vector3d axis_origin;     // on the axis, at the first loop
  Eigen::Vector3d axis_direction;  // unit, from the first loop to the second
  Eigen::Vector3d angle_zero;      // unit, perpendicular to the axis: angle 0
  double mean_radius = 0;          // mean distance of the vertices to the axis
};

// The tube's triangles in (angle, height) coordinates at rest, for locating
// points: angle in radians counter-clockwise about the axis (unwrapped per
// triangle), height 0 on the first loop and 1 on the second.
class TubeChart {
 public:
  static absl::StatusOr<TubeChart> Build(const MeshTopology& topology,
                                         absl::Span<const float> rest_positions,
                                         const Tube& tube);
  // The surface point at (angle, height); height is clamped to [0, 1], angle
  // taken modulo 2 pi. Always finds one: a point that misses every triangle
  // by rounding goes to the nearest.
  SurfacePoint Locate(double angle, double height) const;

 private:
  struct ChartTriangle {
    int32_t vertices[3];
    Eigen::Vector2d corners[3];  // (angle, height), angles unwrapped
  };
  // The lookup grid over triangles_ (their chart widths and heights given):
  // about one cell a typical triangle. INVALID_ARGUMENT for slivers that would
  // take over kMaxEntriesPerTriangle cells each.
  absl::Status BuildGrid(std::vector<double> widths,
                         std::vector<double> heights);

  static constexpr int kMaxCells = 256;  // per side of the lookup grid
  static constexpr int64_t kMaxEntriesPerTriangle = 32;
  std::vector<ChartTriangle> triangles_;
  int columns_ = 1, rows_ = 1;               // of the lookup grid
  std::vector<std::vector<int32_t>> cells_;  // rows_ x columns_, row-major
};

// The tubes of a mesh: those described (each validated, INVALID_ARGUMENT
// naming the description and why it is not a tube), or with no descriptions
// every connected part that is an open tube between two boundary loops
// (INVALID_ARGUMENT when there is none). `rest_positions`: packed xyz of the
// rest pose (the first frame when the client sent none).
absl::StatusOr<std::vector<Tube>> FindTubes(
    const MeshTopology& topology, absl::Span<const float> rest_positions,
    absl::Span<const TubeDescription> descriptions);

// The same topological checks as FindTubes without positions: what the
// server can say at the Start (triangle indices in range, no repeats, one
// annulus each, no triangle in two tubes).
absl::Status CheckTubeTopology(const MeshTopology& topology,
                               absl::Span<const TubeDescription> descriptions);

}  // namespace crease

#endif  // CREASE_WRINKLE_BUCKLING_TUBE_H_
