#include "wrinkle/sca2015/persistence.h"

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

// The alignment term's weight on a segment in a triangle compressed by c
// (PersistenceParams::align_from, align_full).
double AlignmentWeight(const PersistenceParams& params, double c) {
  const double span = params.align_full - params.align_from;
  if (!(span > 0)) return params.alpha;
  const double x = std::clamp((c - params.align_from) / span, 0.0, 1.0);
  return params.alpha * x * x * (3.0 - 2.0 * x);
}

// Term 1: alpha_i ((p_{i+1} - p_i) . e_i)^2 with p = pbar + delta g.
void AddAlignmentTerm(const SurfaceFrame& surface, const WrinklePath& path,
                      const PersistenceParams& params,
                      NormalEquations& system) {
  PersistenceScratch& scratch = system.scratch;
  for (int i = 0; i + 1 < static_cast<int>(path.points.size()); ++i) {
    const StretchTensor& field = surface.field[path.faces[i]];
    const double alpha = AlignmentWeight(params, field.compression);
    if (alpha == 0.0) continue;
    const Eigen::Vector3d& e = field.compression_dir;
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
  AddAlignmentTerm(surface, *path, params, system);
  if (params.length_weight > 0) {
    AddLengthTerm(n, params.length_weight, system);
  }
  AddSmoothnessTerm(n, system);
  AddVertexTies(*surface.topology, *path, params, system);
  SolveBandedLdlt(n, scratch);
  for (int i = 0; i < n; ++i) path->points[i].t += scratch.delta[i];
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
