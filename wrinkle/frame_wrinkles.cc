#include "wrinkle/frame_wrinkles.h"

#include <cmath>

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

}  // namespace

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
  if (!(wrinkles.min_width > 0) || !std::isfinite(wrinkles.min_width)) {
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

}  // namespace crease
