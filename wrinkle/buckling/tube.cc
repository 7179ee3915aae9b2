#include "wrinkle/buckling/tube.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"

namespace crease {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

// The triangles of a part as a set: in range, each once, none collapsed,
// connected across manifold edges inside it.
absl::StatusOr<absl::flat_hash_set<int32_t>> TriangleSet(
    const MeshTopology& topology, absl::Span<const int32_t> triangles) {
  if (triangles.empty()) return absl::InvalidArgumentError("no triangles");
  absl::flat_hash_set<int32_t> in_tube;
  for (int32_t f : triangles) {
    if (f < 0 || f >= topology.num_triangles()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("triangle %d is out of range (the mesh has %d)", f,
                          topology.num_triangles()));
    }
    if (!in_tube.insert(f).second) {
      return absl::InvalidArgumentError(
          absl::StrFormat("triangle %d is listed twice", f));
    }
    if (topology.face_edges(f)[0] < 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "triangle %d is collapsed (two corners on one vertex)", f));
    }
  }
  // Connected across manifold edges inside the set.
  std::vector<int32_t> stack = {triangles[0]};
  absl::flat_hash_set<int32_t> reached = {triangles[0]};
  while (!stack.empty()) {
    const int32_t f = stack.back();
    stack.pop_back();
    for (int32_t g : topology.face_neighbors(f)) {
      if (g >= 0 && in_tube.contains(g) && reached.insert(g).second) {
        stack.push_back(g);
      }
    }
  }
  if (reached.size() != in_tube.size()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "its triangles are not connected (%d of %d reach triangle %d)",
        reached.size(), in_tube.size(), triangles[0]));
  }
  return in_tube;
}

// The boundary's loops from its directed edges (welded from -> to), each from
// its lowest vertex, the loop with the lowest vertex first: a fixed order,
// whatever the hash map's (the first loop sets the axis's sense).
absl::StatusOr<std::vector<std::vector<int32_t>>> TraceLoops(
    const absl::flat_hash_map<int32_t, int32_t>& next) {
  std::vector<std::vector<int32_t>> loops;
  absl::flat_hash_set<int32_t> traced;
  for (const auto& [start, unused] : next) {
    if (traced.contains(start)) continue;
    std::vector<int32_t> loop;
    for (int32_t v = start; traced.insert(v).second;) {
      loop.push_back(v);
      const auto it = next.find(v);
      if (it == next.end()) {
        return absl::InvalidArgumentError("its boundary is not closed");
      }
      v = it->second;
    }
    std::rotate(loop.begin(), std::min_element(loop.begin(), loop.end()),
                loop.end());
    loops.push_back(std::move(loop));
  }
  std::sort(loops.begin(), loops.end());
  return loops;
}

// The annulus checks on a set of triangles, without positions. On success
// fills the two boundary loops (welded vertices in order).
absl::Status CheckAnnulus(const MeshTopology& topology,
                          absl::Span<const int32_t> triangles,
                          std::vector<std::vector<int32_t>>* loops) {
  absl::StatusOr<absl::flat_hash_set<int32_t>> in_tube =
      TriangleSet(topology, triangles);
  if (!in_tube.ok()) return in_tube.status();
  // Edges, vertices and the boundary as directed welded edges.
  absl::flat_hash_set<int32_t> edges, vertices;
  absl::flat_hash_map<int32_t, int32_t> next;  // boundary: from -> to
  for (int32_t f : triangles) {
    const io::Triangle& t = topology.triangles()[f];
    for (int k = 0; k < 3; ++k) {
      const int32_t e = topology.face_edges(f)[k];
      vertices.insert(topology.welded_vertex(t[k]));
      edges.insert(e);
      if (topology.is_non_manifold_edge(e)) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "triangle %d has a non-manifold edge (three or more triangles)",
            f));
      }
      const int32_t g = topology.face_neighbors(f)[k];
      if (g >= 0 && in_tube->contains(g)) continue;
      const int32_t from = topology.welded_vertex(t[k]);
      if (!next.emplace(from, topology.welded_vertex(t[(k + 1) % 3])).second) {
        return absl::InvalidArgumentError(
            absl::StrFormat("its boundary touches itself at vertex %d", t[k]));
      }
    }
  }
  const int64_t euler = static_cast<int64_t>(vertices.size()) -
                        static_cast<int64_t>(edges.size()) +
                        static_cast<int64_t>(triangles.size());
  absl::StatusOr<std::vector<std::vector<int32_t>>> traced = TraceLoops(next);
  if (!traced.ok()) return traced.status();
  *loops = *std::move(traced);
  if (loops->size() != 2 || euler != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "it has %d boundary loops and Euler characteristic %d; an open tube "
        "has 2 and 0",
        loops->size(), euler));
  }
  return absl::OkStatus();
}

