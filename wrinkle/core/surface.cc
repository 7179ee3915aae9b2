#include "wrinkle/core/surface.h"

#include <algorithm>
#include <limits>

namespace crease {

int EdgeSlot(const MeshTopology& topology, int32_t face, int32_t edge) {
  const auto& edges = topology.face_edges(face);
  for (int k = 0; k < 3; ++k) {
    if (edges[k] == edge) return k;
  }
  return -1;
}

double SlotToEdgeT(const MeshTopology& topology, int32_t face, int slot,
                   double u) {
  const int32_t corner = topology.triangles()[face][slot];
  const MeshTopology::Edge& e = topology.edge(topology.face_edges(face)[slot]);
  // Point = corner + u (next - corner). If corner is the edge's v0: t = 1 - u.
  return topology.welded_vertex(corner) == topology.welded_vertex(e.v0)
             ? 1.0 - u
             : u;
}

bool RayExit(const SurfaceFrame& surface, int32_t face,
             const Eigen::Vector2d& p, const Eigen::Vector2d& d, int skip_slot,
             int* slot, double* u) {
  auto cross = [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return a.x() * b.y() - a.y() * b.x();
  };
  double best_s = std::numeric_limits<double>::infinity();
  int best = -1;
  double best_u = 0;
  for (int k = 0; k < 3; ++k) {
    if (k == skip_slot) continue;
    const Eigen::Vector2d a = surface.Corner2d(face, k);
    const Eigen::Vector2d b = surface.Corner2d(face, (k + 1) % 3);
    const Eigen::Vector2d ab = b - a;
    const double denom = cross(d, ab);
    if (denom == 0.0) continue;
    const double s = cross(a - p, ab) / denom;
    const double along = cross(a - p, d) / denom;
    constexpr double kSlack = 1e-9;
    if (s > -kSlack && along >= -kSlack && along <= 1.0 + kSlack &&
        s < best_s) {
      best_s = s;
      best = k;
      best_u = std::clamp(along, 0.0, 1.0);
    }
  }
  if (best < 0) return false;
  *slot = best;
  *u = best_u;
  return true;
}

double SegmentDistanceSq(const Eigen::Vector3d& q, const Eigen::Vector3d& a,
                         const Eigen::Vector3d& b) {
  const Eigen::Vector3d ab = b - a;
  const double len_sq = ab.squaredNorm();
  double s = len_sq > 0 ? (q - a).dot(ab) / len_sq : 0.0;
  s = std::clamp(s, 0.0, 1.0);
  return (a + s * ab - q).squaredNorm();
}

}  // namespace crease
