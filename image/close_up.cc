#include "image/close_up.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>

namespace crease::image {
namespace {

double Distance(absl::Span<const float> p, int32_t a, int32_t b) {
  const double dx = double{p[3 * b]} - p[3 * a];
  const double dy = double{p[3 * b + 1]} - p[3 * a + 1];
  const double dz = double{p[3 * b + 2]} - p[3 * a + 2];
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// Union-find over vertex ids, path halving.
int32_t Root(std::vector<int32_t>& parent, int32_t v) {
  while (parent[v] != v) v = parent[v] = parent[parent[v]];
  return v;
}

// Of the `chosen` edges' vertices, those of the heaviest cluster: vertices
// join one cluster when an edge joins them or when they lie within
// `link_distance` of each other at rest; a cluster weighs the sum of its
// edges' shortening beyond 1.
std::vector<int32_t> HeaviestCluster(
    const std::vector<std::pair<int32_t, int32_t>>& edges,
    const std::vector<double>& shortening, const std::vector<size_t>& chosen,
    absl::Span<const float> rest, double link_distance) {
  std::vector<int32_t> vertices;
  for (size_t e : chosen) {
    vertices.push_back(edges[e].first);
    vertices.push_back(edges[e].second);
  }
  std::sort(vertices.begin(), vertices.end());
  vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
  std::vector<int32_t> parent(rest.size() / 3);
  for (int32_t v : vertices) parent[v] = v;
  for (size_t e : chosen) {
    parent[Root(parent, edges[e].first)] = Root(parent, edges[e].second);
  }
  for (size_t i = 0; i < vertices.size(); ++i) {
    for (size_t j = i + 1; j < vertices.size(); ++j) {
      if (Distance(rest, vertices[i], vertices[j]) <= link_distance) {
        parent[Root(parent, vertices[i])] = Root(parent, vertices[j]);
      }
    }
  }
  std::vector<double> weight(parent.size(), 0.0);
  for (size_t e : chosen) {
    weight[Root(parent, edges[e].first)] += shortening[e] - 1.0;
  }
  int32_t heaviest = Root(parent, vertices.front());
  for (int32_t v : vertices) {
    if (weight[Root(parent, v)] > weight[heaviest]) heaviest = Root(parent, v);
  }
  std::vector<int32_t> cluster;
  for (int32_t v : vertices) {
    if (Root(parent, v) == heaviest) cluster.push_back(v);
  }
  return cluster;
}

}  // namespace

std::vector<int32_t> MostCompressedVertices(const io::Animation& animation,
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
  std::vector<size_t> chosen;
  for (size_t e = 0; e < edges.size(); ++e) {
    if (shortening[e] >= cut) chosen.push_back(e);
  }
  // A body compresses at several joints at once (a walk's hips, knees and
  // shoulders): framed on all of them, a close-up is the whole body again.
  // The heaviest cluster is one joint's folds.
  std::array<double, 3> low = {1e300, 1e300, 1e300};
  std::array<double, 3> high = {-1e300, -1e300, -1e300};
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    low[i % 3] = std::min(low[i % 3], double{mesh.positions[i]});
    high[i % 3] = std::max(high[i % 3], double{mesh.positions[i]});
  }
  const double diagonal =
      std::hypot(high[0] - low[0], high[1] - low[1], high[2] - low[2]);
  // The rungs of one fold band lie an edge apart with no chosen edge
  // between them: an edge and a half always links.
  std::vector<double> lengths(edges.size());
  for (size_t e = 0; e < edges.size(); ++e) {
    lengths[e] = Distance(mesh.positions, edges[e].first, edges[e].second);
  }
  std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2,
                   lengths.end());
  return HeaviestCluster(edges, shortening, chosen, mesh.positions,
                         std::max(kClusterLinkFraction * diagonal,
                                  1.5 * lengths[lengths.size() / 2]));
}

std::vector<float> MostCompressedRegion(const io::Animation& animation,
                                        int num_frames, double fraction) {
  const std::vector<int32_t> vertices =
      MostCompressedVertices(animation, num_frames, fraction);
  num_frames = std::min(num_frames, animation.num_frames());
  std::vector<float> points;
  for (int f = 0; f < num_frames && !vertices.empty(); ++f) {
    const absl::Span<const float> frame = animation.frames.Sample(f);
    for (int32_t v : vertices) {
      points.insert(points.end(), &frame[3 * v], &frame[3 * v] + 3);
    }
  }
  return points;
}

std::vector<image::Camera> FollowingCloseUp(const io::Animation& animation,
                                            int num_frames, float aspect,
                                            float azimuth_degrees,
                                            float margin) {
  const std::vector<int32_t> vertices =
      MostCompressedVertices(animation, num_frames);
  num_frames = std::min(num_frames, animation.num_frames());
  if (vertices.empty() || num_frames <= 0) return {};
  // Each frame framed on its own, then one distance (the median: the zoom
  // holds still, and a frame where the region stretches out straight, its
  // folds gone, may be cropped) and targets averaged over a few frames
  // either side (so the camera glides, not jitters).
  std::vector<image::Camera> own(num_frames);
  std::vector<double> distances(num_frames);
  std::vector<float> points(3 * vertices.size());
  for (int f = 0; f < num_frames; ++f) {
    const absl::Span<const float> frame = animation.frames.Sample(f);
    for (size_t i = 0; i < vertices.size(); ++i) {
      std::copy_n(&frame[3 * static_cast<size_t>(vertices[i])], 3,
                  &points[3 * i]);
    }
    own[f] = image::AutoFrame(points, aspect, azimuth_degrees, margin);
    double d2 = 0;
    for (int k = 0; k < 3; ++k) {
      d2 += std::pow(double{own[f].eye[k]} - own[f].target[k], 2);
    }
    distances[f] = std::sqrt(d2);
  }
  std::nth_element(distances.begin(), distances.begin() + num_frames / 2,
                   distances.end());
  const double distance = distances[num_frames / 2];
  constexpr int kGlideFrames = 4;
  std::vector<image::Camera> cameras(num_frames);
  for (int f = 0; f < num_frames; ++f) {
    std::array<double, 3> target = {0, 0, 0}, back = {0, 0, 0};
    int count = 0;
    for (int g = std::max(f - kGlideFrames, 0);
         g <= std::min(f + kGlideFrames, num_frames - 1); ++g, ++count) {
      for (int k = 0; k < 3; ++k) target[k] += own[g].target[k];
    }
    double length = 0;
    for (int k = 0; k < 3; ++k) {
      target[k] /= count;
      back[k] = double{own[f].eye[k]} - own[f].target[k];
      length += back[k] * back[k];
    }
    length = std::sqrt(length);
    image::Camera& camera = cameras[f];
    camera = own[f];
    for (int k = 0; k < 3; ++k) {
      camera.target[k] = static_cast<float>(target[k]);
      camera.eye[k] = static_cast<float>(
          target[k] + (length > 0 ? back[k] / length : 0) * distance);
    }
  }
  return cameras;
}

}  // namespace crease::image
