#include "wrinkle/sca2015/wrinkle_tracker.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "common/stopwatch.h"
#include "wrinkle/sca2015/joining.h"

namespace crease {
namespace {

double SegmentLength(const SurfaceFrame& surface, const WrinklePath& path,
                     int i) {
  return (surface.Position(path.points[i + 1]) -
          surface.Position(path.points[i]))
      .norm();
}

void ReversePath(WrinklePath* path) {
  std::reverse(path->points.begin(), path->points.end());
  std::reverse(path->faces.begin(), path->faces.end());
}

}  // namespace

double DefaultMinWidth(const SurfaceFrame& surface, double fraction) {
  if (surface.positions.empty()) return 0.0;
  Eigen::Vector3d lo = surface.positions[0], hi = surface.positions[0];
  for (const Eigen::Vector3d& p : surface.positions) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const MeshTopology& topology = *surface.topology;
  std::vector<double> lengths;
  lengths.reserve(topology.num_edges());
  for (int32_t e = 0; e < topology.num_edges(); ++e) {
    const MeshTopology::Edge& edge = topology.edge(e);
    lengths.push_back(
        (surface.positions[edge.v0] - surface.positions[edge.v1]).norm());
  }
  double median_edge = 0.0;
  if (!lengths.empty()) {
    auto mid = lengths.begin() + lengths.size() / 2;
    std::nth_element(lengths.begin(), mid, lengths.end());
    median_edge = *mid;
  }
  return std::max(fraction * (hi - lo).norm(), median_edge / 10.0);
}

WrinkleTracker::WrinkleTracker(const WrinkleParams& params)
    : params_(params), rng_(params.seed), pleat_rng_(~params.seed) {}

void WrinkleTracker::Initialize(const SurfaceFrame& surface) {
  // No wrinkles yet: empty lists for every triangle.
  range_offsets_.assign(surface.topology->num_triangles() + 1, 0);
  ranges_.clear();
  ranges_stale_ = false;
  if (params_.min_width > 0) {
    min_width_ = params_.min_width;
    return;
  }
  min_width_ = DefaultMinWidth(surface, params_.min_width_fraction);
  if (!(min_width_ > 0)) min_width_ = 1e-3;
}

void WrinkleTracker::Step(const SurfaceFrame& surface) {
  births_ = 0;
  deaths_.clear();
  Stopwatch stopwatch;
  // At a high frame rate the length update and the seeding run on every few
  // frames (AtFrameRate), so that paths grow and shrink, and seeds are drawn,
  // as often in time: both act by whole steps (a segment, a seed).
  const int step = steps_++;
  Evolve(surface, step % std::max(1, params_.length_update_period) == 0);
  timings_.evolve_ms = stopwatch.Lap();
  if (step % std::max(1, params_.seed_period) == 0) {
    Seed(surface, params_.max_new_per_frame);
  }
  timings_.seed_ms = stopwatch.Lap();
  Shape(surface);
  timings_.shape_ms = stopwatch.Lap();
}

void WrinkleTracker::RetraceFromScratch(const SurfaceFrame& surface) {
  births_ = 0;
  deaths_.clear();
  for (const WrinklePath& p : paths_) deaths_.push_back({p.id, p.age});
  paths_.clear();
  // No births-per-frame cap: every wrinkle is born on this frame.
  Seed(surface, params_.max_wrinkles);
  // Every wrinkle is new each frame here: fading in would only flatten them.
  for (WrinklePath& path : paths_) path.fade = 1.0;
  Shape(surface);
}

void WrinkleTracker::Evolve(const SurfaceFrame& surface, bool update_lengths) {
  max_length_update_ = 0;
  PersistenceParams persistence = params_.persistence;
  if (params_.align_where_compressed) {
    // The alignment rises with the compression as a wrinkle's strength does
    // (CompressionStrength): from the keep threshold to tau.
    persistence.align_from = params_.tracing.KeepThreshold();
    persistence.align_full = params_.tracing.tau;
  }
  for (WrinklePath& path : paths_) {
    ++path.age;
    EvolvePath(surface, persistence, persistence_scratch_, &path);
    if (params_.smooth_each_frame) {
      SmoothPath(surface, params_.each_frame_smoothing_step, &path);
    }
    // Re-routing can add points; keep every path within the tracing limit.
    const int excess = path.num_segments() - params_.tracing.max_segments;
    if (excess > 0) {
      const int front = excess / 2, back = excess - front;
      path.points.erase(path.points.begin(), path.points.begin() + front);
      path.faces.erase(path.faces.begin(), path.faces.begin() + front);
      path.points.resize(path.points.size() - back);
      path.faces.resize(path.faces.size() - back);
    }
  }
  ResolveMeets(surface);
  // By whole segments: a smaller bound a frame at a high frame rate would
  // hold a short path's length fixed, so instead it runs less often.
  if (update_lengths) {
    for (int i = 0; i < static_cast<int>(paths_.size()); ++i)
      UpdateLength(surface, i);
  }
  if (params_.join_gap_widths > 0) {
    JoinParams join;
    join.max_gap = params_.join_gap_widths * std::numbers::pi * min_width_;
    join.max_segments = params_.tracing.max_segments;
    if (JoinMeetingEnds(surface, join, segments_, join_scratch_, &paths_) > 0) {
      // The absorbed wrinkles (left with no points) leave the list now.
      std::erase_if(paths_, [&](const WrinklePath& path) {
        if (!path.points.empty()) return false;
        deaths_.push_back({path.id, path.age, /*joined=*/true});
        return true;
      });
    }
  }
  // Death: too short for its own width, or nothing above the keep threshold
  // for more than dormant_frames frames in a row. Not at once: the wrinkle
  // fades out over fade_frames frames and lives on if the condition stops
  // holding meanwhile (compression hovering around the threshold would
  // otherwise make wrinkles pop in and out).
  size_t kept = 0;
  for (size_t i = 0; i < paths_.size(); ++i) {
    WrinklePath& path = paths_[i];
    const bool alive = StaysAlive(surface, &path);
    if (!alive) {
      deaths_.push_back({path.id, path.age});
      continue;
    }
    if (kept != i) std::swap(paths_[kept], path);
    ++kept;
  }
  paths_.resize(kept);
}

WrinkleTracker::PathCompression WrinkleTracker::CompressionOf(
    const SurfaceFrame& surface, const WrinklePath& path) const {
  PathCompression c;
  for (int32_t f : path.faces) {
    c.max = std::max(c.max, surface.field[f].compression);
    c.kept |= IsWrinkleFace(surface.field[f], params_.tracing);
  }
  return c;
}

bool WrinkleTracker::StaysAlive(const SurfaceFrame& surface,
                                WrinklePath* path) const {
  // Broken paths die at once: too few points, or none of its length left
  // (collapsed geometry), or an edge parameter the solve could not find (NaN
  // on degenerate triangles). Fading them would draw garbage.
  if (path->points.size() < 2) return false;
  for (const EdgePoint& p : path->points) {
    if (!(p.t >= 0.0 && p.t <= 1.0)) return false;
  }
  const double length = PathLength(surface, *path);
  if (!(length > 0.0 && std::isfinite(length))) return false;
  const PathCompression c = CompressionOf(surface, *path);
  path->dormant = c.kept ? 0 : path->dormant + 1;
  if (path->dormant <= params_.dormant_frames &&
      length >= MidWidth(c.max, min_width_)) {
    path->fade = std::min(1.0, path->fade + FadeStep());
    return true;
  }
  path->fade -= FadeStep();
  return path->fade > 1e-9;
}

void WrinkleTracker::ResolveMeets(const SurfaceFrame& surface) {
  // Longest first; a path that crosses one already placed is cut there, keeping
  // its longer side (the papers: "truncate the shorter").
  order_.resize(paths_.size());
  for (size_t i = 0; i < paths_.size(); ++i)
    order_[i] = static_cast<int32_t>(i);
  lengths_.resize(paths_.size());
  for (size_t i = 0; i < paths_.size(); ++i)
    lengths_[i] = PathLength(surface, paths_[i]);
  std::sort(order_.begin(), order_.end(), [&](int32_t a, int32_t b) {
    return lengths_[a] != lengths_[b] ? lengths_[a] > lengths_[b] : a < b;
  });
  segments_.Reset(surface.topology->num_triangles());
  for (int32_t index : order_) {
    WrinklePath& path = paths_[index];
    for (int i = 0; i < path.num_segments(); ++i) {
      const Eigen::Vector3d a = surface.Position(path.points[i]);
      const Eigen::Vector3d b = surface.Position(path.points[i + 1]);
      if (!segments_.Crosses(surface, path.faces[i], index, a, b)) continue;
      const int before = i;  // segments 0 .. i-1 kept on one side
      const int after =
          path.num_segments() - i - 1;  // segments i+1 .. end on the other
      if (before >= after) {
        path.points.resize(i + 1);
        path.faces.resize(i);
      } else {
        path.points.erase(path.points.begin(), path.points.begin() + i + 1);
        path.faces.erase(path.faces.begin(), path.faces.begin() + i + 1);
      }
      i = -1;  // re-check the kept part from its start
      if (path.points.size() < 2) break;
    }
    if (path.points.size() >= 2) segments_.AddPath(surface, index, path);
  }
}

void WrinkleTracker::UpdateLength(const SurfaceFrame& surface, int index) {
  WrinklePath& path = paths_[index];
  if (path.points.size() < 2) return;
  const double initial = PathLength(surface, path);
  const double lowest = (1.0 - params_.max_length_change) * initial;
  double length = initial;
  // Trim whole end segments lying where the compression fell below the keep
  // threshold, unless none is above it: a dormant wrinkle keeps its place
  // (flattened by its shape) for when the compression comes back.
  const bool kept = CompressionOf(surface, path).kept;
  for (int side = 0; side < 2 && kept; ++side) {
    while (path.points.size() > 2) {
      const int last = path.num_segments() - 1;
      if (IsWrinkleFace(surface.field[path.faces[last]], params_.tracing))
        break;
      const double seg = SegmentLength(surface, path, last);
      if (length - seg < lowest) break;
      length -= seg;
      path.points.pop_back();
      path.faces.pop_back();
    }
    ReversePath(&path);
  }
  // Extend from both ends while the next triangle is compressed; the net change
  // stays within max_length_change of the initial length.
  const double budget = (1.0 + params_.max_length_change) * initial - length;
  if (budget > 0) {
    Extend(surface, index, budget);
    const double used = PathLength(surface, path) - length;
    ReversePath(&path);
    Extend(surface, index, budget - used);
    ReversePath(&path);
  }
  const double final_length = PathLength(surface, path);
  if (initial > 0) {
    max_length_update_ = std::max(max_length_update_,
                                  std::abs(final_length - initial) / initial);
  }
}

bool WrinkleTracker::Extend(const SurfaceFrame& surface, int index,
                            double budget) {
  WrinklePath& path = paths_[index];
  const MeshTopology& topology = *surface.topology;
  const EdgePoint end = path.points.back();
  const int32_t last_face = path.faces.back();
  const int slot = EdgeSlot(topology, last_face, end.edge);
  if (slot < 0) return false;
  const int32_t next = topology.face_neighbors(last_face)[slot];
  if (next < 0 || !IsWrinkleFace(surface.field[next], params_.tracing))
    return false;
  if (trace_scratch_.visit_stamp.size() !=
      static_cast<size_t>(topology.num_triangles())) {
    trace_scratch_.visit_stamp.assign(topology.num_triangles(), 0);
    trace_scratch_.stamp = 0;
  }
  ++trace_scratch_.stamp;
  for (int32_t f : path.faces)
    trace_scratch_.visit_stamp[f] = trace_scratch_.stamp;
  if (trace_scratch_.visit_stamp[next] == trace_scratch_.stamp) return false;
  const Eigen::Vector3d from = surface.Position(end);
  Eigen::Vector3d heading =
      from - surface.Position(path.points[path.points.size() - 2]);
  Eigen::Vector3d dir = surface.field[next].wrinkle_dir;
  if (dir.dot(heading) < 0) dir = -dir;
  extra_.clear();
  const int room = params_.tracing.max_segments - path.num_segments();
  if (room <= 0) return false;
  TraceRequest request;
  request.face = next;
  request.entry_slot = EdgeSlot(topology, next, end.edge);
  request.start = from;
  request.direction = dir;
  request.path_index = index;
  request.max_segments = room;
  request.spacing = MidWidth(CompressionOf(surface, path).max, min_width_);
  TraceDirection(surface, params_.tracing, segments_, request, trace_scratch_,
                 &extra_);
  double used = 0;
  Eigen::Vector3d prev = from;
  bool grew = false;
  for (size_t j = 0; j < extra_.points.size(); ++j) {
    const Eigen::Vector3d p = surface.Position(extra_.points[j]);
    used += (p - prev).norm();
    if (used > budget) break;
    path.points.push_back(extra_.points[j]);
    path.faces.push_back(extra_.faces[j]);
    segments_.Add(extra_.faces[j], index, prev, p);
    prev = p;
    grew = true;
  }
  return grew;
}

double WrinkleTracker::CompressionStrength(double c) const {
  if (!params_.strength_from_compression) return 1.0;
  const double keep = params_.tracing.KeepThreshold();
  const double span = params_.tracing.tau - keep;
  if (!(span > 0)) return 1.0;
  const double x = std::clamp((c - keep) / span, 0.0, 1.0);
  return x * x * (3.0 - 2.0 * x);
}

void WrinkleTracker::Shape(const SurfaceFrame& surface) {
  static const ArcHeightTable kTable;
  shapes_.resize(paths_.size());
  if (params_.slack_from_band) {
    wrinkles_in_face_.assign(surface.topology->num_triangles(), 0);
    for (const WrinklePath& path : paths_) {
      for (int32_t f : path.faces) ++wrinkles_in_face_[f];
    }
  }
  for (size_t w = 0; w < paths_.size(); ++w) {
    WrinklePath& path = paths_[w];
    double c_max = CompressionOf(surface, path).max;
    if (path.shape_compression >= 1.0) {
      const double r = 1.0 + params_.max_shape_change;
      c_max = std::max(1.0, std::clamp(c_max, path.shape_compression / r,
                                       path.shape_compression * r));
    }
    path.shape_compression = c_max;
    double band = 0.0;
    if (params_.slack_from_band) {
      band = BandExtent(surface, path, wrinkles_in_face_);
      if (path.shape_band >= 0.0) {
        // Followed like the compression (a wrinkle entering a triangle
        // another crosses would halve it at once); band_growth L_min a
        // frame more lets it grow from none.
        const double r = 1.0 + params_.max_shape_change;
        band =
            std::clamp(band, path.shape_band / r,
                       path.shape_band * r + params_.band_growth * min_width_);
      }
      path.shape_band = band;
    }
    ShapePath(surface, path, min_width_, kTable, params_.samples_per_segment,
              &shapes_[w], c_max, band, params_.fold_limits);
    const double scale = path.fade * CompressionStrength(c_max);
    if (scale < 1.0) {
      for (RefinedPoint& r : shapes_[w].refined) r.height *= scale;
      shapes_[w].mid_height *= scale;
    }
  }
  shaped_topology_ = surface.topology;
  shaped_positions_.assign(surface.positions.begin(), surface.positions.end());
  ranges_stale_ = true;
}

void WrinkleTracker::EnsureRanges() const {
  if (!ranges_stale_) return;
  ranges_stale_ = false;
  SurfaceFrame surface;
  surface.topology = shaped_topology_;
  surface.positions = shaped_positions_;
  BuildTriangleRanges(surface, paths_, shapes_, params_.samples_per_segment,
                      ranges_scratch_, &range_offsets_, &ranges_);
}

void WrinkleTracker::ExportFrame(FrameWrinkles* out) const {
  out->Clear();
  out->min_width = min_width_;
  out->point_offsets.push_back(0);
  for (size_t w = 0; w < paths_.size(); ++w) {
    const std::vector<RefinedPoint>& refined = shapes_[w].refined;
    out->points.insert(out->points.end(), refined.begin(), refined.end());
    out->point_offsets.push_back(static_cast<int32_t>(out->points.size()));
    out->segments.push_back(paths_[w].num_segments());
  }
  EnsureRanges();
  out->range_offsets.assign(range_offsets_.begin(), range_offsets_.end());
  out->ranges.assign(ranges_.begin(), ranges_.end());
}

}  // namespace crease
