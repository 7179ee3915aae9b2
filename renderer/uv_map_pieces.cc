#include "renderer/uv_map_pieces.h"

#include <Eigen/Core>
#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

#include "renderer/closest_point.h"

namespace crease::renderer {
namespace {

constexpr int kPositionOffset = 2;  // after the uv

Eigen::Vector3f CornerPosition(const float* corner) {
  return Eigen::Vector3f(corner + kPositionOffset);
}

// Half the longest texel footprint the shader can see on this triangle:
// AddWrinkleShading reaches half the footprint's width past a wrinkle's
// edge, and a texel's footprint is the triangle's UV-to-model Jacobian over
// `size`. 0 for a triangle degenerate in UV (it covers no texel).
float HalfFootprint(const float* c0, const float* c1, const float* c2,
                    int size) {
  Eigen::Matrix2f uv;
  uv << c1[0] - c0[0], c2[0] - c0[0], c1[1] - c0[1], c2[1] - c0[1];
  const float det = uv.determinant();
  if (!(std::abs(det) > 1e-20f)) return 0.0f;
  Eigen::Matrix<float, 3, 2> edges;
  edges.col(0) = CornerPosition(c1) - CornerPosition(c0);
  edges.col(1) = CornerPosition(c2) - CornerPosition(c0);
  // Columns: model units per unit u and per unit v.
  const Eigen::Matrix<float, 3, 2> jacobian = edges * uv.inverse();
  return 0.5f * jacobian.norm() / static_cast<float>(size);
}

// Corner (i, j) of an n x n grid over the triangle, all but the last float:
// weights ((n - i - j), i, j) / n of its corners, so the grid's outer points
// lie exactly on the triangle's edges and its own corners are copied.
void GridCorner(const float* c0, const float* c1, const float* c2, int n, int i,
                int j, float* out) {
  const float inv = 1.0f / static_cast<float>(n);
  const float w1 = static_cast<float>(i) * inv,
              w2 = static_cast<float>(j) * inv;
  const float w0 = static_cast<float>(n - i - j) * inv;
  for (int k = 0; k + 1 < kUvCornerFloats; ++k) {
    out[k] = w0 * c0[k] + w1 * c1[k] + w2 * c2[k];
  }
}

Eigen::Vector3f PointPosition(const WrinkleBuffers& w, int32_t i) {
  return Eigen::Vector3f(w.points[i][0], w.points[i][1], w.points[i][2]);
}

}  // namespace

// Whether a texel of triangle `piece` can take anything from segment s: a
// texel projects onto a point of a segment (or onto a wrinkle's end, a point
// of its end segment) and takes something only within half the width there
// plus its footprint, so only within `across` + `slack` of the segment. A
// lone point: its sphere, which the caller has tested.
bool ReachedPieceFinder::StripMeets(
    const Sphere& s, const WrinkleBuffers& w, float slack,
    const std::array<const Eigen::Vector3f*, 3>& piece) {
  const std::array<int32_t, 4>& whole = w.ranges[s.range];
  if (whole[0] == whole[1]) return true;
  const float across = s.across + slack;
  const float d2 = SegmentTriangleDistanceSq(PointPosition(w, s.point),
                                             PointPosition(w, s.point + 1),
                                             *piece[0], *piece[1], *piece[2]);
  return !(d2 > across * across);  // NaN: keep
}

// Whether some point of triangle `piece` can lie in segment i's cell
// (SegmentCellMayMeetTriangle); else every texel of it gets alpha = -1 from
// the segment.
bool ReachedPieceFinder::CellMayMeet(
    const WrinkleBuffers& w, int32_t i,
    const std::array<const Eigen::Vector3f*, 3>& piece, float scale) {
  const Eigen::Vector3f s0(w.frames[i][0], w.frames[i][1], w.frames[i][2]);
  const Eigen::Vector3f s1(w.frames[i + 1][0], w.frames[i + 1][1],
                           w.frames[i + 1][2]);
  return SegmentCellMayMeetTriangle(PointPosition(w, i), s0,
                                    PointPosition(w, i + 1), s1, *piece[0],
                                    *piece[1], *piece[2], scale);
}

// Whether segment s carries a wrinkle's own end (or is a lone point): a
// texel in no cell projects onto the end, so the segment stays listed.
bool ReachedPieceFinder::HoldsEnd(const Sphere& s, const WrinkleBuffers& w) {
  const std::array<int32_t, 4>& whole = w.ranges[s.range];
  return whole[0] == whole[1] || (s.point == whole[0] && whole[2] >= 0) ||
         (s.point + 1 == whole[1] && whole[3] >= 0);
}

void ReachedPieceFinder::Find(const UvMapPieceInputs& in, UvMapPieces* out) {
  FindIn(in, 0, in.wrinkles->triangle_ranges.size(), out);
}

void ReachedPieceFinder::FindIn(const UvMapPieceInputs& in, size_t begin,
                                size_t end, UvMapPieces* out) {
  prune_ = in.prune;
  out->corners.clear();
  out->lists.clear();
  out->ranges.clear();
  out->range_bounds.clear();
  const std::vector<float>& corners = *in.corners;
  const WrinkleBuffers& w = *in.wrinkles;
  end = std::min(end, w.triangle_ranges.size());
  for (size_t t = begin; t < end; ++t) {
    const std::array<int32_t, 4>& list = w.triangle_ranges[t];
    if (list[1] <= 0) continue;
    const float* c[3];
    for (int k = 0; k < 3; ++k) c[k] = &corners[(3 * t + k) * kUvCornerFloats];
    const float widest = CollectSpheres(w, list[0], list[1], in.reach);
    const Eigen::Vector3f a = CornerPosition(c[0]), b = CornerPosition(c[1]),
                          d = CornerPosition(c[2]);
    const float longest =
        std::max({(b - a).norm(), (d - b).norm(), (a - d).norm()});
    // Clamped as a float first: a tiny width must not overflow the int.
    const float most = static_cast<float>(std::max(in.max_pieces_per_edge, 1));
    const int n = static_cast<int>(std::clamp(
        std::ceil(longest / std::max(2.0f * widest, 1e-30f)), 1.0f, most));
    source_triangle_ = static_cast<int32_t>(t);
    const float half_footprint = HalfFootprint(c[0], c[1], c[2], in.size);
    if (n == 1) {
      grid_cells_ = -1;
      AddPieces(c, 1, half_footprint, w, out);
      continue;
    }
    // Cut: the triangle is drawn whole, and each texel takes the list of the
    // piece its centre lies in (uv_map.frag): a header, then 2 n^2 cells.
    const int32_t header = static_cast<int32_t>(out->lists.size());
    out->lists.push_back({header + 1, n, source_triangle_,
                          static_cast<int32_t>(PieceRole::kGrid)});
    grid_cells_ = header + 1;
    out->lists.resize(out->lists.size() + 2 * static_cast<size_t>(n) * n,
                      {0, 0, source_triangle_, 0});  // no wrinkle: flat
    AddPieces(c, n, half_footprint, w, out);
    for (int k = 0; k < 3; ++k) {
      const size_t at = out->corners.size();
      out->corners.insert(out->corners.end(), c[k], c[k] + kUvCornerFloats);
      out->corners[at + kUvCornerFloats - 1] = std::bit_cast<float>(header);
    }
  }
}

float ReachedPieceFinder::CollectSpheres(const WrinkleBuffers& w, int first,
                                         int count, float reach) {
  spheres_.clear();
  float widest = 0.0f;
  for (int r = first; r < first + count; ++r) {
    const std::array<int32_t, 4>& range = w.ranges[r];
    for (int32_t i = range[0]; i <= range[1]; ++i) {
      widest = std::max(widest, w.points[i][3]);
      // Segment i .. i + 1 (its sphere holds every point it can lift or a
      // texel can see it from); a range of one point: that point's.
      if (i < range[1]) {
        const std::array<float, 4>& bounds = w.segment_bounds[i];
        const float half_length =
            0.5f * (PointPosition(w, i + 1) - PointPosition(w, i)).norm();
        spheres_.push_back(
            {bounds, std::max(bounds[3] - half_length, 0.0f), r, i});
      } else if (range[0] == range[1]) {
        const std::array<float, 4>& p = w.points[i];
        const float radius = 0.5f * p[3] + reach;
        spheres_.push_back({{p[0], p[1], p[2], radius}, radius, r, i});
      }
    }
  }
  return widest;
}

void ReachedPieceFinder::AddPieces(const float* const c[3], int n,
                                   float half_footprint,
                                   const WrinkleBuffers& w, UvMapPieces* out) {
  // Grid point (i, j) at index j (n + 1) + i.
  grid_.resize(static_cast<size_t>(n + 1) * (n + 1));
  const Eigen::Vector3f a = CornerPosition(c[0]), b = CornerPosition(c[1]),
                        d = CornerPosition(c[2]);
  const float inv = 1.0f / static_cast<float>(n);
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i + j <= n; ++i) {
      grid_[j * (n + 1) + i] = (static_cast<float>(n - i - j) * inv) * a +
                               (static_cast<float>(i) * inv) * b +
                               (static_cast<float>(j) * inv) * d;
    }
  }
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i + j < n; ++i) {
      cell_ = 2 * (j * n + i);
      AddPiece(c, n, {{{i, j}, {i + 1, j}, {i, j + 1}}}, half_footprint, w,
               out);
      if (i + j + 2 <= n) {
        cell_ = 2 * (j * n + i) + 1;
        AddPiece(c, n, {{{i + 1, j}, {i + 1, j + 1}, {i, j + 1}}},
                 half_footprint, w, out);
      }
    }
  }
}

