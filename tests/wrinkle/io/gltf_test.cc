// glTF in, held to the bundled OBJ + PC2 sets made from the same Khronos
// models by the project's reference evaluation (data/README.md), and its
// errors.

#include "wrinkle/io/gltf.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>

#include "absl/status/status.h"
#include "common/file_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/temp_path.h"
#include "tests/wrinkle/io/gltf_builder.h"

namespace crease::io {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

template <typename T>
std::string Message(const absl::StatusOr<T>& read) {
  return std::string(read.status().message());
}

// Largest coordinate difference over every frame, and the diagonal of the
// bundled animation's bounding box over every frame.
struct Agreement {
  double max_error = 0;
  double diagonal = 0;
  int worst_frame = -1;
};

Agreement Compare(const Animation& read, const Animation& bundled) {
  Agreement agreement;
  float lo[3] = {INFINITY, INFINITY, INFINITY};
  float hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  const std::vector<float>& expected = bundled.frames.positions;
  const std::vector<float>& actual = read.frames.positions;
  const size_t per_frame = 3 * static_cast<size_t>(bundled.frames.num_points);
  for (size_t i = 0; i < expected.size(); ++i) {
    lo[i % 3] = std::min(lo[i % 3], expected[i]);
    hi[i % 3] = std::max(hi[i % 3], expected[i]);
    const double error = std::abs(double{actual[i]} - double{expected[i]});
    if (error > agreement.max_error) {
      agreement.max_error = error;
      agreement.worst_frame = static_cast<int>(i / per_frame);
    }
  }
  agreement.diagonal = std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  return agreement;
}

// The options data/README.md gives for each set (those of the shared data's
// regenerate.sh).
struct BundledSet {
  const char* glb;
  const char* stem;
  GltfOptions options;
};

class GltfMatchesBundledTest : public ::testing::TestWithParam<BundledSet> {};

// Float32 rounding of coordinates of magnitude ~diagonal is ~6e-8 of it; both
// evaluations work in double and round once, so they agree to an ulp or two.
constexpr double kRelativeTolerance = 1e-6;

TEST_P(GltfMatchesBundledTest, EveryFrameAndTriangle) {
  const BundledSet& set = GetParam();
  const absl::StatusOr<Animation> read =
      ReadGltf(testing::BundledPath(set.glb), set.options);
  ASSERT_TRUE(read.ok()) << read.status();
  const Animation bundled = testing::LoadBundled(set.stem);
  ASSERT_GT(bundled.num_frames(), 0);

  EXPECT_EQ(read->mesh.triangles, bundled.mesh.triangles);
  ASSERT_EQ(read->frames.num_points, bundled.frames.num_points);
  ASSERT_EQ(read->num_frames(), bundled.num_frames());
  ASSERT_EQ(read->frames.positions.size(), bundled.frames.positions.size());
  const auto first = read->frames.Sample(0);
  EXPECT_TRUE(std::equal(first.begin(), first.end(),
                         read->mesh.positions.begin(),
                         read->mesh.positions.end()))
      << "the mesh's positions are frame 0";

  const Agreement agreement = Compare(*read, bundled);
  std::printf(
      "%s: max |error| %.3g over %d frames, %.3g of the bounding box "
      "diagonal %.4g\n",
      set.glb, agreement.max_error, read->num_frames(),
      agreement.max_error / agreement.diagonal, agreement.diagonal);
  EXPECT_LE(agreement.max_error, kRelativeTolerance * agreement.diagonal)
      << "worst frame " << agreement.worst_frame;
}

INSTANTIATE_TEST_SUITE_P(FoxAndCesiumMan, GltfMatchesBundledTest,
                         ::testing::Values(
                             // --anim Walk --loop --frames 85
                             BundledSet{"Fox.glb", "fox_walk",
                                        testing::ClipOptions("Walk", 85, true)},
                             // --anim 0 --frames 61
                             BundledSet{"CesiumMan.glb", "cesiumman_walk",
                                        testing::ClipOptions("0", 61)}),
                         [](const auto& info) {
                           return std::string(info.param.stem);
                         });

TEST(GltfTest, DefaultsPickTheSkinnedMeshAndFirstClipForOneLength) {
  const absl::StatusOr<Animation> fox =
      ReadGltf(testing::BundledPath("Fox.glb"));
  ASSERT_TRUE(fox.ok()) << fox.status();
  EXPECT_EQ(fox->frames.num_points, 1728);
  // Animation 0 is "Survey", 3.4167 s: round(102.5000024) + 1 frames.
  EXPECT_EQ(fox->num_frames(), 104);

  GltfOptions walk =
      testing::ClipOptions("1");  // "Walk", 0.70833 s: round(21.25) + 1
  const absl::StatusOr<Animation> by_index =
      ReadGltf(testing::BundledPath("Fox.glb"), walk);
  ASSERT_TRUE(by_index.ok()) << by_index.status();
  EXPECT_EQ(by_index->num_frames(), 22);
  walk.animation = "Walk";
  const absl::StatusOr<Animation> by_name =
      ReadGltf(testing::BundledPath("Fox.glb"), walk);
  ASSERT_TRUE(by_name.ok()) << by_name.status();
  EXPECT_EQ(by_name->frames.positions, by_index->frames.positions);
}

TEST(GltfTest, LoopWrapsModuloTheClip) {
  // Walk lasts 0.708333 s: at 30 fps frame 85 (2.8333 s) is 4 clips on, so
  // frame 85 of the looped sampling is frame 0 of one clip up to the wrap.
  const GltfOptions options = testing::ClipOptions("Walk", 86, true);
  const absl::StatusOr<Animation> fox =
      ReadGltf(testing::BundledPath("Fox.glb"), options);
  ASSERT_TRUE(fox.ok()) << fox.status();
  const auto first = fox->frames.Sample(0);
  const auto wrapped = fox->frames.Sample(85);
  double max_difference = 0;
  for (size_t i = 0; i < first.size(); ++i) {
    max_difference = std::max(max_difference,
                              std::abs(double{first[i]} - double{wrapped[i]}));
  }
  // 85/30 mod 0.70833331 = 4e-7 s: the fox barely moves in that time.
  EXPECT_LT(max_difference, 1e-3);
  // Without the loop the clip holds its last key instead.
  const absl::StatusOr<Animation> held = ReadGltf(
      testing::BundledPath("Fox.glb"), testing::ClipOptions("Walk", 86));
  ASSERT_TRUE(held.ok()) << held.status();
  const auto last = held->frames.Sample(85);
  const auto at_end = held->frames.Sample(22);  // 0.7333 s, past the clip
  EXPECT_TRUE(std::equal(last.begin(), last.end(), at_end.begin()));
}

TEST(GltfTest, UvsPerCornerInRangeAndSplitAlongCesiumMansSeams) {
  const absl::StatusOr<Animation> man = ReadGltf(
      testing::BundledPath("CesiumMan.glb"), testing::ClipOptions("0", 1));
  ASSERT_TRUE(man.ok()) << man.status();
  const TriangleMesh& mesh = man->mesh;
  ASSERT_TRUE(mesh.has_uvs());
  ASSERT_EQ(mesh.corner_uvs.size(), 6u * mesh.triangles.size());
  for (float uv : mesh.corner_uvs) {
    EXPECT_TRUE(uv >= 0.0f && uv <= 1.0f) << uv;
  }
  // Per vertex UVs (every corner of a vertex has the vertex's UV), then
  // vertices at the same position with different UVs: the seam's splits.
  std::vector<std::pair<float, float>> vertex_uv(mesh.num_vertices());
  for (int t = 0; t < mesh.num_triangles(); ++t) {
    for (int c = 0; c < 3; ++c) {
      vertex_uv[mesh.triangles[t][c]] = {mesh.corner_uvs[6 * t + 2 * c],
                                         mesh.corner_uvs[6 * t + 2 * c + 1]};
    }
  }
  std::map<std::tuple<float, float, float>, int> first_at;
  int seam_pairs = 0;
  double largest_jump = 0;
  for (int v = 0; v < mesh.num_vertices(); ++v) {
    const auto key =
        std::make_tuple(mesh.positions[3 * v], mesh.positions[3 * v + 1],
                        mesh.positions[3 * v + 2]);
    const auto [it, inserted] = first_at.emplace(key, v);
    if (inserted) continue;
    const auto& a = vertex_uv[it->second];
    const auto& b = vertex_uv[v];
    const double jump = std::hypot(a.first - b.first, a.second - b.second);
    if (jump > 0) ++seam_pairs;
    largest_jump = std::max(largest_jump, jump);
  }
  std::printf(
      "Cesium Man: %d vertices at %zu positions, %d of them with "
      "another UV than the first there, largest UV jump %.3f\n",
      mesh.num_vertices(), first_at.size(), seam_pairs, largest_jump);
  // 3273 source vertices weld to 2338 (data/README.md); most of the 935
  // splits are UV seams.
  EXPECT_EQ(static_cast<int>(first_at.size()), 2338);
  EXPECT_GT(seam_pairs, 100);
  EXPECT_GT(largest_jump, 0.1);

  const absl::StatusOr<Animation> fox =
      ReadGltf(testing::BundledPath("Fox.glb"), testing::ClipOptions("", 1));
  ASSERT_TRUE(fox.ok()) << fox.status();
  EXPECT_EQ(fox->mesh.corner_uvs.size(), 6u * 576);
}

TEST(GltfErrorTest, MissingFile) {
  const auto read = ReadGltf("/nonexistent/Fox.glb");
  EXPECT_EQ(read.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Message(read), HasSubstr("/nonexistent/Fox.glb"));
}

TEST(GltfErrorTest, UnknownAnimationListsTheNames) {
  const auto read =
      ReadGltf(testing::BundledPath("Fox.glb"), testing::ClipOptions("Trot"));
  EXPECT_EQ(read.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Message(read),
              AllOf(HasSubstr("Fox.glb"), HasSubstr("no animation \"Trot\""),
                    HasSubstr("0 \"Survey\", 1 \"Walk\", 2 \"Run\"")));
  const auto unnamed = ReadGltf(testing::BundledPath("CesiumMan.glb"),
                                testing::ClipOptions("1"));
  EXPECT_THAT(Message(unnamed), HasSubstr("0 (unnamed)"));
}

TEST(GltfErrorTest, UnknownMeshListsTheNames) {
  GltfOptions options;
  options.mesh = "3";
  const auto read = ReadGltf(testing::BundledPath("Fox.glb"), options);
  EXPECT_EQ(read.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Message(read),
              HasSubstr("no mesh \"3\"; the meshes are: 0 \"fox1\""));
}

TEST(GltfErrorTest, TruncatedGlb) {
  const absl::StatusOr<std::string> bytes =
      files::ReadFileToString(testing::BundledPath("Fox.glb"));
  ASSERT_TRUE(bytes.ok());
  const auto read = ParseGltf(bytes->substr(0, 4000), "cut.glb");
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(read), HasSubstr("cut.glb: "));
}