Eigen::Vector3d Position(absl::Span<const float> positions, int32_t v) {
  return {positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]};
}

// Welded vertex -> one caller vertex with that id, over a part's triangles
// only (so a mesh of many parts costs each part its own size).
using CallerMap = absl::flat_hash_map<int32_t, int32_t>;
CallerMap CallerOfWelded(const MeshTopology& topology,
                         absl::Span<const int32_t> triangles) {
  CallerMap caller;
  for (int32_t f : triangles) {
    for (int32_t v : topology.triangles()[f]) {
      caller.emplace(topology.welded_vertex(v), v);
    }
  }
  return caller;
}

double WrapAngle(double angle) {
  angle = std::fmod(angle, kTwoPi);
  return angle < 0 ? angle + kTwoPi : angle;
}

// A boundary loop's axial height as a function of angle, periodic.
class LoopHeight {
 public:
  // `angles` and `heights` of the loop's vertices in order. INVALID_ARGUMENT
  // unless the loop goes once around the axis.
  static absl::StatusOr<LoopHeight> Build(const std::vector<double>& angles,
                                          const std::vector<double>& heights) {
    double turned = 0;
    const size_t n = angles.size();
    for (size_t i = 0; i < n; ++i) {
      turned += std::remainder(angles[(i + 1) % n] - angles[i], kTwoPi);
    }
    if (std::abs(std::abs(turned) - kTwoPi) > 1e-6) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "a boundary loop turns %.3g turns around the axis, not one",
          turned / kTwoPi));
    }
    LoopHeight loop;
    for (size_t i = 0; i < n; ++i) {
      loop.samples_.push_back({WrapAngle(angles[i]), heights[i]});
    }
    std::sort(loop.samples_.begin(), loop.samples_.end());
    return loop;
  }
  double At(double angle) const {
    const auto it = std::lower_bound(samples_.begin(), samples_.end(),
                                     std::pair<double, double>{angle, -1e300});
    const auto& hi = it == samples_.end() ? samples_.front() : *it;
    const auto& lo = it == samples_.begin() ? samples_.back() : *(it - 1);
    double span = hi.first - lo.first;
    double from_lo = angle - lo.first;
    if (span <= 0) span += kTwoPi;
    if (from_lo < 0) from_lo += kTwoPi;
    if (span <= 0) return lo.second;
    return lo.second + (hi.second - lo.second) * from_lo / span;
  }

 private:
  std::vector<std::pair<double, double>> samples_;
};

// Fills the tube's axis (from the loops when not described) and radius.
absl::Status PlaceAxis(const std::vector<std::vector<int32_t>>& loops,
                       const CallerMap& caller,
                       absl::Span<const float> positions,
                       const TubeDescription* description, Tube* tube) {
  Eigen::Vector3d centroid[2];
  for (int i = 0; i < 2; ++i) {
    centroid[i].setZero();
    for (int32_t w : loops[i]) centroid[i] += Position(positions, caller.at(w));
    centroid[i] /= static_cast<double>(loops[i].size());
  }
  if (description != nullptr && description->axis_direction) {
    const Eigen::Vector3d d = *description->axis_direction;
    if (!d.allFinite() || d.norm() < 1e-12) {
      return absl::InvalidArgumentError("its axis direction is zero");
    }
    tube->axis_direction = d.normalized();
    tube->axis_origin = description->axis_origin.value_or(centroid[0]);
  } else {
    const Eigen::Vector3d d = centroid[1] - centroid[0];
    if (d.norm() < 1e-12) {
      return absl::InvalidArgumentError(
          "its two boundary loops have one centroid: give the axis");
    }
    tube->axis_direction = d.normalized();
    tube->axis_origin = centroid[0];
  }
  const Eigen::Vector3d& axis = tube->axis_direction;
  Eigen::Vector3d zero =
      Position(positions, caller.at(loops[0][0])) - tube->axis_origin;
  zero -= zero.dot(axis) * axis;
  if (zero.norm() < 1e-12) zero = axis.unitOrthogonal();
  tube->angle_zero = zero.normalized();
  return absl::OkStatus();
}

