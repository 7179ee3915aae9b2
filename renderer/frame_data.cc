#include "renderer/frame_data.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>

namespace crease::renderer {
namespace {

Eigen::Vector3f Vertex(absl::Span<const float> positions, int32_t v) {
  return {positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]};
}

// The point of triangle abc nearest p (Ericson, Real-Time Collision
// Detection, 5.1.5).
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
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
  const Eigen::Vector3f cp = p - c;
  const float d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  }
  const float denominator = va + vb + vc;
  if (denominator == 0) return a;  // degenerate: a point or a line
  return a + ab * (vb / denominator) + ac * (vc / denominator);
}

}  // namespace

void SmoothNormals::Compute(absl::Span<const float> positions,
                            absl::Span<const io::Triangle> triangles) {
  const int32_t n = static_cast<int32_t>(positions.size() / 3);
  order_.resize(n);
  for (int32_t v = 0; v < n; ++v) order_[v] = v;
  auto key = [&](int32_t v) {
    return std::array<float, 3>{positions[3 * v], positions[3 * v + 1],
                                positions[3 * v + 2]};
  };
  std::sort(order_.begin(), order_.end(),
            [&](int32_t a, int32_t b) { return key(a) < key(b); });
  canonical_.resize(n);
  for (int32_t i = 0; i < n; ++i) {
    const int32_t v = order_[i];
    canonical_[v] =
        i > 0 && key(order_[i - 1]) == key(v) ? canonical_[order_[i - 1]] : v;
  }
  interleaved_.assign(static_cast<size_t>(n) * 6, 0.0f);
  for (const io::Triangle& t : triangles) {
    const Eigen::Vector3f a = Vertex(positions, t[0]);
    const Eigen::Vector3f normal =
        (Vertex(positions, t[1]) - a).cross(Vertex(positions, t[2]) - a);
    for (int32_t v : t) {
      float* dst = &interleaved_[6 * canonical_[v] + 3];
      for (int c = 0; c < 3; ++c) dst[c] += normal[c];
    }
  }
  for (int32_t v = 0; v < n; ++v) {
    float* dst = &interleaved_[6 * v];
    for (int c = 0; c < 3; ++c) {
      dst[c] = positions[3 * v + c];
      dst[3 + c] = interleaved_[6 * canonical_[v] + 3 + c];
    }
  }
}

Closure ClassifyClosure(absl::Span<const float> positions,
                        absl::Span<const io::Triangle> triangles,
                        absl::Span<const int32_t> canonical,
                        std::vector<uint64_t>* scratch) {
  auto key = [](int32_t a, int32_t b) {
    return static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32 |
           static_cast<uint32_t>(b);
  };
  std::vector<uint64_t>& edges = *scratch;
  edges.clear();
  double volume = 0;  // six times the signed volume
  for (const io::Triangle& t : triangles) {
    for (int k = 0; k < 3; ++k) {
      const int32_t a = canonical[t[k]], b = canonical[t[(k + 1) % 3]];
      if (a == b) return Closure::kOpen;  // degenerate: no clean surface
      edges.push_back(key(a, b));
    }
    const Eigen::Vector3d p0 = Vertex(positions, t[0]).cast<double>();
    const Eigen::Vector3d p1 = Vertex(positions, t[1]).cast<double>();
    const Eigen::Vector3d p2 = Vertex(positions, t[2]).cast<double>();
    volume += p0.dot(p1.cross(p2));
  }
  std::sort(edges.begin(), edges.end());
  for (size_t i = 0; i < edges.size(); ++i) {
    if (i + 1 < edges.size() && edges[i + 1] == edges[i]) {
      return Closure::kOpen;  // an edge used twice the same way
    }
    const uint64_t reverse = edges[i] << 32 | edges[i] >> 32;
    if (!std::binary_search(edges.begin(), edges.end(), reverse)) {
      return Closure::kOpen;  // a boundary edge (or inconsistent winding)
    }
  }
  if (edges.empty() || volume == 0) return Closure::kOpen;
  return volume > 0 ? Closure::kClosedOutward : Closure::kClosedInward;
}

