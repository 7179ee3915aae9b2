// The buckling model (Decaudin 2005) over the wire: Parameters.model chooses
// it, Started gives its mesh's topology, each frame its positions and
// normals are the library's, its images are the renderer's drawing of that
// mesh, and bad requests are refused naming the field.

#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "image/camera.h"
#include "image/image_encoding.h"
#include "renderer/frame_renderer.h"
#include "tests/server/served_pants_fixture.h"
#include "tests/server/service_fixture.h"
#include "wrinkle/buckling/buckling_mesh.h"
#include "wrinkle/core/mesh.h"

namespace crease::server {
namespace {

using ::testing::HasSubstr;

class BucklingServiceTest : public ServedPantsTest<renderer::FrameRenderer> {
 protected:
  static v1::Start BucklingStart() {
    v1::Start start = StartFor(*pants_);
    start.mutable_parameters()->set_model(v1::WRINKLE_MODEL_BUCKLING);
    start.mutable_outputs()->mutable_wrinkled_mesh()->set_level(1);
    return start;
  }
};

// The mesh every 4th frame up to the bend (sent in order; the model keeps no
// state between frames) and the images of two frames, in their own session:
// the sanitizer builds draw the fine mesh slowly on llvmpipe.
TEST_F(BucklingServiceTest, MeshAndImagesAreTheLibrarys) {
  v1::Start start = BucklingStart();
  auto session = running_->Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();

  // Started: the effective parameters and the mesh's fixed topology.
  const v1::Parameters& p = (*session)->started().parameters();
  EXPECT_EQ(p.model(), v1::WRINKLE_MODEL_BUCKLING);
  EXPECT_EQ(p.buckling().calibration_diamonds(), 4u);
  EXPECT_EQ(p.buckling().elastic_compression(), 0.05);
  EXPECT_EQ(p.buckling().smoothing_passes(), 1u);
  EXPECT_FALSE(p.buckling().has_fabric_a());
  const auto topology =
      MeshTopology::Build(pants_->mesh.triangles, pants_->mesh.positions);
  ASSERT_TRUE(topology.ok());
  auto tubes = FindTubes(*topology, pants_->mesh.positions, {});
  ASSERT_TRUE(tubes.ok()) << tubes.status();
  auto local = BucklingMesh::Create(*topology, pants_->mesh.positions,
                                    *std::move(tubes), {});
  ASSERT_TRUE(local.ok()) << local.status();
  const int coarse = pants_->mesh.num_vertices();
  const v1::WrinkledMeshTopology& mesh = (*session)->started().wrinkled_mesh();
  EXPECT_EQ(mesh.level(), 0u);
  EXPECT_EQ(mesh.vertex_count(),
            static_cast<uint32_t>(coarse + local->num_vertices()));
  // Every coarse triangle is in the tube: only the fine ones, 128 a
  // primitive, after the coarse vertices.
  ASSERT_EQ(mesh.triangles_size(), 3 * 128 * local->num_primitives());
  EXPECT_EQ(mesh.triangles(0),
            static_cast<uint32_t>(coarse + local->triangles()[0][0]));
  EXPECT_EQ(mesh.corner_uvs_size(), 2 * mesh.triangles_size());

  CombinedMesh drawn = CombinedMesh::Of(*local, pants_->mesh.triangles,
                                        topology->weld_map(), {});
  double deepest = 0;
  for (int f = 0; f < 40; f += 4) {
    ASSERT_TRUE((*session)->Send(FrameOf(*pants_, f)).ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_FALSE(result->has_error()) << result->error().message();
    const auto positions = pants_->frames.Sample(f);
    ASSERT_TRUE(local->Update(positions).ok());
    deepest = std::max(deepest, local->stats().max_diamond_depth);
    drawn.Fill(*local, positions);
    const std::vector<float>& expected = drawn.positions;
    ASSERT_EQ(result->wrinkled_mesh().positions_size(),
              static_cast<int>(expected.size()));
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(),
                           result->wrinkled_mesh().positions().begin()))
        << "frame " << f;
    ASSERT_EQ(result->wrinkled_mesh().normals_size(),
              static_cast<int>(expected.size()));
    EXPECT_TRUE(
        std::equal(local->normals().begin(), local->normals().end(),
                   result->wrinkled_mesh().normals().begin() + 3 * coarse));
    EXPECT_GT(result->timings().buckling_ms(), 0.0);
  }
  EXPECT_GT(deepest, 0.0);  // the knee bends by frame 40
  ASSERT_TRUE((*session)->WritesDone().ok());
  EXPECT_TRUE((*session)->Finish().ok());

