// The service on a loopback port: the session lifecycle, outputs, and every
// kind of bad input.

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "image/camera.h"
#include "image/image_encoding.h"
#include "tests/server/service_fixture.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/sca2015/session.h"

namespace crease::server {
namespace {

using ::testing::HasSubstr;

class ServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    running_ = new RunningServer(RunningServer::Start(LoopbackOptions()));
    pants_ = new io::Animation(testing::LoadBundled("cloth_pants_knee"));
  }
  static void TearDownTestSuite() {
    delete running_;
    delete pants_;
  }
  // The status a session ends with when opened with `start`.
  static absl::Status OpenStatus(const v1::Start& start) {
    auto session = running_->Client()->OpenSession(start);
    return session.ok() ? absl::OkStatus() : session.status();
  }
  static RunningServer* running_;
  static io::Animation* pants_;
};
RunningServer* ServiceTest::running_ = nullptr;
io::Animation* ServiceTest::pants_ = nullptr;

TEST_F(ServiceTest, ServerInfoNamesRendererLimitsAndFormats) {
  auto info = running_->Client()->GetServerInfo();
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->version(), "0.1.0");  // CMakeLists.txt's project VERSION
  EXPECT_THAT(
      info->renderer(),
      ::testing::MatchesRegex(".+ via EGL (device|surfaceless|default) platform"
                              "( \\(device [0-9]+\\))?"));
  EXPECT_EQ(info->limits().max_sessions(), 128u);
  EXPECT_EQ(info->limits().idle_timeout_seconds(), 60u);
  EXPECT_THAT(
      info->image_formats(),
      ::testing::ElementsAre(v1::IMAGE_FORMAT_JPEG, v1::IMAGE_FORMAT_PNG));
}

// Started names the server's version and a hash of the effective parameters:
// equal for two Starts that leave the same parameters in effect (one giving
// a default explicitly), different when one parameter differs.
TEST_F(ServiceTest, StartedCarriesTheVersionAndAParametersHash) {
  auto info = running_->Client()->GetServerInfo();
  ASSERT_TRUE(info.ok()) << info.status();
  auto started = [&](const v1::Start& start) -> v1::Started {
    auto session = running_->Client()->OpenSession(start);
    EXPECT_TRUE(session.ok()) << session.status();
    return session.ok() ? (*session)->started() : v1::Started();
  };
  const v1::Start plain = StartFor(*pants_);
  v1::Start explicit_default = plain;
  explicit_default.mutable_parameters()->set_fade_frames(3);  // the default
  v1::Start other = plain;
  other.mutable_parameters()->set_fade_frames(0);
  const v1::Started a = started(plain), b = started(explicit_default),
                    c = started(other);
  EXPECT_EQ(a.server_version(), info->version());
  EXPECT_THAT(a.parameters_hash(), ::testing::MatchesRegex("[0-9a-f]{16}"));
  EXPECT_EQ(a.parameters_hash(), b.parameters_hash());
  EXPECT_NE(a.parameters_hash(), c.parameters_hash());
  EXPECT_NE(a.session_id(), b.session_id());
}

