#include "wrinkle/sca2015/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_format.h"

namespace crease {

double LabelFlicker(absl::Span<const Label> previous,
                    absl::Span<const Label> current) {
  if (current.empty() || previous.size() != current.size()) return 0.0;
  size_t changed = 0;
  for (size_t i = 0; i < current.size(); ++i)
    changed += previous[i] != current[i];
  return static_cast<double>(changed) / static_cast<double>(current.size());
}

std::array<double, kNumLabels> LabelShares(absl::Span<const Label> labels) {
  std::array<double, kNumLabels> shares{};
  if (labels.empty()) return shares;
  for (Label l : labels) shares[LabelIndex(l)] += 1.0;
  for (double& s : shares) s /= static_cast<double>(labels.size());
  return shares;
}

double PathJitter(const SurfaceFrame& surface,
                  const std::vector<WrinklePath>& previous,
                  const std::vector<WrinklePath>& current, double match_radius,
                  int* matched) {
  double sum = 0;
  int count = 0;
  const double radius_sq = match_radius * match_radius;
  for (const WrinklePath& path : current) {
    for (const EdgePoint& point : path.points) {
      const Eigen::Vector3d q = surface.Position(point);
      double best = std::numeric_limits<double>::infinity();
      for (const WrinklePath& old : previous) {
        for (int i = 0; i < old.num_segments(); ++i) {
          best = std::min(
              best, SegmentDistanceSq(q, surface.Position(old.points[i]),
                                      surface.Position(old.points[i + 1])));
        }
      }
      if (best <= radius_sq) {
        sum += std::sqrt(best);
        ++count;
      }
    }
  }
  if (matched != nullptr) *matched = count;
  return count > 0 ? sum / count : 0.0;
}

LifetimeSummary SummarizeLifetimes(std::vector<int> lifetimes) {
  LifetimeSummary s;
  s.count = static_cast<int>(lifetimes.size());
  if (lifetimes.empty()) return s;
  std::sort(lifetimes.begin(), lifetimes.end());
  auto quantile = [&](double q) {
    const double pos = q * (lifetimes.size() - 1);
    const size_t lo = static_cast<size_t>(pos);
    const size_t hi = std::min(lo + 1, lifetimes.size() - 1);
    return lifetimes[lo] + (pos - lo) * (lifetimes[hi] - lifetimes[lo]);
  };
  s.median = quantile(0.5);
  s.p10 = quantile(0.1);
  s.p90 = quantile(0.9);
  s.max = lifetimes.back();
  return s;
}

std::string CheckPath(const MeshTopology& topology, const WrinklePath& path) {
  if (path.points.size() < 2)
    return absl::StrFormat("%d points", path.points.size());
  if (path.faces.size() + 1 != path.points.size()) {
    return absl::StrFormat("%d points but %d segments", path.points.size(),
                           path.faces.size());
  }
  for (size_t i = 0; i < path.points.size(); ++i) {
    const EdgePoint& p = path.points[i];
    if (p.edge < 0 || p.edge >= topology.num_edges()) {
      return absl::StrFormat("point %d on edge %d", i, p.edge);
    }
    if (!(p.t >= 0.0 && p.t <= 1.0))
      return absl::StrFormat("point %d has t = %g", i, p.t);
  }
  for (size_t i = 0; i + 1 < path.points.size(); ++i) {
    const int32_t f = path.faces[i];
    if (f < 0 || f >= topology.num_triangles()) {
      return absl::StrFormat("segment %d in triangle %d", i, f);
    }
    if (path.points[i].edge == path.points[i + 1].edge) {
      return absl::StrFormat("segment %d starts and ends on edge %d", i,
                             path.points[i].edge);
    }
    for (size_t j = 0; j < i; ++j) {
      if (path.faces[j] == f) {
        return absl::StrFormat("segments %d and %d both cross triangle %d", j,
                               i, f);
      }
    }
    bool has_a = false, has_b = false;
    for (int32_t e : topology.face_edges(f)) {
      has_a |= e == path.points[i].edge;
      has_b |= e == path.points[i + 1].edge;
    }
    if (!has_a || !has_b) {
      return absl::StrFormat("segment %d leaves triangle %d", i, f);
    }
  }
  return "";
}

}  // namespace crease
