#include "renderer/frame_data.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_format.h"
#include "renderer/closest_point.h"
#include "wrinkle/data/smooth_normals.h"
#include "wrinkle/data/weld.h"

namespace crease::renderer {
namespace {

// Gillette's tessellation samples a wrinkle's profile with edges of 3/8 of
// its width: the edge length wanted for L_min.
constexpr float kEdgeOfMinWidth = 0.375f;
// A displaced profile needs at least this many edges of min_edge_pixels
// across its width on screen: fewer facet it (the Fox at 960 x 720 drew 1.29x
// its plain frame's error against a 4x supersampled reference with 8/3 edges
// across, 1.05x with 4; docs/algorithm.md, "Which wrinkles displace").
constexpr float kEdgesAcrossDisplaced = 4.0f;

Eigen::Vector3f Vertex(absl::Span<const float> positions, int32_t v) {
  return {positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]};
}

uint64_t EdgeKey(int32_t a, int32_t b) {
  return static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32 |
         static_cast<uint32_t>(b);
}

// The same key for an edge from either side, through welded ids.
uint64_t WeldedEdgeKey(const RenderMesh& mesh, int32_t a, int32_t b) {
  a = mesh.welded[a];
  b = mesh.welded[b];
  if (b < a) std::swap(a, b);
  return EdgeKey(a, b);
}

}  // namespace

void SmoothNormals::Compute(const RenderMesh& mesh) {
  const size_t n = mesh.positions.size() / 3;
  // Area-weighted sums per welded id (ids are below the vertex count).
  SumWeldedNormals(mesh.positions, mesh.triangles, mesh.welded, &sums_);
  interleaved_.resize(n * 6);
  for (size_t v = 0; v < n; ++v) {
    float* dst = &interleaved_[6 * v];
    const float* sum = &sums_[3 * static_cast<size_t>(mesh.welded[v])];
    for (int c = 0; c < 3; ++c) {
      dst[c] = mesh.positions[3 * v + c];
      dst[3 + c] = sum[c];
    }
  }
}

bool ClosedAndConsistent(absl::Span<const io::Triangle> triangles,
                         absl::Span<const int32_t> welded,
                         std::vector<uint64_t>* scratch) {
  std::vector<uint64_t>& edges = *scratch;
  edges.clear();
  for (const io::Triangle& t : triangles) {
    for (int k = 0; k < 3; ++k) {
      const int32_t a = welded[t[k]], b = welded[t[(k + 1) % 3]];
      if (a == b) return false;  // degenerate: no clean surface
      edges.push_back(EdgeKey(a, b));
    }
  }
  std::sort(edges.begin(), edges.end());
  for (size_t i = 0; i < edges.size(); ++i) {
    if (i + 1 < edges.size() && edges[i + 1] == edges[i]) {
      return false;  // an edge used twice the same way
    }
    const uint64_t reverse = edges[i] << 32 | edges[i] >> 32;
    if (!std::binary_search(edges.begin(), edges.end(), reverse)) {
      return false;  // a boundary edge (or inconsistent winding)
    }
  }
  return !edges.empty();
}