// Paths, labels and tensors equal what the same Session computes in-process.
TEST_F(ServiceTest, FramesComeBackInOrderWithTheSessionsResults) {
  v1::Start start = StartFor(*pants_);
  start.mutable_outputs()->set_labels(true);
  start.mutable_outputs()->set_tensors(true);
  auto session = running_->Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  EXPECT_FALSE((*session)->started().session_id().empty());
  EXPECT_DOUBLE_EQ((*session)->started().parameters().seed_compression(), 1.3);
  EXPECT_EQ((*session)->started().parameters().fade_frames(), 3u);
  auto local = testing::NewSession(pants_->mesh);
  const int n = static_cast<int>(pants_->mesh.triangles.size());
  for (int f = 0; f < 40; ++f) {
    ASSERT_TRUE((*session)->Send(FrameOf(*pants_, f)).ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_FALSE(result->has_error()) << result->error().message();
    ASSERT_TRUE(local->ProcessFrame(pants_->frames.Sample(f)).ok());
    EXPECT_EQ(result->index(), static_cast<uint32_t>(f));
    ASSERT_EQ(result->wrinkles_size(),
              static_cast<int>(local->tracker().wrinkles().size()));
    for (int w = 0; w < result->wrinkles_size(); ++w) {
      EXPECT_EQ(result->wrinkles(w).id(), local->tracker().wrinkles()[w].id);
      EXPECT_EQ(
          result->wrinkles(w).points_size(),
          3 * static_cast<int>(local->tracker().shapes()[w].refined.size()));
    }
    ASSERT_EQ(result->labels().size(), static_cast<size_t>(n));
    for (int t = 0; t < n; ++t) {
      // TRIANGLE_LABEL_COMPRESS / REST / STRETCH are 1 / 2 / 3.
      EXPECT_EQ(result->labels()[t], 1 + static_cast<int>(local->labels()[t]));
    }
    ASSERT_EQ(result->tensors_size(), 8 * n);
    EXPECT_FLOAT_EQ(
        result->tensors(1),
        static_cast<float>(local->compression_field()[0].lambda_min));
    EXPECT_GE(result->timings().labeling_ms(), 0.0);
  }
  ASSERT_TRUE((*session)->WritesDone().ok());
  EXPECT_TRUE(absl::IsOutOfRange((*session)->Receive().status()));
  EXPECT_TRUE((*session)->Finish().ok());
}

// frame_rate reaches the Session: at 60 fps the paths equal an in-process
// session's at 60 fps and differ from 30 fps's rules; Started echoes the
// rate and the default fade, a tenth of a second in frames, or the client's
// own count of frames.
TEST_F(ServiceTest, FrameRateReachesTheSession) {
  v1::Start start = StartFor(*pants_);
  start.mutable_parameters()->set_frame_rate(60);
  auto session = running_->Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  EXPECT_EQ((*session)->started().parameters().frame_rate(), 60.0);
  EXPECT_EQ((*session)->started().parameters().fade_frames(), 6u);
  SessionParams at60;
  at60.frame_rate = 60;
  auto local = testing::NewSession(pants_->mesh, at60);
  auto at30 = testing::NewSession(pants_->mesh);
  int differ = 0;
  for (int f = 0; f < 60; ++f) {
    ASSERT_TRUE((*session)->Send(FrameOf(*pants_, f)).ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok() && !result->has_error());
    ASSERT_TRUE(local->ProcessFrame(pants_->frames.Sample(f)).ok());
    ASSERT_TRUE(at30->ProcessFrame(pants_->frames.Sample(f)).ok());
    ASSERT_EQ(result->wrinkles_size(),
              static_cast<int>(local->tracker().wrinkles().size()));
    for (int w = 0; w < result->wrinkles_size(); ++w) {
      EXPECT_EQ(result->wrinkles(w).id(), local->tracker().wrinkles()[w].id);
    }
    differ +=
        local->tracker().wrinkles().size() != at30->tracker().wrinkles().size();
  }
  EXPECT_GT(differ, 0);
  ASSERT_TRUE((*session)->WritesDone().ok());
  EXPECT_TRUE(absl::IsOutOfRange((*session)->Receive().status()));
  EXPECT_TRUE((*session)->Finish().ok());

  start.mutable_parameters()->set_fade_frames(4);
  auto own_fade = running_->Client()->OpenSession(start);
  ASSERT_TRUE(own_fade.ok()) << own_fade.status();
  EXPECT_EQ((*own_fade)->started().parameters().fade_frames(), 4u);
  EXPECT_EQ((*own_fade)->started().parameters().frame_rate(), 60.0);
  start.mutable_parameters()->clear_frame_rate();
  start.mutable_parameters()->clear_fade_frames();
  auto plain = running_->Client()->OpenSession(start);
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ((*plain)->started().parameters().frame_rate(), 30.0);
}

// fade_frames 0 (the papers' popping wrinkles) reaches the Session: heights
// equal an in-process session with fading off, and differ from the default.
TEST_F(ServiceTest, FadeFramesZeroTurnsFadingOff) {
  v1::Start start = StartFor(*pants_);
  start.mutable_parameters()->set_fade_frames(0);
  auto session = running_->Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  EXPECT_TRUE((*session)->started().parameters().has_fade_frames());
  EXPECT_EQ((*session)->started().parameters().fade_frames(), 0u);
  SessionParams no_fade;
  no_fade.wrinkles.fade_frames = 0;
  auto local = testing::NewSession(pants_->mesh, no_fade);
  auto fading = testing::NewSession(pants_->mesh);
  int differ = 0;
  for (int f = 0; f < 40; ++f) {
    ASSERT_TRUE((*session)->Send(FrameOf(*pants_, f)).ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok() && !result->has_error());
    ASSERT_TRUE(local->ProcessFrame(pants_->frames.Sample(f)).ok());
    ASSERT_TRUE(fading->ProcessFrame(pants_->frames.Sample(f)).ok());
    ASSERT_EQ(result->wrinkles_size(),
              static_cast<int>(local->tracker().shapes().size()));
    for (int w = 0; w < result->wrinkles_size(); ++w) {
      const auto& refined = local->tracker().shapes()[w].refined;
      ASSERT_EQ(result->wrinkles(w).heights_size(),
                static_cast<int>(refined.size()));
      for (size_t i = 0; i < refined.size(); ++i) {
        EXPECT_EQ(result->wrinkles(w).heights(static_cast<int>(i)),
                  static_cast<float>(refined[i].height));
      }
    }
    // Fading scales newborns' heights (and keeps dying ones longer).
    double local_height = 0, fading_height = 0;
    for (const auto& shape : local->tracker().shapes())
      local_height += shape.mid_height;
    for (const auto& shape : fading->tracker().shapes())
      fading_height += shape.mid_height;
    differ += local->tracker().wrinkles().size() !=
                  fading->tracker().wrinkles().size() ||
              local_height != fading_height;
  }
  EXPECT_GT(differ, 0);
  ASSERT_TRUE((*session)->WritesDone().ok());
  EXPECT_TRUE((*session)->Finish().ok());
}

TEST_F(ServiceTest, ImagesDecodeAtTheAskedSize) {
  v1::Start start = StartFor(*pants_);
  start.mutable_outputs()->mutable_image()->set_format(v1::IMAGE_FORMAT_PNG);
  start.mutable_outputs()->mutable_image()->set_width(96);
  start.mutable_outputs()->mutable_image()->set_height(64);
  auto session = running_->Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  ASSERT_TRUE((*session)->Send(FrameOf(*pants_, 0)).ok());
  auto result = (*session)->Receive();
  ASSERT_TRUE(result.ok() && !result->has_error());
  ASSERT_TRUE(result->has_image());
  auto image = image::DecodePng(result->image().data());
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->width, 96);
  EXPECT_EQ(image->height, 64);
  EXPECT_GT(result->timings().render_ms(), 0.0);
  // Some pixels are the mesh, not the white background.
  int covered = 0;
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 96; ++x) covered += image->At(x, y)[0] != 255;
  }
  EXPECT_GT(covered, 200);
}

