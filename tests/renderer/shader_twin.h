#ifndef CREASE_TESTS_RENDERER_SHADER_TWIN_H_
#define CREASE_TESTS_RENDERER_SHADER_TWIN_H_

// The C++ twin of the evaluation stage's wrinkle lookup, written apart from
// the shaders and from wrinkle/outputs/wrinkle_lookup.cc, on the renderer's own
// buffers: what the tests hold both to.

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "gtest/gtest.h"
#include "renderer/frame_data.h"
#include "wrinkle/data/frame_wrinkles.h"
#include "wrinkle/data/profile_shared.h"
#include "wrinkle/data/projection_shared.h"

namespace crease::renderer {

// The C++ twin of shaders/wrinkle_field.glsl's ProjectOntoWrinkle, then the
// profile: the offset one range of refined points gives p. With a normal n at
// p, the height fades as the projection leaves p's tangent plane (from 45 to
// 63 degrees out of it, measured against the distance plus a twentieth of the
// width): a wrinkle on another sheet of the surface does not show.
inline float RangeOffset(const WrinkleBuffers& b,
                         const std::array<int32_t, 4>& range,
                         const Eigen::Vector3f& p,
                         const Eigen::Vector3f* n = nullptr) {
  float best_d2 = 1e30f, width = 0, height = 0;
  Eigen::Vector3f q = p;
  auto point = [&](int i) {
    return Eigen::Vector3f(b.points[i][0], b.points[i][1], b.points[i][2]);
  };
  auto consider = [&](int i, float alpha) {
    const Eigen::Vector3f c = point(i) + alpha * (point(i + 1) - point(i));
    const float d2 = (p - c).squaredNorm();
    if (d2 < best_d2) {
      best_d2 = d2;
      q = c;
      width = b.points[i][3] + alpha * (b.points[i + 1][3] - b.points[i][3]);
      height = b.frames[i][3] + alpha * (b.frames[i + 1][3] - b.frames[i][3]);
    }
  };
  for (int i = range[0]; i < range[1]; ++i) {
    const Eigen::Vector3f s0(b.frames[i][0], b.frames[i][1], b.frames[i][2]);
    const Eigen::Vector3f s1(b.frames[i + 1][0], b.frames[i + 1][1],
                             b.frames[i + 1][2]);
    const Eigen::Vector3f z0 = point(i + 1) - point(i), z1 = point(i) - p,
                          ds = s1 - s0;
    const float reach =
        0.5f * (z0.norm() + std::max(b.points[i][3], b.points[i + 1][3]));
    if ((p - 0.5f * (point(i) + point(i + 1))).squaredNorm() > reach * reach) {
      continue;
    }
    const float alpha =
        VoronoiAlpha(z0.dot(ds), z0.dot(s0) + z1.dot(ds), z1.dot(s0));
    if (alpha >= 0) consider(i, alpha);
  }
  if (best_d2 >= 1e30f) {
    // Past an end of the wrinkle: its nearer end point.
    if (range[2] >= 0) consider(range[2], 0.0f);
    if (range[3] >= 0) consider(range[3] - 1, 1.0f);
  }
  if (width <= 0) return 0;
  if (n != nullptr) {
    const float out = (q - p).dot(*n);
    const float sin2 =
        out * out / ((q - p).squaredNorm() + 0.0025f * width * width);
    height *= std::clamp((0.8f - sin2) / 0.3f, 0.0f, 1.0f);
  }
  return WrinkleProfile(std::sqrt(best_d2) / (0.5f * width), height);
}

// The twin of WrinkleOffset (offset only) as the evaluation stage calls it:
// over the triangle's displacing ranges: the highest crest plus the deepest
// valley.
inline float OffsetAt(const WrinkleBuffers& b, int triangle,
                      const Eigen::Vector3f& p,
                      const Eigen::Vector3f* n = nullptr) {
  const auto list = b.triangle_ranges[triangle];
  float crest = 0, valley = 0;
  for (int r = list[0]; r < list[0] + list[2]; ++r) {
    const float offset = RangeOffset(b, b.ranges[r], p, n);
    // The range's bounding sphere (which the shaders test first) holds
    // everything the range lifts.
    const auto& bounds = b.range_bounds[r];
    const float reach =
        Eigen::Vector3f(p - Eigen::Vector3f(bounds.data())).norm();
    EXPECT_TRUE(offset == 0 || reach <= bounds[3]) << reach << " " << bounds[3];
    crest = std::max(crest, offset);
    valley = std::min(valley, offset);
  }
  return crest + valley;
}

// Brute force: every displacing wrinkle, whole, for any p.
inline float OffsetOfAllWrinkles(const WrinkleBuffers& b,
                                 const FrameWrinkles& wrinkles,
                                 const Eigen::Vector3f& p) {
  float crest = 0, valley = 0;
  for (size_t w = 0; w < b.displaced.size(); ++w) {
    if (!b.displaced[w]) continue;
    const int32_t first = wrinkles.point_offsets[w],
                  last = wrinkles.point_offsets[w + 1] - 1;
    const float offset = RangeOffset(b, {first, last, first, last}, p);
    crest = std::max(crest, offset);
    valley = std::min(valley, offset);
  }
  return crest + valley;
}

}  // namespace crease::renderer

#endif  // CREASE_TESTS_RENDERER_SHADER_TWIN_H_
