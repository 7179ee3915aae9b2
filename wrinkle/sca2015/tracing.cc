#include "wrinkle/sca2015/tracing.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace crease {

bool IsWrinkleFace(const StretchTensor& t, const TracingParams& params) {
  return !t.degenerate && t.compression > params.KeepThreshold();
}

bool IsSeedFace(const StretchTensor& t, const TracingParams& params) {
  return !t.degenerate && t.compression > params.tau;
}

Eigen::Vector3d BoundedTurn(const Eigen::Vector3d& heading,
                            const Eigen::Vector3d& field_dir,
                            const Eigen::Vector3d& n, double max_turn_degrees) {
  Eigen::Vector3d a = heading - heading.dot(n) * n;
  if (a.squaredNorm() < 1e-24) return Eigen::Vector3d::Zero();
  a.normalize();
  Eigen::Vector3d b = field_dir.dot(a) < 0 ? -field_dir : field_dir;
  const double turn = std::atan2(n.dot(a.cross(b)), a.dot(b));
  const double limit = max_turn_degrees * std::numbers::pi / 180.0;
  if (std::abs(turn) <= limit) return b;
  // Rotate a about n by the limit, towards b.
  const double angle = std::copysign(limit, turn);
  return std::cos(angle) * a + std::sin(angle) * n.cross(a);
}

void TraceDirection(const SurfaceFrame& surface, const TracingParams& params,
                    const SegmentIndex& segments, const TraceRequest& request,
                    TraceScratch& scratch, TracedEdges* out) {
  const MeshTopology& topology = *surface.topology;
  int32_t face = request.face;
  int entry_slot = request.entry_slot;
  Eigen::Vector3d direction = request.direction;
  Eigen::Vector3d from = request.start;
  Eigen::Vector3d incoming = direction;  // the direction we came in by
  for (int taken = 0; taken < request.max_segments; ++taken) {
    scratch.visit_stamp[face] = scratch.stamp;
    const LocalFrame& frame = surface.frames[face];
    const Eigen::Vector2d p = surface.ToFace(face, from);
    Eigen::Vector2d d(direction.dot(frame.x_axis), direction.dot(frame.y_axis));
    int slot;
    double u;
    if (!RayExit(surface, face, p, d, entry_slot, &slot, &u)) {
      // The field turns back through the entry edge (or runs along it):
      // go straight on, as in a near-isotropic triangle, rather than end the
      // fold at a kink of the piecewise-constant field.
      d = Eigen::Vector2d(incoming.dot(frame.x_axis),
                          incoming.dot(frame.y_axis));
      if (taken == 0 || !RayExit(surface, face, p, d, entry_slot, &slot, &u)) {
        out->end = TraceEnd::kTurnedBack;
        return;
      }
      direction = (d.x() * frame.x_axis + d.y() * frame.y_axis).normalized();
    }
    const int32_t edge = topology.face_edges(face)[slot];
    const EdgePoint exit{edge, SlotToEdgeT(topology, face, slot, u)};
    const Eigen::Vector3d to = surface.Position(exit);
    if (segments.Crosses(surface, face, request.path_index, from, to) ||
        segments.NearOtherPath(surface, exit, request.path_index,
                               request.spacing)) {
      out->end = TraceEnd::kOtherPath;
      return;
    }
    out->points.push_back(exit);
    out->faces.push_back(face);

    const int32_t next = topology.face_neighbors(face)[slot];
    if (next < 0 || scratch.visit_stamp[next] == scratch.stamp) {
      out->end = next < 0 ? TraceEnd::kBoundary : TraceEnd::kRevisit;
      return;
    }
    const StretchTensor& field = surface.field[next];
    if (!IsWrinkleFace(field, params)) {
      out->end = TraceEnd::kBelowKeep;
      return;
    }
    // Keep going the same way: the wrinkle direction has no sign, so pick the
    // one that continues the previous direction; keep the old direction
    // (projected into the new plane) where the compression is isotropic.
    const Eigen::Vector3d n =
        surface.frames[next].x_axis.cross(surface.frames[next].y_axis);
    const bool isotropic =
        field.lambda_max / field.lambda_min < params.isotropy_ratio;
    const Eigen::Vector3d next_dir =
        BoundedTurn(direction, isotropic ? direction : field.wrinkle_dir, n,
                    isotropic ? 0.0 : params.max_turn_degrees);
    if (next_dir.squaredNorm() == 0) {
      out->end = TraceEnd::kTurnedBack;
      return;
    }
    incoming = direction;
    direction = next_dir;
    entry_slot = EdgeSlot(topology, next, edge);
    face = next;
    from = to;
  }
  out->end = TraceEnd::kMaxSegments;
}