// With no camera given, the server frames the first frame and keeps that view:
// a frame whose bounds grow a little (one vertex pulled out by 5 % of the
// bounding radius) changes only the pixels near that vertex. Framing each
// frame anew would zoom out and move the whole silhouette.
TEST_F(ServiceTest, ImagesKeepTheFirstFramingWhenNoCameraIsGiven) {
  v1::Start start = StartFor(*pants_);
  v1::ImageRequest* request = start.mutable_outputs()->mutable_image();
  request->set_format(v1::IMAGE_FORMAT_PNG);
  request->set_width(160);
  request->set_height(120);
  request->set_plain(true);  // no wrinkles: only the framing can move pixels
  auto session = running_->Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  const absl::Span<const float> first = pants_->frames.Sample(0);
  // The vertex with the largest x, pulled further out along x.
  int far = 0;
  for (int v = 0; v < pants_->mesh.num_vertices(); ++v) {
    if (first[3 * v] > first[3 * far]) far = v;
  }
  const image::BoundingSphere bounds = image::BoundsOf(first);
  std::vector<float> grown(first.begin(), first.end());
  grown[3 * far] += 0.05f * bounds.radius;
  std::vector<image::RgbaImage> images;
  for (int f = 0; f < 2; ++f) {
    ASSERT_TRUE((*session)
                    ->Send(client::FrameOf(f == 0 ? first : grown,
                                           static_cast<uint32_t>(f)))
                    .ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok() && !result->has_error() && result->has_image());
    auto image = image::DecodePng(result->image().data());
    ASSERT_TRUE(image.ok()) << image.status();
    images.push_back(*std::move(image));
  }
  int covered = 0, changed = 0;
  for (int y = 0; y < 120; ++y) {
    for (int x = 0; x < 160; ++x) {
      covered += images[0].At(x, y)[0] != 255;
      changed += images[0].At(x, y) != images[1].At(x, y);
    }
  }
  EXPECT_GT(covered, 1000);
  EXPECT_LT(changed, covered / 20) << changed << " of " << covered;
}