// The chart coordinates of the tube's welded vertices (angle in [0, 2 pi),
// normalised height), or why there is none.
absl::Status ChartVertices(const MeshTopology& topology,
                           absl::Span<const float> positions,
                           const std::vector<std::vector<int32_t>>& loops,
                           Tube* tube,
                           absl::flat_hash_map<int32_t, Eigen::Vector2d>* uv) {
  const Eigen::Vector3d& d = tube->axis_direction;
  const Eigen::Vector3d e2 = d.cross(tube->angle_zero);
  const auto polar = [&](const Eigen::Vector3d& p, double* radius) {
    const Eigen::Vector3d q = p - tube->axis_origin;
    const Eigen::Vector3d radial = q - q.dot(d) * d;
    *radius = radial.norm();
    return Eigen::Vector2d(
        WrapAngle(std::atan2(radial.dot(e2), radial.dot(tube->angle_zero))),
        q.dot(d));
  };
  const CallerMap caller = CallerOfWelded(topology, tube->triangles);
  LoopHeight ends[2];
  for (int i = 0; i < 2; ++i) {
    std::vector<double> angles, heights;
    for (int32_t w : loops[i]) {
      double radius;
      const Eigen::Vector2d ah =
          polar(Position(positions, caller.at(w)), &radius);
      angles.push_back(ah.x());
      heights.push_back(ah.y());
    }
    absl::StatusOr<LoopHeight> loop = LoopHeight::Build(angles, heights);
    if (!loop.ok()) return loop.status();
    ends[i] = *std::move(loop);
  }
  absl::flat_hash_set<int32_t> loop_vertex[2] = {
      {loops[0].begin(), loops[0].end()}, {loops[1].begin(), loops[1].end()}};
  double radius_sum = 0;
  for (int32_t f : tube->triangles) {
    for (int32_t v : topology.triangles()[f]) {
      const int32_t w = topology.welded_vertex(v);
      if (uv->contains(w)) continue;
      double radius;
      const Eigen::Vector2d ah = polar(Position(positions, v), &radius);
      if (radius < 1e-9) {
        return absl::InvalidArgumentError(
            absl::StrFormat("vertex %d lies on the axis", v));
      }
      radius_sum += radius;
      const double low = ends[0].At(ah.x()), high = ends[1].At(ah.x());
      if (!(high - low > 1e-12)) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "its loops do not follow each other along the axis at vertex %d",
            v));
      }
      double height = (ah.y() - low) / (high - low);
      if (loop_vertex[0].contains(w)) height = 0;
      if (loop_vertex[1].contains(w)) height = 1;
      if (height < -1e-6 || height > 1 + 1e-6) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "vertex %d lies beyond its boundary loops along the axis", v));
      }
      (*uv)[w] = {ah.x(), std::clamp(height, 0.0, 1.0)};
    }
  }
  tube->mean_radius = radius_sum / static_cast<double>(uv->size());
  return absl::OkStatus();
}

double SignedArea(const Eigen::Vector2d (&c)[3]) {
  return 0.5 * ((c[1] - c[0]).x() * (c[2] - c[0]).y() -
                (c[1] - c[0]).y() * (c[2] - c[0]).x());
}

// The barycentric weights of p in c (may be negative outside).
Eigen::Vector3d Barycentric(const Eigen::Vector2d (&c)[3],
                            const Eigen::Vector2d& p) {
  const Eigen::Vector2d e1 = c[1] - c[0], e2 = c[2] - c[0], q = p - c[0];
  const double det = e1.x() * e2.y() - e1.y() * e2.x();
  const double b1 = (q.x() * e2.y() - q.y() * e2.x()) / det;
  const double b2 = (e1.x() * q.y() - e1.y() * q.x()) / det;
  return {1 - b1 - b2, b1, b2};
}

