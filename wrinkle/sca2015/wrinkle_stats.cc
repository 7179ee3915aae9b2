#include "wrinkle/sca2015/wrinkle_stats.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "common/median.h"

namespace crease {
namespace {

// Smallest distance between two polylines on the surface: each one's points to
// the other's segments, both ways (exact for crossing-free polylines up to the
// segment-segment interior case, which needs no more precision here).
double PolylineDistance(const SurfaceFrame& surface,
                        const std::vector<EdgePoint>& a,
                        const std::vector<EdgePoint>& b) {
  double best = INFINITY;
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<EdgePoint>& from = pass == 0 ? a : b;
    const std::vector<EdgePoint>& to = pass == 0 ? b : a;
    for (const EdgePoint& p : from) {
      const Eigen::Vector3d q = surface.Position(p);
      for (size_t i = 0; i + 1 < to.size(); ++i) {
        best = std::min(best, SegmentDistanceSq(q, surface.Position(to[i]),
                                                surface.Position(to[i + 1])));
      }
    }
  }
  return std::sqrt(best);
}

// L_max of a shaped wrinkle: its widest refined width (the ends').
double WidestWidth(const std::vector<RefinedPoint>& refined) {
  double widest = 0;
  for (const RefinedPoint& r : refined) widest = std::max(widest, r.width);
  return widest;
}

}  // namespace

std::optional<double> SharpestTurnDegrees(
    const std::vector<RefinedPoint>& refined, double step,
    const std::vector<Eigen::Vector3d>* normals) {
  if (!(step > 0) || refined.size() < 2) return std::nullopt;
  double length = 0;
  for (size_t i = 1; i < refined.size(); ++i) {
    length += (refined[i].position - refined[i - 1].position).norm();
  }
  if (!(length >= 2 * step) || !std::isfinite(length)) return std::nullopt;
  // Samples centred on the path, at (length mod step) / 2 + k step, so both
  // ends are looked at alike.
  double to_next = 0.5 * std::fmod(length, step);
  Eigen::Vector3d last_sample = Eigen::Vector3d::Zero();
  Eigen::Vector3d last_chord = Eigen::Vector3d::Zero();
  Eigen::Vector3d last_normal = Eigen::Vector3d::Zero();
  Eigen::Vector3d chord_start_normal = Eigen::Vector3d::Zero();
  bool have_sample = false, have_chord = false;
  double sharpest = 0;
  for (size_t i = 1; i < refined.size(); ++i) {
    Eigen::Vector3d from = refined[i - 1].position;
    const Eigen::Vector3d to = refined[i].position;
    double left = (to - from).norm();
    while (left >= to_next) {
      if (left > 0) from += (to - from) * (to_next / left);
      left -= to_next;
      to_next = step;
      // The cloth's normal where this sample lies.
      const Eigen::Vector3d normal =
          normals != nullptr ? (*normals)[i - 1] : Eigen::Vector3d::Zero();
      if (have_sample) {
        const Eigen::Vector3d chord = from - last_sample;
        if (have_chord) {
          Eigen::Vector3d a = last_chord, b = chord;
          // Both chords into the plane halfway between the cloth's normals
          // at their far ends: two chords straight across a crease, each in
          // its own triangle, project onto one line there, however the
          // crease is crossed.
          const Eigen::Vector3d n = (chord_start_normal + normal).normalized();
          if (normals != nullptr && n.allFinite()) {
            a -= a.dot(n) * n;
            b -= b.dot(n) * n;
          }
          const double c = a.dot(b) / std::max(a.norm() * b.norm(), 1e-300);
          sharpest = std::max(sharpest, std::acos(std::clamp(c, -1.0, 1.0)));
        }
        last_chord = chord;
        chord_start_normal = last_normal;
        have_chord = true;
      }
      last_normal = normal;
      last_sample = from;
      have_sample = true;
    }
    to_next -= left;
  }
  return sharpest * 180.0 / std::numbers::pi;
}