// `start` with a UV per triangle corner: its rest position's x and y (the
// mesh has none of its own; any finite values are valid).
void AddPlanarUvs(v1::Start* start) {
  v1::Topology* topology = start->mutable_topology();
  topology->clear_corner_uvs();
  for (uint32_t v : topology->triangles()) {
    topology->add_corner_uvs(topology->rest_positions(3 * v));
    topology->add_corner_uvs(topology->rest_positions(3 * v + 1));
  }
}

TEST_F(ServiceTest, MalformedStartsEndTheStreamNamingTheField) {
  struct Case {
    const char* field;
    std::function<void(v1::Start*)> breaks;
  };
  const Case cases[] = {
      {"start.topology: missing", [](v1::Start* s) { s->clear_topology(); }},
      {"start.topology.triangles",
       [](v1::Start* s) { s->mutable_topology()->add_triangles(0); }},
      {"start.topology.triangles: triangle 0 uses vertex",
       [](v1::Start* s) { s->mutable_topology()->set_triangles(0, 1u << 30); }},
      {"start.topology.vertex_count",
       [](v1::Start* s) { s->mutable_topology()->set_vertex_count(2); }},
      {"start.topology.rest_positions",
       [](v1::Start* s) { s->mutable_topology()->add_rest_positions(1); }},
      // The pants have 792 triangles: 2376 corners, 4752 floats of UVs.
      {"start.topology.corner_uvs: 1 floats, need 2 x 2376 triangle corners "
       "= 4752 (u v per corner) or none",
       [](v1::Start* s) { s->mutable_topology()->add_corner_uvs(0.5f); }},
      {"start.topology.corner_uvs: 4753 floats, need 2 x 2376",
       [](v1::Start* s) {
         AddPlanarUvs(s);
         s->mutable_topology()->add_corner_uvs(0.5f);
       }},
      {"start.topology.corner_uvs: triangle 5 corner 2 is not finite",
       [](v1::Start* s) {
         AddPlanarUvs(s);
         s->mutable_topology()->set_corner_uvs(
             6 * 5 + 2 * 2 + 1, std::numeric_limits<float>::infinity());
         s->mutable_topology()->set_corner_uvs(
             6 * 7, std::numeric_limits<float>::quiet_NaN());
       }},
      {"start.parameters.seed_compression",
       [](v1::Start* s) {
         s->mutable_parameters()->set_seed_compression(0.5);
       }},
      {"start.parameters.fade_frames: 61 is over 60",
       [](v1::Start* s) { s->mutable_parameters()->set_fade_frames(61); }},
      {"start.parameters.frame_rate: 1001 is outside [1, 1000]",
       [](v1::Start* s) { s->mutable_parameters()->set_frame_rate(1001); }},
      {"start.parameters.frame_rate: -30 is outside [1, 1000]",
       [](v1::Start* s) { s->mutable_parameters()->set_frame_rate(-30); }},
      {"start.parameters.frame_rate: nan is outside [1, 1000]",
       [](v1::Start* s) {
         s->mutable_parameters()->set_frame_rate(
             std::numeric_limits<double>::quiet_NaN());
       }},
      {"start.outputs.image.camera",
       [](v1::Start* s) {
         s->mutable_outputs()->mutable_image()->mutable_camera()->mutable_eye();
       }},
      {"start.outputs.image.jpeg_quality",
       [](v1::Start* s) {
         s->mutable_outputs()->mutable_image()->set_jpeg_quality(101);
       }},
  };
  for (const Case& c : cases) {
    v1::Start start = StartFor(*pants_);
    c.breaks(&start);
    const absl::Status status = OpenStatus(start);
    EXPECT_TRUE(absl::IsInvalidArgument(status)) << c.field << ": " << status;
    EXPECT_THAT(std::string(status.message()), HasSubstr(c.field));
  }
  // A mesh over the limits, or an image larger than allowed.
  v1::Start big = StartFor(*pants_);
  big.mutable_topology()->set_vertex_count(1'000'000);
  EXPECT_TRUE(absl::IsResourceExhausted(OpenStatus(big)));
  v1::Start huge_image = StartFor(*pants_);
  huge_image.mutable_outputs()->mutable_image()->set_width(5000);
  EXPECT_TRUE(absl::IsResourceExhausted(OpenStatus(huge_image)));
}