void ReachedPieceFinder::AddPiece(const float* const c[3], int n,
                                  const std::array<std::array<int, 2>, 3>& ij,
                                  float half_footprint, const WrinkleBuffers& w,
                                  UvMapPieces* out) {
  const std::array<const Eigen::Vector3f*, 3> piece = {
      &grid_[ij[0][1] * (n + 1) + ij[0][0]],
      &grid_[ij[1][1] * (n + 1) + ij[1][0]],
      &grid_[ij[2][1] * (n + 1) + ij[2][0]]};
  const Eigen::Vector3f centre = (*piece[0] + *piece[1] + *piece[2]) / 3.0f;
  float radius = 0.0f;
  for (const Eigen::Vector3f* p : piece) {
    radius = std::max(radius, (*p - centre).norm());
  }
  const int32_t first_range = static_cast<int32_t>(out->ranges.size());
  ListPieceRanges(piece, centre, radius, half_footprint, w, out);
  const int32_t count = static_cast<int32_t>(out->ranges.size()) - first_range;
  if (count == 0) return;  // no wrinkle reaches it: flat
  if (grid_cells_ >= 0) {  // a cell of a cut triangle's table
    out->lists[grid_cells_ + cell_] = {first_range, count, source_triangle_, 0};
    return;
  }
  const int32_t index = static_cast<int32_t>(out->lists.size());
  out->lists.push_back({first_range, count, source_triangle_, 0});
  for (const std::array<int, 2>& corner : ij) {
    const size_t at = out->corners.size();
    out->corners.resize(at + kUvCornerFloats);
    float* dst = out->corners.data() + at;
    GridCorner(c[0], c[1], c[2], n, corner[0], corner[1], dst);
    dst[kUvCornerFloats - 1] = std::bit_cast<float>(index);
  }
}

