#include "wrinkle/io/animation_input.h"

#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"

namespace crease::io {
namespace {

using ::testing::HasSubstr;

AnimationInput Gltf(const std::string& file) {
  AnimationInput input;
  input.gltf = testing::BundledPath(file);
  return input;
}

std::string Problem(const AnimationInput& input) {
  return std::string(CheckAnimationInput(input).message());
}

TEST(AnimationInputTest, EitherObjWithPc2OrGltf) {
  AnimationInput both = Gltf("Fox.glb");
  both.obj = "a.obj";
  EXPECT_THAT(Problem(both), HasSubstr("--gltf replaces --obj and --pc2"));
  EXPECT_THAT(Problem(AnimationInput{}),
              HasSubstr("--obj with --pc2, or --gltf"));
  AnimationInput half;
  half.obj = "a.obj";
  EXPECT_THAT(Problem(half), HasSubstr("--obj with --pc2, or --gltf"));
  AnimationInput pair;
  pair.obj = "a.obj";
  pair.pc2 = "a.pc2";
  EXPECT_TRUE(CheckAnimationInput(pair).ok());
  pair.loop = true;
  EXPECT_THAT(Problem(pair), HasSubstr("--mesh, --animation and --loop"));
  pair.loop = false;
  pair.animation = "Walk";
  EXPECT_THAT(Problem(pair), HasSubstr("--mesh, --animation and --loop"));
}

TEST(AnimationInputTest, GltfSampledAtFpsForFrames) {
  AnimationInput walk = Gltf("Fox.glb");
  walk.animation = "Walk";
  const absl::StatusOr<Animation> clip = LoadAnimation(walk);
  ASSERT_TRUE(clip.ok()) << clip.status();
  EXPECT_EQ(clip->num_frames(), 22);  // 0.70833 s at 30 fps (--fps 0)
  EXPECT_EQ(clip->mesh.corner_uvs.size(), 6u * 576);
  walk.fps = 60;
  walk.frames = 100;
  walk.loop = true;
  const absl::StatusOr<Animation> looped = LoadAnimation(walk);
  ASSERT_TRUE(looped.ok()) << looped.status();
  EXPECT_EQ(looped->num_frames(), 100);
  // Frame 2 at 60 fps is frame 1 at 30 fps.
  const auto a = looped->frames.Sample(2);
  const auto b = clip->frames.Sample(1);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));

  AnimationInput trot = Gltf("Fox.glb");
  trot.animation = "Trot";
  const absl::StatusOr<Animation> missing = LoadAnimation(trot);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()),
              HasSubstr("0 \"Survey\", 1 \"Walk\", 2 \"Run\""));
}

TEST(AnimationInputTest, ObjWithPc2) {
  AnimationInput pair;
  pair.obj = testing::BundledPath("fox_walk.obj");
  pair.pc2 = testing::BundledPath("fox_walk.pc2");
  pair.fps = 60;  // paces the sending only
  const absl::StatusOr<Animation> read = LoadAnimation(pair);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->num_frames(), 85);
}

}  // namespace
}  // namespace crease::io