  v1::Start images = BucklingStart();
  const image::Camera camera = AskForPngImages(&images, 160, 120);
  auto drawing = running_->Client()->OpenSession(images);
  ASSERT_TRUE(drawing.ok()) << drawing.status();
  renderer::RenderOptions options;
  options.width = 160;
  options.height = 120;
  options.camera = camera;
  for (int f : {0, 36}) {
    ASSERT_TRUE((*drawing)->Send(FrameOf(*pants_, f)).ok());
    auto result = (*drawing)->Receive();
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_FALSE(result->has_error()) << result->error().message();
    const auto positions = pants_->frames.Sample(f);
    ASSERT_TRUE(local->Update(positions).ok());
    drawn.Fill(*local, positions);
    absl::StatusOr<image::RgbaImage> want = renderer_->Render(
        {drawn.positions, drawn.triangles, drawn.welded, {}}, nullptr, options);
    ASSERT_TRUE(want.ok()) << want.status();
    absl::StatusOr<image::RgbaImage> got =
        image::DecodePng(result->image().data());
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(got->pixels, want->pixels) << "frame " << f;
  }
  ASSERT_TRUE((*drawing)->WritesDone().ok());
  EXPECT_TRUE((*drawing)->Finish().ok());
}

// Each bad request is refused at the Start, naming the field and why.
TEST_F(BucklingServiceTest, BadRequestsAreRefusedNamingTheField) {
  struct Case {
    const char* field;
    void (*change)(v1::Start*);
    absl::StatusCode code = absl::StatusCode::kInvalidArgument;
  };
  const Case cases[] = {
      {"needs start.topology.rest_positions",
       [](v1::Start* s) { s->mutable_topology()->clear_rest_positions(); }},
      {"start.parameters.buckling.elastic_compression: 0.9 is outside",
       [](v1::Start* s) {
         s->mutable_parameters()->mutable_buckling()->set_elastic_compression(
             0.9);
       }},
      {"start.parameters.buckling.calibration_diamonds: 1 is outside",
       [](v1::Start* s) {
         s->mutable_parameters()->mutable_buckling()->set_calibration_diamonds(
             1);
       }},
      {"start.parameters.buckling.fabric_a: -1 is not > 0",
       [](v1::Start* s) {
         s->mutable_parameters()->mutable_buckling()->set_fabric_a(-1);
       }},
      {"start.parameters.buckling.tubes: tube 0 is not a tube: it has 1 "
       "boundary loops",
       [](v1::Start* s) {
         auto* tube = s->mutable_parameters()->mutable_buckling()->add_tubes();
         for (uint32_t f = 0; f < 10; ++f) tube->add_triangles(f);
       }},
      {"start.parameters.buckling.tubes: tube 0 is not a tube: triangle "
       "99999 is out of range",
       [](v1::Start* s) {
         s->mutable_parameters()
             ->mutable_buckling()
             ->add_tubes()
             ->add_triangles(99999);
       }},
      {"start.parameters.buckling.tubes[0].axis_origin: 2 floats, need 3",
       [](v1::Start* s) {
         auto* tube = s->mutable_parameters()->mutable_buckling()->add_tubes();
         tube->add_triangles(0);
         tube->add_axis_origin(0);
         tube->add_axis_origin(0);
       }},
      {"start.parameters.buckling.tubes: tube 0: give its triangles or two "
       "rings",
       [](v1::Start* s) {
         auto* tube = s->mutable_parameters()->mutable_buckling()->add_tubes();
         tube->add_triangles(0);
         for (uint32_t v : {0u, 1u, 2u}) tube->add_ring_a(v);
       }},
      {"start.parameters.buckling.tubes: tube 0: ring_b: vertices 0 and 2 "
       "are consecutive but share no edge",
       [](v1::Start* s) {
         auto* tube = s->mutable_parameters()->mutable_buckling()->add_tubes();
         for (uint32_t v = 18; v < 36; ++v) tube->add_ring_a(v);
         for (uint32_t v : {0u, 2u, 4u}) tube->add_ring_b(v);
       }},
      {"start.outputs.uv_maps",
       [](v1::Start* s) {
         s->mutable_outputs()->mutable_uv_maps()->set_size(64);
       }},
      {"start.outputs.vertex_amplitudes",
       [](v1::Start* s) { s->mutable_outputs()->set_vertex_amplitudes(true); }},
      {"fine vertices, over the limit",
       [](v1::Start* s) {
         s->mutable_parameters()->mutable_buckling()->set_fabric_a(1e-4);
       },
       absl::StatusCode::kResourceExhausted},
  };
  for (const Case& c : cases) {
    v1::Start start = BucklingStart();
    c.change(&start);
    auto session = running_->Client()->OpenSession(start);
    ASSERT_FALSE(session.ok()) << c.field;
    EXPECT_EQ(session.status().code(), c.code) << session.status();
    EXPECT_THAT(session.status().message(), HasSubstr(c.field));
  }
}

}  // namespace
}  // namespace crease::server