Closure ClassifyClosure(const RenderMesh& mesh,
                        std::vector<uint64_t>* scratch) {
  const bool closed =
      mesh.closed_and_consistent.has_value()
          ? *mesh.closed_and_consistent
          : ClosedAndConsistent(mesh.triangles, mesh.welded, scratch);
  if (!closed) return Closure::kOpen;
  double volume = 0;  // six times the signed volume
  for (const io::Triangle& t : mesh.triangles) {
    const Eigen::Vector3d p0 = Vertex(mesh.positions, t[0]).cast<double>();
    const Eigen::Vector3d p1 = Vertex(mesh.positions, t[1]).cast<double>();
    const Eigen::Vector3d p2 = Vertex(mesh.positions, t[2]).cast<double>();
    volume += p0.dot(p1.cross(p2));
  }
  if (volume == 0) return Closure::kOpen;
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

namespace {

// Pixels per model unit at clip depth w are f (h / 2) / w, where f, the
// projection's vertical focal factor, is the length of the view-projection
// matrix's second row (the view part is a rotation).
class ScreenScale {
 public:
  explicit ScreenScale(const TessellationTarget& target)
      : depth_row_(target.view_projection.row(3)),
        focal_pixels_(target.view_projection.row(1).head<3>().norm() * 0.5f *
                      target.height) {}

  // A point's width on screen; behind the eye or near it: infinite (kept,
  // and displaced).
  float WidthPixels(const RefinedPoint& r) const {
    const float depth = Depth(r);
    return depth <= 1e-6f ? std::numeric_limits<float>::infinity()
                          : static_cast<float>(r.width) * focal_pixels_ / depth;
  }
  // kFootprintReachPixels at a point's depth, with slack: a pixel within
  // reach lies a little deeper than the point.
  float FootprintReach(const RefinedPoint& r) const {
    return std::max(Depth(r), 0.0f) * 1.25f * kFootprintReachPixels /
           focal_pixels_;
  }

 private:
  float Depth(const RefinedPoint& r) const {
    return depth_row_.dot(r.position.cast<float>().homogeneous());
  }
  Eigen::RowVector4f depth_row_;
  float focal_pixels_;
};

// Marks which wrinkles are drawn and which of those displace, and counts
// them. A wrinkle whose widest point is not kEdgesAcrossDisplaced edges of
// min_edge_pixels wide would be undersampled (facets, spikes and aliasing),
// so it only bends normals.
void ChooseDrawnWrinkles(const FrameWrinkles& wrinkles,
                         const TessellationTarget& target,
                         const ScreenScale& screen, WrinkleBuffers* out) {
  const int count = wrinkles.num_wrinkles();
  out->visible.assign(count, 0);
  out->displaced.assign(count, 0);
  const float min_displaced_pixels =
      kEdgesAcrossDisplaced * target.min_edge_pixels;
  const float fade_start = kFadeStart * target.min_wrinkle_pixels;
  for (int w = 0; w < count; ++w) {
    for (const RefinedPoint& r : wrinkles.refined(w)) {
      const float pixels = screen.WidthPixels(r);
      if (pixels > fade_start) out->visible[w] = 1;
      if (out->visible[w] && pixels >= min_displaced_pixels) {
        out->displaced[w] = 1;
        break;
      }
    }
    out->drawn_wrinkles += out->visible[w];
    out->displaced_wrinkles += out->displaced[w];
  }
}

// One wrinkle's refined points: position and width, bisector and faded
// height, footprint reach and the sphere around each segment.
void AppendWrinklePoints(absl::Span<const RefinedPoint> refined,
                         const TessellationTarget& target,
                         const ScreenScale& screen, WrinkleBuffers* out) {
  const size_t n = refined.size();
  for (size_t i = 0; i < n; ++i) {
    const RefinedPoint& r = refined[i];
    const Eigen::Vector3d s = WrinkleBisector(refined, i);
    out->points.push_back({static_cast<float>(r.position.x()),
                           static_cast<float>(r.position.y()),
                           static_cast<float>(r.position.z()),
                           static_cast<float>(SupportWidth(r))});
    // Level of detail: the height (so the offset and the normal bend) fades
    // in with the width on screen; the shaders filter what is left.
    const float fade = LevelOfDetailFade(screen.WidthPixels(r), target);
    out->frames.push_back({static_cast<float>(s.x()), static_cast<float>(s.y()),
                           static_cast<float>(s.z()),
                           fade * static_cast<float>(r.height)});
    out->reach.push_back(screen.FootprintReach(r));
    std::array<float, 4> bounds = {0, 0, 0, 0};
    if (i + 1 < n) {
      const RefinedPoint& next = refined[i + 1];
      const Eigen::Vector3d mid = 0.5 * (r.position + next.position);
      const double reach =
          0.5 * ((next.position - r.position).norm() +
                 std::max(SupportWidth(r), SupportWidth(next))) +
          std::max(out->reach.back(), screen.FootprintReach(next));
      // A hair larger, so rounding never skips a point on the boundary.
      bounds = {static_cast<float>(mid.x()), static_cast<float>(mid.y()),
                static_cast<float>(mid.z()),
                static_cast<float>(reach * 1.0001 + 1e-7)};
    }
    out->segment_bounds.push_back(bounds);
  }
}

// One wrinkle's refined points over one triangle, with their bounding sphere.
// The range (whole path segments) is clipped to the refined segments whose
// reach sphere meets the triangle: for points in the triangle the lookup is
// unchanged (the shaders skip the others), but walks fewer segments.
class RangeClipper {
 public:
  RangeClipper(const FrameWrinkles& wrinkles, WrinkleBuffers* out)
      : wrinkles_(wrinkles), out_(*out) {}

  void SetTriangle(const RenderMesh& mesh, const io::Triangle& t) {
    for (int k = 0; k < 3; ++k) corner_[k] = Vertex(mesh.positions, t[k]);
    const Eigen::Vector3f &a = corner_[0], &b = corner_[1], &c = corner_[2];
    centre_ = (a + b + c) / 3.0f;
    radius_ = 1.0001f * std::sqrt(std::max({(a - centre_).squaredNorm(),
                                            (b - centre_).squaredNorm(),
                                            (c - centre_).squaredNorm()})) +
              1e-7f;
  }

  // Appends the clipped range and its sphere; false if none is left.
  bool Append(const TriangleWrinkleRange& range) {
    const int32_t k = wrinkles_.samples_per_segment(range.wrinkle);
    const int32_t start = wrinkles_.point_offsets[range.wrinkle];
    const int32_t last_point = wrinkles_.point_offsets[range.wrinkle + 1] - 1;
    int32_t first = start + range.first_segment * k;
    int32_t last = start + (range.last_segment + 1) * k;
    while (first < last && !Reaches(first)) ++first;
    while (last > first && !Reaches(last - 1)) --last;
    if (first == last) return false;
    // The lookup's fallback (p in no segment's cell) is the nearer end of
    // the wrinkle itself; a clipped end is out of reach, so none.
    out_.ranges.push_back({first, last, first == start ? first : -1,
                           last == last_point ? last : -1});
    out_.range_bounds.push_back(BoundsOf(first, last));
    return true;
  }

 private:
  // Whether segment i's sphere meets the triangle: the bounding spheres
  // first, then against the triangle itself (a hair of slack for rounding).
  bool Reaches(int32_t i) const {
    const std::array<float, 4>& b = out_.segment_bounds[i];
    const Eigen::Vector3f mid(b.data());
    const float outer = b[3] + radius_;
    if ((mid - centre_).squaredNorm() > outer * outer) return false;
    const float reach = b[3] + 1e-3f * radius_;
    return (ClosestPointOnTriangle(mid, corner_[0], corner_[1], corner_[2]) -
            mid)
               .squaredNorm() <= reach * reach;
  }

  // Every surface point refined points [first, last] can lift, or a pixel
  // can see them from.
  std::array<float, 4> BoundsOf(int32_t first, int32_t last) const {
    Eigen::Vector3f lo(out_.points[first].data()), hi = lo;
    float widest = 0, footprint = 0;
    for (int32_t i = first; i <= last; ++i) {
      const Eigen::Vector3f p(out_.points[i].data());
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
      widest = std::max(widest, out_.points[i][3]);
      footprint = std::max(footprint, out_.reach[i]);
    }
    const Eigen::Vector3f mid = 0.5f * (lo + hi);
    const float reach = 0.5f * (hi - lo).norm() + 0.5f * widest + footprint;
    // A hair larger, so a point on the boundary is never skipped by rounding.
    return {mid.x(), mid.y(), mid.z(), reach * 1.0001f + 1e-7f};
  }

  const FrameWrinkles& wrinkles_;
  WrinkleBuffers& out_;
  Eigen::Vector3f corner_[3];
  Eigen::Vector3f centre_;  // of the triangle's bounding sphere
  float radius_ = 0;
};

// Per triangle, its clipped ranges, displaced wrinkles first (the evaluation
// stage reads only those); the edges of triangles a displaced wrinkle
// reaches go to wrinkled_edges, sorted.
void ListTriangleRanges(const RenderMesh& mesh, const FrameWrinkles& wrinkles,
                        WrinkleBuffers* out) {
  RangeClipper clipper(wrinkles, out);
  out->wrinkled_edges.clear();
  for (size_t f = 0; f < mesh.triangles.size(); ++f) {
    const int32_t begin = wrinkles.range_offsets[f];
    const int32_t end = wrinkles.range_offsets[f + 1];
    std::array<int32_t, 4>& list = out->triangle_ranges[f];
    list = {static_cast<int32_t>(out->ranges.size()), 0, 0, 0};
    if (begin == end) continue;
    const io::Triangle& t = mesh.triangles[f];
    clipper.SetTriangle(mesh, t);
    for (int32_t r = begin; r < end; ++r) {
      const TriangleWrinkleRange& range = wrinkles.ranges[r];
      if (out->displaced[range.wrinkle] && clipper.Append(range)) ++list[2];
    }
    for (int32_t r = begin; r < end; ++r) {
      const TriangleWrinkleRange& range = wrinkles.ranges[r];
      if (out->visible[range.wrinkle] && !out->displaced[range.wrinkle]) {
        clipper.Append(range);
      }
    }
    list[1] = static_cast<int32_t>(out->ranges.size()) - list[0];
    if (list[2] == 0) continue;
    for (int k = 0; k < 3; ++k) {
      out->wrinkled_edges.push_back(WeldedEdgeKey(mesh, t[k], t[(k + 1) % 3]));
    }
  }
  std::sort(out->wrinkled_edges.begin(), out->wrinkled_edges.end());
}

// Tessellation level of edge ab from the edge alone (welded ends in a fixed
// order, so both triangles agree): length / (3/8 L_min), capped so no
// generated edge is shorter than min_edge_pixels on screen.
float EdgeLevel(const RenderMesh& mesh,
                absl::Span<const int32_t> representative, int32_t a, int32_t b,
                const TessellationTarget& target, float target_edge) {
  a = mesh.welded[a];
  b = mesh.welded[b];
  if (b < a) std::swap(a, b);
  // Through one vertex per welded id: copies at a seam may differ by
  // rounding, and both triangles must get the same level.
  const Eigen::Vector3f pa = Vertex(mesh.positions, representative[a]);
  const Eigen::Vector3f pb = Vertex(mesh.positions, representative[b]);
  const float max_level = static_cast<float>(target.max_level);
  const Eigen::Vector4f ca = target.view_projection * pa.homogeneous();
  const Eigen::Vector4f cb = target.view_projection * pb.homogeneous();
  float cap = max_level;
  if (ca.w() > 0 && cb.w() > 0) {
    const Eigen::Vector2f pixels(0.5f * target.width, 0.5f * target.height);
    const Eigen::Vector2f sa = ca.head<2>() / ca.w(),
                          sb = cb.head<2>() / cb.w();
    cap = std::ceil((sa - sb).cwiseProduct(pixels).norm() /
                    target.min_edge_pixels);
  }
  const float wanted =
      std::ceil((pa - pb).norm() / std::max(target_edge, 1e-12f));
  return std::clamp(std::min(wanted, cap), 1.0f, max_level);
}

// Levels of every triangle's edges: wrinkled edges by EdgeLevel, the rest 1.
void SetEdgeLevels(const RenderMesh& mesh, const FrameWrinkles& wrinkles,
                   const TessellationTarget& target, WrinkleBuffers* out) {
  const float target_edge =
      kEdgeOfMinWidth * static_cast<float>(wrinkles.min_width);
  const std::vector<uint64_t>& wrinkled = out->wrinkled_edges;
  // The first vertex of each welded id.
  std::vector<int32_t>& representative = out->representative;
  representative.assign(mesh.welded.size(), -1);
  for (size_t v = mesh.welded.size(); v-- > 0;) {
    representative[mesh.welded[v]] = static_cast<int32_t>(v);
  }
  for (size_t f = 0; f < mesh.triangles.size(); ++f) {
    const io::Triangle& t = mesh.triangles[f];
    std::array<float, 4>& l = out->levels[f];
    for (int k = 0; k < 3; ++k) {
      const int32_t a = t[k], b = t[(k + 1) % 3];
      if (std::binary_search(wrinkled.begin(), wrinkled.end(),
                             WeldedEdgeKey(mesh, a, b))) {
        l[k] = EdgeLevel(mesh, representative, a, b, target, target_edge);
      }
    }
    l[3] = std::max({l[0], l[1], l[2]});
    out->max_level = std::max(out->max_level, static_cast<int>(l[3]));
  }
}

}  // namespace

void FillWrinkleBuffers(const RenderMesh& mesh, const FrameWrinkles& wrinkles,
                        const TessellationTarget& target, WrinkleBuffers* out) {
  ClearWrinkleBuffers(mesh.triangles.size(), out);
  ThinRefinedPoints(wrinkles, kThinningTolerance, &out->thinned);
  const FrameWrinkles& drawn = out->thinned;
  const ScreenScale screen(target);
  ChooseDrawnWrinkles(drawn, target, screen, out);
  for (int w = 0; w < drawn.num_wrinkles(); ++w) {
    AppendWrinklePoints(drawn.refined(w), target, screen, out);
  }
  ListTriangleRanges(mesh, drawn, out);
  SetEdgeLevels(mesh, drawn, target, out);
}

int PatchesPerDraw(int max_level, int requested) {
  if (requested > 0) return requested;
  // Tessellated vertices of one triangle patch at inner level <= max_level:
  // 3 (L/2)(L/2 + 1) + 1 for even L; odd levels rounded up.
  const int half = (max_level + 1) / 2;
  return std::max(1,
                  kMaxTessellatedVerticesPerDraw / (3 * half * (half + 1) + 1));
}

absl::Span<const int32_t> WeldedIdsOr(absl::Span<const float> positions,
                                      absl::Span<const int32_t> welded,
                                      std::vector<int32_t>* storage) {
  if (!welded.empty()) return welded;
  int num_welded = 0;
  *storage = WeldVerticesRelative(positions, kDefaultWeldRelativeTolerance,
                                  &num_welded);
  return *storage;
}

absl::Status ValidateRenderMesh(const RenderMesh& mesh) {
  if (mesh.positions.empty() || mesh.positions.size() % 3 != 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("positions: %d floats is not a positive multiple of 3",
                        mesh.positions.size()));
  }
  const size_t num_vertices = mesh.positions.size() / 3;
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    if (!std::isfinite(mesh.positions[i])) {
      return absl::InvalidArgumentError(
          absl::StrFormat("positions: vertex %d is not finite", i / 3));
    }
  }
  for (size_t f = 0; f < mesh.triangles.size(); ++f) {
    for (int32_t v : mesh.triangles[f]) {
      if (v < 0 || static_cast<size_t>(v) >= num_vertices) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "triangles: triangle %d uses vertex %d of %d", f, v, num_vertices));
      }
    }
  }
  if (mesh.welded.empty()) return absl::OkStatus();
  if (mesh.welded.size() != num_vertices) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "welded: %d ids for %d vertices", mesh.welded.size(), num_vertices));
  }
  for (size_t v = 0; v < num_vertices; ++v) {
    if (mesh.welded[v] < 0 ||
        static_cast<size_t>(mesh.welded[v]) >= num_vertices) {
      return absl::InvalidArgumentError(
          absl::StrFormat("welded: vertex %d has id %d, outside [0, %d)", v,
                          mesh.welded[v], num_vertices));
    }
  }
  return absl::OkStatus();
}

}  // namespace crease::renderer
