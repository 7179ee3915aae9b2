// The seeding half of WrinkleTracker (wrinkle_tracker.h): where new
// wrinkles are born, their families, and the pleats of confined bands.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "wrinkle/sca2015/wrinkle_tracker.h"

namespace crease {
namespace {

// No neighbour across an edge is more compressed.
bool IsCompressionPeak(const SurfaceFrame& surface, int32_t face) {
  const double c = surface.field[face].compression;
  for (int32_t n : surface.topology->face_neighbors(face)) {
    if (n >= 0 && surface.field[n].compression > c) return false;
  }
  return true;
}

// How far the triangle reaches along its compression direction: the field is
// one tensor per triangle, so it cannot place two folds closer than this.
double ExtentAcross(const SurfaceFrame& surface, int32_t face) {
  const Eigen::Vector3d& d = surface.field[face].compression_dir;
  double lo = INFINITY, hi = -INFINITY;
  for (int k = 0; k < 3; ++k) {
    const double x = surface.Corner(face, k).dot(d);
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  return hi - lo;
}

// A sibling's or a band's triangle is squeezed within 30 degrees of the
// direction it continues (after the field's smoothing).
constexpr double kSameFamilyCos = 0.866;

// A step between two triangles' centroids across a band (along its
// wrinkles), signed by the wrinkle direction of the triangle it reaches: the
// step less its parts along the band (`along`, the two triangles' summed
// compression directions) and along that triangle's normal.
double StepAcross(const Eigen::Vector3d& step, const Eigen::Vector3d& along,
                  const StretchTensor& reached) {
  const Eigen::Vector3d normal =
      reached.compression_dir.cross(reached.wrinkle_dir);
  const Eigen::Vector3d unit = along.normalized();
  const double across =
      (step - step.dot(unit) * unit - step.dot(normal) * normal).norm();
  return step.dot(reached.wrinkle_dir) < 0 ? -across : across;
}

}  // namespace

bool WrinkleTracker::FarFromPaths(const SurfaceFrame& surface,
                                  const Eigen::Vector3d& q,
                                  double distance) const {
  const double d2 = distance * distance;
  for (size_t w = 0; w < paths_.size(); ++w) {
    if ((q.array() < bbox_lo_[w].array() - distance).any() ||
        (q.array() > bbox_hi_[w].array() + distance).any()) {
      continue;
    }
    const WrinklePath& path = paths_[w];
    for (int i = 0; i < path.num_segments(); ++i) {
      if (SegmentDistanceSq(q, surface.Position(path.points[i]),
                            surface.Position(path.points[i + 1])) < d2) {
        return false;
      }
    }
  }
  return true;
}

void WrinkleTracker::MarkBorderReach(const SurfaceFrame& surface) {
  const MeshTopology& topology = *surface.topology;
  const int32_t n = topology.num_triangles();
  if (border_stamp_.size() != static_cast<size_t>(n)) {
    border_stamp_.assign(n, 0);
    border_visit_ = 0;
  }
  ++border_visit_;
  border_queue_.clear();
  // From the compressed triangles on the border, through compressed ones.
  for (int32_t f = 0; f < n; ++f) {
    if (!IsWrinkleFace(surface.field[f], params_.tracing)) continue;
    for (int32_t g : topology.face_neighbors(f)) {
      if (g < 0) {
        border_stamp_[f] = border_visit_;
        border_queue_.push_back(f);
        break;
      }
    }
  }
  for (size_t next = 0; next < border_queue_.size(); ++next) {
    for (int32_t g : topology.face_neighbors(border_queue_[next])) {
      if (g < 0 || border_stamp_[g] == border_visit_ ||
          !IsWrinkleFace(surface.field[g], params_.tracing)) {
        continue;
      }
      border_stamp_[g] = border_visit_;
      border_queue_.push_back(g);
    }
  }
}

void WrinkleTracker::CollectSeedCandidates(const SurfaceFrame& surface) {
  candidates_.clear();
  band_candidates_.clear();
  if (params_.pleats_in_confined_bands) MarkBorderReach(surface);
  ++seed_frame_;
  if (inner_until_.size() !=
      static_cast<size_t>(surface.topology->num_triangles())) {
    inner_until_.assign(surface.topology->num_triangles(), -1);
  }
  for (int32_t f = 0; f < surface.topology->num_triangles(); ++f) {
    const StretchTensor& t = surface.field[f];
    if (IsSeedFace(t, params_.tracing) &&
        t.lambda_max / t.lambda_min >= params_.tracing.isotropy_ratio) {
      if (!params_.seed_at_peaks || IsCompressionPeak(surface, f)) {
        candidates_.push_back(f);
      } else if ((params_.pleats_in_confined_bands && ReachesBorder(f)) ||
                 (params_.pleats_in_inner_bands && InInnerBand(f))) {
        band_candidates_.push_back(f);
      }
    }
  }
  // Most compressed first; ties by index keep the order deterministic.
  auto by_compression = [&](int32_t a, int32_t b) {
    const double ca = surface.field[a].compression,
                 cb = surface.field[b].compression;
    return ca != cb ? ca > cb : a < b;
  };
  std::sort(candidates_.begin(), candidates_.end(), by_compression);
  std::sort(band_candidates_.begin(), band_candidates_.end(), by_compression);
}

namespace {

// The axis-aligned box around a path's points.
void BoundsOf(const SurfaceFrame& surface, const WrinklePath& path,
              Eigen::Vector3d* lo, Eigen::Vector3d* hi) {
  *lo = *hi = surface.Position(path.points[0]);
  for (const EdgePoint& p : path.points) {
    *lo = lo->cwiseMin(surface.Position(p));
    *hi = hi->cwiseMax(surface.Position(p));
  }
}

}  // namespace

void WrinkleTracker::Seed(const SurfaceFrame& surface, int max_births) {
  const MeshTopology& topology = *surface.topology;
  segments_.Reset(topology.num_triangles());
  bbox_lo_.resize(paths_.size());
  bbox_hi_.resize(paths_.size());
  for (size_t w = 0; w < paths_.size(); ++w) {
    segments_.AddPath(surface, static_cast<int32_t>(w), paths_[w]);
    BoundsOf(surface, paths_[w], &bbox_lo_[w], &bbox_hi_[w]);
  }
  CollectSeedCandidates(surface);
  // The peaks first; then, where a band confines the compression, the rest
  // of its triangles, for pleats side by side along it.
  for (const auto* list : {&candidates_, &band_candidates_}) {
    const bool pleats_only = list == &band_candidates_;
    for (int32_t f : *list) {
      if (births_ >= max_births ||
          static_cast<int>(paths_.size()) >= params_.max_wrinkles) {
        return;
      }
      births_ += TrySeed(surface, f, pleats_only, max_births - births_);
    }
  }
}

int WrinkleTracker::TrySeed(const SurfaceFrame& surface, int32_t f,
                            bool pleats_only, int room) {
  // One uniform random point in the triangle; band triangles draw from
  // their own generator, so folds seed as they would without pleats.
  SplitMix64& rng = pleats_only ? pleat_rng_ : rng_;
  double r1 = rng.Uniform(), r2 = rng.Uniform();
  if (r1 + r2 > 1.0) {
    r1 = 1.0 - r1;
    r2 = 1.0 - r2;
  }
  const Eigen::Vector3d& x0 = surface.Corner(f, 0);
  const Eigen::Vector3d seed =
      x0 + r1 * (surface.Corner(f, 1) - x0) + r2 * (surface.Corner(f, 2) - x0);
  const double width = MidWidth(surface.field[f].compression, min_width_);
  // Pleats side by side along a band are as alike as the band is uniform, so
  // their spacing follows their width (two: a pleat and a valley beside it),
  // not the triangles': a seed too near another fold for a fold of its own
  // may still make a pleat.
  if (!pleats_only &&
      !FarFromPaths(surface, seed,
                    std::max(width, params_.seed_spacing_across *
                                        ExtentAcross(surface, f)))) {
    // Only a pleat could be born here, and a pleat runs from the border or
    // across a band inside the cloth.
    if (!(params_.pleats_in_confined_bands && ReachesBorder(f)) &&
        !(params_.pleats_in_inner_bands && InInnerBand(f))) {
      return 0;
    }
    pleats_only = true;
  }
  if (pleats_only && !FarFromPaths(surface, seed, 2.0 * width)) return 0;
  const int32_t index = static_cast<int32_t>(paths_.size());
  if (!TraceFromSeed(surface, f, seed, params_.tracing, segments_, index, width,
                     trace_scratch_, &candidate_)) {
    return 0;
  }
  SmoothPath(surface, params_.tracing.smoothing_step, &candidate_);
  // A fold is long and thin: shorter ones read as blobs (and would die at
  // once if shorter than their width), unless the compression itself is
  // confined to a band they cross.
  const double length = PathLength(surface, candidate_);
  if (LongEnoughForAFold(surface, width)) {
    // A fold, not a pleat: one per compressed region, and its family.
    if (pleats_only) return 0;
    AddNewborn(surface);
    return 1 + SeedFamily(surface, f, seed, width, room - 1);
  }
  if (length < 2.0 * width || !SpansConfinedBand(surface, f, length)) {
    // A pleat is short but still longer than wide.
    return 0;
  }
  AddNewborn(surface);
  return 1;
}

bool WrinkleTracker::LongEnoughForAFold(const SurfaceFrame& surface,
                                        double width) const {
  return candidate_.num_segments() >= params_.min_seed_segments &&
         PathLength(surface, candidate_) >=
             std::max(width,
                      params_.min_seed_aspect * std::numbers::pi * min_width_);
}

void WrinkleTracker::AddNewborn(const SurfaceFrame& surface) {
  const int32_t index = static_cast<int32_t>(paths_.size());
  candidate_.id = next_id_++;
  candidate_.age = 0;
  candidate_.fade = FadeStep();
  candidate_.shape_compression = 0.0;
  candidate_.dormant = 0;
  paths_.push_back(candidate_);
  segments_.AddPath(surface, index, paths_.back());
  BoundsOf(surface, candidate_, &bbox_lo_.emplace_back(),
           &bbox_hi_.emplace_back());
}

int WrinkleTracker::SeedFamily(const SurfaceFrame& surface, int32_t face,
                               const Eigen::Vector3d& seed, double width,
                               int room) {
  if (!(params_.family_spacing_widths > 0)) return 0;
  const Eigen::Vector3d across = surface.field[face].compression_dir;
  const double spacing = params_.family_spacing_widths * width;
  int born = 0;
  for (const double side : {1.0, -1.0}) {
    for (int k = 1; k <= params_.max_family_per_side; ++k) {
      if (born >= room ||
          static_cast<int>(paths_.size()) >= params_.max_wrinkles) {
        return born;
      }
      int32_t g;
      Eigen::Vector3d q;
      if (!WalkOnSurface(surface, face, seed, side * across, k * spacing, &g,
                         &q) ||
          !IsWrinkleFace(surface.field[g], params_.tracing) ||
          std::abs(surface.field[g].compression_dir.dot(across)) <
              kSameFamilyCos) {
        // The compressed band ends on this side, or turns: the cloth there
        // is squeezed another way, by another fold train.
        break;
      }
      const double sibling_width =
          MidWidth(surface.field[g].compression, min_width_);
      if (!FarFromPaths(surface, q, 0.5 * spacing)) continue;
      const int32_t index = static_cast<int32_t>(paths_.size());
      if (!TraceFromSeed(surface, g, q, params_.tracing, segments_, index,
                         sibling_width, trace_scratch_, &candidate_,
                         surface.field[face].wrinkle_dir)) {
        continue;
      }
      SmoothPath(surface, params_.tracing.smoothing_step, &candidate_);
      if (!LongEnoughForAFold(surface, sibling_width)) continue;
      AddNewborn(surface);
      ++born;
    }
  }
  return born;
}

bool WrinkleTracker::SpansConfinedBand(const SurfaceFrame& surface,
                                       int32_t face, double length) {
  // From the cloth's border (the gathered edge, a cuff's or a waistband's
  // opening) to where the compression ends; or, inside the cloth (a belt, a
  // drawstring), from where the compression starts to where it ends.
  const TraceEnd a = trace_scratch_.back.end, b = trace_scratch_.forward.end;
  const bool from_border =
      params_.pleats_in_confined_bands &&
      ((a == TraceEnd::kBoundary && b == TraceEnd::kBelowKeep) ||
       (a == TraceEnd::kBelowKeep && b == TraceEnd::kBoundary));
  const bool inside = params_.pleats_in_inner_bands &&
                      a == TraceEnd::kBelowKeep && b == TraceEnd::kBelowKeep;
  if (!from_border && !inside) return false;
  if (inside) return RunsAlongBothWays(surface, face, length);
  // The band: the compressed triangles connected to `face`, measured by their
  // centroids along its compression direction (in the cloth's own length:
  // the current extent times the compression, since the gather itself
  // shortens what it compresses) and along the wrinkle (its centroids no
  // further apart than the wrinkle is long, which crosses it). A band is
  // long across the wrinkle and thin along it; a blob grows both ways alike.
  const StretchTensor& field = surface.field[face];
  const double c = std::max(field.compression, 1.0);
  const double needed = params_.min_seed_aspect * length;
  StartBandFill(surface, face);
  Eigen::Vector2d lo(INFINITY, INFINITY), hi(-INFINITY, -INFINITY);
  for (size_t next = 0; next < band_queue_.size(); ++next) {
    const int32_t f = band_queue_[next];
    const Eigen::Vector3d centroid =
        (surface.Corner(f, 0) + surface.Corner(f, 1) + surface.Corner(f, 2)) /
        3.0;
    const Eigen::Vector2d x(centroid.dot(field.compression_dir),
                            centroid.dot(field.wrinkle_dir));
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
    const double along = (hi.x() - lo.x()) * c, thick = hi.y() - lo.y();
    // Thicker than the wrinkle is long: it does not cross the band.
    if (thick > length) return false;
    if (along >= needed) return true;
    // Neighbours by corner, not edge: a band of compressed triangles along
    // an edge may meet only at the corners on it.
    const MeshTopology& topology = *surface.topology;
    for (int32_t v : topology.triangles()[f]) {
      for (int32_t g : topology.vertex_faces(topology.weld_map()[v])) {
        if (band_stamp_[g] == band_visit_ ||
            !IsWrinkleFace(surface.field[g], params_.tracing)) {
          continue;
        }
        band_stamp_[g] = band_visit_;
        band_queue_.push_back(g);
      }
    }
  }
  return false;
}

void WrinkleTracker::StartBandFill(const SurfaceFrame& surface, int32_t face) {
  const size_t n = surface.topology->num_triangles();
  if (band_stamp_.size() != n) {
    band_stamp_.assign(n, 0);
    band_visit_ = 0;
    band_along_.resize(n);
    band_across_.resize(n);
    band_dir_.resize(n);
  }
  ++band_visit_;
  band_queue_.assign(1, face);
  band_stamp_[face] = band_visit_;
  band_along_[face] = band_across_[face] = 0;
  band_dir_[face] = surface.field[face].compression_dir;
}

bool WrinkleTracker::RunsAlongBothWays(const SurfaceFrame& surface,
                                       int32_t face, double length) {
  // A flood fill of the compressed triangles from `face` (by corners), each
  // reached from a neighbour squeezed within 30 degrees of the same way and
  // given its distance from `face` along the compression: the neighbour's
  // plus the step between their centroids along their mean direction, times
  // their mean compression (the cloth's own length). Round a belt the fill
  // runs both ways round the body, each way accumulating its arc; in a blob
  // it stops at the blob's extent along the compression.
  const double each_way = 0.5 * params_.inner_band_aspect * length;
  const MeshTopology& topology = *surface.topology;
  StartBandFill(surface, face);
  const auto centroid = [&](int32_t f) {
    return (surface.Corner(f, 0) + surface.Corner(f, 1) +
            surface.Corner(f, 2)) /
           3.0;
  };
  double ahead = 0, behind = 0, across_lo = 0, across_hi = 0;
  for (size_t next = 0; next < band_queue_.size(); ++next) {
    const int32_t f = band_queue_[next];
    const Eigen::Vector3d from = centroid(f);
    for (int32_t v : topology.triangles()[f]) {
      for (int32_t g : topology.vertex_faces(topology.weld_map()[v])) {
        if (band_stamp_[g] == band_visit_ ||
            !IsWrinkleFace(surface.field[g], params_.tracing)) {
          continue;
        }
        Eigen::Vector3d dir = surface.field[g].compression_dir;
        if (dir.dot(band_dir_[f]) < 0) dir = -dir;
        if (dir.dot(band_dir_[f]) < kSameFamilyCos) continue;
        band_stamp_[g] = band_visit_;
        band_dir_[g] = dir;
        const double c =
            0.5 * (surface.field[f].compression + surface.field[g].compression);
        const Eigen::Vector3d step = centroid(g) - from;
        band_along_[g] =
            band_along_[f] + step.dot(band_dir_[f] + dir) * 0.5 * c;
        band_across_[g] = band_across_[f] + StepAcross(step, band_dir_[f] + dir,
                                                       surface.field[g]);
        across_lo = std::min(across_lo, band_across_[g]);
        across_hi = std::max(across_hi, band_across_[g]);
        // Thicker than the pleat is long: a blob it crosses at a narrow
        // place, not a band.
        if (across_hi - across_lo > length) return false;
        ahead = std::max(ahead, band_along_[g]);
        behind = std::max(behind, -band_along_[g]);
        if (ahead >= each_way && behind >= each_way) {
          // A band: its triangles reached so far may seed pleats beside this
          // one for a while (the frame's births are capped, and once pleats
          // lie in the band its peaks are too near them to be traced).
          band_queue_.push_back(g);
          for (int32_t h : band_queue_) {
            inner_until_[h] = seed_frame_ + kInnerBandFrames;
          }
          return true;
        }
        band_queue_.push_back(g);
      }
    }
  }
  return false;
}

}  // namespace crease
