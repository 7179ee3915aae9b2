#include "wrinkle/persistence.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace crease {
namespace {

// Which welded vertex point p is near (t > 1 - eps: v0, t < eps: v1), or -1,
// and the sign that turns a change of t into a change of distance from that
// vertex.
int32_t NearVertex(const MeshTopology& topology, const EdgePoint& p, double eps,
                   double* sign) {
  const MeshTopology::Edge& e = topology.edge(p.edge);
  if (p.t > 1.0 - eps) {
    *sign = -1.0;
    return topology.welded_vertex(e.v0);
  }
  if (p.t < eps) {
    *sign = 1.0;
    return topology.welded_vertex(e.v1);
  }
  return -1;
}

// Samples the path on the current frame: each point's position (pbar_i, in
// scratch.previous) and edge vector (g_i, in scratch.direction). Returns the
// mean segment length.
double SamplePath(const SurfaceFrame& surface, const WrinklePath& path,
                  PersistenceScratch& scratch) {
  const int n = static_cast<int>(path.points.size());
  const MeshTopology& topology = *surface.topology;
  scratch.direction.resize(n);
  scratch.previous.resize(n);
  for (int i = 0; i < n; ++i) {
    const MeshTopology::Edge& e = topology.edge(path.points[i].edge);
    scratch.direction[i] = surface.positions[e.v0] - surface.positions[e.v1];
    scratch.previous[i] = surface.Position(path.points[i]);
  }
  double scale = 0;
  for (int i = 0; i + 1 < n; ++i) {
    scale += (scratch.previous[i + 1] - scratch.previous[i]).norm();
  }
  scale /= (n - 1);
  return scale;
}

// The normal equations of Eq. 5.2 in delta (the change of each t), assembled
// term by term into scratch.band (the lower band of the matrix, half-bandwidth
// 2) and scratch.rhs.
struct NormalEquations {
  PersistenceScratch& scratch;
  double inv_scale;

  void Add(int i, int j, double v) {
    if (i < j) std::swap(i, j);
    scratch.band[3 * i + (i - j)] += v;
  }
  // weight ((dp_{i+1} - dp_i) . u)^2 on segment i; b0 and b1 are g_i . u and
  // g_{i+1} . u, scaled.
  void AddSegmentProjection(int i, double b0, double b1, double weight) {
    Add(i, i, weight * b0 * b0);
    Add(i + 1, i + 1, weight * b1 * b1);
    Add(i + 1, i, -weight * b0 * b1);
  }
};

// Term 1: alpha ((p_{i+1} - p_i) . e_i)^2 with p = pbar + delta g.
void AddAlignmentTerm(const SurfaceFrame& surface, const WrinklePath& path,
                      double alpha, NormalEquations& system) {
  PersistenceScratch& scratch = system.scratch;
  for (int i = 0; i + 1 < static_cast<int>(path.points.size()); ++i) {
    const Eigen::Vector3d& e = surface.field[path.faces[i]].compression_dir;
    const double b0 = scratch.direction[i].dot(e) * system.inv_scale;
    const double b1 = scratch.direction[i + 1].dot(e) * system.inv_scale;
    const double c = (scratch.previous[i + 1] - scratch.previous[i]).dot(e) *
                     system.inv_scale;
    system.AddSegmentProjection(i, b0, b1, alpha);
    scratch.rhs[i] += alpha * b0 * c;
    scratch.rhs[i + 1] -= alpha * b1 * c;
  }
}

// Term 4 (ours): beta ((dp_{i+1} - dp_i) . u_i)^2, u_i the segment's unit
// direction: keeps each segment's length to first order while letting it
// turn. Term 1 alone is smallest for segments shrunk onto the vertex their
// two edges share, and paths collapsed over the frames.
void AddLengthTerm(int n, double beta, NormalEquations& system) {
  const PersistenceScratch& scratch = system.scratch;
  for (int i = 0; i + 1 < n; ++i) {
    const Eigen::Vector3d seg = scratch.previous[i + 1] - scratch.previous[i];
    const double len = seg.norm();
    if (!(len > 0)) continue;
    const Eigen::Vector3d u = seg / len;
    const double b0 = scratch.direction[i].dot(u) * system.inv_scale;
    const double b1 = scratch.direction[i + 1].dot(u) * system.inv_scale;
    system.AddSegmentProjection(i, b0, b1, beta);
  }
}

// Term 3: |lap(delta g)_i|^2 with ghost points p_{-1} = p_1, p_n = p_{n-2}.
void AddSmoothnessTerm(int n, NormalEquations& system) {
  const std::vector<Eigen::Vector3d>& g = system.scratch.direction;
  const double inv_scale = system.inv_scale;
  for (int i = 0; i < n; ++i) {
    int idx[3];
    double w[3];
    int count;
    if (i == 0 || i == n - 1) {
      const int other = i == 0 ? 1 : n - 2;
      idx[0] = i, w[0] = 1.0, idx[1] = other, w[1] = -1.0, count = 2;
    } else {
      idx[0] = i, w[0] = 1.0, idx[1] = i - 1, w[1] = -0.5, idx[2] = i + 1,
      w[2] = -0.5;
      count = 3;
    }
    for (int a = 0; a < count; ++a) {
      for (int b = 0; b <= a; ++b) {
        const double v =
            w[a] * w[b] * g[idx[a]].dot(g[idx[b]]) * inv_scale * inv_scale;
        // One entry stands for A(j, k) and A(k, j).
        system.Add(idx[a], idx[b], v);
      }
    }
  }
}

// Points at the same mesh vertex move as one: their distances to it change
// equally.
void AddVertexTies(const MeshTopology& topology, const WrinklePath& path,
                   const PersistenceParams& params, NormalEquations& system) {
  for (int i = 0; i + 1 < static_cast<int>(path.points.size()); ++i) {
    double s0 = 0, s1 = 0;
    const int32_t w0 =
        NearVertex(topology, path.points[i], params.near_vertex, &s0);
    const int32_t w1 =
        NearVertex(topology, path.points[i + 1], params.near_vertex, &s1);
    if (w0 < 0 || w0 != w1) continue;
    system.Add(i, i, params.near_vertex_tie);
    system.Add(i + 1, i + 1, params.near_vertex_tie);
    system.Add(i + 1, i, -params.near_vertex_tie * s0 * s1);
  }
}

// Solves the assembled system into scratch.delta by a banded LDL^T,
// half-bandwidth 2: band[3 i + k] holds A(i, i - k), then L and D.
void SolveBandedLdlt(int n, PersistenceScratch& scratch) {
  std::vector<double>& a = scratch.band;
  for (int i = 0; i < n; ++i) {
    for (int j = std::max(0, i - 2); j <= i; ++j) {
      double sum = a[3 * i + (i - j)];
      for (int k = std::max(0, i - 2); k < j; ++k) {
        if (j - k > 2) continue;
        sum -= a[3 * i + (i - k)] * a[3 * j + (j - k)] * a[3 * k];
      }
      if (i == j) {
        a[3 * i] = sum;  // D(i) >= 1: term 2 keeps the matrix positive definite
      } else {
        a[3 * i + (i - j)] = sum / a[3 * j];
      }
    }
  }
  std::vector<double>& x = scratch.delta;
  x = scratch.rhs;
  for (int i = 0; i < n; ++i) {
    for (int k = std::max(0, i - 2); k < i; ++k)
      x[i] -= a[3 * i + (i - k)] * x[k];
  }
  for (int i = 0; i < n; ++i) x[i] /= a[3 * i];
  for (int i = n - 1; i >= 0; --i) {
    for (int k = i + 1; k <= std::min(n - 1, i + 2); ++k)
      x[i] -= a[3 * k + (k - i)] * x[k];
  }
}

}  // namespace

