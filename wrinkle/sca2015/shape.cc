#include "wrinkle/sca2015/shape.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace crease {
namespace {

double Smoothstep(double u) {
  u = std::clamp(u, 0.0, 1.0);
  return u * u * (3.0 - 2.0 * u);
}

}  // namespace

namespace {

// Half-angle phi in (0, phi_max] with sin(phi) / phi = ratio, by Newton from a
// start that is exact to second order near ratio = 1.
double HalfAngle(double ratio, double phi_start) {
  if (ratio >= 1.0) return 0.0;
  double phi = phi_start;
  for (int it = 0; it < 60; ++it) {
    const double g = std::sin(phi) - ratio * phi;
    const double dg = std::cos(phi) - ratio;
    if (dg == 0) break;
    const double step = g / dg;
    phi -= step;
    if (std::abs(step) < 1e-15) break;
  }
  return phi;
}

}  // namespace

ArcHeightTable::ArcHeightTable(int samples) {
  phi_max_ = HalfAngle(1.0 / std::numbers::pi, 2.3);
  q_max_ = std::sqrt(1.0 - 1.0 / std::numbers::pi);
  samples_per_q_ = (samples - 1) / q_max_;
  height_per_width_.resize(samples);
  for (int i = 0; i < samples; ++i) {
    const double q = q_max_ * i / (samples - 1);
    const double ratio = 1.0 - q * q;
    const double phi =
        i == samples - 1 ? phi_max_
                         : HalfAngle(ratio, std::min(std::sqrt(6.0) * q, 2.3));
    height_per_width_[i] = 0.5 * std::tan(0.5 * phi);
  }
}

double ArcHeightTable::HeightPerWidth(double width_over_arc) const {
  const double r = std::clamp(width_over_arc, 1.0 / std::numbers::pi, 1.0);
  const double x = std::sqrt(1.0 - r) * samples_per_q_;
  const size_t lo =
      std::min(static_cast<size_t>(x), height_per_width_.size() - 2);
  const double s = x - lo;
  return height_per_width_[lo] +
         s * (height_per_width_[lo + 1] - height_per_width_[lo]);
}

double MidWidth(double max_compression, double min_width) {
  const double max_width = std::numbers::pi * min_width;
  return std::clamp(max_width / std::max(max_compression, 1.0), min_width,
                    max_width);
}

namespace {
constexpr double kRoundingOfOne = 1e-9;
}  // namespace

double BandExtent(const SurfaceFrame& surface, const WrinklePath& path,
                  const std::vector<int32_t>& wrinkles_in_face) {
  double weighted_extent = 0, weight = 0;
  for (int32_t f : path.faces) {
    const StretchTensor& t = surface.field[f];
    const double w = t.compression - 1.0;
    // A triangle back at its reference shape reads 1 give or take rounding
    // (its singular values are those of about the identity): no band.
    if (t.degenerate || !(w > kRoundingOfOne)) continue;
    double lo = 0, hi = 0;
    for (int k = 0; k < 3; ++k) {
      const double x = surface.Corner(f, k).dot(t.compression_dir);
      lo = k == 0 ? x : std::min(lo, x);
      hi = k == 0 ? x : std::max(hi, x);
    }
    weighted_extent += w * (hi - lo) / std::max(1, wrinkles_in_face[f]);
    weight += w;
  }
  return weight > 0 ? weighted_extent / weight : 0.0;
}

FoldSection FoldAtMiddle(double compression, double min_width,
                         double band_extent, const FoldLimits& limits) {
  const double max_width = std::numbers::pi * min_width;
  const double rule_width = MidWidth(compression, min_width);
  if (!(band_extent > 0)) return {rule_width, max_width};
  const double thesis_slack = max_width - rule_width;
  const double band_slack = band_extent * (std::max(compression, 1.0) - 1);
  if (!(band_slack > thesis_slack)) return {rule_width, max_width};
  // An arc of 2 phi has the chord r = sin(phi) / phi of its length; holding
  // the slack S in such an arc takes the chord L = S r / (1 - r).
  const double phi =
      std::clamp(limits.max_arc_degrees, 1.0, 180.0) * std::numbers::pi / 360.0;
  const double ratio = std::sin(phi) / phi;
  const double widest =
      std::max(rule_width, std::min(band_extent, limits.max_width * min_width));
  const double width =
      std::clamp(band_slack * ratio / (1.0 - ratio), rule_width, widest);
  // A fold capped in width shows no more slack than the arc limit holds: the
  // rest of its band's slack would be further folds, not a taller one.
  const double slack =
      std::max(thesis_slack, std::min(band_slack, width * (1 / ratio - 1)));
  return {width, width + slack};
}