TEST(GltfErrorTest, BadOptions) {
  for (const GltfOptions& options :
       {testing::TimingOptions(0), testing::TimingOptions(30, -1),
        testing::TimingOptions(30, 0, false, NAN)}) {
    const auto read = ReadGltf(testing::BundledPath("Fox.glb"), options);
    EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(Message(read), HasSubstr("fps"));
  }
}

// One triangle, the given primitive members (mode, indices) and buffer.
std::string TriangleGltf(const std::string& primitive_extra) {
  testing::GltfBuilder gltf;
  const int position = gltf.Floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
  return gltf.Json(absl::StrCat(
      R"("meshes": [{"name": "tri", "primitives": [{"attributes": {"POSITION": )",
      position, "}", primitive_extra, R"(}]}], "nodes": [{"mesh": 0}])"));
}

TEST(GltfErrorTest, OnlyTriangleLists) {
  const auto read = ParseGltf(TriangleGltf(R"(, "mode": 1)"), "lines.gltf");
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(read),
              HasSubstr("lines.gltf: mesh 0 primitive 0 has mode 1 (LINES); "
                        "only TRIANGLES (4) is supported"));
  EXPECT_TRUE(ParseGltf(TriangleGltf(R"(, "mode": 4)"), "t.gltf").ok());
}

