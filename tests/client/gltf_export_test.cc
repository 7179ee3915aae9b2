// crease-client --export (client/cli/gltf_export.h): the frames a session
// returns, collected and written as .glb, read back by tinygltf and ReadGltf.

#include "client/cli/gltf_export.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <numbers>
#include <string>
#include <tuple>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "image/image_encoding.h"
#include "image/rgba_image.h"
#include "tests/testing/bundled_path.h"
#include "tests/testing/temp_path.h"
#include "wrinkle/data/refined_topology.h"
#include "wrinkle/io/gltf.h"
#include "wrinkle/io/gltf_model.h"

ABSL_DECLARE_FLAG(std::string, export);

namespace crease::client {
namespace {

using ::testing::HasSubstr;

constexpr int kFrames = 4;
constexpr double kFps = 30.0;

io::Animation FoxWalk() {
  io::GltfOptions options;
  options.frames = kFrames;
  options.animation = "Walk";
  absl::StatusOr<io::Animation> fox =
      io::ReadGltf(testing::BundledPath("Fox.glb"), options);
  EXPECT_TRUE(fox.ok()) << fox.status();
  return fox.value_or(io::Animation{});
}

image::RgbaImage Map(int frame) {
  image::RgbaImage map{.width = 4, .height = 4, .pixels = {}};
  for (int i = 0; i < 16; ++i) {
    map.pixels.insert(map.pixels.end(),
                      {static_cast<uint8_t>(120 + frame),
                       static_cast<uint8_t>(100 + i), 250, 255});
  }
  return map;
}

// Mesh `k` of the file, sampled in the middle of frame k: shown then.
io::Animation ReadFrame(const std::string& glb, int k) {
  io::GltfOptions options;
  options.mesh = absl::StrFormat("crease_frame_%04d", k);
  options.frames = k + 1;
  options.fps = kFps;
  options.t_start = 0.5 / kFps;
  absl::StatusOr<io::Animation> back =
      io::ParseGltf(glb, "export.glb", options);
  EXPECT_TRUE(back.ok()) << back.status();
  return back.value_or(io::Animation{});
}

using testing::TempPath;

// The coarse mesh with maps: PNG on frame 1, raw on frame 2, none on 0 and 3.
TEST(GltfExportTest, CoarseFoxWithSmoothNormalsAndTheServersNormalMaps) {
  const io::Animation fox = FoxWalk();
  ASSERT_EQ(fox.num_frames(), kFrames);
  const std::string path = TempPath("fox_coarse.glb");
  GltfExport exporter(path, fox, 0);  // fps 0: 30
  for (int f = 0; f < kFrames; ++f) {
    v1::FrameResult result;
    result.set_index(f);
    v1::UvMaps* maps = result.mutable_uv_maps();
    if (f == 1) {
      maps->set_encoding(v1::UV_MAP_ENCODING_PNG);
      maps->set_normal_map(*image::EncodePng(Map(f)));
    } else if (f == 2) {
      maps->set_size(4);
      maps->set_encoding(v1::UV_MAP_ENCODING_RAW);
      const std::vector<uint8_t> raw = Map(f).pixels;
      maps->set_normal_map(std::string(raw.begin(), raw.end()));
    }
    ASSERT_TRUE(exporter.Add(v1::Started(), result).ok());
  }
  ASSERT_TRUE(exporter.Write(/*quiet=*/true).ok());
  absl::StatusOr<std::string> glb = files::ReadFileToString(path);
  ASSERT_TRUE(glb.ok()) << glb.status();

  for (int k = 0; k < kFrames; ++k) {
    const io::Animation back = ReadFrame(*glb, k);
    ASSERT_EQ(back.mesh.num_triangles(), fox.mesh.num_triangles());
    const absl::Span<const float> got = back.frames.Sample(k);
    const absl::Span<const float> want = fox.frames.Sample(k);
    for (int t = 0; t < fox.mesh.num_triangles(); ++t) {
      for (int c = 0; c < 3; ++c) {
        for (int i = 0; i < 3; ++i) {
          ASSERT_EQ(got[3 * back.mesh.triangles[t][c] + i],
                    want[3 * fox.mesh.triangles[t][c] + i]);
        }
      }
    }
  }

  std::string warnings;
  absl::StatusOr<tinygltf::Model> model =
      io::gltf_internal::LoadModel(*glb, nullptr, &warnings);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(warnings, "");
  ASSERT_EQ(model->images.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const tinygltf::BufferView& view =
        model->bufferViews[model->images[i].bufferView];
    const auto* bytes = &model->buffers[0].data[view.byteOffset];
    absl::StatusOr<image::RgbaImage> decoded =
        image::DecodePng(std::string_view(reinterpret_cast<const char*>(bytes),
                                          view.byteLength));
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(decoded->pixels, Map(1 + i).pixels) << "frame " << 1 + i;
  }
  // Smooth: the Fox is a triangle soup, yet corners at one place share one
  // normal (welded), and it is a unit vector.
  const tinygltf::Primitive& primitive = model->meshes[0].primitives[0];
  const auto positions = io::gltf_internal::ReadAccessor(
      *model, primitive.attributes.at("POSITION"), "P", {TINYGLTF_TYPE_VEC3});
  const auto normals = io::gltf_internal::ReadAccessor(
      *model, primitive.attributes.at("NORMAL"), "N", {TINYGLTF_TYPE_VEC3});
  ASSERT_TRUE(positions.ok() && normals.ok());
  std::map<std::tuple<double, double, double>, std::vector<double>> at;
  int shared = 0;
  for (int64_t v = 0; v < positions->count; ++v) {
    const double* p = &positions->values[3 * v];
    const std::vector<double> n(&normals->values[3 * v],
                                &normals->values[3 * v] + 3);
    EXPECT_NEAR(std::hypot(n[0], n[1], n[2]), 1.0, 1e-6);
    const auto [it, added] = at.try_emplace({p[0], p[1], p[2]}, n);
    if (!added) {
      ++shared;
      for (int i = 0; i < 3; ++i) ASSERT_NEAR(it->second[i], n[i], 1e-6);
    }
  }
  EXPECT_GT(shared, 1000);  // 1728 soup vertices on far fewer places
}

// Four vertices, two triangles, with UVs.
v1::Started WrinkledStarted() {
  v1::Started started;
  v1::WrinkledMeshTopology* topology = started.mutable_wrinkled_mesh();
  topology->set_level(1);
  topology->set_vertex_count(4);
  for (uint32_t v : {0, 1, 2, 2, 1, 3}) topology->add_triangles(v);
  for (int i = 0; i < 12; ++i) topology->add_corner_uvs(0.125f * i);
  return started;
}

v1::FrameResult WrinkledResult(int f) {
  v1::FrameResult result;
  result.set_index(f);
  const std::vector<float> positions = {0, 0, 0,    1, 0, 0.1f * f,
                                        0, 1, 0.2f, 1, 1, 1.0f / 3};
  result.mutable_wrinkled_mesh()->mutable_positions()->Add(positions.begin(),
                                                           positions.end());
  for (int v = 0; v < 4; ++v) {
    for (float x : {0.0f, 0.0f, 1.0f})
      result.mutable_wrinkled_mesh()->add_normals(x);
  }
  return result;
}

TEST(GltfExportTest, WrinkledMeshUsesTheServersTopologyAndNoMap) {
  const io::Animation unused;
  const std::string path = TempPath("wrinkled.glb");
  GltfExport exporter(path, unused, kFps);
  for (int f = 0; f < 2; ++f) {
    ASSERT_TRUE(exporter.Add(WrinkledStarted(), WrinkledResult(f)).ok());
  }
  ASSERT_TRUE(exporter.Write(/*quiet=*/true).ok());
  absl::StatusOr<std::string> glb = files::ReadFileToString(path);
  ASSERT_TRUE(glb.ok()) << glb.status();
  for (int k = 0; k < 2; ++k) {
    const io::Animation back = ReadFrame(*glb, k);
    ASSERT_EQ(back.mesh.num_triangles(), 2);
    // Corner 1 of triangle 0 is vertex 1, whose z is 0.1 k.
    EXPECT_EQ(back.frames.Sample(k)[3 * back.mesh.triangles[0][1] + 2],
              0.1f * k);
    EXPECT_NEAR(back.mesh.corner_uvs[11], 0.125f * 11, 1e-7);
  }
  absl::StatusOr<tinygltf::Model> model =
      io::gltf_internal::LoadModel(*glb, nullptr);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_TRUE(model->images.empty());
}

// A unit quad in z = 0 with UVs = xy, standing still for two frames.
io::Animation Quad() {
  io::Animation quad;
  quad.mesh.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  quad.mesh.triangles = {{0, 1, 2}, {2, 1, 3}};
  quad.mesh.corner_uvs = {0, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 1};
  quad.frames.num_points = 4;
  for (int f = 0; f < 2; ++f) {
    quad.frames.positions.insert(quad.frames.positions.end(),
                                 quad.mesh.positions.begin(),
                                 quad.mesh.positions.end());
    ++quad.frames.num_samples;
  }
  return quad;
}

// The server's Started for `mesh` refined at `level`.
v1::Started RefinedStarted(const io::TriangleMesh& mesh, int level) {
  absl::StatusOr<RefinedTopology> refined =
      RefineTopology(mesh.triangles, mesh.num_vertices(), level);
  EXPECT_TRUE(refined.ok()) << refined.status();
  v1::Started started;
  v1::WrinkledMeshTopology* topology = started.mutable_wrinkled_mesh();
  topology->set_level(level);
  topology->set_vertex_count(refined->num_vertices());
  for (const auto& t : refined->triangles) {
    for (int32_t v : t) topology->add_triangles(v);
  }
  for (float uv : RefineCornerUvs(*refined, mesh.corner_uvs)) {
    topology->add_corner_uvs(uv);
  }
  return started;
}

// A wrinkled frame: a ridge along y (z up to 0.05) with its tilted normals,
// and a normal map.
v1::FrameResult RidgeResult(const v1::Started& started, int f) {
  v1::FrameResult result;
  result.set_index(f);
  const int count = static_cast<int>(started.wrinkled_mesh().vertex_count());
  absl::StatusOr<RefinedTopology> refined =
      RefineTopology(Quad().mesh.triangles, 4, started.wrinkled_mesh().level());
  const std::vector<float> flat_sums(12, 0.0f);
  const std::vector<int32_t> welded = {0, 1, 2, 3};
  for (int v = 0; v < count; ++v) {
    Eigen::Vector3f p, n;  // where the vertex lies on the flat quad
    PlaceRefinedVertex(refined->vertices[v], Quad().mesh.positions, welded,
                       flat_sums, &p, &n);
    for (double c : {double{p.x()}, double{p.y()},
                     0.05 * std::sin(std::numbers::pi * p.x())}) {
      result.mutable_wrinkled_mesh()->add_positions(static_cast<float>(c));
    }
    for (float c : {-0.6f, 0.0f, 0.8f}) {
      result.mutable_wrinkled_mesh()->add_normals(c);
    }
  }
  result.mutable_uv_maps()->set_normal_map(*image::EncodePng(Map(f)));
  return result;
}

TEST(GltfExportTest, WrinkledMeshWithMapsTakesTheSmoothSurfacesFrame) {
  const io::Animation quad = Quad();
  const v1::Started started = RefinedStarted(quad.mesh, 2);
  const std::string path = TempPath("wrinkled_mapped.glb");
  GltfExport exporter(path, quad, kFps);
  for (int f = 0; f < 2; ++f) {
    ASSERT_TRUE(exporter.Add(started, RidgeResult(started, f)).ok());
  }
  ASSERT_TRUE(exporter.Write(/*quiet=*/true).ok());
  absl::StatusOr<std::string> glb = files::ReadFileToString(path);
  ASSERT_TRUE(glb.ok()) << glb.status();
  absl::StatusOr<tinygltf::Model> model =
      io::gltf_internal::LoadModel(*glb, nullptr);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->images.size(), 2u);  // each frame's map
  const tinygltf::Primitive& primitive = model->meshes[1].primitives[0];
  EXPECT_GE(primitive.material, 0);
  const auto read = [&](const char* name, int type) {
    return io::gltf_internal::ReadAccessor(
        *model, primitive.attributes.at(name), name, {type});
  };
  const auto positions = read("POSITION", TINYGLTF_TYPE_VEC3);
  const auto normals = read("NORMAL", TINYGLTF_TYPE_VEC3);
  const auto tangents = read("TANGENT", TINYGLTF_TYPE_VEC4);
  ASSERT_TRUE(positions.ok() && normals.ok() && tangents.ok());
  double highest = 0;
  for (int64_t v = 0; v < positions->count; ++v) {
    highest = std::max(highest, positions->values[3 * v + 2]);
    // The flat quad's smooth normal, not the ridge's tilted one: the map
    // shades the fold, relative to the surface it was baked on.
    EXPECT_NEAR(normals->values[3 * v + 2], 1.0, 1e-6);
    // Its tangent along +u = +x, right-handed.
    EXPECT_NEAR(tangents->values[4 * v], 1.0, 1e-6);
    EXPECT_EQ(tangents->values[4 * v + 3], 1.0);
  }
  EXPECT_NEAR(highest, 0.05, 1e-6);  // the geometry keeps the ridge
}

TEST(GltfExportErrorTest, WrinkledMeshSizesAreChecked) {
  const io::Animation quad = Quad();
  const v1::Started started = RefinedStarted(quad.mesh, 2);
  v1::FrameResult result = RidgeResult(started, 0);
  result.mutable_wrinkled_mesh()->mutable_positions()->RemoveLast();
  GltfExport exporter(TempPath("short.glb"), quad, kFps);
  EXPECT_THAT(exporter.Add(started, result).message(),
              HasSubstr("the wrinkled mesh has 26 positions and 27 normals, "
                        "need 27 each (3 x 9 vertices)"));
  v1::Started bad_uvs = started;
  bad_uvs.mutable_wrinkled_mesh()->mutable_corner_uvs()->RemoveLast();
  GltfExport uvs(TempPath("uvs.glb"), quad, kFps);
  EXPECT_THAT(uvs.Add(bad_uvs, RidgeResult(started, 0)).message(),
              HasSubstr("47 corner UVs for 8 triangles, need 6 each"));
}

TEST(GltfExportErrorTest, MapsNeedTheRefinementOfTheMeshSent) {
  const io::Animation quad = Quad();
  v1::Started started = RefinedStarted(quad.mesh, 2);
  const v1::FrameResult result = RidgeResult(started, 0);
  started.mutable_wrinkled_mesh()->set_triangles(0, 3);
  GltfExport exporter(TempPath("not_refined.glb"), quad, kFps);
  EXPECT_THAT(exporter.Add(started, result).message(),
              HasSubstr("not the refinement of the mesh sent"));
}

TEST(GltfExportErrorTest, NamesTheProblem) {
  const io::Animation fox = FoxWalk();
  GltfExport mixed(TempPath("mixed.glb"), fox, kFps);
  v1::FrameResult coarse;
  ASSERT_TRUE(mixed.Add(v1::Started(), coarse).ok());
  EXPECT_THAT(mixed.Add(WrinkledStarted(), WrinkledResult(1)).message(),
              HasSubstr("frame 1 has a wrinkled mesh and the frames before "
                        "had none"));

  GltfExport raw(TempPath("raw.glb"), fox, kFps);
  coarse.mutable_uv_maps()->set_size(4);
  coarse.mutable_uv_maps()->set_encoding(v1::UV_MAP_ENCODING_RAW);
  coarse.mutable_uv_maps()->set_normal_map("abc");
  EXPECT_THAT(raw.Add(v1::Started(), coarse).message(),
              HasSubstr("uv_maps.normal_map has 3 bytes, need 4 x 4 x 4"));

  GltfExport empty(TempPath("empty.glb"), fox, kFps);
  EXPECT_THAT(empty.Write(true).message(), HasSubstr("no frame came back"));
}

TEST(GltfExportErrorTest, FlagIsCheckedBeforeStreaming) {
  const io::Animation fox;
  absl::SetFlag(&FLAGS_export, "");
  absl::StatusOr<std::unique_ptr<GltfExport>> none =
      GltfExportFromFlags(fox, kFps);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, nullptr);
  absl::SetFlag(&FLAGS_export, TempPath("scene.gltf"));
  EXPECT_THAT(GltfExportFromFlags(fox, kFps).status().message(),
              HasSubstr("give it a .glb name"));
  // A missing directory is made, as --out's is; a file where the directory
  // should be is refused.
  const std::string made = TempPath("made_for_export");
  std::filesystem::remove_all(made);
  absl::SetFlag(&FLAGS_export, made + "/deeper/scene.glb");
  EXPECT_TRUE(GltfExportFromFlags(fox, kFps).ok());
  EXPECT_TRUE(std::filesystem::is_directory(made + "/deeper"));
  const std::string file = TempPath("a_file.txt");
  ASSERT_TRUE(files::WriteStringToFile(file, "x").ok());
  absl::SetFlag(&FLAGS_export, file + "/scene.glb");
  EXPECT_THAT(GltfExportFromFlags(fox, kFps).status().message(),
              HasSubstr("a_file.txt is not a directory"));
  absl::SetFlag(&FLAGS_export, TempPath("scene.GLB"));
  EXPECT_TRUE(GltfExportFromFlags(fox, kFps).ok());
  absl::SetFlag(&FLAGS_export, "");
}

}  // namespace
}  // namespace crease::client
