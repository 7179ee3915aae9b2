// glTF evaluation on hand-made files whose answers are worked out by hand:
// skinning, morph targets, every interpolation, loop and start time, primitive
// concatenation, UVs, sparse accessors.

#include <cmath>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/wrinkle/io/gltf_builder.h"
#include "wrinkle/io/gltf.h"

namespace crease::io {
namespace {

using testing::GltfBuilder;
using ::testing::HasSubstr;
using testing::TimingOptions;

constexpr double kTolerance = 1e-6;
const double kHalf = std::sqrt(0.5);  // sin 45° = cos 45°

// Vertex v of frame f.
std::vector<double> At(const Animation& animation, int f, int v) {
  const auto frame = animation.frames.Sample(f);
  return {frame[3 * v], frame[3 * v + 1], frame[3 * v + 2]};
}

MATCHER_P3(Near, x, y, z, "") {
  return std::abs(arg[0] - x) < kTolerance &&
         std::abs(arg[1] - y) < kTolerance && std::abs(arg[2] - z) < kTolerance;
}

// Three vertices (1,0,0), (0,1,0), (1,1,0) skinned to joint 0, which turns
// 90° about z from t = 0 to 1 (LINEAR), and joint 1, which stays; vertex 2 is
// half on each. Both joints hang under a root at (0,0,2), bound there (their
// inverse bind matrices move by -2 in z). The skinned node sits at (10,0,0),
// which skinning ignores. With `morph`, one target moves every vertex by
// (1,0,0) at weight 0.5.
std::string SkinnedTriangle(bool morph) {
  GltfBuilder gltf;
  const int position = gltf.Floats({1, 0, 0, 0, 1, 0, 1, 1, 0}, "VEC3");
  const int joints = gltf.Shorts({0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}, "VEC4");
  const int weights =
      gltf.Floats({1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0}, "VEC4");
  std::vector<float> bind(16, 0.0f);
  bind[0] = bind[5] = bind[10] = bind[15] = 1;
  bind[14] = -2;  // column-major: translation (0, 0, -2)
  std::vector<float> two_binds = bind;
  two_binds.insert(two_binds.end(), bind.begin(), bind.end());
  const int inverse_bind = gltf.Floats(two_binds, "MAT4");
  const int times = gltf.Floats({0, 1}, "SCALAR");
  const int rotations = gltf.Floats(
      {0, 0, 0, 1, 0, 0, static_cast<float>(kHalf), static_cast<float>(kHalf)},
      "VEC4");
  const int offsets = gltf.Floats({1, 0, 0, 1, 0, 0, 1, 0, 0}, "VEC3");
  const std::string targets =
      morph ? absl::StrFormat(R"(, "targets": [{"POSITION": %d}])", offsets)
            : "";
  return gltf.Json(absl::StrFormat(
      R"("meshes": [{"primitives": [{"attributes": {"POSITION": %d,
          "JOINTS_0": %d, "WEIGHTS_0": %d}%s}]%s}],
      "nodes": [{"name": "root", "translation": [0, 0, 2], "children": [1, 3]},
                {"name": "turning"},
                {"name": "skinned", "mesh": 0, "skin": 0, "translation": [10, 0, 0]},
                {"name": "still"}],
      "skins": [{"joints": [1, 3], "inverseBindMatrices": %d}],
      "animations": [{"name": "turn", "samplers": [{"input": %d, "output": %d}],
          "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]}])",
      position, joints, weights, targets, morph ? R"(, "weights": [0.5])" : "",
      inverse_bind, times, rotations));
}

TEST(GltfSkinningTest, OneJointTurningHalfwayAndABlend) {
  // 2 fps: frames at t = 0, 0.5 (45°), 1 (90°).
  const auto read =
      ParseGltf(SkinnedTriangle(false), "skin.gltf", TimingOptions(2));
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->num_frames(), 3);  // round(1 s * 2 fps) + 1
  EXPECT_THAT(At(*read, 0, 0), Near(1, 0, 0));
  EXPECT_THAT(At(*read, 0, 2), Near(1, 1, 0));
  EXPECT_THAT(At(*read, 1, 0), Near(kHalf, kHalf, 0));
  EXPECT_THAT(At(*read, 1, 1), Near(-kHalf, kHalf, 0));
  // Half turned (0, √2, 0), half still (1, 1, 0).
  EXPECT_THAT(At(*read, 1, 2), Near(0.5, 0.5 + kHalf, 0));
  EXPECT_THAT(At(*read, 2, 0), Near(0, 1, 0));
  EXPECT_THAT(At(*read, 2, 2), Near(0, 1, 0));
}

TEST(GltfSkinningTest, MorphTargetsApplyBeforeSkinning) {
  const auto read =
      ParseGltf(SkinnedTriangle(true), "morph_skin.gltf", TimingOptions(1));
  ASSERT_TRUE(read.ok()) << read.status();
  // (1,0,0) moved to (1.5,0,0), then turned 90°: (0,1.5,0), not (0.5,1,0).
  EXPECT_THAT(At(*read, 1, 0), Near(0, 1.5, 0));
}

