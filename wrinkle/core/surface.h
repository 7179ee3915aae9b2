#ifndef CREASE_WRINKLE_CORE_SURFACE_H_
#define CREASE_WRINKLE_CORE_SURFACE_H_

#include <Eigen/Core>
#include <cstdint>

#include "absl/types/span.h"
#include "wrinkle/core/mesh.h"
#include "wrinkle/core/stretch.h"

namespace crease {

// A point on a mesh edge: p = x[v0] t + x[v1] (1 - t) with (v0, v1) =
// edge(edge), so t = 1 is at v0 and t = 0 at v1 (Eq. 5.1 of the papers).
struct EdgePoint {
  int32_t edge = -1;
  double t = 0.5;
  friend bool operator==(const EdgePoint&, const EdgePoint&) = default;
};

// One frame of the mesh as the wrinkle stages see it.
struct SurfaceFrame {
  const MeshTopology* topology = nullptr;
  absl::Span<const Eigen::Vector3d> positions;  // per caller vertex
  absl::Span<const Eigen::Matrix2d>
      edge_matrices;                      // per triangle, current frame
  absl::Span<const LocalFrame> frames;    // per triangle, current frame
  absl::Span<const StretchTensor> field;  // compression field

  Eigen::Vector3d Position(const EdgePoint& p) const {
    const MeshTopology::Edge& e = topology->edge(p.edge);
    return p.t * positions[e.v0] + (1.0 - p.t) * positions[e.v1];
  }
  const Eigen::Vector3d& Corner(int32_t face, int k) const {
    return positions[topology->triangles()[face][k]];
  }
  // Coordinates of a 3D point of the triangle's plane in its 2D frame (corner 0
  // at the origin, corner 1 on +X), where the corners are (0,0), M.col(0),
  // M.col(1).
  Eigen::Vector2d ToFace(int32_t face, const Eigen::Vector3d& p) const {
    const Eigen::Vector3d d = p - Corner(face, 0);
    return {d.dot(frames[face].x_axis), d.dot(frames[face].y_axis)};
  }
  Eigen::Vector2d Corner2d(int32_t face, int k) const {
    if (k == 0) return Eigen::Vector2d::Zero();
    return edge_matrices[face].col(k - 1);
  }
};

// The slot k (edge between corners k and k+1) of `face` that is mesh edge
// `edge`, or -1.
int EdgeSlot(const MeshTopology& topology, int32_t face, int32_t edge);

// Converts u along the slot (0 at corner k, 1 at corner k+1) to the edge's t.
double SlotToEdgeT(const MeshTopology& topology, int32_t face, int slot,
                   double u);

// Where the ray from p (2D, inside the face) along d leaves the triangle: the
// slot and the parameter u along it. `skip_slot` (the entry edge) is ignored.
// False when d is zero or no edge is hit ahead.
bool RayExit(const SurfaceFrame& surface, int32_t face,
             const Eigen::Vector2d& p, const Eigen::Vector2d& d, int skip_slot,
             int* slot, double* u);

// Where a straight walk on the surface ends: from `start` in `face` along
// `direction` (3D, projected into that triangle's plane) for `distance`,
// unfolded across each edge it crosses (the same angle to the edge on the
// other side), so it is straight within the cloth. False when it leaves the
// mesh by a border, runs along an edge or meets a triangle it cannot cross
// (degenerate); *end_face and *end are then where it stopped.
bool WalkOnSurface(const SurfaceFrame& surface, int32_t face,
                   const Eigen::Vector3d& start,
                   const Eigen::Vector3d& direction, double distance,
                   int32_t* end_face, Eigen::Vector3d* end);

// Squared distance from q to segment [a, b].
double SegmentDistanceSq(const Eigen::Vector3d& q, const Eigen::Vector3d& a,
                         const Eigen::Vector3d& b);

// Deterministic PRNG (SplitMix64) with our own uniform mapping, so runs match
// across standard libraries.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 53 random bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

}  // namespace crease

#endif  // CREASE_WRINKLE_CORE_SURFACE_H_
