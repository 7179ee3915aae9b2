#include "wrinkle/core/surface.h"

#include <algorithm>
#include <cmath>
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

bool WalkOnSurface(const SurfaceFrame& surface, int32_t face,
                   const Eigen::Vector3d& start,
                   const Eigen::Vector3d& direction, double distance,
                   int32_t* end_face, Eigen::Vector3d* end) {
  const MeshTopology& topology = *surface.topology;
  *end_face = face;
  *end = start;
  Eigen::Vector3d heading = direction;
  int entry_slot = -1;
  double left = distance;
  // Each step crosses one triangle; a walk longer than the mesh has
  // triangles is going round in circles.
  for (int32_t steps = 0; steps <= topology.num_triangles(); ++steps) {
    const LocalFrame& frame = surface.frames[face];
    const Eigen::Vector2d d(heading.dot(frame.x_axis),
                            heading.dot(frame.y_axis));
    if (d.squaredNorm() < 1e-24) return false;
    const Eigen::Vector2d dir = d.normalized();
    const Eigen::Vector2d p = surface.ToFace(face, *end);
    int slot;
    double u;
    if (!RayExit(surface, face, p, dir, entry_slot, &slot, &u)) return false;
    const Eigen::Vector2d a = surface.Corner2d(face, slot);
    const Eigen::Vector2d b = surface.Corner2d(face, (slot + 1) % 3);
    const Eigen::Vector2d exit = a + u * (b - a);
    const double run = (exit - p).norm();
    const Eigen::Vector3d dir3 =
        dir.x() * frame.x_axis + dir.y() * frame.y_axis;
    if (run >= left) {
      *end += left * dir3;
      return true;
    }
    left -= run;
    *end += run * dir3;
    const int32_t next = topology.face_neighbors(face)[slot];
    const int32_t edge = topology.face_edges(face)[slot];
    if (next < 0 || edge < 0) return false;
    entry_slot = EdgeSlot(topology, next, edge);
    if (entry_slot < 0) return false;
    // Unfold across the edge: the same component along it, the rest straight
    // on into the next triangle's plane, whatever the angle between them.
    const MeshTopology::Edge& e = topology.edge(edge);
    const Eigen::Vector3d along =
        (surface.positions[e.v1] - surface.positions[e.v0]).normalized();
    const LocalFrame& next_frame = surface.frames[next];
    Eigen::Vector3d into =
        next_frame.x_axis.cross(next_frame.y_axis).cross(along);
    const Eigen::Vector3d opposite =
        surface.Corner(next, (entry_slot + 2) % 3) - surface.positions[e.v0];
    if (into.dot(opposite) < 0) into = -into;
    const double cos_along = dir3.dot(along);
    heading = cos_along * along +
              std::sqrt(std::max(0.0, 1.0 - cos_along * cos_along)) * into;
    face = next;
    *end_face = face;
  }
  return false;
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
