// The CPU's wrinkle lookup (wrinkle/outputs/wrinkle_lookup.h, which places the
// wrinkled mesh) against the renderer's: on the renderer's own buffers, with
// every wrinkle displacing at full height (a view so close that no level of
// detail applies), both give the same offset at every point.

#include "wrinkle/outputs/wrinkle_lookup.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>

#include "gtest/gtest.h"
#include "renderer/frame_data.h"
#include "tests/renderer/renderer_fixture.h"
#include "tests/renderer/shader_twin.h"
#include "tests/testing/bundled_data.h"
#include "wrinkle/sca2015/session.h"

namespace crease::renderer {
namespace {

// Depth 1 everywhere and 2.4 million pixels per unit: every wrinkle is wide
// on screen, so all displace and none fades.
TessellationTarget Magnified() {
  TessellationTarget target;
  target.view_projection = Eigen::Vector4f(1e4f, 1e4f, 1, 1).asDiagonal();
  return target;
}

TEST(WrinkleLookupTest, OffsetsAreTheEvaluationStagesOnTheFox) {
  const io::Animation anim = testing::LoadBundled("fox_walk");
  ASSERT_GT(anim.num_frames(), 0);
  auto session = *Session::Create(anim.mesh.triangles, anim.mesh.positions, {});
  WrinkleBuffers buffers;
  WrinkleLookup lookup;
  int lifted = 0;
  double largest_difference = 0;
  for (int frame = 0; frame < anim.num_frames(); ++frame) {
    const auto positions = anim.frames.Sample(frame);
    ASSERT_TRUE(session->ProcessFrame(positions).ok());
    if (frame % 4 != 0) continue;
    const FrameWrinkles wrinkles = WrinklesOf(*session);
    FillWrinkleBuffers(MeshOf(*session, positions), wrinkles, Magnified(),
                       &buffers);
    ASSERT_EQ(buffers.displaced_wrinkles, wrinkles.num_wrinkles());
    lookup.Prepare(wrinkles);
    for (size_t f = 0; f < anim.mesh.triangles.size(); ++f) {
      Eigen::Vector3f corner[3];
      for (int k = 0; k < 3; ++k) {
        const int v = anim.mesh.triangles[f][k];
        corner[k] = {positions[3 * v], positions[3 * v + 1],
                     positions[3 * v + 2]};
      }
      const Eigen::Vector3f normal =
          (corner[1] - corner[0]).cross(corner[2] - corner[0]).normalized();
      constexpr int kSteps = 4;
      for (int i = 0; i <= kSteps; ++i) {
        for (int j = 0; i + j <= kSteps; ++j) {
          const Eigen::Vector3f p =
              (corner[0] * static_cast<float>(kSteps - i - j) +
               corner[1] * static_cast<float>(i) +
               corner[2] * static_cast<float>(j)) /
              static_cast<float>(kSteps);
          const float gpu = OffsetAt(buffers, static_cast<int>(f), p);
          const float cpu =
              lookup.Evaluate(static_cast<int>(f), p, normal).offset;
          lifted += gpu != 0;
          largest_difference =
              std::max<double>(largest_difference, std::abs(gpu - cpu));
          ASSERT_NEAR(cpu, gpu, 1e-6f + 1e-4f * std::abs(gpu))
              << "frame " << frame << " triangle " << f << " at " << i << ","
              << j;
        }
      }
    }
  }
  EXPECT_GT(lifted, 1000);
  RecordProperty("largest_difference", std::to_string(largest_difference));
}

}  // namespace
}  // namespace crease::renderer
