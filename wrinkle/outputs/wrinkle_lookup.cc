#include "wrinkle/outputs/wrinkle_lookup.h"

#include <algorithm>
#include <cmath>

#include "wrinkle/data/profile_shared.h"
#include "wrinkle/data/wrinkle_lookup_shared.h"

namespace crease {
namespace {

glsl::vec3 Vec3(const Eigen::Vector4f& v) { return {v.x(), v.y(), v.z()}; }
glsl::vec3 Vec3(const Eigen::Vector3f& v) { return {v.x(), v.y(), v.z()}; }
Eigen::Vector3f Vector(const glsl::vec3& v) { return {v.x, v.y, v.z}; }

}  // namespace

void WrinkleLookup::Prepare(const FrameWrinkles& given) {
  // The points the renderer draws (FillWrinkleBuffers thins them alike).
  ThinRefinedPoints(given, kThinningTolerance, &thinned_);
  const FrameWrinkles& wrinkles = thinned_;
  points_.clear();
  frames_.clear();
  ranges_.clear();
  range_offsets_.assign(wrinkles.range_offsets.begin(),
                        wrinkles.range_offsets.end());
  for (int w = 0; w < wrinkles.num_wrinkles(); ++w) {
    const absl::Span<const RefinedPoint> refined = wrinkles.refined(w);
    for (size_t i = 0; i < refined.size(); ++i) {
      const RefinedPoint& r = refined[i];
      const Eigen::Vector3d s = WrinkleBisector(refined, i);
      points_.emplace_back(static_cast<float>(r.position.x()),
                           static_cast<float>(r.position.y()),
                           static_cast<float>(r.position.z()),
                           static_cast<float>(SupportWidth(r)));
      frames_.emplace_back(static_cast<float>(s.x()), static_cast<float>(s.y()),
                           static_cast<float>(s.z()),
                           static_cast<float>(r.height));
    }
  }
  // The ranges as the tracker lists them (whole path segments). The renderer
  // clips them to the segments that reach the triangle, which for points in
  // it changes nothing (docs/algorithm.md, "Per-triangle lists, clipped").
  for (const TriangleWrinkleRange& range : wrinkles.ranges) {
    const int32_t k = wrinkles.samples_per_segment(range.wrinkle);
    const int32_t start = wrinkles.point_offsets[range.wrinkle];
    const int32_t last_point = wrinkles.point_offsets[range.wrinkle + 1] - 1;
    Range r;
    r.first = start + range.first_segment * k;
    r.last = std::min(start + (range.last_segment + 1) * k, last_point);
    r.first_end = r.first == start ? r.first : -1;
    r.last_end = r.last == last_point ? r.last : -1;
    r.bounds = BoundsOf(r.first, r.last);
    ranges_.push_back(r);
  }
}

Eigen::Vector4f WrinkleLookup::BoundsOf(int32_t first, int32_t last) const {
  Eigen::Vector3f lo = points_[first].head<3>(), hi = lo;
  float widest = 0;
  for (int32_t i = first; i <= last; ++i) {
    lo = lo.cwiseMin(points_[i].head<3>());
    hi = hi.cwiseMax(points_[i].head<3>());
    widest = std::max(widest, points_[i].w());
  }
  const Eigen::Vector3f mid = 0.5f * (lo + hi);
  const float reach = 0.5f * (hi - lo).norm() + 0.5f * widest;
  // A hair larger, so a point on the boundary is never skipped by rounding.
  return {mid.x(), mid.y(), mid.z(), reach * 1.0001f + 1e-7f};
}

WrinkleLookup::Projection WrinkleLookup::Project(
    const Range& range, const Eigen::Vector3f& p) const {
  // shaders/wrinkle_field.glsl's ProjectOntoWrinkle, on these buffers.
  const glsl::vec3 at = Vec3(p);
  float best_d2 = 1e30f, width = 0, height = 0;
  glsl::vec3 q(0.0f);
  for (int32_t i = range.first; i < range.last; ++i) {
    const Eigen::Vector4f &v0 = points_[i], &v1 = points_[i + 1];
    const Eigen::Vector4f &s0 = frames_[i], &s1 = frames_[i + 1];
    glsl::ProjectOntoSegment(Vec3(v0), v0.w(), Vec3(s0), s0.w(), Vec3(v1),
                             v1.w(), Vec3(s1), s1.w(), at, 0.0f, best_d2, q,
                             width, height);
  }
  if (!(best_d2 < 1e30f)) {
    for (const int32_t end : {range.first_end, range.last_end}) {
      if (end < 0) continue;
      glsl::ProjectOntoEnd(Vec3(points_[end]), points_[end].w(),
                           frames_[end].w(), at, best_d2, q, width, height);
    }
  }
  return {best_d2, Vector(q), width, height};
}

WrinkleSample WrinkleLookup::Evaluate(int triangle, const Eigen::Vector3f& p,
                                      const Eigen::Vector3f& n) const {
  WrinkleSample sample;
  sample.normal = n;
  if (!Lists(triangle)) return sample;
  Eigen::Vector3f normal_sum = Eigen::Vector3f::Zero();
  float weight_sum = 0, crest = 0, valley = 0;
  for (int32_t r = range_offsets_[triangle]; r < range_offsets_[triangle + 1];
       ++r) {
    const Range& range = ranges_[r];
    if ((p - range.bounds.head<3>()).squaredNorm() >
        range.bounds.w() * range.bounds.w()) {
      continue;
    }
    Projection hit = Project(range, p);
    hit.height *=
        glsl::SameSheetWeight(Vec3(p), Vec3(hit.q), Vec3(n), hit.width);
    if (!(hit.width > 0) || !(hit.height > 0)) continue;
    const float half_width = 0.5f * hit.width;
    const float t = std::sqrt(hit.d2) / half_width;
    // Normals are weighed by the envelope (never negative), as the
    // shaders weigh them.
    const float weight = hit.height * WrinkleEnvelope(t);
    if (!(weight > 0)) continue;
    glsl::CombineOffset(glsl::OffsetAtDistance(hit.d2, hit.width, hit.height),
                        crest, valley);
    // The profile's slope across the wrinkle, d offset / d distance.
    const float slope = WrinkleProfileSlope(t, hit.height) / half_width;
    const Eigen::Vector3f across =
        Vector(glsl::AcrossDirection(Vec3(p), Vec3(hit.q), Vec3(n)));
    normal_sum += weight * (n - slope * across) / std::sqrt(1 + slope * slope);
    weight_sum += weight;
  }
  sample.offset = crest + valley;
  if (weight_sum > 0) {
    const float length = normal_sum.norm();
    if (length > 0) sample.normal = normal_sum / length;
  }
  return sample;
}

}  // namespace crease