void ReachedPieceFinder::ListPieceRanges(
    const std::array<const Eigen::Vector3f*, 3>& piece,
    const Eigen::Vector3f& centre, float radius, float half_footprint,
    const WrinkleBuffers& w, UvMapPieces* out) {
  // Spheres come range by range, segments in order: each range that reaches
  // the piece is clipped to its first and last segment that do and whose cell
  // the piece can meet (or that holds the wrinkle's own end, which a texel
  // past it projects onto). A range is kept only if some segment's strip also
  // meets the piece (see StripMeets) and some segment is left.
  int32_t range = -1, lo = -1, hi = -1;
  bool strip_meets = false;
  const auto flush = [&] {
    if (range < 0 || !strip_meets || lo < 0) return;
    const std::array<int32_t, 4>& whole = w.ranges[range];
    const int32_t first = lo, last = std::max(hi + 1, lo);
    if (whole[0] == whole[1]) {
      out->ranges.push_back(whole);
    } else {
      // An end clipped away is out of the piece's reach, as in
      // WrinkleBuffers' own clipping: none.
      out->ranges.push_back({first, std::min(last, whole[1]),
                             first == whole[0] ? whole[2] : -1,
                             last == whole[1] ? whole[3] : -1});
    }
    out->range_bounds.push_back(w.range_bounds[range]);
  };
  // A hair of slack for rounding, as the ranges' own clipping has.
  const float rounding = 1e-3f * radius;
  for (const Sphere& s : spheres_) {
    const Eigen::Vector3f mid(s.bounds.data());
    const float reach = s.bounds[3] + half_footprint + rounding;
    const float outer = reach + radius;
    if ((mid - centre).squaredNorm() > outer * outer) continue;
    if ((ClosestPointOnTriangle(mid, *piece[0], *piece[1], *piece[2]) - mid)
            .squaredNorm() > reach * reach) {
      continue;
    }
    if (s.range != range) {
      flush();
      range = s.range;
      lo = hi = -1;
      strip_meets = !prune_;
    }
    if (!prune_ || HoldsEnd(s, w) ||
        CellMayMeet(w, s.point, piece, radius + s.bounds[3])) {
      if (lo < 0) lo = s.point;
      hi = s.point;
    }
    if (!strip_meets) {
      strip_meets = StripMeets(s, w, half_footprint + rounding, piece);
    }
  }
  flush();
}

