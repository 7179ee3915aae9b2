// glTF out (wrinkle/io/gltf_write.h): what is written is read back by
// tinygltf (no errors, no warnings) and by our own ReadGltf, and every
// frame's positions, the triangles, the UVs, the normals and the embedded
// normal maps come back as they went in.

#include "wrinkle/io/gltf_write.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "image/image_encoding.h"
#include "image/rgba_image.h"
#include "tests/testing/bundled_path.h"
#include "tests/testing/temp_path.h"
#include "wrinkle/io/gltf.h"
#include "wrinkle/io/gltf_model.h"

namespace crease::io {
namespace {

using ::testing::HasSubstr;

// Per-vertex area-weighted normals of one frame ((0, 0, 1) where none).
std::vector<float> VertexNormals(const std::vector<float>& positions,
                                 const std::vector<Triangle>& triangles) {
  std::vector<double> sums(positions.size(), 0.0);
  for (const Triangle& t : triangles) {
    double e[2][3];
    for (int i = 0; i < 3; ++i) {
      e[0][i] = positions[3 * t[1] + i] - positions[3 * t[0] + i];
      e[1][i] = positions[3 * t[2] + i] - positions[3 * t[0] + i];
    }
    const double n[3] = {e[0][1] * e[1][2] - e[0][2] * e[1][1],
                         e[0][2] * e[1][0] - e[0][0] * e[1][2],
                         e[0][0] * e[1][1] - e[0][1] * e[1][0]};
    for (int32_t v : t) {
      for (int i = 0; i < 3; ++i) sums[3 * v + i] += n[i];
    }
  }
  std::vector<float> normals(positions.size());
  for (size_t v = 0; v < sums.size(); v += 3) {
    const double length = std::hypot(sums[v], sums[v + 1], sums[v + 2]);
    for (int i = 0; i < 3; ++i) {
      normals[v + i] = length > 0 ? static_cast<float>(sums[v + i] / length)
                                  : (i == 2 ? 1.0f : 0.0f);
    }
  }
  return normals;
}

// A 4 x 4 normal map whose texels say which frame it is.
std::string NormalMapPng(int frame) {
  image::RgbaImage map{.width = 4, .height = 4, .pixels = {}};
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      map.pixels.insert(map.pixels.end(),
                        {static_cast<uint8_t>(128 + frame),
                         static_cast<uint8_t>(100 + 4 * y + x), 255, 255});
    }
  }
  absl::StatusOr<std::string> png = image::EncodePng(map);
  EXPECT_TRUE(png.ok()) << png.status();
  return png.value_or("");
}

constexpr int kFrames = 5;
constexpr double kFps = 30.0;

// kFrames frames of a bundled glTF's walk, with normals; normal maps on the
// odd frames only (the maps-when-present path and the plain one together).
GltfMeshAnimation BundledExport(const std::string& file) {
  GltfOptions options;
  options.frames = kFrames;
  options.fps = kFps;
  absl::StatusOr<Animation> walk =
      ReadGltf(testing::BundledPath(file), options);
  EXPECT_TRUE(walk.ok()) << walk.status();
  GltfMeshAnimation out;
  if (!walk.ok()) return out;
  out.vertex_count = walk->mesh.num_vertices();
  out.triangles = walk->mesh.triangles;
  out.corner_uvs = walk->mesh.corner_uvs;
  out.fps = kFps;
  for (int f = 0; f < kFrames; ++f) {
    GltfFrame frame;
    const auto sample = walk->frames.Sample(f);
    frame.positions.assign(sample.begin(), sample.end());
    frame.normals = VertexNormals(frame.positions, out.triangles);
    if (f % 2 == 1) frame.normal_map_png = NormalMapPng(f);
    out.frames.push_back(std::move(frame));
  }
  return out;
}

class GltfWriteBundledTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GltfWriteBundledTest, ReadGltfGivesBackEveryFramesCorners) {
  const GltfMeshAnimation animation = BundledExport(GetParam());
  ASSERT_FALSE(animation.frames.empty());
  absl::StatusOr<std::string> glb = FormatGlb(animation);
  ASSERT_TRUE(glb.ok()) << glb.status();
  for (int k = 0; k < kFrames; ++k) {
    // Mesh k, sampled mid-frame: shown (scale 1) in frame k only.
    GltfOptions options;
    options.mesh = absl::StrFormat("crease_frame_%04d", k);
    options.frames = kFrames;
    options.fps = kFps;
    options.t_start = 0.5 / kFps;
    absl::StatusOr<Animation> back = ParseGltf(*glb, "export.glb", options);
    ASSERT_TRUE(back.ok()) << back.status();
    ASSERT_EQ(back->mesh.num_triangles(), animation.triangles.size());
    ASSERT_EQ(back->mesh.corner_uvs.size(), animation.corner_uvs.size());
    for (int f = 0; f < kFrames; ++f) {
      const absl::Span<const float> got = back->frames.Sample(f);
      const std::vector<float>& want = animation.frames[k].positions;
      for (size_t t = 0; t < animation.triangles.size(); ++t) {
        for (int c = 0; c < 3; ++c) {
          const int32_t g = back->mesh.triangles[t][c];
          const int32_t v = animation.triangles[t][c];
          for (int i = 0; i < 3; ++i) {
            // Bit for bit in its frame, scaled to the origin outside it.
            ASSERT_EQ(got[3 * g + i], f == k ? want[3 * v + i] : 0.0f)
                << "mesh " << k << " frame " << f << " triangle " << t;
          }
        }
      }
    }
    for (size_t i = 0; i < animation.corner_uvs.size(); ++i) {
      // v is flipped on write and back on read: within an ulp of 1.
      ASSERT_NEAR(back->mesh.corner_uvs[i], animation.corner_uvs[i], 6e-8)
          << "corner uv " << i;
    }
  }
}

TEST_P(GltfWriteBundledTest, TinygltfReadsItWithoutWarningsAndMapsAreThere) {
  const GltfMeshAnimation animation = BundledExport(GetParam());
  ASSERT_FALSE(animation.frames.empty());
  absl::StatusOr<std::string> glb = FormatGlb(animation);
  ASSERT_TRUE(glb.ok()) << glb.status();
  std::string warnings;
  absl::StatusOr<tinygltf::Model> model =
      gltf_internal::LoadModel(*glb, nullptr, &warnings);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(warnings, "");
  ASSERT_EQ(model->meshes.size(), kFrames);
  ASSERT_EQ(model->nodes.size(), kFrames + 1);
  ASSERT_EQ(model->animations.size(), 1u);
  EXPECT_EQ(model->animations[0].channels.size(), kFrames);
  EXPECT_EQ(model->images.size(), kFrames / 2);  // odd frames
  for (int f = 0; f < kFrames; ++f) {
    const tinygltf::Primitive& primitive = model->meshes[f].primitives[0];
    // Normals: the input's, unit length, in glTF vertex order.
    absl::StatusOr<gltf_internal::AccessorData> normals =
        gltf_internal::ReadAccessor(*model, primitive.attributes.at("NORMAL"),
                                    "NORMAL", {TINYGLTF_TYPE_VEC3});
    ASSERT_TRUE(normals.ok()) << normals.status();
    absl::StatusOr<gltf_internal::AccessorData> indices =
        gltf_internal::ReadAccessor(*model, primitive.indices, "indices",
                                    {TINYGLTF_TYPE_SCALAR},
                                    3 * animation.triangles.size());
    ASSERT_TRUE(indices.ok()) << indices.status();
    const std::vector<float>& want = animation.frames[f].normals;
    for (size_t corner = 0; corner < indices->values.size(); ++corner) {
      const auto g = static_cast<size_t>(indices->values[corner]);
      const int32_t v = animation.triangles[corner / 3][corner % 3];
      for (int i = 0; i < 3; ++i) {
        ASSERT_NEAR(normals->values[3 * g + i], want[3 * v + i], 1e-6)
            << "frame " << f << " corner " << corner;
      }
    }
    const tinygltf::Material& material = model->materials[primitive.material];
    if (f % 2 == 0) {
      EXPECT_EQ(material.normalTexture.index, -1) << "frame " << f;
      continue;
    }
    ASSERT_GE(material.normalTexture.index, 0) << "frame " << f;
    const tinygltf::Image& image =
        model->images[model->textures[material.normalTexture.index].source];
    EXPECT_EQ(image.mimeType, "image/png");
    const tinygltf::BufferView& view = model->bufferViews[image.bufferView];
    const std::vector<unsigned char>& bin = model->buffers[view.buffer].data;
    EXPECT_EQ(std::string(bin.begin() + view.byteOffset,
                          bin.begin() + view.byteOffset + view.byteLength),
              animation.frames[f].normal_map_png)
        << "frame " << f;
  }
}