void ClearWrinkleBuffers(size_t num_triangles, WrinkleBuffers* out) {
  out->levels.assign(num_triangles, {1.0f, 1.0f, 1.0f, 1.0f});
  out->triangle_ranges.assign(num_triangles, {0, 0, 0, 0});
  out->ranges.clear();
  out->range_bounds.clear();
  out->segment_bounds.clear();
  out->reach.clear();
  out->points.clear();
  out->frames.clear();
  out->max_level = 1;
  out->drawn_wrinkles = 0;
  out->displaced_wrinkles = 0;
}

float LevelOfDetailFade(float width_pixels, const TessellationTarget& target) {
  const float end = target.min_wrinkle_pixels;
  const float start = kFadeStart * end;
  if (!(width_pixels < end)) return 1.0f;  // also infinity, and end <= 0
  if (width_pixels <= start) return 0.0f;
  const float x = (width_pixels - start) / (end - start);
  return x * x * (3.0f - 2.0f * x);
}

void FillWrinkleBuffers(absl::Span<const float> positions,
                        absl::Span<const io::Triangle> triangles,
                        absl::Span<const int32_t> canonical,
                        const WrinkleTracker& tracker,
                        const TessellationTarget& target, WrinkleBuffers* out) {
  ClearWrinkleBuffers(triangles.size(), out);
  const auto& wrinkles = tracker.wrinkles();
  // Where each wrinkle's refined points start, and refined samples per path
  // segment (ranges are given in path segments).
  std::vector<int32_t>& first_point = out->first_point;
  std::vector<int32_t>& samples = out->samples_per_segment;
  first_point.resize(wrinkles.size() + 1);
  samples.resize(wrinkles.size());
  std::vector<uint8_t>& visible = out->visible;
  std::vector<uint8_t>& displaced = out->displaced;
  visible.assign(wrinkles.size(), 0);
  displaced.assign(wrinkles.size(), 0);
  // A profile is sampled as the spec asks by edges of 3/8 of its width; a
  // wrinkle whose widest point gets less than that at min_edge_pixels would
  // be undersampled (spikes and aliasing), so it only bends normals.
  const float min_displaced_pixels = target.min_edge_pixels / 0.375f;
  // Pixels per model unit at clip depth w: f (h / 2) / w, where f, the
  // projection's vertical focal factor, is the length of the view-projection
  // matrix's second row (the view part is a rotation).
  const float focal_pixels =
      target.view_projection.row(1).head<3>().norm() * 0.5f * target.height;
  // A refined point's width on screen; behind the eye or near it: infinite
  // (kept, and displaced).
  auto width_pixels = [&](const RefinedPoint& r) {
    const float depth = target.view_projection.row(3).dot(
        r.position.cast<float>().homogeneous());
    return depth <= 1e-6f ? std::numeric_limits<float>::infinity()
                          : static_cast<float>(r.width) * focal_pixels / depth;
  };
  // kFootprintReachPixels at a point's depth, with slack: a pixel within
  // reach lies a little deeper than the point.
  auto footprint_reach = [&](const RefinedPoint& r) {
    const float depth = target.view_projection.row(3).dot(
        r.position.cast<float>().homogeneous());
    return std::max(depth, 0.0f) * 1.25f * kFootprintReachPixels / focal_pixels;
  };
  const float fade_start = kFadeStart * target.min_wrinkle_pixels;
  for (size_t w = 0; w < wrinkles.size(); ++w) {
    const std::vector<RefinedPoint>& refined = tracker.shapes()[w].refined;
    for (const RefinedPoint& r : refined) {
      const float pixels = width_pixels(r);
      if (pixels > fade_start) visible[w] = 1;
      if (visible[w] && pixels >= min_displaced_pixels) {
        displaced[w] = 1;
        break;
      }
    }
    out->drawn_wrinkles += visible[w];
    out->displaced_wrinkles += displaced[w];
    first_point[w] = static_cast<int32_t>(out->points.size());
    samples[w] =
        std::max<int32_t>(1, (static_cast<int32_t>(refined.size()) - 1) /
                                 std::max(1, wrinkles[w].num_segments()));
    const size_t n = refined.size();
    for (size_t i = 0; i < n; ++i) {
      const RefinedPoint& r = refined[i];
      // Bisector normal: the mean of the unit directions to the nearest
      // distinct points before and after (a path through a mesh vertex has
      // zero-length segments, whose points share this normal); at the ends,
      // the end segment's direction; at an exact reversal, the way on.
      Eigen::Vector3d before = Eigen::Vector3d::Zero();
      Eigen::Vector3d after = Eigen::Vector3d::Zero();
      for (size_t j = i; j-- > 0;) {
        if (refined[j].position != r.position) {
          before = (r.position - refined[j].position).normalized();
          break;
        }
      }
      for (size_t j = i + 1; j < n; ++j) {
        if (refined[j].position != r.position) {
          after = (refined[j].position - r.position).normalized();
          break;
        }
      }
      Eigen::Vector3d s = before + after;
      if (s.squaredNorm() < 1e-12) s = after.squaredNorm() > 0 ? after : before;
      if (s.squaredNorm() > 0) s.normalize();
      out->points.push_back({static_cast<float>(r.position.x()),
                             static_cast<float>(r.position.y()),
                             static_cast<float>(r.position.z()),
                             static_cast<float>(r.width)});
      // Level of detail: the height (so the offset and the normal bend) fades
      // in with the width on screen; the shaders filter what is left.
      const float fade = LevelOfDetailFade(width_pixels(r), target);
      out->frames.push_back(
          {static_cast<float>(s.x()), static_cast<float>(s.y()),
           static_cast<float>(s.z()), fade * static_cast<float>(r.height)});
      out->reach.push_back(footprint_reach(r));
      std::array<float, 4> bounds = {0, 0, 0, 0};
      if (i + 1 < n) {
        const RefinedPoint& next = refined[i + 1];
        const Eigen::Vector3d mid = 0.5 * (r.position + next.position);
        const double reach = 0.5 * ((next.position - r.position).norm() +
                                    std::max(r.width, next.width)) +
                             std::max(out->reach.back(), footprint_reach(next));
        // A hair larger, so rounding never skips a point on the boundary.
        bounds = {static_cast<float>(mid.x()), static_cast<float>(mid.y()),
                  static_cast<float>(mid.z()),
                  static_cast<float>(reach * 1.0001 + 1e-7)};
      }
      out->segment_bounds.push_back(bounds);
    }
  }
  first_point[wrinkles.size()] = static_cast<int32_t>(out->points.size());
  const float target_edge = 0.375f * static_cast<float>(tracker.min_width());
  const Eigen::Vector2f pixels(0.5f * target.width, 0.5f * target.height);
  const float max_level = static_cast<float>(target.max_level);
  // From the edge alone, with its ends in a fixed order, so both triangles
  // agree.
  auto edge_level = [&](int32_t a, int32_t b) {
    if (b < a) std::swap(a, b);
    const Eigen::Vector3f pa = Vertex(positions, a), pb = Vertex(positions, b);
    const Eigen::Vector4f ca = target.view_projection * pa.homogeneous();
    const Eigen::Vector4f cb = target.view_projection * pb.homogeneous();
    float cap = max_level;
    if (ca.w() > 0 && cb.w() > 0) {
      const Eigen::Vector2f sa = ca.head<2>() / ca.w(),
                            sb = cb.head<2>() / cb.w();
      cap = std::ceil((sa - sb).cwiseProduct(pixels).norm() /
                      target.min_edge_pixels);
    }
    const float wanted =
        std::ceil((pa - pb).norm() / std::max(target_edge, 1e-12f));
    return std::clamp(std::min(wanted, cap), 1.0f, max_level);
  };
  auto edge_key = [&](int32_t a, int32_t b) {
    a = canonical[a];
    b = canonical[b];
    if (b < a) std::swap(a, b);
    return static_cast<uint64_t>(a) << 32 | static_cast<uint32_t>(b);
  };
  // One wrinkle's refined points over one triangle, with their bounding
  // sphere. The tracker's range (whole path segments) is clipped to the
  // refined segments whose reach sphere meets the triangle: for points in the
  // triangle the lookup is unchanged (the shaders skip the others), but walks
  // fewer segments. False if none is left.
  Eigen::Vector3f corner[3];  // of the current triangle
  Eigen::Vector3f centre;     // of its bounding sphere
  float radius = 0;
  auto append_range = [&](const TriangleWrinkleRange& range) {
    const int32_t k = samples[range.wrinkle];
    const int32_t start = first_point[range.wrinkle];
    const int32_t last_point = first_point[range.wrinkle + 1] - 1;
    int32_t first = start + range.first_segment * k;
    int32_t last = start + (range.last_segment + 1) * k;
    // The bounding spheres first, then the segment's sphere against the
    // triangle itself (a hair of slack for rounding).
    auto reaches = [&](int32_t i) {
      const std::array<float, 4>& b = out->segment_bounds[i];
      const Eigen::Vector3f mid(b.data());
      const float outer = b[3] + radius;
      if ((mid - centre).squaredNorm() > outer * outer) return false;
      const float reach = b[3] + 1e-3f * radius;
      return (ClosestPointOnTriangle(mid, corner[0], corner[1], corner[2]) -
              mid)
                 .squaredNorm() <= reach * reach;
    };
    while (first < last && !reaches(first)) ++first;
    while (last > first && !reaches(last - 1)) --last;
    if (first == last) return false;
    // The lookup's fallback (p in no segment's cell) is the nearer end of
    // the wrinkle itself; a clipped end is out of reach, so none.
    out->ranges.push_back({first, last, first == start ? first : -1,
                           last == last_point ? last : -1});
    Eigen::Vector3f lo(out->points[first].data()), hi = lo;
    float widest = 0, footprint = 0;
    for (int32_t i = first; i <= last; ++i) {
      const Eigen::Vector3f p(out->points[i].data());
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
      widest = std::max(widest, out->points[i][3]);
      footprint = std::max(footprint, out->reach[i]);
    }
    const Eigen::Vector3f mid = 0.5f * (lo + hi);
    const float reach = 0.5f * (hi - lo).norm() + 0.5f * widest + footprint;
    // A hair larger, so a point on the boundary is never skipped by rounding.
    out->range_bounds.push_back(
        {mid.x(), mid.y(), mid.z(), reach * 1.0001f + 1e-7f});
    return true;
  };
  std::vector<uint64_t>& wrinkled_edges = out->wrinkled_edges;
  wrinkled_edges.clear();
  for (size_t f = 0; f < triangles.size(); ++f) {
    const int32_t begin = tracker.range_offsets()[f];
    const int32_t end = tracker.range_offsets()[f + 1];
    std::array<int32_t, 4>& list = out->triangle_ranges[f];
    list = {static_cast<int32_t>(out->ranges.size()), 0, 0, 0};
    if (begin == end) continue;
    const io::Triangle& t = triangles[f];
    for (int k = 0; k < 3; ++k) corner[k] = Vertex(positions, t[k]);
    const Eigen::Vector3f &a = corner[0], &b = corner[1], &c = corner[2];
    centre = (a + b + c) / 3.0f;
    radius = 1.0001f * std::sqrt(std::max({(a - centre).squaredNorm(),
                                           (b - centre).squaredNorm(),
                                           (c - centre).squaredNorm()})) +
             1e-7f;
    // Displaced wrinkles first: the evaluation stage reads only those.
    for (int32_t r = begin; r < end; ++r) {
      const TriangleWrinkleRange& range = tracker.ranges()[r];
      if (displaced[range.wrinkle] && append_range(range)) ++list[2];
    }
    for (int32_t r = begin; r < end; ++r) {
      const TriangleWrinkleRange& range = tracker.ranges()[r];
      if (visible[range.wrinkle] && !displaced[range.wrinkle]) {
        append_range(range);
      }
    }
    list[1] = static_cast<int32_t>(out->ranges.size()) - list[0];
    if (list[2] == 0) continue;
    for (int k = 0; k < 3; ++k) {
      wrinkled_edges.push_back(edge_key(t[k], t[(k + 1) % 3]));
    }
  }
  std::sort(wrinkled_edges.begin(), wrinkled_edges.end());
  for (size_t f = 0; f < triangles.size(); ++f) {
    const io::Triangle& t = triangles[f];
    std::array<float, 4>& l = out->levels[f];
    for (int k = 0; k < 3; ++k) {
      const int32_t a = t[k], b = t[(k + 1) % 3];
      if (std::binary_search(wrinkled_edges.begin(), wrinkled_edges.end(),
                             edge_key(a, b))) {
        l[k] = edge_level(canonical[a], canonical[b]);
      }
    }
    l[3] = std::max({l[0], l[1], l[2]});
    out->max_level = std::max(out->max_level, static_cast<int>(l[3]));
  }
}

}  // namespace crease::renderer