void ShapePath(const SurfaceFrame& surface, const WrinklePath& path,
               double min_width, const ArcHeightTable& table,
               int samples_per_segment, WrinkleShape* shape,
               double max_compression, double band_extent,
               const FoldLimits& limits) {
  const int n = static_cast<int>(path.points.size());
  const int k = std::max(1, samples_per_segment);
  shape->max_compression = 1.0;
  if (max_compression >= 1.0) {
    shape->max_compression = max_compression;
  } else {
    for (int32_t f : path.faces) {
      shape->max_compression =
          std::max(shape->max_compression, surface.field[f].compression);
    }
  }
  const double max_width = std::numbers::pi * min_width;
  const FoldSection middle =
      FoldAtMiddle(shape->max_compression, min_width, band_extent, limits);
  shape->mid_width = middle.width;
  const double slack = middle.arc - middle.width;
  // Before sizing: k (n - 1) + 1 wraps around for an empty path.
  if (n < 2) {
    shape->refined.clear();
    shape->length = 0;
    return;
  }
  shape->refined.resize(static_cast<size_t>(k) * (n - 1) + 1);
  // Tangents: averaged across edges, the segment's own direction at the ends.
  auto point = [&](int i) { return surface.Position(path.points[i]); };
  Eigen::Vector3d prev_tangent = (point(1) - point(0)).normalized();
  for (int i = 0; i + 1 < n; ++i) {
    const Eigen::Vector3d a = point(i), b = point(i + 1);
    const Eigen::Vector3d seg = b - a;
    const double len = seg.norm();
    const Eigen::Vector3d dir =
        len > 0 ? Eigen::Vector3d(seg / len) : prev_tangent;
    const Eigen::Vector3d tangent_a = i == 0 ? dir : prev_tangent;
    Eigen::Vector3d tangent_b = dir;
    if (i + 2 < n) {
      const Eigen::Vector3d next_seg = point(i + 2) - b;
      const double next_len = next_seg.norm();
      if (next_len > 0) {
        const Eigen::Vector3d sum = dir + next_seg / next_len;
        if (sum.squaredNorm() > 1e-12) tangent_b = sum.normalized();
      }
    }
    const Eigen::Vector3d c1 = a + (len / 3.0) * tangent_a;
    const Eigen::Vector3d c2 = b - (len / 3.0) * tangent_b;
    for (int s = 0; s < k; ++s) {
      const double u = static_cast<double>(s) / k, v = 1.0 - u;
      shape->refined[i * k + s].position = v * v * v * a + 3 * v * v * u * c1 +
                                           3 * v * u * u * c2 + u * u * u * b;
    }
    prev_tangent = tangent_b;
  }
  shape->refined.back().position = point(n - 1);

  // Widths from the arc-length midpoint; heights from widths through the arc
  // table.
  double total = 0;
  for (size_t i = 1; i < shape->refined.size(); ++i) {
    total +=
        (shape->refined[i].position - shape->refined[i - 1].position).norm();
  }
  shape->length = total;
  const double half = 0.5 * total;
  double s = 0;
  for (size_t i = 0; i < shape->refined.size(); ++i) {
    if (i > 0)
      s += (shape->refined[i].position - shape->refined[i - 1].position).norm();
    const double u = half > 0 ? std::abs(s - half) / half : 1.0;
    const double rise = Smoothstep(u);
    const double width =
        shape->mid_width + (max_width - shape->mid_width) * rise;
    const double arc = width + slack * (1.0 - rise);
    shape->refined[i].width = width;
    shape->refined[i].height = width * table.HeightPerWidth(width / arc);
  }
  shape->mid_height =
      middle.width * table.HeightPerWidth(middle.width / middle.arc);
}