// UVs are kept for the UV-space outputs and change nothing else: a session
// started with them answers every frame exactly as one started without them
// (an old client's Start), image included.
TEST_F(ServiceTest, CornerUvsChangeNoResult) {
  v1::Start plain = StartFor(*pants_);
  plain.mutable_outputs()->set_labels(true);
  plain.mutable_outputs()->set_tensors(true);
  v1::ImageRequest* image = plain.mutable_outputs()->mutable_image();
  image->set_format(v1::IMAGE_FORMAT_PNG);
  image->set_width(80);
  image->set_height(60);
  v1::Start with_uvs = plain;
  AddPlanarUvs(&with_uvs);
  ASSERT_EQ(with_uvs.topology().corner_uvs_size(), 2 * 2376);
  auto session_plain = running_->Client()->OpenSession(plain);
  auto session_uvs = running_->Client()->OpenSession(with_uvs);
  ASSERT_TRUE(session_plain.ok()) << session_plain.status();
  ASSERT_TRUE(session_uvs.ok()) << session_uvs.status();
  EXPECT_EQ((*session_uvs)->started().parameters().SerializeAsString(),
            (*session_plain)->started().parameters().SerializeAsString());
  int wrinkles = 0;
  for (int f = 0; f < 30; ++f) {
    ASSERT_TRUE((*session_plain)->Send(FrameOf(*pants_, f)).ok());
    ASSERT_TRUE((*session_uvs)->Send(FrameOf(*pants_, f)).ok());
    auto expected = (*session_plain)->Receive();
    auto result = (*session_uvs)->Receive();
    ASSERT_TRUE(expected.ok() && result.ok());
    ASSERT_FALSE(result->has_error()) << result->error().message();
    ASSERT_TRUE(result->has_image());
    wrinkles += result->wrinkles_size();
    // Everything but the timings, byte for byte.
    expected->clear_timings();
    result->clear_timings();
    EXPECT_EQ(result->SerializeAsString(), expected->SerializeAsString())
        << "frame " << f;
  }
  EXPECT_GT(wrinkles, 0);  // there were paths to compare
  EXPECT_TRUE((*session_plain)->Finish().ok());
  EXPECT_TRUE((*session_uvs)->Finish().ok());
}

TEST_F(ServiceTest, AFrameFirstOrASecondStartIsRejected) {
  auto client = running_->Client();
  grpc::ClientContext context;
  auto stub = v1::Crease::NewStub(grpc::CreateChannel(
      running_->target, grpc::InsecureChannelCredentials()));
  auto stream = stub->Session(&context);
  v1::SessionRequest request;
  *request.mutable_frame() = FrameOf(*pants_, 0);
  ASSERT_TRUE(stream->Write(request));
  v1::SessionResponse response;
  EXPECT_FALSE(stream->Read(&response));
  const grpc::Status status = stream->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              HasSubstr("first message must be a start"));

  grpc::ClientContext context2;
  auto stream2 = stub->Session(&context2);
  *request.mutable_start() = StartFor(*pants_);
  ASSERT_TRUE(stream2->Write(request));
  ASSERT_TRUE(stream2->Read(&response));
  ASSERT_TRUE(stream2->Write(request));
  EXPECT_FALSE(stream2->Read(&response));
  EXPECT_THAT(stream2->Finish().error_message(), HasSubstr("sent twice"));
}

