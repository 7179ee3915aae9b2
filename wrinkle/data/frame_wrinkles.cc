#include "wrinkle/data/frame_wrinkles.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_format.h"

namespace crease {
namespace {

// Offsets of a CSR list: `count` + 1 entries from 0 to `size`, none smaller
// than the one before.
absl::Status CheckOffsets(absl::Span<const int32_t> offsets, size_t count,
                          size_t size, const char* name) {
  if (offsets.size() != count + 1) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %d entries for %d items", name, offsets.size(), count));
  }
  if (offsets.front() != 0 || static_cast<size_t>(offsets.back()) != size) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: run from %d to %d, not 0 to %d", name,
                        offsets.front(), offsets.back(), size));
  }
  for (size_t i = 0; i < count; ++i) {
    if (offsets[i + 1] < offsets[i]) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: entry %d decreases", name, i + 1));
    }
  }
  return absl::OkStatus();
}

// Segments whose points one wrinkle holds, at samples_per_segment each.
int32_t SegmentsHeld(const FrameWrinkles& wrinkles, int w) {
  const int32_t n = wrinkles.point_offsets[w + 1] - wrinkles.point_offsets[w];
  return n < 2 ? 0 : (n - 1) / wrinkles.samples_per_segment(w);
}

// Squared distance from p to segment ab.
double SegmentDistanceSq(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                         const Eigen::Vector3d& b) {
  const Eigen::Vector3d ab = b - a;
  const double length2 = ab.squaredNorm();
  const double t =
      length2 > 0 ? std::clamp((p - a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (a + t * ab - p).squaredNorm();
}

// Largest distance of refined points strictly between first and last from
// the chord joining those two.
double ChordDeviation(absl::Span<const RefinedPoint> r, size_t first,
                      size_t last) {
  const Eigen::Vector3d a = r[first].position;
  const Eigen::Vector3d ab = r[last].position - a;
  const double length2 = ab.squaredNorm();
  double worst = 0;
  for (size_t i = first + 1; i < last; ++i) {
    const Eigen::Vector3d ap = r[i].position - a;
    const double t =
        length2 > 0 ? std::clamp(ap.dot(ab) / length2, 0.0, 1.0) : 0.0;
    worst = std::max(worst, (ap - t * ab).norm());
  }
  return worst;
}

// Every `stride`-th refined point of one wrinkle (its last point always
// kept) stays within `tolerance` times its narrowest width of the points it
// skips.
bool StrideFits(absl::Span<const RefinedPoint> r, size_t stride,
                double tolerance) {
  double narrowest = std::numeric_limits<double>::infinity();
  for (const RefinedPoint& p : r) narrowest = std::min(narrowest, p.width);
  for (size_t i = 0; i + 1 < r.size(); i += stride) {
    const size_t last = std::min(i + stride, r.size() - 1);
    if (ChordDeviation(r, i, last) > tolerance * narrowest) {
      return false;
    }
  }
  return true;
}

}  // namespace

Eigen::Vector3d WrinkleBisector(absl::Span<const RefinedPoint> refined,
                                size_t i) {
  const Eigen::Vector3d& p = refined[i].position;
  Eigen::Vector3d before = Eigen::Vector3d::Zero();
  Eigen::Vector3d after = Eigen::Vector3d::Zero();
  for (size_t j = i; j-- > 0;) {
    if (refined[j].position != p) {
      before = (p - refined[j].position).normalized();
      break;
    }
  }
  for (size_t j = i + 1; j < refined.size(); ++j) {
    if (refined[j].position != p) {
      after = (refined[j].position - p).normalized();
      break;
    }
  }
  Eigen::Vector3d s = before + after;
  if (s.squaredNorm() < 1e-12) s = after.squaredNorm() > 0 ? after : before;
  if (s.squaredNorm() > 0) s.normalize();
  return s;
}

void ListTrianglesReached(absl::Span<const float> positions,
                          absl::Span<const std::array<int32_t, 3>> triangles,
                          FrameWrinkles* wrinkles) {
  wrinkles->range_offsets.assign(1, 0);
  wrinkles->ranges.clear();
  if (!(wrinkles->min_width > 0)) {
    // No wrinkle is narrower than L_min, and the narrowest usually is L_min.
    for (const RefinedPoint& p : wrinkles->points) {
      if (p.width > 0 &&
          (!(wrinkles->min_width > 0) || p.width < wrinkles->min_width)) {
        wrinkles->min_width = p.width;
      }
    }
  }
  auto vertex = [&](int32_t v) {
    return Eigen::Vector3d(positions[3 * v], positions[3 * v + 1],
                           positions[3 * v + 2]);
  };
  for (const std::array<int32_t, 3>& t : triangles) {
    const Eigen::Vector3d a = vertex(t[0]), b = vertex(t[1]), c = vertex(t[2]);
    const Eigen::Vector3d centre = (a + b + c) / 3.0;
    const double radius = std::sqrt(
        std::max({(a - centre).squaredNorm(), (b - centre).squaredNorm(),
                  (c - centre).squaredNorm()}));
    for (int w = 0; w < wrinkles->num_wrinkles(); ++w) {
      const absl::Span<const RefinedPoint> refined = wrinkles->refined(w);
      const int32_t k = wrinkles->samples_per_segment(w);
      const int32_t segments =
          refined.size() < 2 ? 0 : static_cast<int32_t>(refined.size() - 1) / k;
      int32_t first = -1, last = -1;
      for (int32_t s = 0; s < segments; ++s) {
        double reach = 0;
        for (int32_t i = s * k; i <= (s + 1) * k; ++i) {
          reach = std::max(reach, 0.5 * SupportWidth(refined[i]));
        }
        // A hair more, so rounding never drops a triangle at the limit.
        const double limit = (reach + radius) * 1.0001 + 1e-9;
        bool near = false;
        for (int32_t i = s * k; i < (s + 1) * k && !near; ++i) {
          near = SegmentDistanceSq(centre, refined[i].position,
                                   refined[i + 1].position) <= limit * limit;
        }
        if (!near) continue;
        if (first < 0) first = s;
        last = s;
      }
      if (first >= 0) wrinkles->ranges.push_back({w, first, last});
    }
    wrinkles->range_offsets.push_back(
        static_cast<int32_t>(wrinkles->ranges.size()));
  }
}

void FrameWrinkles::Clear() {
  points.clear();
  point_offsets.clear();
  segments.clear();
  range_offsets.clear();
  ranges.clear();
  min_width = 0;
}

absl::Status ValidateFrameWrinkles(const FrameWrinkles& wrinkles,
                                   size_t num_triangles) {
  if (wrinkles.range_offsets.empty()) return absl::OkStatus();
  if (!wrinkles.points.empty() &&
      (!(wrinkles.min_width > 0) || !std::isfinite(wrinkles.min_width))) {
    return absl::InvalidArgumentError(
        absl::StrFormat("wrinkles: min_width %g is not positive and finite",
                        wrinkles.min_width));
  }
  const size_t count = wrinkles.segments.size();
  if (absl::Status s =
          CheckOffsets(wrinkles.point_offsets, count, wrinkles.points.size(),
                       "wrinkles: point offsets");
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckOffsets(wrinkles.range_offsets, num_triangles,
                       wrinkles.ranges.size(), "wrinkles: triangle lists");
      !s.ok()) {
    return s;
  }
  for (size_t i = 0; i < wrinkles.points.size(); ++i) {
    const RefinedPoint& p = wrinkles.points[i];
    if (!p.position.allFinite() || !std::isfinite(p.width) ||
        !std::isfinite(p.height) || p.width < 0 || p.height < 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "wrinkles: point %d is not finite with non-negative width and height",
          i));
    }
  }
  for (size_t r = 0; r < wrinkles.ranges.size(); ++r) {
    const TriangleWrinkleRange& range = wrinkles.ranges[r];
    if (range.wrinkle < 0 || static_cast<size_t>(range.wrinkle) >= count ||
        range.first_segment < 0 || range.last_segment < range.first_segment ||
        range.last_segment >= SegmentsHeld(wrinkles, range.wrinkle)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "wrinkles: range %d (wrinkle %d, segments %d..%d) is not in the "
          "frame's wrinkles",
          r, range.wrinkle, range.first_segment, range.last_segment));
    }
  }
  return absl::OkStatus();
}

void ThinRefinedPoints(const FrameWrinkles& in, double tolerance,
                       FrameWrinkles* out) {
  out->points.clear();
  out->point_offsets.assign(1, 0);
  out->segments = in.segments;
  out->range_offsets = in.range_offsets;
  out->ranges = in.ranges;
  out->min_width = in.min_width;
  for (int w = 0; w < in.num_wrinkles(); ++w) {
    const absl::Span<const RefinedPoint> r = in.refined(w);
    const size_t k = static_cast<size_t>(in.samples_per_segment(w));
    size_t stride = 1;
    // The stride must also divide the point count less one, so the last
    // point is kept: a client's points need not fill whole segments.
    while (k % (2 * stride) == 0 && r.size() > 1 &&
           (r.size() - 1) % (2 * stride) == 0 &&
           StrideFits(r, 2 * stride, tolerance)) {
      stride *= 2;
    }
    for (size_t i = 0; i < r.size(); i += stride) out->points.push_back(r[i]);
    out->point_offsets.push_back(static_cast<int32_t>(out->points.size()));
  }
}

}  // namespace crease
