#include "client/cli/close_up.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace crease::client {
namespace {

double Distance(absl::Span<const float> p, int32_t a, int32_t b) {
  const double dx = double{p[3 * b]} - p[3 * a];
  const double dy = double{p[3 * b + 1]} - p[3 * a + 1];
  const double dz = double{p[3 * b + 2]} - p[3 * a + 2];
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

}  // namespace

std::vector<float> MostCompressedRegion(const io::Animation& animation,
                                        int num_frames, double fraction) {
  const io::TriangleMesh& mesh = animation.mesh;
  std::vector<std::pair<int32_t, int32_t>> edges;
  for (const io::Triangle& t : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      edges.emplace_back(std::min(t[k], t[(k + 1) % 3]),
                         std::max(t[k], t[(k + 1) % 3]));
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  num_frames = std::min(num_frames, animation.num_frames());
  // Per edge the largest rest / current length over the frames.
  std::vector<double> shortening(edges.size(), 0.0);
  for (int f = 0; f < num_frames; ++f) {
    const absl::Span<const float> frame = animation.frames.Sample(f);
    for (size_t e = 0; e < edges.size(); ++e) {
      const double now = Distance(frame, edges[e].first, edges[e].second);
      const double rest =
          Distance(mesh.positions, edges[e].first, edges[e].second);
      if (now > 0.0) shortening[e] = std::max(shortening[e], rest / now);
    }
  }
  std::vector<double> shortened;
  for (double s : shortening) {
    if (s > 1.01) shortened.push_back(s);
  }
  if (shortened.empty()) return {};
  const size_t keep = std::max<size_t>(
      1, static_cast<size_t>(std::ceil(fraction * shortened.size())));
  std::nth_element(shortened.begin(), shortened.end() - keep, shortened.end());
  const double cut = *(shortened.end() - keep);
  std::vector<uint8_t> chosen(mesh.positions.size() / 3, 0);
  for (size_t e = 0; e < edges.size(); ++e) {
    if (shortening[e] >= cut) {
      chosen[edges[e].first] = chosen[edges[e].second] = 1;
    }
  }
  std::vector<float> points;
  for (int f = 0; f < num_frames; ++f) {
    const absl::Span<const float> frame = animation.frames.Sample(f);
    for (size_t v = 0; v < chosen.size(); ++v) {
      if (chosen[v]) {
        points.insert(points.end(), &frame[3 * v], &frame[3 * v] + 3);
      }
    }
  }
  return points;
}

}  // namespace crease::client
