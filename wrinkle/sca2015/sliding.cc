// Carrying path points across the mesh vertices they overshot (the sliding of
// step 8, docs/architecture.md): SlideAcrossVertices of persistence.h and its
// steps, apart from the solve in persistence.cc.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "wrinkle/sca2015/persistence.h"

namespace crease {
namespace {

bool Unfold(const SurfaceFrame& surface, int32_t welded, UnfoldedRing* ring) {
  const MeshTopology& topology = *surface.topology;
  if (!topology.is_manifold_vertex(welded)) return false;
  const absl::Span<const int32_t> fan = topology.vertex_faces(welded);
  const int m = static_cast<int>(fan.size());
  if (m < 3) return false;
  // Closed fan only: the first and last triangles must share an edge.
  auto corner_slot = [&](int32_t f) {
    for (int k = 0; k < 3; ++k) {
      if (topology.welded_vertex(topology.triangles()[f][k]) == welded)
        return k;
    }
    return 0;
  };
  auto shares = [&](int32_t f, int32_t g) {
    for (int k = 0; k < 3; ++k) {
      if (topology.face_neighbors(f)[k] == g) return true;
    }
    return false;
  };
  if (!shares(fan[0], fan[m - 1])) return false;
  ring->m = m;
  ring->faces.assign(fan.begin(), fan.end());
  ring->spoke.assign(m + 1, -1);
  ring->angle.assign(m + 1, 0.0);
  // Spoke k + 1 is the corner fan[k] shares with fan[k + 1].
  for (int k = 0; k < m; ++k) {
    const int32_t f = fan[k], g = fan[(k + 1) % m];
    const int c = corner_slot(f);
    for (int j : {(c + 1) % 3, (c + 2) % 3}) {
      const int32_t v = topology.triangles()[f][j];
      bool in_g = false;
      for (int32_t u : topology.triangles()[g]) {
        in_g |= topology.welded_vertex(u) == topology.welded_vertex(v);
      }
      if (in_g) ring->spoke[k + 1] = v;
    }
    if (ring->spoke[k + 1] < 0) return false;
  }
  ring->spoke[0] = ring->spoke[m];
  const Eigen::Vector3d& center =
      surface.positions[topology.triangles()[fan[0]][corner_slot(fan[0])]];
  double total = 0;
  for (int k = 0; k < m; ++k) {
    const Eigen::Vector3d a = surface.positions[ring->spoke[k]] - center;
    const Eigen::Vector3d b = surface.positions[ring->spoke[k + 1]] - center;
    const double theta = std::atan2(a.cross(b).norm(), a.dot(b));
    total += theta;
    ring->angle[k + 1] = total;
  }
  if (!(total > 0)) return false;
  ring->scale = 2.0 * std::numbers::pi / total;
  for (double& a : ring->angle) a *= ring->scale;
  return true;
}

// The overshot vertex's unfolded one-ring, and what maps between it and the
// mesh.
struct RingPlane {
  const SurfaceFrame& surface;
  const UnfoldedRing& ring;
  int32_t welded;          // the overshot vertex, welded
  Eigen::Vector3d center;  // its position
};

// Maps a 3D point of fan triangle `sector` into the unfolded plane.
Eigen::Vector2d ToPlane(const RingPlane& plane, int sector,
                        const Eigen::Vector3d& q) {
  const Eigen::Vector3d a =
      plane.surface.positions[plane.ring.spoke[sector]] - plane.center;
  const Eigen::Vector3d d = q - plane.center;
  const double r = d.norm();
  if (r == 0) return Eigen::Vector2d(0, 0);
  const double phi = std::atan2(a.cross(d).norm(), a.dot(d));
  const double ang = plane.ring.angle[sector] + plane.ring.scale * phi;
  return Eigen::Vector2d(r * std::cos(ang), r * std::sin(ang));
}

// The sector of fan triangle `face`, or -1.
int SectorOf(const UnfoldedRing& ring, int32_t face) {
  for (int k = 0; k < ring.m; ++k) {
    if (ring.faces[k] == face) return k;
  }
  return -1;
}

// The (last) spoke ending at welded vertex `welded_tip`, or -1.
int SpokeTo(const MeshTopology& topology, const UnfoldedRing& ring,
            int32_t welded_tip) {
  int spoke = -1;
  for (int k = 0; k < ring.m; ++k) {
    if (topology.welded_vertex(ring.spoke[k]) == welded_tip) spoke = k;
  }
  return spoke;
}

// Where the overshooting point lands in the plane: carried on through the
// center, away from spoke `edge_spoke` (its edge, `edge_len` long), by
// `overshoot` edge lengths.
Eigen::Vector2d OvershotLocation(const RingPlane& plane, int edge_spoke,
                                 double edge_len, double overshoot) {
  const double target_angle = plane.ring.angle[edge_spoke] + std::numbers::pi;
  // Stay inside the ring: at most 90 % of the shortest spoke.
  double min_spoke = edge_len;
  for (int k = 0; k < plane.ring.m; ++k) {
    min_spoke = std::min(
        min_spoke,
        (plane.surface.positions[plane.ring.spoke[k]] - plane.center).norm());
  }
  const double r = std::min(overshoot * edge_len, 0.9 * min_spoke);
  return Eigen::Vector2d(r * std::cos(target_angle),
                         r * std::sin(target_angle));
}

// Where the walk across the ring is: the point reached, its sector, and the
// spoke position (in the sector's numbering) it came in by, or -1.
struct RingWalk {
  Eigen::Vector2d at;
  int sector;
  int entered_at = -1;
};

// Where a segment leaves the walk's sector.
struct SpokeExit {
  int position = -1;   // spoke position, or -1: the segment ends in the sector
  double along = 1.0;  // fraction of the segment
  double radius = 0;   // distance from the center along the spoke
};

double Cross2(const Eigen::Vector2d& u, const Eigen::Vector2d& v) {
  return u.x() * v.y() - u.y() * v.x();
}

// Fractions of a segment this close to 0 count as 0 (the segment starts on
// the ray).
constexpr double kOnRay = 1e-9;

// Crossings stay this fraction of their edge away from its ends. A point on
// a vertex itself made zero-length segments (the path walked round the
// vertex's fan in place, one refined point repeated), and the next point to
// overshoot that vertex could not be re-routed from it (a walk from the
// centre leaves by no spoke), so it was clamped there too.
constexpr double kSpokeMargin = 0.01;

// The first spoke the segment walk.at -> walk.at + dir leaves its sector by.
SpokeExit FindExit(const UnfoldedRing& ring, const RingWalk& walk,
                   const Eigen::Vector2d& dir) {
  // Sector triangle: origin, spoke position `sector`, position `sector + 1`.
  SpokeExit way_out;
  for (int position : {walk.sector, walk.sector + 1}) {
    if (position == walk.entered_at) continue;
    const Eigen::Vector2d ray(std::cos(ring.angle[position]),
                              std::sin(ring.angle[position]));
    const double denom = Cross2(dir, ray);
    if (denom == 0) continue;
    const double along = Cross2(-walk.at, ray) / denom;   // along the segment
    const double radius = Cross2(-walk.at, dir) / denom;  // along the spoke
    // Only exits count: through the lower ray clockwise, the upper one
    // counter-clockwise. A point on a ray (along = 0) may leave through it.
    const bool outward = position == walk.sector ? denom > 0 : denom < 0;
    // A walk starting on the ray itself (p_{i-1} on a spoke of the ring, the
    // common case) gets along = 0 up to rounding, either sign: a missed exit
    // left the walk in the wrong sector, the re-route failed and the point
    // was clamped onto the vertex.
    if (outward && along >= -kOnRay && along < way_out.along && radius > 0) {
      way_out.along = std::max(along, 0.0);
      way_out.position = position;
      way_out.radius = radius;
    }
  }
  return way_out;
}

// The edge of `face` between welded vertices `wc` and `wt`, or -1.
int32_t EdgeBetween(const MeshTopology& topology, int32_t face, int32_t wc,
                    int32_t wt) {
  int32_t edge_id = -1;
  for (int k = 0; k < 3; ++k) {
    const MeshTopology::Edge& e = topology.edge(topology.face_edges(face)[k]);
    const int32_t a = topology.welded_vertex(e.v0),
                  b = topology.welded_vertex(e.v1);
    if ((a == wc && b == wt) || (a == wt && b == wc)) {
      edge_id = topology.face_edges(face)[k];
    }
  }
  return edge_id;
}

// Appends the crossing of `point.edge` into `next_face` to the re-routed
// stretch; `first_edge` is the edge of the point the stretch starts from.
void RecordCrossing(const EdgePoint& point, int32_t next_face,
                    int32_t first_edge, PersistenceScratch& scratch) {
  const int32_t previous_edge =
      scratch.new_points.empty() ? first_edge : scratch.new_points.back().edge;
  if (point.edge == previous_edge) {
    if (scratch.new_points.empty()) {
      scratch.new_faces.back() = next_face;  // leaving p_{i-1}'s spoke
    } else {  // out through a spoke and straight back: the crossings cancel
      scratch.new_points.pop_back();
      scratch.new_faces.pop_back();
    }
  } else {
    scratch.new_points.push_back(point);
    scratch.new_faces.push_back(next_face);
  }
}

enum class WalkStep { kArrived, kCrossed, kFailed };

// Moves the walk towards `target` into the next sector, recording the spoke
// crossed; kArrived when the target is inside the current sector.
WalkStep CrossNextSpoke(const RingPlane& plane, const Eigen::Vector2d& target,
                        int32_t first_edge, RingWalk& walk,
                        PersistenceScratch& scratch) {
  const MeshTopology& topology = *plane.surface.topology;
  const UnfoldedRing& ring = plane.ring;
  const Eigen::Vector2d dir = target - walk.at;
  const SpokeExit way_out = FindExit(ring, walk, dir);
  if (way_out.position < 0) return WalkStep::kArrived;
  const int32_t tip = ring.spoke[way_out.position];
  const double spoke_len = (plane.surface.positions[tip] - plane.center).norm();
  const double frac =
      std::clamp(way_out.radius / spoke_len, kSpokeMargin, 1.0 - kSpokeMargin);
  // The mesh edge along this spoke.
  const int32_t edge_id =
      EdgeBetween(topology, ring.faces[walk.sector], plane.welded,
                  topology.welded_vertex(tip));
  if (edge_id < 0) return WalkStep::kFailed;
  const MeshTopology::Edge& e = topology.edge(edge_id);
  // Point = center + frac (tip - center); t is the weight of e.v0.
  const double t =
      topology.welded_vertex(e.v0) == plane.welded ? 1.0 - frac : frac;
  int next_sector;
  if (way_out.position == walk.sector) {
    next_sector = (walk.sector + ring.m - 1) % ring.m;
    walk.entered_at = next_sector + 1;
  } else {
    next_sector = (walk.sector + 1) % ring.m;
    walk.entered_at = next_sector;
  }
  RecordCrossing({edge_id, t}, ring.faces[next_sector], first_edge, scratch);
  walk.at = walk.at + way_out.along * dir;
  walk.sector = next_sector;
  return WalkStep::kCrossed;
}

// Walks sector by sector along from -> moved -> to, recording spoke crossings
// in scratch.new_points and the sectors' triangles in scratch.new_faces.
bool WalkAcrossRing(const RingPlane& plane, int start_sector,
                    int32_t first_edge, const Eigen::Vector2d& from,
                    const Eigen::Vector2d& moved, const Eigen::Vector2d& to,
                    PersistenceScratch& scratch) {
  scratch.new_points.clear();
  scratch.new_faces.clear();
  scratch.new_faces.push_back(plane.ring.faces[start_sector]);
  RingWalk walk{from, start_sector};
  for (const Eigen::Vector2d& target : {moved, to}) {
    for (int guard = 0; guard <= 2 * plane.ring.m; ++guard) {
      const WalkStep step =
          CrossNextSpoke(plane, target, first_edge, walk, scratch);
      if (step == WalkStep::kFailed) return false;
      if (step == WalkStep::kArrived) break;
    }
    walk.at = target;
    walk.entered_at = -1;
  }
  return true;
}

// Drops a last crossing on p_{i+1}'s own spoke; then whether the re-routed
// stretch joins p_{i-1} to p_{i+1}.
bool JoinsNeighbours(const MeshTopology& topology, const WrinklePath& path,
                     int i, PersistenceScratch& scratch) {
  const int32_t next_edge = path.points[i + 1].edge;
  if (!scratch.new_points.empty() &&
      scratch.new_points.back().edge == next_edge) {
    // The last crossing is p_{i+1}'s own spoke.
    scratch.new_points.pop_back();
    scratch.new_faces.pop_back();
  }
  const bool degenerate =
      scratch.new_points.empty() && path.points[i - 1].edge == next_edge;
  return !degenerate &&
         EdgeSlot(topology, scratch.new_faces.back(), next_edge) >= 0;
}

// Re-routes the path between interior point i's neighbours through the
// location where point i overshot its vertex, into scratch.new_points and
// scratch.new_faces. False where it cannot: the point is then clamped instead.
bool RerouteAcrossVertex(const SurfaceFrame& surface, const WrinklePath& path,
                         int i, PersistenceScratch& scratch) {
  const MeshTopology& topology = *surface.topology;
  const EdgePoint& p = path.points[i];
  const MeshTopology::Edge& edge = topology.edge(p.edge);
  const int32_t w = p.t > 1.0 ? edge.v0 : edge.v1;  // overshot vertex (Eq. 5.1)
  const int32_t other = p.t > 1.0 ? edge.v1 : edge.v0;
  const double overshoot = (p.t > 1.0 ? p.t - 1.0 : -p.t);
  if (!Unfold(surface, topology.welded_vertex(w), &scratch.ring)) return false;
  const RingPlane plane{surface, scratch.ring, topology.welded_vertex(w),
                        surface.positions[w]};
  const int start_sector = SectorOf(plane.ring, path.faces[i - 1]);
  const int end_sector = SectorOf(plane.ring, path.faces[i]);
  const int edge_spoke =
      SpokeTo(topology, plane.ring, topology.welded_vertex(other));
  if (start_sector < 0 || end_sector < 0 || edge_spoke < 0) return false;
  const double edge_len = (surface.positions[other] - plane.center).norm();
  const Eigen::Vector2d moved =
      OvershotLocation(plane, edge_spoke, edge_len, overshoot);
  const Eigen::Vector2d from =
      ToPlane(plane, start_sector, surface.Position(path.points[i - 1]));
  const Eigen::Vector2d to =
      ToPlane(plane, end_sector, surface.Position(path.points[i + 1]));
  return WalkAcrossRing(plane, start_sector, path.points[i - 1].edge, from,
                        moved, to, scratch) &&
         JoinsNeighbours(topology, path, i, scratch);
}

// Replaces point i (and segments i-1, i) by the crossings and their sectors.
void SpliceReroute(const PersistenceScratch& scratch, int i,
                   WrinklePath* path) {
  path->points.erase(path->points.begin() + i);
  path->points.insert(path->points.begin() + i, scratch.new_points.begin(),
                      scratch.new_points.end());
  path->faces.erase(path->faces.begin() + (i - 1),
                    path->faces.begin() + (i + 1));
  path->faces.insert(path->faces.begin() + (i - 1), scratch.new_faces.begin(),
                     scratch.new_faces.end());
}

}  // namespace

int SlideAcrossVertices(const SurfaceFrame& surface,
                        PersistenceScratch& scratch, WrinklePath* path) {
  int carried = 0;
  for (int i = 0; i < static_cast<int>(path->points.size()); ++i) {
    EdgePoint& p = path->points[i];
    if (p.t >= 0.0 && p.t <= 1.0) continue;
    const int n = static_cast<int>(path->points.size());
    if (i == 0 || i == n - 1 ||
        !RerouteAcrossVertex(surface, *path, i, scratch)) {
      p.t = std::clamp(p.t, kSpokeMargin, 1.0 - kSpokeMargin);
      continue;
    }
    SpliceReroute(scratch, i, path);
    ++carried;
    i += static_cast<int>(scratch.new_points.size()) - 1;
  }
  return carried;
}

}  // namespace crease