// A second reader: gltfpack (Debian's, from meshoptimizer) loads with cgltf,
// whose validation checks every accessor against its buffer view, the
// indices against the vertex count and more. Skipped where it is missing.
TEST_P(GltfWriteBundledTest, GltfpackLoadsIt) {
  if (std::system("command -v gltfpack > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "gltfpack is not installed (deploy/install-deps.sh)";
  }
  const GltfMeshAnimation animation = BundledExport(GetParam());
  const std::string in = testing::TempPath("gltfpack_in.glb");
  const std::string out = testing::TempPath("gltfpack_out.glb");
  ASSERT_TRUE(WriteGlb(in, animation).ok());
  const std::string command =
      absl::StrFormat("gltfpack -i '%s' -o '%s' 2>&1", in, out);
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char chunk[256];
  while (fgets(chunk, sizeof(chunk), pipe) != nullptr) output += chunk;
  EXPECT_EQ(pclose(pipe), 0) << output;
  EXPECT_EQ(output, "");
  std::filesystem::remove(in);
  std::filesystem::remove(out);
}

INSTANTIATE_TEST_SUITE_P(FoxAndCesiumMan, GltfWriteBundledTest,
                         ::testing::Values("Fox.glb", "CesiumMan.glb"));

// A single triangle: the smallest file, every number known.
GltfMeshAnimation OneTriangle() {
  GltfMeshAnimation animation;
  animation.vertex_count = 3;
  animation.triangles = {{0, 1, 2}};
  animation.corner_uvs = {0, 0, 1, 0, 0, 1};
  GltfFrame frame;
  frame.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  frame.normals = {0, 0, 2, 0, 0, 1, 0, 0, 1};  // the first normalised
  animation.frames = {frame, frame};
  animation.frames[1].positions[8] = 0.5f;
  return animation;
}

TEST(GltfWriteTest, NormalsAreNormalisedAndUvVFlipped) {
  absl::StatusOr<std::string> glb = FormatGlb(OneTriangle());
  ASSERT_TRUE(glb.ok()) << glb.status();
  absl::StatusOr<tinygltf::Model> model =
      gltf_internal::LoadModel(*glb, nullptr);
  ASSERT_TRUE(model.ok()) << model.status();
  const tinygltf::Primitive& primitive = model->meshes[0].primitives[0];
  absl::StatusOr<gltf_internal::AccessorData> normals =
      gltf_internal::ReadAccessor(*model, primitive.attributes.at("NORMAL"),
                                  "NORMAL", {TINYGLTF_TYPE_VEC3}, 3);
  ASSERT_TRUE(normals.ok()) << normals.status();
  EXPECT_THAT(normals->values,
              ::testing::ElementsAre(0, 0, 1, 0, 0, 1, 0, 0, 1));
  absl::StatusOr<gltf_internal::AccessorData> uvs =
      gltf_internal::ReadAccessor(*model, primitive.attributes.at("TEXCOORD_0"),
                                  "TEXCOORD_0", {TINYGLTF_TYPE_VEC2}, 3);
  ASSERT_TRUE(uvs.ok()) << uvs.status();
  EXPECT_THAT(uvs->values, ::testing::ElementsAre(0, 1, 1, 1, 0, 0));
  // The clip: frame 1 from 1/30 s to its end at 2/30 s.
  const tinygltf::Accessor& times =
      model->accessors[model->animations[0].samplers[1].input];
  EXPECT_FLOAT_EQ(static_cast<float>(times.maxValues[0]), 2.0f / 30.0f);
}

TEST(GltfWriteTest, WithoutUvsOrNormalsTheAttributesAreLeftOut) {
  GltfMeshAnimation animation = OneTriangle();
  animation.corner_uvs.clear();
  for (GltfFrame& frame : animation.frames) frame.normals.clear();
  absl::StatusOr<std::string> glb = FormatGlb(animation);
  ASSERT_TRUE(glb.ok()) << glb.status();
  absl::StatusOr<tinygltf::Model> model =
      gltf_internal::LoadModel(*glb, nullptr);
  ASSERT_TRUE(model.ok()) << model.status();
  const auto& attributes = model->meshes[1].primitives[0].attributes;
  EXPECT_EQ(attributes.size(), 1u);
  EXPECT_EQ(attributes.count("POSITION"), 1u);
  absl::StatusOr<Animation> back = ParseGltf(*glb, "t.glb", {});
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_FALSE(back->mesh.has_uvs());
}

// TANGENT: normalised, w kept, one per glTF vertex (its first corner's), and
// only on the frames that give tangents.
TEST(GltfWriteTest, TangentsAreWrittenPerVertexNormalised) {
  GltfMeshAnimation animation = OneTriangle();
  animation.frames[0].normal_map_png = NormalMapPng(0);
  animation.frames[0].tangents = {2, 0, 0, 1, 0, 3, 0, -1, 1, 1, 0, 1};
  absl::StatusOr<std::string> glb = FormatGlb(animation);
  ASSERT_TRUE(glb.ok()) << glb.status();
  absl::StatusOr<tinygltf::Model> model =
      gltf_internal::LoadModel(*glb, nullptr);
  ASSERT_TRUE(model.ok()) << model.status();
  const auto& with = model->meshes[0].primitives[0].attributes;
  ASSERT_EQ(with.count("TANGENT"), 1u);
  absl::StatusOr<gltf_internal::AccessorData> tangents =
      gltf_internal::ReadAccessor(*model, with.at("TANGENT"), "TANGENT",
                                  {TINYGLTF_TYPE_VEC4}, 3);
  ASSERT_TRUE(tangents.ok()) << tangents.status();
  const float r = static_cast<float>(std::sqrt(0.5));
  EXPECT_THAT(tangents->values,
              ::testing::Pointwise(::testing::FloatNear(1e-6f),
                                   {1.0f, 0.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f,
                                    -1.0f, r, r, 0.0f, 1.0f}));
  EXPECT_EQ(model->meshes[1].primitives[0].attributes.count("TANGENT"), 0u);
  // Every material and sampler is used: the plain one is made only for a
  // frame without a map.
  EXPECT_EQ(model->materials.size(), 2u);
  EXPECT_EQ(model->samplers.size(), 1u);
  animation.frames[1].normal_map_png = NormalMapPng(1);
  glb = FormatGlb(animation);
  ASSERT_TRUE(glb.ok()) << glb.status();
  model = gltf_internal::LoadModel(*glb, nullptr);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->materials.size(), 2u);  // one per normal-mapped frame
}