// A chart triangle's bounding box.
std::pair<Eigen::Vector2d, Eigen::Vector2d> Bounds(const auto& t) {
  Eigen::Vector2d lo = t.corners[0], hi = t.corners[0];
  for (const Eigen::Vector2d& c : t.corners) {
    lo = lo.cwiseMin(c);
    hi = hi.cwiseMax(c);
  }
  return {lo, hi};
}

// Puts first the loop at the axis origin's end (the lower mean height along
// the axis).
void OrderLoopsAlongAxis(const MeshTopology& topology,
                         absl::Span<const float> rest_positions,
                         const Tube& tube,
                         std::vector<std::vector<int32_t>>* loops) {
  const CallerMap caller = CallerOfWelded(topology, tube.triangles);
  const auto mean_height = [&](const std::vector<int32_t>& loop) {
    double sum = 0;
    for (int32_t w : loop) {
      sum += (Position(rest_positions, caller.at(w)) - tube.axis_origin)
                 .dot(tube.axis_direction);
    }
    return sum / static_cast<double>(loop.size());
  };
  if (mean_height((*loops)[0]) > mean_height((*loops)[1])) {
    std::swap((*loops)[0], (*loops)[1]);
  }
}

absl::StatusOr<Tube> ValidateTube(const MeshTopology& topology,
                                  absl::Span<const float> positions,
                                  std::vector<int32_t> triangles,
                                  const TubeDescription* description) {
  std::vector<std::vector<int32_t>> loops;
  if (absl::Status s = CheckAnnulus(topology, triangles, &loops); !s.ok()) {
    return s;
  }
  if (description != nullptr && description->axis_origin.has_value() !=
                                    description->axis_direction.has_value()) {
    return absl::InvalidArgumentError(
        "its axis needs both an origin and a direction");
  }
  Tube tube;
  tube.triangles = std::move(triangles);
  if (absl::Status s =
          PlaceAxis(loops, CallerOfWelded(topology, tube.triangles), positions,
                    description, &tube);
      !s.ok()) {
    return s;
  }
  // The first loop is the one nearer the axis origin's side.
  absl::StatusOr<TubeChart> chart = TubeChart::Build(topology, positions, tube);
  if (!chart.ok()) return chart.status();
  return tube;
}

}  // namespace

absl::StatusOr<TubeChart> TubeChart::Build(
    const MeshTopology& topology, absl::Span<const float> rest_positions,
    const Tube& tube) {
  std::vector<std::vector<int32_t>> loops;
  if (absl::Status s = CheckAnnulus(topology, tube.triangles, &loops);
      !s.ok()) {
    return s;
  }
  OrderLoopsAlongAxis(topology, rest_positions, tube, &loops);
  Tube placed = tube;
  absl::flat_hash_map<int32_t, Eigen::Vector2d> uv;
  if (absl::Status s =
          ChartVertices(topology, rest_positions, loops, &placed, &uv);
      !s.ok()) {
    return s;
  }
  TubeChart chart;
  double area_sum = 0;
  int orientation = 0;
  std::vector<double> widths, heights;
  for (int32_t f : tube.triangles) {
    ChartTriangle t;
    for (int k = 0; k < 3; ++k) {
      t.vertices[k] = topology.triangles()[f][k];
      t.corners[k] = uv.at(topology.welded_vertex(t.vertices[k]));
      if (k > 0) {  // unwrapped next to corner 0
        t.corners[k].x() =
            t.corners[0].x() +
            std::remainder(t.corners[k].x() - t.corners[0].x(), kTwoPi);
      }
    }
    const double area = SignedArea(t.corners);
    const int sign = area > 0 ? 1 : -1;
    if (std::abs(area) < 1e-12 || (orientation != 0 && sign != orientation)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "triangle %d folds back in its angle-height chart (the part is not "
          "a tube around its axis)",
          f));
    }
    orientation = sign;
    area_sum += std::abs(area);
    chart.triangles_.push_back(t);
    const auto [lo, hi] = Bounds(t);
    widths.push_back(hi.x() - lo.x());
    heights.push_back(hi.y() - lo.y());
  }
  if (absl::Status s = chart.BuildGrid(std::move(widths), std::move(heights));
      !s.ok()) {
    return s;
  }
  // One-to-one onto the annulus: the chart's triangles cover [0, 2 pi) x
  // [0, 1] once.
  if (std::abs(area_sum - kTwoPi) > 1e-3 * kTwoPi) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "it wraps %.3g times around its axis, not once (it folds over itself)",
        area_sum / kTwoPi));
  }
  return chart;
}

