// The wrinkled mesh and the per-vertex fields over the wire: what the
// library computes in process, sent once (topology) and per frame; opt-in;
// bad requests refused naming the field.

#include <cmath>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/server/service_fixture.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/data/refined_topology.h"
#include "wrinkle/outputs/vertex_fields.h"
#include "wrinkle/outputs/wrinkled_mesh.h"
#include "wrinkle/sca2015/session.h"

namespace crease::server {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

class MeshOutputsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ServerOptions options = LoopbackOptions();
    options.render_threads = 0;
    running_ = new RunningServer(RunningServer::Start(options));
    pants_ = new io::Animation(testing::LoadBundled("cloth_pants_knee"));
  }
  static void TearDownTestSuite() {
    delete running_;
    delete pants_;
  }
  static RunningServer* running_;
  static io::Animation* pants_;
};
RunningServer* MeshOutputsTest::running_ = nullptr;
io::Animation* MeshOutputsTest::pants_ = nullptr;

template <typename T>
std::vector<T> AsVector(const google::protobuf::RepeatedField<T>& field) {
  return {field.begin(), field.end()};
}

// Level 2 and the fields over 40 frames of the knee: the refined triangles
// in Started, and every frame's positions, normals and fields exactly the
// library's on an in-process session.
TEST_F(MeshOutputsTest, MeshAndFieldsAreTheLibrarys) {
  v1::Start start = StartFor(*pants_);
  start.mutable_outputs()->mutable_wrinkled_mesh()->set_level(2);
  start.mutable_outputs()->set_vertex_fields(true);
  auto session = running_->Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  const absl::StatusOr<RefinedTopology> refined = RefineTopology(
      pants_->mesh.triangles, pants_->mesh.num_vertices(), /*level=*/2);
  ASSERT_TRUE(refined.ok());
  const v1::WrinkledMeshTopology& topology =
      (*session)->started().wrinkled_mesh();
  EXPECT_EQ(topology.level(), 2u);
  ASSERT_EQ(topology.vertex_count(),
            static_cast<uint32_t>(refined->num_vertices()));
  ASSERT_EQ(topology.triangles_size(), 3 * 4 * pants_->mesh.num_triangles());
  for (int t = 0; t < refined->num_triangles(); ++t) {
    for (int k = 0; k < 3; ++k) {
      ASSERT_EQ(topology.triangles(3 * t + k),
                static_cast<uint32_t>(refined->triangles[t][k]));
    }
  }
  EXPECT_EQ(topology.corner_uvs_size(), 0);  // the OBJ has none
  auto local = testing::NewSession(pants_->mesh);
  WrinkledMeshBuilder builder;
  WrinkledMeshFrame mesh;
  VertexFieldBuilder field_builder;
  VertexFields fields;
  FrameWrinkles wrinkles;
  int wrinkled = 0;
  for (int f = 0; f < 40; ++f) {
    ASSERT_TRUE((*session)->Send(FrameOf(*pants_, f)).ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_FALSE(result->has_error()) << result->error().message();
    const auto positions = pants_->frames.Sample(f);
    ASSERT_TRUE(local->ProcessFrame(positions).ok());
    local->tracker().ExportFrame(&wrinkles);
    builder.Compute(*refined, positions, local->topology().weld_map(), wrinkles,
                    &mesh);
    field_builder.Compute(positions, local->topology().triangles(),
                          local->topology().weld_map(),
                          local->compression_field(), local->labels(), &fields);
    EXPECT_THAT(AsVector(result->wrinkled_mesh().positions()),
                ElementsAreArray(mesh.positions));
    EXPECT_THAT(AsVector(result->wrinkled_mesh().normals()),
                ElementsAreArray(mesh.normals));
    EXPECT_THAT(AsVector(result->vertex_fields().compression()),
                ElementsAreArray(fields.compression));
    EXPECT_THAT(AsVector(result->vertex_fields().directions()),
                ElementsAreArray(fields.directions));
    EXPECT_THAT(AsVector(result->vertex_fields().label_weights()),
                ElementsAreArray(fields.label_weights));
    EXPECT_EQ(result->vertex_fields().tangent_directions_size(), 0);  // no UVs
    EXPECT_GT(result->timings().mesh_outputs_ms(), 0.0);
    wrinkled += wrinkles.num_wrinkles() > 0;
    if (HasFailure()) return;
  }
  EXPECT_GT(wrinkled, 10);
  ASSERT_TRUE((*session)->WritesDone().ok());
  EXPECT_TRUE((*session)->Finish().ok());
}

// With UVs, each vertex's direction also comes in its tangent frame. The
// sheet lies in the XZ plane, squeezed along x. With u = x and v = z the frame
// is t = +x, b = +z exactly, so the 2D direction is (d.x, d.z), unit, axial
// with x >= 0, and (1, 0) where the sheet is compressed. With the UVs turned
// by 45 degrees (u = (x + z) / sqrt 2, v = (z - x) / sqrt 2) world +x runs
// along (1, -1) / sqrt 2 in UV: the squeeze makes the map less than
// conformal, so the frame leans, but the bitangent's side shows in y < 0.
TEST_F(MeshOutputsTest, DirectionsInTheTangentFrameOfAFlatSheet) {
  for (bool turned : {false, true}) {
    SCOPED_TRACE(turned ? "UVs turned by 45 degrees" : "u = x, v = z");
    io::TriangleMesh sheet = MakeGridSheet(12, 12, 1.0f, 1.0f);
    SetSheetUvs(1.0f, 1.0f, &sheet);
    for (size_t i = 0; turned && i < sheet.corner_uvs.size(); i += 2) {
      const float u = sheet.corner_uvs[i], v = sheet.corner_uvs[i + 1];
      sheet.corner_uvs[i] = (u + v) / std::sqrt(2.0f);
      sheet.corner_uvs[i + 1] = (v - u) / std::sqrt(2.0f);
    }
    v1::Start start = client::StartForMesh(sheet);
    start.mutable_outputs()->set_vertex_fields(true);
    auto session = running_->Client()->OpenSession(start);
    ASSERT_TRUE(session.ok()) << session.status();
    std::vector<float> positions;
    int compressed = 0;
    for (int f = 0; f < 8; ++f) {
      SqueezeSheetMiddle(sheet, 0.05f * f, &positions);
      ASSERT_TRUE(
          (*session)
              ->Send(client::FrameOf(positions, static_cast<uint32_t>(f)))
              .ok());
      auto result = (*session)->Receive();
      ASSERT_TRUE(result.ok()) << result.status();
      const v1::VertexFields& fields = result->vertex_fields();
      ASSERT_EQ(fields.tangent_directions_size(), 2 * sheet.num_vertices());
      for (int v = 0; v < sheet.num_vertices(); ++v) {
        const float dx = fields.directions(3 * v),
                    dz = fields.directions(3 * v + 2);
        const float tx = fields.tangent_directions(2 * v),
                    ty = fields.tangent_directions(2 * v + 1);
        if (dx == 0.0f && dz == 0.0f) {
          EXPECT_EQ(tx, 0.0f);
          EXPECT_EQ(ty, 0.0f);
          continue;
        }
        EXPECT_NEAR(std::hypot(tx, ty), 1.0f, 1e-5f);
        EXPECT_GE(tx, 0.0f);
        if (!turned) {
          const float sign =
              dx < 0.0f || (dx == 0.0f && dz < 0.0f) ? -1.0f : 1.0f;
          const float length = std::hypot(dx, dz);
          EXPECT_NEAR(tx, sign * dx / length, 1e-5f) << "vertex " << v;
          EXPECT_NEAR(ty, sign * dz / length, 1e-5f) << "vertex " << v;
        }
        if (fields.compression(v) > 1.05f) {
          ++compressed;
          if (!turned) {
            EXPECT_GT(tx, 0.99f) << "vertex " << v;
          } else {
            EXPECT_GT(tx, 0.4f) << "vertex " << v;
            EXPECT_LT(ty, -0.4f) << "vertex " << v;
          }
        }
      }
      if (HasFailure()) return;
    }
    EXPECT_GT(compressed, 50);
    ASSERT_TRUE((*session)->WritesDone().ok());
    EXPECT_TRUE((*session)->Finish().ok());
  }
}

// Per-corner UVs come back refined, once.
TEST_F(MeshOutputsTest, CornerUvsAreRefined) {
  v1::Start start = StartFor(*pants_);
  const int triangles = pants_->mesh.num_triangles();
  std::vector<float> uvs;
  for (int i = 0; i < 6 * triangles; ++i) uvs.push_back(0.001f * (i % 997));
  start.mutable_topology()->mutable_corner_uvs()->Add(uvs.begin(), uvs.end());
  start.mutable_outputs()->mutable_wrinkled_mesh()->set_level(3);
  auto session = running_->Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  const absl::StatusOr<RefinedTopology> refined = RefineTopology(
      pants_->mesh.triangles, pants_->mesh.num_vertices(), /*level=*/3);
  ASSERT_TRUE(refined.ok());
  const v1::WrinkledMeshTopology& topology =
      (*session)->started().wrinkled_mesh();
  ASSERT_EQ(topology.corner_uvs_size(), 6 * 9 * triangles);
  EXPECT_THAT(AsVector(topology.corner_uvs()),
              ElementsAreArray(RefineCornerUvs(*refined, uvs)));
  // Corner 0 of the first refined triangle is corner 0 of the coarse one.
  EXPECT_EQ(topology.corner_uvs(0), uvs[0]);
  EXPECT_EQ(topology.corner_uvs(1), uvs[1]);
}

// A session that asks for neither gets neither, and spends no time on them.
TEST_F(MeshOutputsTest, PathsOnlySessionsGetNone) {
  auto session = running_->Client()->OpenSession(StartFor(*pants_));
  ASSERT_TRUE(session.ok()) << session.status();
  EXPECT_FALSE((*session)->started().has_wrinkled_mesh());
  for (int f = 0; f < 5; ++f) {
    ASSERT_TRUE((*session)->Send(FrameOf(*pants_, f)).ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_FALSE(result->has_wrinkled_mesh());
    EXPECT_FALSE(result->has_vertex_fields());
    EXPECT_EQ(result->timings().mesh_outputs_ms(), 0.0);
  }
  ASSERT_TRUE((*session)->WritesDone().ok());
  EXPECT_TRUE((*session)->Finish().ok());
}

TEST_F(MeshOutputsTest, BadRequestsAreRefusedNamingTheField) {
  v1::Start start = StartFor(*pants_);
  start.mutable_outputs()->mutable_wrinkled_mesh()->set_level(9);
  auto session = running_->Client()->OpenSession(start);
  ASSERT_FALSE(session.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(session.status())) << session.status();
  EXPECT_EQ(session.status().message(),
            "start.outputs.wrinkled_mesh.level: 9 is over 8");

  // A server whose messages are at most 256 KiB: level 8 of the knee (25,000
  // vertices, 600 KB a frame) does not fit, level 2 does.
  ServerOptions options = LoopbackOptions();
  options.render_threads = 0;
  options.limits.max_message_bytes = 256 << 10;
  const RunningServer small = RunningServer::Start(options);
  start.mutable_outputs()->mutable_wrinkled_mesh()->set_level(8);
  session = small.Client()->OpenSession(start);
  ASSERT_FALSE(session.ok());
  EXPECT_TRUE(absl::IsResourceExhausted(session.status())) << session.status();
  EXPECT_THAT(session.status().message(),
              HasSubstr("start.outputs.wrinkled_mesh.level: 8 gives "));
  EXPECT_THAT(session.status().message(),
              HasSubstr("over half this server's max_message_bytes (262144)"));
  start.mutable_outputs()->mutable_wrinkled_mesh()->set_level(2);
  session = small.Client()->OpenSession(start);
  EXPECT_TRUE(session.ok()) << session.status();

  // At 128 KiB even the triangles of level 8 (3 x 50,688 indices of a byte
  // or more) cannot fit in Started: refused before refining.
  options.limits.max_message_bytes = 128 << 10;
  const RunningServer smaller = RunningServer::Start(options);
  start.mutable_outputs()->mutable_wrinkled_mesh()->set_level(8);
  session = smaller.Client()->OpenSession(start);
  ASSERT_FALSE(session.ok());
  EXPECT_TRUE(absl::IsResourceExhausted(session.status())) << session.status();
  EXPECT_THAT(session.status().message(),
              HasSubstr("8 gives 50688 triangles: at least 152064 bytes in "
                        "Started, over this server's max_message_bytes "
                        "(131072)"));
}

}  // namespace
}  // namespace crease::server