// A static triangle (0,0,0), (1,0,0), (0,1,0) on a node at (1,2,3), with one
// morph target lifting every vertex by (0,0,1), and `rest` (mesh weights,
// node weights, animations) spliced into the file.
std::string MorphedTriangle(const std::string& mesh_extra,
                            const std::string& node_extra,
                            const std::string& sampler) {
  GltfBuilder gltf;
  const int position = gltf.Floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
  const int lift = gltf.Floats({0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3");
  const int times = gltf.Floats({0, 1}, "SCALAR");
  // LINEAR / STEP: one weight per key. CUBICSPLINE: in-tangent, value,
  // out-tangent per key (key 0 leaves with slope 1).
  const int linear = gltf.Floats({0, 1}, "SCALAR");
  const int cubic = gltf.Floats({0, 0, 1, 0, 1, 0}, "SCALAR");
  const std::string animations =
      sampler.empty()
          ? ""
          : absl::StrFormat(
                R"(, "animations": [{"samplers": [{"input": %d, "output": %d, "interpolation": "%s"}],
                   "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}]}])",
                times, sampler == "CUBICSPLINE" ? cubic : linear, sampler);
  return gltf.Json(absl::StrFormat(
      R"("meshes": [{"primitives": [{"attributes": {"POSITION": %d},
          "targets": [{"POSITION": %d}]}]%s}],
      "nodes": [{"mesh": 0, "translation": [1, 2, 3]%s}]%s)",
      position, lift, mesh_extra, node_extra, animations));
}

TEST(GltfMorphTest, DefaultWeightsFromTheMeshThenTheNode) {
  const auto mesh_weight =
      ParseGltf(MorphedTriangle(R"(, "weights": [0.25])", "", ""), "m.gltf");
  ASSERT_TRUE(mesh_weight.ok()) << mesh_weight.status();
  ASSERT_EQ(mesh_weight->num_frames(), 1);  // no animation: one still frame
  EXPECT_THAT(At(*mesh_weight, 0, 1), Near(2, 2, 3.25));
  const auto node_weight = ParseGltf(
      MorphedTriangle(R"(, "weights": [0.25])", R"(, "weights": [0.5])", ""),
      "n.gltf");
  ASSERT_TRUE(node_weight.ok()) << node_weight.status();
  EXPECT_THAT(At(*node_weight, 0, 1), Near(2, 2, 3.5));
  const auto none = ParseGltf(MorphedTriangle("", "", ""), "z.gltf");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_THAT(At(*none, 0, 2), Near(1, 3, 3));
  const auto wrong_count =
      ParseGltf(MorphedTriangle(R"(, "weights": [0.25, 1])", "", ""), "w.gltf");
  EXPECT_THAT(std::string(wrong_count.status().message()),
              HasSubstr("mesh 0 has 2 morph weights for 1 targets"));
}

// The lift of vertex 0 (z - 3) in every frame.
std::vector<double> Lifts(const absl::StatusOr<Animation>& read) {
  std::vector<double> lifts;
  if (!read.ok()) {
    ADD_FAILURE() << read.status();
    return lifts;
  }
  for (int f = 0; f < read->num_frames(); ++f) {
    lifts.push_back(At(*read, f, 0)[2] - 3);
  }
  return lifts;
}

MATCHER_P(ElementsNear, expected, "") {
  if (arg.size() != expected.size()) return false;
  for (size_t i = 0; i < arg.size(); ++i) {
    if (std::abs(arg[i] - expected[i]) > kTolerance) return false;
  }
  return true;
}