TEST(GltfErrorTest, MissingAndMalformedAccessors) {
  const auto no_position = ParseGltf(
      R"({"asset": {"version": "2.0"}, "meshes": [{"primitives": [{"attributes": {}}]}]})",
      "empty.gltf");
  EXPECT_THAT(Message(no_position),
              HasSubstr("mesh 0 primitive 0 has no POSITION"));
  // tinygltf checks that much itself.
  const auto no_accessor =
      ParseGltf(TriangleGltf(R"(, "indices": 7)"), "i.gltf");
  EXPECT_THAT(Message(no_accessor),
              HasSubstr("i.gltf: primitive indices accessor out of bounds"));
  // Signed indices could be negative (found by gltf_fuzz: they indexed
  // before the vertices).
  {
    testing::GltfBuilder signed_gltf;
    signed_gltf.Floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
    const int16_t minus[4] = {0, -3, 1, 0};
    const int view = signed_gltf.View(minus, 6);
    const int indices = signed_gltf.Accessor(absl::StrCat(
        R"({"bufferView": )", view,
        R"(, "componentType": 5122, "count": 3, "type": "SCALAR"})"));
    const auto negative = ParseGltf(
        signed_gltf.Json(absl::StrCat(
            R"("meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": )",
            indices, "}]}]")),
        "signed.gltf");
    EXPECT_THAT(Message(negative),
                HasSubstr("mesh 0 primitive 0 indices: 3 indices of "
                          "componentType 5122: expected unsigned integers"));
  }
  // More elements than the buffer view holds.
  testing::GltfBuilder gltf;
  gltf.Floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
  const int too_many = gltf.Accessor(
      R"({"bufferView": 0, "componentType": 5126, "count": 30, "type": "VEC3"})");
  const auto past_end = ParseGltf(
      gltf.Json(absl::StrCat(
          R"("meshes": [{"primitives": [{"attributes": {"POSITION": )",
          too_many, "}}]}]")),
      "long.gltf");
  EXPECT_THAT(Message(past_end),
              HasSubstr("long.gltf: mesh 0 primitive 0 POSITION: accessor 1: "
                        "30 elements of 12 bytes, 12 apart, from byte 0 need "
                        "360 bytes, but bufferView 0 has 36"));
  // Indices read as POSITION: wrong type.
  const auto wrong_type =
      ParseGltf(TriangleGltf(R"(, "targets": [{"POSITION": 0}], "indices": 0)"),
                "w.gltf");
  EXPECT_THAT(Message(wrong_type), HasSubstr("type is VEC3, expected SCALAR"));
}