// Mirrored UV halves sharing a seam's UVs: with tangents their shared
// vertices are split by the UV triangle's turn, so each half keeps its own
// bitangent sign; without tangents the file is as before.
TEST(GltfWriteTest, MirroredUvHalvesKeepTheirTangentSigns) {
  GltfMeshAnimation animation;
  animation.vertex_count = 4;
  animation.triangles = {{0, 1, 2}, {0, 2, 3}};
  // Vertices 0 and 2 lie on the mirror line, at the same UVs in both.
  animation.corner_uvs = {0.5f, 0, 1, 0, 0.5f, 1, 0.5f, 0, 0.5f, 1, 1, 0};
  GltfFrame frame;
  frame.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, -1, 0, 0};
  frame.normals = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  animation.frames = {frame};
  const auto vertices = [](const GltfMeshAnimation& a) {
    absl::StatusOr<std::string> glb = FormatGlb(a);
    EXPECT_TRUE(glb.ok()) << glb.status();
    absl::StatusOr<tinygltf::Model> model =
        gltf_internal::LoadModel(*glb, nullptr);
    EXPECT_TRUE(model.ok()) << model.status();
    return model
        ->accessors[model->meshes[0].primitives[0].attributes.at("POSITION")]
        .count;
  };
  EXPECT_EQ(vertices(animation), 4u);
  animation.frames[0].tangents = {1,  0, 0, 1,  1,  0, 0, 1,  1,  0, 0, 1,
                                  -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1};
  EXPECT_EQ(vertices(animation), 6u);
}

