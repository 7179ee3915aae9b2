// MostCompressedRegion on a strip made by hand: the edges that shorten most
// pick the vertices the close-up frames, over every frame.

#include "image/close_up.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace crease::image {
namespace {

// Two rows of 5 vertices one unit apart (v = 5 row + column), 8 triangles;
// frame 0 at rest, frame 1 with columns 3 and 4 moved half a unit towards
// column 2: the edges between columns 2 and 3 halve (shortening 2), the
// quad's diagonal shortens by 1.26, nothing else changes.
io::Animation Strip() {
  io::Animation animation;
  for (int row = 0; row < 2; ++row) {
    for (int column = 0; column < 5; ++column) {
      animation.mesh.positions.insert(animation.mesh.positions.end(),
                                      {float(column), float(row), 0.0f});
    }
  }
  for (int c = 0; c < 4; ++c) {
    animation.mesh.triangles.push_back({c, c + 1, c + 6});
    animation.mesh.triangles.push_back({c, c + 6, c + 5});
  }
  std::vector<float> squeezed = animation.mesh.positions;
  for (int v = 0; v < 10; ++v) {
    if (v % 5 >= 3) squeezed[3 * v] -= 0.5f;
  }
  animation.frames.num_points = 10;
  animation.frames.num_samples = 2;
  animation.frames.positions = animation.mesh.positions;
  animation.frames.positions.insert(animation.frames.positions.end(),
                                    squeezed.begin(), squeezed.end());
  return animation;
}

std::vector<float> PointsOf(const io::Animation& animation,
                            const std::vector<int>& vertices) {
  std::vector<float> points;
  for (int f = 0; f < 2; ++f) {
    for (int v : vertices) {
      const auto frame = animation.frames.Sample(f);
      points.insert(points.end(), &frame[3 * v], &frame[3 * v] + 3);
    }
  }
  return points;
}

TEST(CloseUpTest, FramesTheEdgesThatShortenMost) {
  const io::Animation strip = Strip();
  // The top tenth of the 3 shortened edges: the 2 that halve (ties kept).
  EXPECT_THAT(MostCompressedRegion(strip, 2),
              ::testing::ElementsAreArray(PointsOf(strip, {2, 3, 7, 8})));
  // All of them: the diagonal's vertices are among those already.
  EXPECT_THAT(MostCompressedRegion(strip, 2, 1.0),
              ::testing::ElementsAreArray(PointsOf(strip, {2, 3, 7, 8})));
  // Only the rest frame: nothing shortens.
  EXPECT_TRUE(MostCompressedRegion(strip, 1).empty());
}

// A strip 41 columns long (v = 41 row + column), squeezed in two places far
// apart: columns 1-2 shorten to 0.5 (shortening 2) and columns 38-39 to 0.6
// (1.67). With every shortened edge kept both places qualify; the close-up
// frames one joint's folds, the one that shortens more.
TEST(CloseUpTest, FramesTheHeaviestClusterOnly) {
  io::Animation animation;
  constexpr int kColumns = 41;
  for (int row = 0; row < 2; ++row) {
    for (int column = 0; column < kColumns; ++column) {
      animation.mesh.positions.insert(animation.mesh.positions.end(),
                                      {float(column), float(row), 0.0f});
    }
  }
  for (int c = 0; c + 1 < kColumns; ++c) {
    animation.mesh.triangles.push_back({c, c + 1, c + kColumns + 1});
    animation.mesh.triangles.push_back({c, c + kColumns + 1, c + kColumns});
  }
  std::vector<float> squeezed = animation.mesh.positions;
  for (int v = 0; v < 2 * kColumns; ++v) {
    const int column = v % kColumns;
    if (column >= 2) squeezed[3 * v] -= 0.5f;   // the gap 1-2 halves
    if (column >= 39) squeezed[3 * v] -= 0.4f;  // the gap 38-39 to 0.6
  }
  animation.frames.num_points = 2 * kColumns;
  animation.frames.num_samples = 2;
  animation.frames.positions = animation.mesh.positions;
  animation.frames.positions.insert(animation.frames.positions.end(),
                                    squeezed.begin(), squeezed.end());
  std::vector<int32_t> vertices = MostCompressedVertices(animation, 2, 1.0);
  std::sort(vertices.begin(), vertices.end());
  EXPECT_THAT(vertices,
              ::testing::ElementsAre(1, 2, kColumns + 1, kColumns + 2));
  // Both gaps halved: the two patches weigh the same, and the close-up
  // still frames one of them (four vertices), never both (eight).
  for (int v = 0; v < 2 * kColumns; ++v) {
    if (v % kColumns >= 39)
      animation.frames.positions[3 * (2 * kColumns + v)] -= 0.1f;
  }
  vertices = MostCompressedVertices(animation, 2, 1.0);
  EXPECT_EQ(vertices.size(), 4u);
}

// The strip squeezed in frame 1, then carried along +x one unit a frame for
// `frames` frames (frame f >= 1 is frame 1 moved f - 1 units).
io::Animation MovingStrip(int frames) {
  io::Animation animation = Strip();
  const std::vector<float> squeezed(animation.frames.positions.begin() + 30,
                                    animation.frames.positions.end());
  animation.frames.positions.resize(30);
  for (int f = 1; f < frames; ++f) {
    for (int v = 0; v < 10; ++v) {
      animation.frames.positions.insert(
          animation.frames.positions.end(),
          {squeezed[3 * v] + float(f - 1), squeezed[3 * v + 1], 0.0f});
    }
  }
  animation.frames.num_samples = frames;
  return animation;
}

TEST(CloseUpTest, FollowsTheRegionAtOneZoom) {
  const io::Animation strip = MovingStrip(20);
  const std::vector<image::Camera> cameras =
      FollowingCloseUp(strip, 20, 4.0f / 3.0f, 0.0f, 1.3f);
  ASSERT_EQ(cameras.size(), 20u);
  const auto distance = [](const image::Camera& c) {
    return std::hypot(c.eye[0] - c.target[0], c.eye[1] - c.target[1],
                      c.eye[2] - c.target[2]);
  };
  for (int f = 0; f < 20; ++f) {
    // One zoom, one view direction (from +z, as AutoFrame at azimuth 0).
    EXPECT_NEAR(distance(cameras[f]), distance(cameras[0]), 1e-4) << f;
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(cameras[f].eye[k] - cameras[f].target[k],
                  cameras[0].eye[k] - cameras[0].target[k], 1e-4)
          << f;
    }
    EXPECT_GT(cameras[f].eye[2] - cameras[f].target[2],
              0.9 * distance(cameras[f]))
        << f;
  }
  // In the middle (4 frames either side of frame 10 are all moving) the
  // target is the region's centre, columns 2 and 2.5 moved 9 units (up to
  // AutoFrame's centring on the projected bounds).
  EXPECT_NEAR(cameras[10].target[0], 2.25f + 9.0f, 0.02);
  // It glides: from frame to frame, never more than the region moves.
  for (int f = 1; f < 20; ++f) {
    EXPECT_LE(cameras[f].target[0] - cameras[f - 1].target[0], 1.0f + 1e-4f);
    EXPECT_GE(cameras[f].target[0], cameras[f - 1].target[0] - 1e-4f);
  }
  EXPECT_TRUE(FollowingCloseUp(strip, 1, 1.0f, 0.0f, 1.3f).empty());
}

}  // namespace
}  // namespace crease::image
