// MostCompressedRegion on a strip made by hand: the edges that shorten most
// pick the vertices the close-up frames, over every frame.

#include "client/cli/close_up.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace crease::client {
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

}  // namespace
}  // namespace crease::client