double InClothAngleDegrees(const Eigen::Vector3d& tangent_a,
                           const Eigen::Vector3d& normal_a,
                           const Eigen::Vector3d& tangent_b,
                           const Eigen::Vector3d& normal_b) {
  // b's tangent carried into a's tangent plane by the least rotation that
  // takes b's normal to a's.
  const Eigen::Vector3d carried =
      Eigen::Quaterniond::FromTwoVectors(normal_b, normal_a) * tangent_b;
  const double norms = tangent_a.norm() * carried.norm();
  if (!(norms > 0)) return 90.0;
  const double c = std::min(1.0, std::abs(tangent_a.dot(carried)) / norms);
  return std::acos(c) * 180.0 / std::numbers::pi;
}

std::optional<MidPoint> ArcLengthMiddle(
    const std::vector<RefinedPoint>& refined) {
  double total = 0;
  for (size_t i = 1; i < refined.size(); ++i) {
    total += (refined[i].position - refined[i - 1].position).norm();
  }
  if (refined.size() < 2 || !(total > 0)) return std::nullopt;
  double walked = 0;
  for (size_t i = 1; i < refined.size(); ++i) {
    const Eigen::Vector3d chord = refined[i].position - refined[i - 1].position;
    const double length = chord.norm();
    if (length > 0 && walked + length >= 0.5 * total) {
      const double t = (0.5 * total - walked) / length;
      return MidPoint{refined[i - 1].position + t * chord, chord / length,
                      i - 1};
    }
    walked += length;
  }
  return std::nullopt;  // not reached: the chords add up to total
}

WrinkleStatistics::WrinkleStatistics(double frame_rate)
    : churn_window_(std::max(
          1, static_cast<int>(std::lround(kChurnWindow * frame_rate / 30.0)))),
      frame_rate_(frame_rate) {}