// Bad frames get an error result; the session is as before and goes on: the
// frames after them match a session that never saw them.
TEST_F(ServiceTest, BadFramesGetErrorsAndChangeNothing) {
  auto session = running_->Client()->OpenSession(StartFor(*pants_));
  ASSERT_TRUE(session.ok()) << session.status();
  auto local = testing::NewSession(pants_->mesh);
  auto expect_error = [&](const v1::Frame& frame, const char* what) {
    ASSERT_TRUE((*session)->Send(frame).ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_TRUE(result->has_error()) << what;
    EXPECT_EQ(result->error().code(),
              static_cast<int>(absl::StatusCode::kInvalidArgument));
    EXPECT_THAT(result->error().message(), HasSubstr(what));
    EXPECT_EQ(result->wrinkles_size(), 0);
  };
  auto expect_good = [&](int f) {
    ASSERT_TRUE((*session)->Send(FrameOf(*pants_, f)).ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok() && !result->has_error());
    ASSERT_TRUE(local->ProcessFrame(pants_->frames.Sample(f)).ok());
    ASSERT_EQ(result->wrinkles_size(),
              static_cast<int>(local->tracker().wrinkles().size()));
    for (int w = 0; w < result->wrinkles_size(); ++w) {
      const auto& refined = local->tracker().shapes()[w].refined;
      ASSERT_EQ(result->wrinkles(w).points_size(),
                3 * static_cast<int>(refined.size()));
      for (size_t i = 0; i < refined.size(); ++i) {
        ASSERT_EQ(result->wrinkles(w).points(3 * i),
                  static_cast<float>(refined[i].position.x()));
      }
    }
  };
  for (int f = 0; f < 30; ++f) {
    expect_good(f);
    if (f == 10) {
      v1::Frame short_frame = FrameOf(*pants_, 11);
      short_frame.mutable_positions()->RemoveLast();
      expect_error(short_frame, "frame.positions");
      v1::Frame nan_frame = FrameOf(*pants_, 11);
      nan_frame.set_positions(7, std::numeric_limits<float>::quiet_NaN());
      expect_error(nan_frame, "vertex 2 is not finite");
      expect_error(FrameOf(*pants_, 10), "not after the last frame, 10");
      v1::Frame bad_camera = FrameOf(*pants_, 11);
      bad_camera.mutable_camera()->mutable_eye();
      expect_error(bad_camera, "frame.camera");
      // Finite, but eye - target overflows.
      v1::Frame huge_camera = FrameOf(*pants_, 11);
      huge_camera.mutable_camera()->mutable_eye()->set_x(3e38f);
      huge_camera.mutable_camera()->mutable_target()->set_x(-3e38f);
      expect_error(huge_camera, "the view overflows");
      // The largest index would leave no index for a later frame.
      v1::Frame last_index = FrameOf(*pants_, 11);
      last_index.set_index(std::numeric_limits<uint32_t>::max());
      expect_error(last_index, "is reserved");
    }
  }
  EXPECT_TRUE((*session)->Finish().ok());
}

TEST_F(ServiceTest, ImagesNeedARenderingServer) {
  ServerOptions options = LoopbackOptions();
  options.render_threads = 0;
  RunningServer no_gpu = RunningServer::Start(options);
  v1::Start start = StartFor(*pants_);
  start.mutable_outputs()->mutable_image();
  auto session = no_gpu.Client()->OpenSession(start);
  EXPECT_TRUE(absl::IsFailedPrecondition(session.status())) << session.status();
  auto info = no_gpu.Client()->GetServerInfo();
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->renderer().empty());
  EXPECT_EQ(info->image_formats_size(), 0);
}

TEST_F(ServiceTest, MetricsCountFramesAndStages) {
  auto session = running_->Client()->OpenSession(StartFor(*pants_));
  ASSERT_TRUE(session.ok());
  for (int f = 0; f < 3; ++f) {
    ASSERT_TRUE((*session)->Send(FrameOf(*pants_, f)).ok());
    ASSERT_TRUE((*session)->Receive().ok());
  }
  ASSERT_TRUE((*session)->Finish().ok());
  const std::string text = running_->server->metrics().Scrape();
  EXPECT_THAT(text, HasSubstr("crease_frames_total"));
  EXPECT_THAT(text,
              HasSubstr("crease_stage_seconds_bucket{stage=\"labeling\""));
  EXPECT_THAT(text, HasSubstr("crease_sessions_active"));
}

}  // namespace
}  // namespace crease::server