absl::Status TubeChart::BuildGrid(std::vector<double> widths,
                                  std::vector<double> heights) {
  // About one cell a typical triangle, so a regular tube costs a few entries
  // a triangle whatever its rows and columns.
  const auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return std::max(v[v.size() / 2], 1e-9);
  };
  // Clamped before the cast: a tiny median would overflow an int.
  columns_ = static_cast<int>(
      std::lround(std::clamp(kTwoPi / median(widths), 1.0, double{kMaxCells})));
  rows_ = static_cast<int>(
      std::lround(std::clamp(1 / median(heights), 1.0, double{kMaxCells})));
  cells_.resize(static_cast<size_t>(columns_) * rows_);
  int64_t entries = 0;
  for (int32_t index = 0; index < static_cast<int32_t>(triangles_.size());
       ++index) {
    const auto [lo, hi] = Bounds(triangles_[index]);
    const int x0 = static_cast<int>(std::floor(lo.x() / kTwoPi * columns_));
    const int x1 =
        std::min(static_cast<int>(std::floor(hi.x() / kTwoPi * columns_)),
                 x0 + columns_ - 1);
    const int y0 = std::clamp(static_cast<int>(lo.y() * rows_), 0, rows_ - 1);
    const int y1 = std::clamp(static_cast<int>(hi.y() * rows_), 0, rows_ - 1);
    // Slivers that each cross much of the chart would make the lookup grid
    // quadratic in memory: a tube of them is refused.
    entries += static_cast<int64_t>(x1 - x0 + 1) * (y1 - y0 + 1);
    if (entries >
        kMaxEntriesPerTriangle * static_cast<int64_t>(triangles_.size())) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "its triangles are too long and thin in its angle-height chart "
          "(over %d lookup cells each)",
          kMaxEntriesPerTriangle));
    }
    for (int x = x0; x <= x1; ++x) {
      const int column = ((x % columns_) + columns_) % columns_;
      for (int y = y0; y <= y1; ++y) {
        cells_[static_cast<size_t>(y) * columns_ + column].push_back(index);
      }
    }
  }
  return absl::OkStatus();
}

SurfacePoint TubeChart::Locate(double angle, double height) const {
  angle = WrapAngle(angle);
  height = std::clamp(height, 0.0, 1.0);
  const int x =
      std::min(static_cast<int>(angle / kTwoPi * columns_), columns_ - 1);
  const int y = std::min(static_cast<int>(height * rows_), rows_ - 1);
  const auto point = [&](const ChartTriangle& t, const Eigen::Vector3d& b) {
    SurfacePoint p;
    for (int k = 0; k < 3; ++k) {
      p.vertices[k] = t.vertices[k];
      p.weights[k] = static_cast<float>(std::clamp(b[k], 0.0, 1.0));
    }
    const float sum = p.weights[0] + p.weights[1] + p.weights[2];
    for (float& w : p.weights) w /= sum;
    return p;
  };
  double best_miss = 1e300;
  const ChartTriangle* best = nullptr;
  Eigen::Vector3d best_b;
  const auto consider = [&](const ChartTriangle& t) {
    for (double shift : {0.0, kTwoPi, -kTwoPi}) {
      const Eigen::Vector3d b =
          Barycentric(t.corners, Eigen::Vector2d(angle + shift, height));
      const double miss = -std::min({b[0], b[1], b[2], 0.0});
      if (miss < best_miss) {
        best_miss = miss;
        best = &t;
        best_b = b;
      }
    }
  };
  for (int32_t i : cells_[static_cast<size_t>(y) * columns_ + x]) {
    consider(triangles_[i]);
  }
  if (best_miss > 1e-9) {
    for (const ChartTriangle& t : triangles_) consider(t);
  }
  return point(*best, best_b);
}