bool TraceFromSeed(const SurfaceFrame& surface, int32_t face,
                   const Eigen::Vector3d& seed, const TracingParams& params,
                   const SegmentIndex& segments, int32_t path_index,
                   double spacing, TraceScratch& scratch, WrinklePath* path,
                   const Eigen::Vector3d& heading) {
  Eigen::Vector3d dir = surface.field[face].wrinkle_dir;
  if (dir.squaredNorm() == 0) return false;
  if (heading.squaredNorm() > 0) {
    const LocalFrame& frame = surface.frames[face];
    dir = BoundedTurn(heading, dir, frame.x_axis.cross(frame.y_axis),
                      params.max_turn_degrees);
    if (dir.squaredNorm() == 0) return false;
  }
  if (scratch.visit_stamp.size() !=
      static_cast<size_t>(surface.topology->num_triangles())) {
    scratch.visit_stamp.assign(surface.topology->num_triangles(), 0);
    scratch.stamp = 0;
  }
  ++scratch.stamp;
  scratch.back.clear();
  scratch.forward.clear();
  TraceRequest request;
  request.face = face;
  request.start = seed;
  request.direction = dir;
  request.path_index = path_index;
  request.max_segments = std::max(1, params.max_segments / 2);
  request.spacing = spacing;
  TraceDirection(surface, params, segments, request, scratch, &scratch.forward);
  request.direction = -dir;
  TraceDirection(surface, params, segments, request, scratch, &scratch.back);
  const size_t n = scratch.back.points.size() + scratch.forward.points.size();
  if (n < 2) return false;
  path->points.clear();
  path->faces.clear();
  path->points.insert(path->points.end(), scratch.back.points.rbegin(),
                      scratch.back.points.rend());
  path->points.insert(path->points.end(), scratch.forward.points.begin(),
                      scratch.forward.points.end());
  // Segment between the last backward and first forward point lies in the seed
  // face.
  for (size_t i = scratch.back.faces.size(); i-- > 1;) {
    path->faces.push_back(scratch.back.faces[i]);
  }
  if (!scratch.back.points.empty() && !scratch.forward.points.empty()) {
    path->faces.push_back(face);
  }
  for (size_t i = 1; i < scratch.forward.faces.size(); ++i) {
    path->faces.push_back(scratch.forward.faces[i]);
  }
  return path->faces.size() + 1 == path->points.size();
}

void SmoothPath(const SurfaceFrame& surface, double step, WrinklePath* path) {
  const int n = static_cast<int>(path->points.size());
  if (n < 3 || step <= 0) return;
  // Jacobi style: every target comes from the unsmoothed neighbours.
  Eigen::Vector3d prev = surface.Position(path->points[0]);
  for (int i = 1; i + 1 < n; ++i) {
    const Eigen::Vector3d cur = surface.Position(path->points[i]);
    const Eigen::Vector3d next = surface.Position(path->points[i + 1]);
    const MeshTopology::Edge& e = surface.topology->edge(path->points[i].edge);
    const Eigen::Vector3d a = surface.positions[e.v0],
                          b = surface.positions[e.v1];
    const Eigen::Vector3d axis = b - a;
    const double len = axis.norm();
    if (len > 0) {
      const Eigen::Vector3d x_dir = axis / len;
      // Unfold: prev on one side of the edge (y >= 0), next on the other (y <=
      // 0).
      const double x1 = (prev - a).dot(x_dir),
                   y1 = ((prev - a) - x1 * x_dir).norm();
      const double x2 = (next - a).dot(x_dir),
                   y2 = -((next - a) - x2 * x_dir).norm();
      if (y1 - y2 > 1e-12 * len) {
        const double x = x1 + (x2 - x1) * y1 / (y1 - y2);
        const double t_geodesic = std::clamp(1.0 - x / len, 0.0, 1.0);
        path->points[i].t += step * (t_geodesic - path->points[i].t);
      }
    }
    prev = cur;
  }
}

}  // namespace crease