TEST(GltfErrorTest, ExternalBufferNotFound) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempPath("gltf_external"));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "external.gltf").string();
  ASSERT_TRUE(
      files::WriteStringToFile(
          path,
          R"({"asset": {"version": "2.0"}, "buffers": [{"byteLength": 36, "uri": "missing.bin"}]})")
          .ok());
  const auto read = ReadGltf(path);
  EXPECT_EQ(read.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Message(read), HasSubstr("missing.bin"));

  // Beside the file it is found.
  const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  ASSERT_TRUE(files::WriteStringToFile(
                  (dir / "tri.bin").string(),
                  std::string(reinterpret_cast<const char*>(positions), 36))
                  .ok());
  const std::string tri = (dir / "tri.gltf").string();
  ASSERT_TRUE(files::WriteStringToFile(tri, R"({"asset": {"version": "2.0"},
      "buffers": [{"byteLength": 36, "uri": "tri.bin"}],
      "bufferViews": [{"buffer": 0, "byteLength": 36}],
      "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}],
      "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}]})")
                  .ok());
  const auto found = ReadGltf(tri);
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(found->mesh.positions,
            std::vector<float>(positions, positions + 9));

  // From memory, external files are refused even where they exist.
  const auto from_memory = ParseGltf(
      absl::StrCat(
          R"({"asset": {"version": "2.0"}, "buffers": [{"byteLength": 36, "uri": ")",
          (dir / "tri.bin").string(), R"("}]})"),
      "memory.gltf");
  EXPECT_EQ(from_memory.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace crease::io