absl::StatusOr<std::vector<int32_t>> TrianglesBetweenRings(
    const MeshTopology& topology, absl::Span<const int32_t> ring_a,
    absl::Span<const int32_t> ring_b, absl::flat_hash_set<int32_t>* owned) {
  // Each ring as the set of its edges' triangles (welded edge -> faces).
  absl::flat_hash_set<int32_t> ring_edges;
  std::vector<int32_t> seeds[2];
  const absl::Span<const int32_t> rings[2] = {ring_a, ring_b};
  for (int r = 0; r < 2; ++r) {
    const char* name = r == 0 ? "ring_a" : "ring_b";
    const absl::Span<const int32_t> ring = rings[r];
    if (ring.size() < 3) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: %d vertices, need 3 or more", name, ring.size()));
    }
    // Each vertex once (so a ring costs at most its vertices' triangles).
    absl::flat_hash_set<int32_t> seen;
    for (int32_t v : ring) {
      if (v >= 0 && v < topology.num_vertices() &&
          !seen.insert(topology.welded_vertex(v)).second) {
        return absl::InvalidArgumentError(
            absl::StrFormat("%s: vertex %d appears twice", name, v));
      }
    }
    for (size_t i = 0; i < ring.size(); ++i) {
      const int32_t a = ring[i], b = ring[(i + 1) % ring.size()];
      if (a < 0 || a >= topology.num_vertices()) {
        return absl::InvalidArgumentError(
            absl::StrFormat("%s: vertex %d is out of range (the mesh has %d)",
                            name, a, topology.num_vertices()));
      }
      if (b < 0 || b >= topology.num_vertices()) continue;  // reported next
      const int32_t wa = topology.welded_vertex(a),
                    wb = topology.welded_vertex(b);
      bool found = false;
      for (int32_t f : topology.vertex_faces(wa)) {
        for (int k = 0; k < 3; ++k) {
          const io::Triangle& t = topology.triangles()[f];
          const int32_t e = topology.face_edges(f)[k];
          const int32_t u = topology.welded_vertex(t[k]);
          const int32_t v = topology.welded_vertex(t[(k + 1) % 3]);
          if (e >= 0 && ((u == wa && v == wb) || (u == wb && v == wa))) {
            found = true;
            ring_edges.insert(e);
            seeds[r].push_back(f);
          }
        }
      }
      if (!found) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "%s: vertices %d and %d are consecutive but share no edge", name, a,
            b));
      }
    }
  }
  // From each triangle beside ring_a, the region bounded by both rings; the
  // first that reaches a triangle beside ring_b.
  const absl::flat_hash_set<int32_t> beside_b(seeds[1].begin(), seeds[1].end());
  absl::flat_hash_set<int32_t> tried;
  for (int32_t seed : seeds[0]) {
    if (tried.contains(seed)) continue;
    if (owned != nullptr && owned->contains(seed)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "the part beside ring_a (triangle %d) is already in another tube",
          seed));
    }
    std::vector<int32_t> region, stack = {seed};
    absl::flat_hash_set<int32_t> in_region = {seed};
    bool reaches_b = false;
    while (!stack.empty()) {
      const int32_t f = stack.back();
      stack.pop_back();
      region.push_back(f);
      reaches_b = reaches_b || beside_b.contains(f);
      for (int k = 0; k < 3; ++k) {
        const int32_t g = topology.face_neighbors(f)[k];
        if (g < 0 || ring_edges.contains(topology.face_edges(f)[k])) continue;
        if (in_region.insert(g).second) stack.push_back(g);
      }
    }
    tried.insert(region.begin(), region.end());
    if (reaches_b) {
      std::sort(region.begin(), region.end());
      if (owned != nullptr) owned->insert(region.begin(), region.end());
      return region;
    }
  }
  return absl::InvalidArgumentError(
      "ring_a and ring_b bound no part of the mesh between them");
}

