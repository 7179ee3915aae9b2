#ifndef CREASE_WRINKLE_SCA2015_PERSISTENCE_H_
#define CREASE_WRINKLE_SCA2015_PERSISTENCE_H_

#include <Eigen/Core>
#include <vector>

#include "wrinkle/core/surface.h"
#include "wrinkle/sca2015/wrinkle_path.h"

namespace crease {

struct PersistenceParams {
  double alpha = 0.4;  // weight of the alignment term of Eq. 5.2
  // The alignment term's weight on a segment rises with its triangle's
  // compression c, a smoothstep from 0 at c = align_from to alpha at c =
  // align_full: where the cloth is not compressed the field's direction is
  // noise, and a wrinkle there keeps its course instead of turning to it
  // (docs/algorithm.md, "Persistence"). align_full <= align_from: alpha on
  // every segment (Eq. 5.2 as printed). The tracker sets them to its keep
  // threshold and tau.
  double align_from = 0.0;
  double align_full = 0.0;
  // Weight of our segment-length term (docs/algorithm.md, "Persistence"); 0:
  // Eq. 5.2 as printed.
  double length_weight = 1.0;
  double near_vertex =
      0.1;  // t < 0.1 or t > 0.9: the point is "at" a mesh vertex
  double near_vertex_tie =
      100;  // weight tying points at one vertex so they move as one
};

// The one-ring of a welded vertex unfolded into the plane: sector k is fan
// triangle k, between spokes k and k + 1 (spoke m is spoke 0 again on a closed
// fan).
struct UnfoldedRing {
  int m = 0;
  double scale = 1.0;
  std::vector<double> angle;   // spoke angles, m + 1 entries
  std::vector<int32_t> spoke;  // caller vertex at the end of each spoke
  std::vector<int32_t> faces;
};

struct PersistenceScratch {
  UnfoldedRing ring;
  std::vector<double> band;  // 3 diagonals of the lower band, row-major (n x 3)
  std::vector<double> rhs, delta;
  std::vector<Eigen::Vector3d> direction;  // g_i = x[v0] - x[v1] per point
  std::vector<Eigen::Vector3d> previous;   // previous path on the current mesh
  std::vector<int32_t>
      face_slot;  // per triangle: its segment in the path, or -1
  std::vector<EdgePoint> new_points;
  std::vector<int32_t> new_faces;
};

// Minimises Eq. 5.2 over the path's t's on the current frame:
//   sum alpha_i ((p_{i+1} - p_i) . e_i)^2 + sum (t_i - tbar_i)^2
//   + sum |lap(p)_i - lap(pbar)_i|^2,
// with alpha_i = alpha ramped by segment i's compression (align_from,
// align_full), pbar the previous t's evaluated on the *current* mesh (so rigid
// motion moves nothing) and ghost points at the ends. Consecutive points at the
// same mesh vertex are tied to move as one. A banded (half-bandwidth 2) LDL^T
// solve; t may leave [0, 1].
void SolvePersistence(const SurfaceFrame& surface,
                      const PersistenceParams& params,
                      PersistenceScratch& scratch, WrinklePath* path);

// Carries interior points whose t left [0, 1] across the mesh vertex they
// overshot: the vertex's one-ring is unfolded into the plane and the path is
// re-routed between the point's neighbours by straight lines through the
// overshot location, which may add or remove path points. End points, and
// points at boundary or non-manifold vertices, are clamped to their edge
// instead. Returns the number of points carried. (In sliding.cc.)
int SlideAcrossVertices(const SurfaceFrame& surface,
                        PersistenceScratch& scratch, WrinklePath* path);

// A path crosses each triangle at most once: where re-routing made it come back
// to a triangle, the loop in between is cut out (the two visits joined by one
// segment), or, when both visits end on the same edge, the path is cut there
// keeping its longer side. Returns the number of loops removed.
int RemoveLoops(const MeshTopology& topology, PersistenceScratch& scratch,
                WrinklePath* path);

// Solve, slide, remove loops. After this every t is in [0, 1], the path is
// connected and it crosses no triangle twice.
void EvolvePath(const SurfaceFrame& surface, const PersistenceParams& params,
                PersistenceScratch& scratch, WrinklePath* path);

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_PERSISTENCE_H_
