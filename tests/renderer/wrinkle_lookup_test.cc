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
          const float gpu = OffsetAt(buffers, static_cast<int>(f), p, &normal);
          const float cpu =
              lookup.Evaluate(static_cast<int>(f), p, normal).offset;
          lifted += gpu != 0;
          largest_difference =
              std::max<double>(largest_difference, std::abs(gpu - cpu));
          // Where a wrinkle fades because it lies off the point's sheet
          // (SameSheetWeight), the fade is steep and float rounding in it
          // is relative to the unfaded offset.
          const float unfaded = OffsetAt(buffers, static_cast<int>(f), p);
          ASSERT_NEAR(
              cpu, gpu,
              1e-6f + 1e-4f * std::max(std::abs(gpu), std::abs(unfaded)))
              << "frame " << frame << " triangle " << f << " at " << i << ","
              << j;
        }
      }
    }
  }
  EXPECT_GT(lifted, 1000);
  RecordProperty("largest_difference", std::to_string(largest_difference));
}

// A fold crushed flat: two sheets facing each other a fifth of a wrinkle's
// width apart, a wrinkle on the lower one (normal +y). Both are listed (the
// lists' walk reaches round a crushed fold's bottom). The lower sheet gets the
// profile, crest included, as on any sheet; the upper one (normal -y), whose
// nearest centre-line point lies straight out of its tangent plane, gets
// nothing: before, it took the crest as if it were on it, a dimple on the
// knee's exposed lip.
TEST(WrinkleLookupTest, AWrinkleDoesNotShowOnTheSheetFacingIt) {
  constexpr double kWidth = 0.1, kHeight = 0.02;
  FrameWrinkles wrinkles;
  for (int i = 0; i <= 8; ++i) {
    wrinkles.points.push_back(
        {Eigen::Vector3d(0.1 + 0.1 * i, 0.0, 0.5), kWidth, kHeight});
  }
  wrinkles.point_offsets = {0, 9};
  wrinkles.segments = {8};
  wrinkles.range_offsets = {0, 1, 2};
  wrinkles.ranges = {{0, 0, 7}, {0, 0, 7}};
  wrinkles.min_width = kWidth;
  WrinkleLookup lookup;
  lookup.Prepare(wrinkles);
  const Eigen::Vector3f up(0, 1, 0);
  const float gap = 0.2f * static_cast<float>(kWidth);
  const WrinkleSample lower =
      lookup.Evaluate(0, Eigen::Vector3f(0.5f, 0.0f, 0.5f), up);
  EXPECT_NEAR(lower.offset, kHeight, 1e-6);
  // Beside the crest on the lower sheet: the profile at that distance.
  const float beside = 0.3f * static_cast<float>(kWidth);
  const WrinkleSample flank =
      lookup.Evaluate(0, Eigen::Vector3f(0.5f, 0.0f, 0.5f + beside), up);
  EXPECT_NEAR(
      flank.offset,
      WrinkleProfile(
          beside / (0.5f * static_cast<float>(kSupportPerWidth * kWidth)),
          static_cast<float>(kHeight)),
      1e-6);
  const WrinkleSample upper =
      lookup.Evaluate(1, Eigen::Vector3f(0.5f, gap, 0.5f), -up);
  EXPECT_EQ(upper.offset, 0.0f);
  EXPECT_NEAR(upper.normal.dot(-up), 1.0f, 1e-6);
}

}  // namespace
}  // namespace crease::renderer
