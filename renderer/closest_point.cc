#include "renderer/closest_point.h"

#include <Eigen/Geometry>
#include <algorithm>

namespace crease::renderer {

Eigen::Vector3f ClosestPointOnTriangle(const Eigen::Vector3f& p,
                                       const Eigen::Vector3f& a,
                                       const Eigen::Vector3f& b,
                                       const Eigen::Vector3f& c) {
  const Eigen::Vector3f ab = b - a, ac = c - a, ap = p - a;
  const float d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Eigen::Vector3f bp = p - b;
  const float d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const float vc = d1 * d4 - d3 * d2;
  // d1 > d3 here unless a and b coincide: then a will do (no 0 / 0).
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    return d1 > d3 ? Eigen::Vector3f(a + d1 / (d1 - d3) * ab) : a;
  }
  const Eigen::Vector3f cp = p - c;
  const float d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    return d2 > d6 ? Eigen::Vector3f(a + d2 / (d2 - d6) * ac) : a;
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const float sum = (d4 - d3) + (d5 - d6);
    return sum > 0 ? Eigen::Vector3f(b + (d4 - d3) / sum * (c - b)) : b;
  }
  const float denominator = va + vb + vc;
  if (denominator == 0) return a;  // degenerate: a point or a line
  return a + ab * (vb / denominator) + ac * (vc / denominator);
}

float SegmentSegmentDistanceSq(const Eigen::Vector3f& p0,
                               const Eigen::Vector3f& p1,
                               const Eigen::Vector3f& q0,
                               const Eigen::Vector3f& q1) {
  const Eigen::Vector3f d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const float a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  // Relative to the segments' own lengths, so units do not matter.
  constexpr float kTiny = 1e-12f;
  float s = 0.0f, t = 0.0f;
  if (a <= kTiny * (a + e)) {
    if (e > 0.0f) t = std::clamp(f / e, 0.0f, 1.0f);
  } else {
    const float c = d1.dot(r);
    if (e <= kTiny * (a + e)) {
      s = std::clamp(-c / a, 0.0f, 1.0f);
    } else {
      const float b = d1.dot(d2), denominator = a * e - b * b;
      // Parallel (denominator 0): any s will do; take p0's end.
      if (denominator > 0.0f)
        s = std::clamp((b * f - c * e) / denominator, 0.0f, 1.0f);
      t = (b * s + f) / e;
      if (t < 0.0f) {
        t = 0.0f;
        s = std::clamp(-c / a, 0.0f, 1.0f);
      } else if (t > 1.0f) {
        t = 1.0f;
        s = std::clamp((b - c) / a, 0.0f, 1.0f);
      }
    }
  }
  return ((p0 + s * d1) - (q0 + t * d2)).squaredNorm();
}

float SegmentTriangleDistanceSq(const Eigen::Vector3f& p0,
                                const Eigen::Vector3f& p1,
                                const Eigen::Vector3f& a,
                                const Eigen::Vector3f& b,
                                const Eigen::Vector3f& c) {
  const Eigen::Vector3f normal = (b - a).cross(c - a);
  const float h0 = normal.dot(p0 - a), h1 = normal.dot(p1 - a);
  // A triangle with no area is its edges, below.
  if (normal.squaredNorm() > 0.0f &&
      ((h0 <= 0.0f && h1 >= 0.0f) || (h0 >= 0.0f && h1 <= 0.0f))) {
    // The segment meets the triangle's plane, at x.
    const float t = h0 == h1 ? 0.0f : h0 / (h0 - h1);
    const Eigen::Vector3f x = p0 + t * (p1 - p0);
    // Inside: on the inner side of every edge, by signs (a distance test's
    // tolerance would have to follow the coordinates' magnitude). A
    // crossing rounded just outside an edge is then within rounding of that
    // edge, which the edges' distances below find.
    if ((b - a).cross(x - a).dot(normal) >= 0.0f &&
        (c - b).cross(x - b).dot(normal) >= 0.0f &&
        (a - c).cross(x - c).dot(normal) >= 0.0f) {
      return 0.0f;
    }
  }
  return std::min({(ClosestPointOnTriangle(p0, a, b, c) - p0).squaredNorm(),
                   (ClosestPointOnTriangle(p1, a, b, c) - p1).squaredNorm(),
                   SegmentSegmentDistanceSq(p0, p1, a, b),
                   SegmentSegmentDistanceSq(p0, p1, b, c),
                   SegmentSegmentDistanceSq(p0, p1, c, a)});
}

bool SegmentCellMayMeetTriangle(const Eigen::Vector3f& v0,
                                const Eigen::Vector3f& s0,
                                const Eigen::Vector3f& v1,
                                const Eigen::Vector3f& s1,
                                const Eigen::Vector3f& a,
                                const Eigen::Vector3f& b,
                                const Eigen::Vector3f& c, float scale) {
  const float slack0 = 1e-4f * scale * s0.norm(),
              slack1 = 1e-4f * scale * s1.norm();
  int sign = 0;  // +1: every c and g above the slack, -1: all below
  for (const Eigen::Vector3f* p : {&a, &b, &c}) {
    const float before = (v0 - *p).dot(s0), after = (v1 - *p).dot(s1);
    const int corner = before > slack0 && after > slack1     ? 1
                       : before < -slack0 && after < -slack1 ? -1
                                                             : 0;
    if (corner == 0 || (sign != 0 && corner != sign)) return true;
    sign = corner;
  }
  return false;
}

}  // namespace crease::renderer