void BuildTriangleRanges(const SurfaceFrame& surface,
                         const std::vector<WrinklePath>& paths,
                         const std::vector<WrinkleShape>& shapes,
                         int samples_per_segment,
                         TriangleRangesScratch& scratch,
                         std::vector<int32_t>* offsets,
                         std::vector<TriangleWrinkleRange>* ranges) {
  const MeshTopology& topology = *surface.topology;
  const int num_faces = topology.num_triangles();
  const int k = std::max(1, samples_per_segment);
  if (scratch.stamp.size() != static_cast<size_t>(num_faces)) {
    scratch.stamp.assign(num_faces, 0);
    scratch.counter = 0;
  }
  scratch.entry_of_face.assign(num_faces, -1);
  scratch.entries.clear();
  scratch.bounds.resize(num_faces);
  for (int f = 0; f < num_faces; ++f) {
    const Eigen::Vector3d c =
        (surface.Corner(f, 0) + surface.Corner(f, 1) + surface.Corner(f, 2)) /
        3.0;
    double r2 = 0;
    for (int j = 0; j < 3; ++j)
      r2 = std::max(r2, (surface.Corner(f, j) - c).squaredNorm());
    scratch.bounds[f] << c, std::sqrt(r2);
  }
  for (size_t w = 0; w < paths.size(); ++w) {
    const WrinklePath& path = paths[w];
    const WrinkleShape& shape = shapes[w];
    const size_t entries_before = scratch.entries.size();
    for (int i = 0; i < path.num_segments(); ++i) {
      const Eigen::Vector3d a = surface.Position(path.points[i]);
      const Eigen::Vector3d b = surface.Position(path.points[i + 1]);
      double reach = 0;
      for (int s = 0; s <= k; ++s) {
        const RefinedPoint& r = shape.refined[i * k + s];
        reach =
            std::max(reach, 0.5 * SupportWidth(r) +
                                std::sqrt(SegmentDistanceSq(r.position, a, b)));
      }
      // Breadth-first over triangles whose bounding sphere comes within reach.
      ++scratch.counter;
      scratch.queue.clear();
      scratch.queue.push_back(path.faces[i]);
      scratch.stamp[path.faces[i]] = scratch.counter;
      for (size_t q = 0; q < scratch.queue.size(); ++q) {
        const int32_t f = scratch.queue[q];
        const Eigen::Vector4d& bound = scratch.bounds[f];
        const double limit = reach + bound.w();
        if (f != path.faces[i] &&
            SegmentDistanceSq(bound.head<3>(), a, b) > limit * limit) {
          continue;
        }
        // Record (or widen) this wrinkle's range in f.
        int32_t& entry = scratch.entry_of_face[f];
        if (entry >= 0 && static_cast<size_t>(entry) >= entries_before) {
          TriangleWrinkleRange& r = scratch.entries[entry].second;
          r.first_segment = std::min(r.first_segment, i);
          r.last_segment = std::max(r.last_segment, i);
        } else {
          entry = static_cast<int32_t>(scratch.entries.size());
          scratch.entries.push_back({f, {static_cast<int32_t>(w), i, i}});
        }
        for (int32_t g : topology.face_neighbors(f)) {
          if (g >= 0 && scratch.stamp[g] != scratch.counter) {
            scratch.stamp[g] = scratch.counter;
            scratch.queue.push_back(g);
          }
        }
      }
    }
  }
  // Counting sort by face into CSR.
  offsets->assign(num_faces + 1, 0);
  for (const auto& [face, range] : scratch.entries) ++(*offsets)[face + 1];
  for (int f = 0; f < num_faces; ++f) (*offsets)[f + 1] += (*offsets)[f];
  ranges->resize(scratch.entries.size());
  scratch.queue.assign(offsets->begin(), offsets->end() - 1);
  for (const auto& [face, range] : scratch.entries)
    (*ranges)[scratch.queue[face]++] = range;
}

}  // namespace crease
