// TubeChart (tube.h): a tube's triangles laid out by angle round its axis and
// height along it, and the lookup from (angle, height) to a surface point.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "absl/strings/str_format.h"
#include "wrinkle/buckling/tube.h"
#include "wrinkle/buckling/tube_annulus.h"

namespace crease {
namespace {

using tube_internal::CallerMap;
using tube_internal::CallerOfWelded;
using tube_internal::CheckAnnulus;
using tube_internal::Position;

constexpr double kTwoPi = 2 * std::numbers::pi;

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

}  // namespace crease
