// The UV-space maps over the wire: drawn on the server's render threads
// exactly as the renderer library draws them in process, opt-in, raw or PNG,
// and refused without UVs or over the limits.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "image/image_encoding.h"
#include "renderer/uv_map_renderer.h"
#include "tests/server/served_pants_fixture.h"
#include "tests/server/service_fixture.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/sca2015/session.h"

namespace crease::server {
namespace {

using ::testing::HasSubstr;

using UvMapsServiceTest = ServedPantsTest<renderer::UvMapRenderer>;

// 40 frames of the knee with 96² PNG maps: each frame's maps decode to the
// same bytes as the library draws in process for the same session.
TEST_F(UvMapsServiceTest, MapsAreTheLibrarys) {
  v1::Start start = StartFor(*pants_);
  ASSERT_EQ(start.topology().corner_uvs_size(),
            6 * pants_->mesh.num_triangles());
  start.mutable_outputs()->mutable_uv_maps()->set_size(96);
  auto session = running_->Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  auto local = testing::NewSession(pants_->mesh);
  FrameWrinkles wrinkles;
  renderer::UvMapOptions options;
  options.size = 96;
  renderer::UvMaps maps;
  int with_relief = 0;
  for (int f = 0; f < 40; ++f) {
    ASSERT_TRUE((*session)->Send(FrameOf(*pants_, f)).ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_FALSE(result->has_error()) << result->error().message();
    ASSERT_TRUE(result->has_uv_maps());
    const v1::UvMaps& sent = result->uv_maps();
    EXPECT_EQ(sent.size(), 96u);
    EXPECT_EQ(sent.encoding(), v1::UV_MAP_ENCODING_PNG);
    const auto positions = pants_->frames.Sample(f);
    ASSERT_TRUE(local->ProcessFrame(positions).ok());
    local->tracker().ExportFrame(&wrinkles);
    const renderer::RenderMesh mesh = {positions, local->topology().triangles(),
                                       local->topology().weld_map(),
                                       pants_->mesh.corner_uvs};
    ASSERT_TRUE(renderer_->Render(mesh, &wrinkles, options, &maps).ok());
    const auto normal = image::DecodePng(sent.normal_map());
    ASSERT_TRUE(normal.ok()) << normal.status();
    EXPECT_EQ(normal->pixels, maps.normal.pixels) << "frame " << f;
    int width = 0, height = 0;
    const auto heights =
        image::DecodePngGray16(sent.height_map(), &width, &height);
    ASSERT_TRUE(heights.ok()) << heights.status();
    EXPECT_EQ(*heights, maps.height) << "frame " << f;
    EXPECT_FLOAT_EQ(sent.height_range(), maps.height_range);
    with_relief += *std::max_element(heights->begin(), heights->end()) > 0;
    EXPECT_GT(result->timings().uv_maps_ms(), 0.0);
    EXPECT_FALSE(result->has_image());  // only what was asked for
    if (HasFailure()) return;
  }
  EXPECT_GT(with_relief, 10);
  ASSERT_TRUE((*session)->WritesDone().ok());
  EXPECT_TRUE((*session)->Finish().ok());
}

// Raw maps are the rows themselves; an image and maps come together.
TEST_F(UvMapsServiceTest, RawMapsAndAnImageTogether) {
  v1::Start start = StartFor(*pants_);
  v1::UvMapRequest* request = start.mutable_outputs()->mutable_uv_maps();
  request->set_size(40);
  request->set_encoding(v1::UV_MAP_ENCODING_RAW);
  request->set_height_range(0.05f);
  start.mutable_outputs()->mutable_image()->set_width(64);
  start.mutable_outputs()->mutable_image()->set_height(48);
  auto session = running_->Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  ASSERT_TRUE((*session)->Send(FrameOf(*pants_, 0)).ok());
  auto result = (*session)->Receive();
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_FALSE(result->has_error()) << result->error().message();
  EXPECT_EQ(result->uv_maps().encoding(), v1::UV_MAP_ENCODING_RAW);
  EXPECT_EQ(result->uv_maps().normal_map().size(), 40u * 40 * 4);
  EXPECT_EQ(result->uv_maps().height_map().size(), 40u * 40 * 2);
  EXPECT_FLOAT_EQ(result->uv_maps().height_range(), 0.05f);
  EXPECT_FALSE(result->image().data().empty());
  ASSERT_TRUE((*session)->WritesDone().ok());
  EXPECT_TRUE((*session)->Finish().ok());
}

TEST_F(UvMapsServiceTest, PathsOnlySessionsGetNoMaps) {
  auto session = running_->Client()->OpenSession(StartFor(*pants_));
  ASSERT_TRUE(session.ok()) << session.status();
  ASSERT_TRUE((*session)->Send(FrameOf(*pants_, 0)).ok());
  auto result = (*session)->Receive();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_FALSE(result->has_uv_maps());
  EXPECT_EQ(result->timings().uv_maps_ms(), 0.0);
}

TEST_F(UvMapsServiceTest, BadRequestsAreRefusedNamingTheField) {
  auto open = [&](const v1::Start& start) {
    auto session = running_->Client()->OpenSession(start);
    return session.ok() ? absl::OkStatus() : session.status();
  };
  v1::Start no_uvs = StartFor(*pants_);
  no_uvs.mutable_topology()->clear_corner_uvs();
  no_uvs.mutable_outputs()->mutable_uv_maps()->set_size(64);
  absl::Status status = open(no_uvs);
  EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(status.message(), HasSubstr("start.outputs.uv_maps: needs"));
  v1::Start huge = StartFor(*pants_);
  huge.mutable_outputs()->mutable_uv_maps()->set_size(8192);
  status = open(huge);
  EXPECT_TRUE(absl::IsResourceExhausted(status)) << status;
  EXPECT_THAT(status.message(), HasSubstr("start.outputs.uv_maps: 8192"));
  v1::Start bad_range = StartFor(*pants_);
  bad_range.mutable_outputs()->mutable_uv_maps()->set_size(64);
  bad_range.mutable_outputs()->mutable_uv_maps()->set_height_range(-1);
  status = open(bad_range);
  EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(status.message(), HasSubstr("height_range"));
}

}  // namespace
}  // namespace crease::server