absl::StatusOr<std::vector<Tube>> FindTubes(
    const MeshTopology& topology, absl::Span<const float> rest_positions,
    absl::Span<const TubeDescription> descriptions) {
  std::vector<Tube> tubes;
  if (!descriptions.empty()) {
    if (descriptions.size() > kMaxTubes) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%d tubes described, over %d", descriptions.size(), kMaxTubes));
    }
    // Rings first become the triangles between them; a ring pair whose part
    // another description holds is refused before its part is filled.
    std::vector<TubeDescription> resolved(descriptions.begin(),
                                          descriptions.end());
    absl::flat_hash_set<int32_t> owned;
    for (const TubeDescription& d : resolved) {
      owned.insert(d.triangles.begin(), d.triangles.end());
    }
    for (size_t i = 0; i < resolved.size(); ++i) {
      TubeDescription& d = resolved[i];
      if (d.ring_a.empty() && d.ring_b.empty()) continue;
      if (!d.triangles.empty() || d.ring_a.empty() || d.ring_b.empty()) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "tube %d: give its triangles or two rings (ring_a and ring_b), "
            "not both",
            i));
      }
      absl::StatusOr<std::vector<int32_t>> between =
          TrianglesBetweenRings(topology, d.ring_a, d.ring_b, &owned);
      if (!between.ok()) {
        return absl::InvalidArgumentError(
            absl::StrFormat("tube %d: %s", i, between.status().message()));
      }
      d.triangles = *std::move(between);
    }
    descriptions = resolved;
    if (absl::Status s = CheckTubeTopology(topology, descriptions); !s.ok()) {
      return s;
    }
    for (size_t i = 0; i < descriptions.size(); ++i) {
      absl::StatusOr<Tube> tube =
          ValidateTube(topology, rest_positions, descriptions[i].triangles,
                       &descriptions[i]);
      if (!tube.ok()) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "tube %d is not a tube: %s", i, tube.status().message()));
      }
      tubes.push_back(*std::move(tube));
    }
    return tubes;
  }
  // Every connected part; the open tubes among them.
  std::vector<int32_t> part(topology.num_triangles(), -1);
  std::string rejected;
  int parts = 0;
  for (int32_t seed = 0; seed < topology.num_triangles(); ++seed) {
    if (part[seed] >= 0 || topology.face_edges(seed)[0] < 0) continue;
    std::vector<int32_t> triangles, stack = {seed};
    part[seed] = parts;
    while (!stack.empty()) {
      const int32_t f = stack.back();
      stack.pop_back();
      triangles.push_back(f);
      for (int32_t g : topology.face_neighbors(f)) {
        if (g >= 0 && part[g] < 0) {
          part[g] = parts;
          stack.push_back(g);
        }
      }
    }
    std::sort(triangles.begin(), triangles.end());
    absl::StatusOr<Tube> tube =
        ValidateTube(topology, rest_positions, std::move(triangles), nullptr);
    if (tube.ok()) {
      if (tubes.size() == kMaxTubes) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "more than %d parts of the mesh are open tubes; describe the "
            "ones to fold",
            kMaxTubes));
      }
      tubes.push_back(*std::move(tube));
    } else if (parts < 3) {
      absl::StrAppendFormat(&rejected, "; part %d (from triangle %d): %s",
                            parts, seed, tube.status().message());
    }
    ++parts;
  }
  if (tubes.empty()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "no part of the mesh is an open tube between two boundary loops (%d "
        "parts%s); describe the tubes",
        parts, rejected));
  }
  return tubes;
}

absl::Status CheckTubeTopology(const MeshTopology& topology,
                               absl::Span<const TubeDescription> descriptions) {
  absl::flat_hash_map<int32_t, size_t> owner;
  for (size_t i = 0; i < descriptions.size(); ++i) {
    for (int32_t f : descriptions[i].triangles) {
      if (const auto [it, fresh] = owner.emplace(f, i);
          !fresh && it->second != i) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "tube %d: triangle %d is already in tube %d", i, f, it->second));
      }
    }
  }
  for (size_t i = 0; i < descriptions.size(); ++i) {
    std::vector<std::vector<int32_t>> loops;
    if (absl::Status s =
            CheckAnnulus(topology, descriptions[i].triangles, &loops);
        !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("tube %d is not a tube: %s", i, s.message()));
    }
  }
  return absl::OkStatus();
}

}  // namespace crease