void WrinkleStatistics::AddFrame(const SurfaceFrame& surface,
                                 const std::vector<WrinklePath>& paths,
                                 const std::vector<WrinkleShape>& shapes,
                                 const std::vector<WrinkleDeath>& deaths) {
  if (frame_ == 0) {
    triangles_ = surface.topology->num_triangles();
    Eigen::Vector3d lo = surface.positions[0], hi = lo;
    for (const Eigen::Vector3d& p : surface.positions) {
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
    diagonal_ = (hi - lo).norm();
  }
  // Deaths first: this frame's births are compared with them.
  for (const WrinkleDeath& death : deaths) {
    auto it = seen_.find(death.id);
    if (it == seen_.end()) continue;
    if (death.joined) {  // lives on in the wrinkle it joined
      seen_.erase(it);
      continue;
    }
    lifetimes_.push_back(it->second.frames);
    recent_deaths_.push_back(
        {frame_, it->second.mid_width, std::move(it->second.points)});
    seen_.erase(it);
  }
  std::erase_if(recent_deaths_, [&](const Dead& d) {
    return d.frame <= frame_ - churn_window_;
  });
  alive_sum_ += static_cast<double>(paths.size());
  AddNeighbourAngles(surface, paths, shapes);
  for (size_t w = 0; w < paths.size(); ++w) {
    const WrinklePath& path = paths[w];
    const double mid_width = w < shapes.size() ? shapes[w].mid_width : 0.0;
    segments_.push_back(path.num_segments());
    lengths_.push_back(w < shapes.size() ? shapes[w].length : 0.0);
    mid_widths_.push_back(mid_width);
    if (w < shapes.size()) {
      const double step = WidestWidth(shapes[w].refined);
      const std::optional<double> turn =
          SharpestTurnDegrees(shapes[w].refined, step);
      if (turn.has_value()) sharpest_turns_.push_back(*turn);
      RefinedNormals(surface, path, shapes[w]);
      const std::optional<double> in_cloth =
          SharpestTurnDegrees(shapes[w].refined, step, &normals_);
      if (in_cloth.has_value()) sharpest_turns_in_cloth_.push_back(*in_cloth);
    }
    auto [it, born] = seen_.try_emplace(path.id);
    if (born) {
      ++births_;
      churned_ += NearRecentDeath(surface, path, mid_width);
    }
    ++it->second.frames;
    it->second.mid_width = mid_width;
    it->second.points = path.points;
  }
  ++frame_;
}

namespace {

// The normal of the triangle under refined point `index` of a shape with
// `points` refined points along `path` (segment i owns an equal run of
// them); zero for a path with no segment.
Eigen::Vector3d NormalUnder(const SurfaceFrame& surface,
                            const WrinklePath& path, size_t points,
                            size_t index) {
  const int segments = path.num_segments();
  if (segments <= 0) return Eigen::Vector3d::Zero();
  const size_t per_segment = std::max<size_t>((points - 1) / segments, 1);
  const int segment =
      std::min<int>(segments - 1, static_cast<int>(index / per_segment));
  const LocalFrame& frame = surface.frames[path.faces[segment]];
  return frame.x_axis.cross(frame.y_axis);
}

}  // namespace

void WrinkleStatistics::RefinedNormals(const SurfaceFrame& surface,
                                       const WrinklePath& path,
                                       const WrinkleShape& shape) {
  normals_.resize(shape.refined.size());
  for (size_t i = 0; i < normals_.size(); ++i) {
    normals_[i] = NormalUnder(surface, path, shape.refined.size(), i);
  }
}

void WrinkleStatistics::AddNeighbourAngles(
    const SurfaceFrame& surface, const std::vector<WrinklePath>& paths,
    const std::vector<WrinkleShape>& shapes) {
  middles_.clear();
  for (size_t w = 0; w < shapes.size() && w < paths.size(); ++w) {
    const WrinkleShape& shape = shapes[w];
    const std::optional<MidPoint> mid = ArcLengthMiddle(shape.refined);
    if (!mid) continue;
    middles_.push_back(
        {mid->point, mid->tangent,
         NormalUnder(surface, paths[w], shape.refined.size(), mid->index),
         shape.mid_width});
  }
  const double same_side_cos =
      std::cos(kSameSideDegrees * std::numbers::pi / 180.0);
  for (size_t a = 0; a < middles_.size(); ++a) {
    for (size_t b = a + 1; b < middles_.size(); ++b) {
      const double reach =
          kNeighbourWidths * std::max(middles_[a].width, middles_[b].width);
      if ((middles_[a].point - middles_[b].point).squaredNorm() >
          reach * reach) {
        continue;
      }
      const double c =
          std::min(1.0, std::abs(middles_[a].tangent.dot(middles_[b].tangent)));
      const double angle = std::acos(c) * 180.0 / std::numbers::pi;
      neighbour_angles_.push_back(angle);
      if (middles_[a].normal.dot(middles_[b].normal) >= same_side_cos) {
        neighbour_angles_same_side_.push_back(angle);
        neighbour_angles_in_cloth_.push_back(
            InClothAngleDegrees(middles_[a].tangent, middles_[a].normal,
                                middles_[b].tangent, middles_[b].normal));
      }
    }
  }
}

bool WrinkleStatistics::NearRecentDeath(const SurfaceFrame& surface,
                                        const WrinklePath& path,
                                        double mid_width) const {
  for (const Dead& dead : recent_deaths_) {
    const double reach = kChurnWidths * std::max(mid_width, dead.mid_width);
    if (PolylineDistance(surface, path.points, dead.points) <= reach)
      return true;
  }
  return false;
}

WrinkleStatsSummary WrinkleStatistics::Summary() const {
  WrinkleStatsSummary s;
  s.frames = frame_;
  s.frame_rate = frame_rate_;
  s.triangles = triangles_;
  s.diagonal = diagonal_;
  if (frame_ > 0 && triangles_ > 0)
    s.wrinkles_per_100_triangles = 100.0 * alive_sum_ / frame_ / triangles_;
  s.median_segments = Median(segments_);
  s.median_length = Median(lengths_);
  s.median_mid_width = Median(mid_widths_);
  if (diagonal_ > 0) {
    s.median_length_relative = s.median_length / diagonal_;
    s.median_mid_width_relative = s.median_mid_width / diagonal_;
  }
  s.median_sharpest_turn = Median(sharpest_turns_);
  s.median_sharpest_turn_in_cloth = Median(sharpest_turns_in_cloth_);
  s.median_neighbour_angle = Median(neighbour_angles_);
  s.neighbour_pairs = static_cast<int>(neighbour_angles_.size());
  s.median_neighbour_angle_same_side = Median(neighbour_angles_same_side_);
  s.neighbour_pairs_same_side =
      static_cast<int>(neighbour_angles_same_side_.size());
  s.median_neighbour_angle_in_cloth = Median(neighbour_angles_in_cloth_);
  s.median_lifetime = Median(lifetimes_);
  s.ended = static_cast<int>(lifetimes_.size());
  s.births = births_;
  s.churned_births = churned_;
  return s;
}

}  // namespace crease