TEST(GltfMorphTest, AnimatedWeightsWithEachInterpolation) {
  const GltfOptions quarters = TimingOptions(4);  // t = 0, 0.25, 0.5, 0.75, 1
  EXPECT_THAT(
      Lifts(ParseGltf(MorphedTriangle("", "", "LINEAR"), "l.gltf", quarters)),
      ElementsNear(std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
  EXPECT_THAT(
      Lifts(ParseGltf(MorphedTriangle("", "", "STEP"), "s.gltf", quarters)),
      ElementsNear(std::vector<double>{0, 0, 0, 0, 1}));
  // Hermite from 0 (slope 1) to 1 (slope 0): 3u² - 2u³ + (u³ - 2u² + u).
  std::vector<double> cubic;
  for (double u : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    cubic.push_back(3 * u * u - 2 * u * u * u + (u * u * u - 2 * u * u + u));
  }
  EXPECT_THAT(Lifts(ParseGltf(MorphedTriangle("", "", "CUBICSPLINE"), "c.gltf",
                              quarters)),
              ElementsNear(cubic));
}

TEST(GltfMorphTest, LoopStartTimeAndFrameCount) {
  const std::string file = MorphedTriangle("", "", "LINEAR");
  // t = 0 .. 1.5: wrapped past 1 s, held at the last key without the loop.
  EXPECT_THAT(
      Lifts(ParseGltf(file, "loop.gltf", TimingOptions(4, 7, true))),
      ElementsNear(std::vector<double>{0, 0.25, 0.5, 0.75, 0, 0.25, 0.5}));
  EXPECT_THAT(Lifts(ParseGltf(file, "held.gltf", TimingOptions(4, 7))),
              ElementsNear(std::vector<double>{0, 0.25, 0.5, 0.75, 1, 1, 1}));
  EXPECT_THAT(
      Lifts(ParseGltf(file, "start.gltf", TimingOptions(4, 2, false, 0.5))),
      ElementsNear(std::vector<double>{0.5, 0.75}));
  EXPECT_THAT(
      Lifts(ParseGltf(file, "before.gltf", TimingOptions(4, 2, false, -1))),
      ElementsNear(std::vector<double>{0, 0}));  // clamped to key 0
}

TEST(GltfMeshTest, PrimitivesConcatenatedUvsFlippedAndSoupsKept) {
  GltfBuilder gltf;
  const int a = gltf.Floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
  const int b = gltf.Floats({0, 0, 1, 1, 0, 1, 0, 1, 1}, "VEC3");
  const int uv = gltf.Floats({0.25f, 0.1f, 0.5f, 0.2f, 0.75f, 1.0f}, "VEC2");
  const int indices = gltf.Shorts({0, 2, 1}, "SCALAR");
  const std::string both_uvs = gltf.Json(absl::StrFormat(
      R"("meshes": [{"primitives": [
          {"attributes": {"POSITION": %d, "TEXCOORD_0": %d}},
          {"attributes": {"POSITION": %d, "TEXCOORD_0": %d}, "indices": %d}]}])",
      a, uv, b, uv, indices));
  const auto read = ParseGltf(both_uvs, "two.gltf");
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->mesh.num_vertices(), 6);
  EXPECT_EQ(read->mesh.triangles,
            (std::vector<Triangle>{{0, 1, 2}, {3, 5, 4}}));
  EXPECT_EQ(read->mesh.positions[3 * 4 + 2], 1.0f);  // b's second vertex
  // v flipped: 1 - v. Triangle 1's corners are vertices 3, 5, 4.
  EXPECT_THAT(read->mesh.corner_uvs,
              ::testing::Pointwise(
                  ::testing::FloatNear(1e-7f),
                  std::vector<float>{0.25f, 0.9f, 0.5f, 0.8f, 0.75f, 0.0f,
                                     0.25f, 0.9f, 0.75f, 0.0f, 0.5f, 0.8f}));
  const std::string one_uv = gltf.Json(absl::StrFormat(
      R"("meshes": [{"primitives": [{"attributes": {"POSITION": %d, "TEXCOORD_0": %d}},
                                    {"attributes": {"POSITION": %d}}]}])",
      a, uv, b));
  const auto partial = ParseGltf(one_uv, "partial.gltf");
  ASSERT_TRUE(partial.ok()) << partial.status();
  EXPECT_FALSE(partial->mesh.has_uvs());  // all primitives or none
}

TEST(GltfMeshTest, SparseMorphTargetAndStepTranslation) {
  GltfBuilder gltf;
  const int position = gltf.Floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
  const uint16_t moved[2] = {2, 0};  // vertex 2 only (padded to 4 bytes)
  const float lift[3] = {0, 0, 1};
  const int index_view = gltf.View(moved, 4);
  const int value_view = gltf.View(lift, 12);
  const int sparse = gltf.Accessor(absl::StrFormat(
      R"({"componentType": 5126, "count": 3, "type": "VEC3", "sparse": {"count": 1,
          "indices": {"bufferView": %d, "componentType": 5123},
          "values": {"bufferView": %d}}})",
      index_view, value_view));
  const int times = gltf.Floats({0, 1}, "SCALAR");
  const int moves = gltf.Floats({0, 0, 0, 4, 0, 0}, "VEC3");
  const auto read = ParseGltf(
      gltf.Json(absl::StrFormat(
          R"("meshes": [{"primitives": [{"attributes": {"POSITION": %d},
              "targets": [{"POSITION": %d}]}], "weights": [1]}],
          "nodes": [{"mesh": 0}],
          "animations": [{"samplers": [{"input": %d, "output": %d, "interpolation": "STEP"}],
              "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}])",
          position, sparse, times, moves)),
      "sparse.gltf", TimingOptions(2));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_THAT(At(*read, 0, 1), Near(1, 0, 0));
  EXPECT_THAT(At(*read, 0, 2), Near(0, 1, 1));
  EXPECT_THAT(At(*read, 1, 2), Near(0, 1, 1));  // t = 0.5: still key 0
  EXPECT_THAT(At(*read, 2, 2), Near(4, 1, 1));
}

TEST(GltfMeshTest, NonFiniteResultsAreErrors) {
  GltfBuilder gltf;
  const int position = gltf.Floats({1e10f, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
  const auto read = ParseGltf(
      gltf.Json(absl::StrFormat(
          R"("meshes": [{"primitives": [{"attributes": {"POSITION": %d}}]}],
          "nodes": [{"mesh": 0, "scale": [1e300, 1, 1]}])",
          position)),
      "huge.gltf");
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(
      std::string(read.status().message()),
      HasSubstr("huge.gltf: frame 0 (t = 0 s): vertex 0 is not finite"));
}

}  // namespace
}  // namespace crease::io