void AppendPieces(const UvMapPieces& tail, UvMapPieces* head) {
  const int32_t first_piece = static_cast<int32_t>(head->lists.size());
  const int32_t first_range = static_cast<int32_t>(head->ranges.size());
  for (std::array<int32_t, 4> list : tail.lists) {
    // A cut triangle's header points at its cells (lists); the rest at
    // ranges, but an empty cell at nothing (0, as one Find leaves it).
    if (list[3] == static_cast<int32_t>(PieceRole::kGrid)) {
      list[0] += first_piece;
    } else if (list[1] > 0) {
      list[0] += first_range;
    }
    head->lists.push_back(list);
  }
  head->ranges.insert(head->ranges.end(), tail.ranges.begin(),
                      tail.ranges.end());
  head->range_bounds.insert(head->range_bounds.end(), tail.range_bounds.begin(),
                            tail.range_bounds.end());
  const size_t at = head->corners.size();
  head->corners.insert(head->corners.end(), tail.corners.begin(),
                       tail.corners.end());
  for (size_t i = at + kUvCornerFloats - 1; i < head->corners.size();
       i += kUvCornerFloats) {
    head->corners[i] = std::bit_cast<float>(
        std::bit_cast<int32_t>(head->corners[i]) + first_piece);
  }
}

size_t HalfOfTheRanges(const WrinkleBuffers& w) {
  int64_t total = 0;
  for (const std::array<int32_t, 4>& list : w.triangle_ranges) {
    total += std::max(list[1], 0);
  }
  int64_t sum = 0;
  for (size_t t = 0; t < w.triangle_ranges.size(); ++t) {
    if (2 * sum >= total) return t;
    sum += std::max(w.triangle_ranges[t][1], 0);
  }
  return w.triangle_ranges.size();
}

}  // namespace crease::renderer