void SolvePersistence(const SurfaceFrame& surface,
                      const PersistenceParams& params,
                      PersistenceScratch& scratch, WrinklePath* path) {
  const int n = static_cast<int>(path->points.size());
  if (n < 2) return;
  // Lengths in units of the path's mean segment length, so the balance between
  // the terms of Eq. 5.2 does not depend on the model's units.
  const double scale = SamplePath(surface, *path, scratch);
  if (!(scale > 0)) return;
  NormalEquations system{scratch, 1.0 / scale};
  scratch.band.assign(3 * n, 0.0);
  scratch.rhs.assign(n, 0.0);
  // Term 2: (t_i - tbar_i)^2.
  for (int i = 0; i < n; ++i) system.Add(i, i, 1.0);
  AddAlignmentTerm(surface, *path, params.alpha, system);
  if (params.length_weight > 0) {
    AddLengthTerm(n, params.length_weight, system);
  }
  AddSmoothnessTerm(n, system);
  AddVertexTies(*surface.topology, *path, params, system);
  SolveBandedLdlt(n, scratch);
  for (int i = 0; i < n; ++i) path->points[i].t += scratch.delta[i];
}

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
    if (outward && along >= 0 && along < way_out.along && radius > 0) {
      way_out.along = along;
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
  const double frac = std::clamp(way_out.radius / spoke_len, 0.01, 0.99);
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
      p.t = std::clamp(p.t, 0.0, 1.0);
      continue;
    }
    SpliceReroute(scratch, i, path);
    ++carried;
    i += static_cast<int>(scratch.new_points.size()) - 1;
  }
  return carried;
}

int RemoveLoops(const MeshTopology& topology, PersistenceScratch& scratch,
                WrinklePath* path) {
  if (scratch.face_slot.size() !=
      static_cast<size_t>(topology.num_triangles())) {
    scratch.face_slot.assign(topology.num_triangles(), -1);
  }
  int removed = 0;
  bool changed = true;
  while (changed && path->faces.size() >= 2) {
    changed = false;
    for (int k = 0; k < path->num_segments(); ++k) {
      const int32_t f = path->faces[k];
      const int j = scratch.face_slot[f];
      if (j < 0) {
        scratch.face_slot[f] = k;
        continue;
      }
      // Segments j and k both cross f: join points[j] and points[k + 1] inside
      // f.
      if (path->points[j].edge != path->points[k + 1].edge) {
        path->points.erase(path->points.begin() + j + 1,
                           path->points.begin() + k + 1);
        path->faces.erase(path->faces.begin() + j + 1,
                          path->faces.begin() + k + 1);
      } else if (j + 1 >= path->num_segments() - k) {
        path->points.resize(j + 1);  // keep points 0..j
        path->faces.resize(j);
      } else {
        path->points.erase(path->points.begin(), path->points.begin() + k + 1);
        path->faces.erase(path->faces.begin(), path->faces.begin() + k + 1);
      }
      ++removed;
      changed = true;
      break;
    }
    // Clear the marks (only the faces the old path used can be set; all are
    // still in or were removed from it, so sweep the whole triangle list lazily
    // instead).
    std::fill(scratch.face_slot.begin(), scratch.face_slot.end(), -1);
  }
  return removed;
}

void EvolvePath(const SurfaceFrame& surface, const PersistenceParams& params,
                PersistenceScratch& scratch, WrinklePath* path) {
  SolvePersistence(surface, params, scratch, path);
  if (SlideAcrossVertices(surface, scratch, path) > 0) {
    RemoveLoops(*surface.topology, scratch, path);
  }
}

}  // namespace crease