TEST(GltfWriteErrorTest, NamesTheProblem) {
  const auto error = [](GltfMeshAnimation animation) {
    return std::string(FormatGlb(animation).status().message());
  };
  GltfMeshAnimation a = OneTriangle();
  a.frames[1].positions.pop_back();
  EXPECT_THAT(error(a),
              HasSubstr("frame 1 has 8 position and 9 normal floats, need 3 x "
                        "3 vertices = 9"));
  a = OneTriangle();
  a.frames[1].positions[4] = NAN;
  EXPECT_THAT(error(a), HasSubstr("frame 1 vertex 1: position or normal is "
                                  "not finite"));
  a = OneTriangle();
  a.frames[0].normals[3] = a.frames[0].normals[5] = 0;
  EXPECT_THAT(error(a), HasSubstr("frame 0 vertex 1: the normal is zero"));
  a = OneTriangle();
  a.triangles[0][2] = 3;
  EXPECT_THAT(error(a), HasSubstr("triangle 0 has vertex 3, outside 0..2"));
  a = OneTriangle();
  a.corner_uvs.pop_back();
  EXPECT_THAT(error(a), HasSubstr("corner_uvs has 5 floats, need 6 x 1"));
  a = OneTriangle();
  a.frames[0].normal_map_png = "GIF89a";
  EXPECT_THAT(error(a), HasSubstr("frame 0: the normal map (6 bytes) is not "
                                  "a PNG"));
  a = OneTriangle();
  a.corner_uvs.clear();
  a.frames[1].normal_map_png = NormalMapPng(1);
  EXPECT_THAT(error(a), HasSubstr("frame 1 has a normal map but the mesh has "
                                  "no UVs"));
  a = OneTriangle();
  a.frames[0].tangents = {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0.5f};
  EXPECT_THAT(error(a), HasSubstr("frame 0 corner 2: the tangent is not "
                                  "finite, is zero, or its w is not +-1"));
  a.frames[0].tangents.resize(8);
  EXPECT_THAT(error(a), HasSubstr("frame 0 has 8 tangent floats, need 4 x 3"));
  a.frames[0].tangents.assign(12, 1.0f);
  a.frames[0].normals.clear();
  EXPECT_THAT(error(a), HasSubstr("frame 0 has tangents but no normals"));
  a = OneTriangle();
  a.fps = 0;
  EXPECT_THAT(error(a), HasSubstr("fps 0, need > 0"));
  a = OneTriangle();
  a.frames.clear();
  EXPECT_THAT(error(a), HasSubstr("no frames"));
}

TEST(GltfWriteErrorTest, UnwritablePath) {
  const std::string dir = testing::TempPath("gltf_write_test_file");
  ASSERT_TRUE(files::WriteStringToFile(dir, "a file, not a directory").ok());
  const absl::Status status = WriteGlb(dir + "/out.glb", OneTriangle());
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("out.glb"));
  std::filesystem::remove(dir);
}

}  // namespace
}  // namespace crease::io
