// The wrinkle-map model (Volino 1999) over the wire: Parameters.model
// chooses it, its amplitudes are the library's, its images are the
// renderer's RenderPattern of them, and bad requests are refused naming the
// field.

#include <sys/resource.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "image/camera.h"
#include "image/image_encoding.h"
#include "renderer/frame_renderer.h"
#include "renderer/gpu_context.h"
#include "server/models/wrinkle_map_model.h"
#include "tests/server/served_pants_fixture.h"
#include "tests/server/service_fixture.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/png_bomb.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/wrinkle_maps/amplitude_model.h"
#include "wrinkle/wrinkle_maps/default_pattern.h"
#include "wrinkle/wrinkle_maps/wrinkle_pattern.h"

namespace crease::server {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

class AmplitudeMapsServiceTest
    : public ServedPantsTest<renderer::FrameRenderer> {
 protected:
  static v1::Start MapsStart() {
    v1::Start start = StartFor(*pants_);
    start.mutable_parameters()->set_model(v1::WRINKLE_MODEL_AMPLITUDE_MAPS);
    start.mutable_outputs()->set_vertex_amplitudes(true);
    return start;
  }
  // Streams `frames` frames with images and holds them to the library.
  void CheckAgainstLibrary(bool displace, int frames);
};

// Started echoes the effective parameters: the model, the paper's defaults,
// the rest lengths resolved (the Start has rest positions) and the default
// pattern's wavelength (chosen from those rest positions) and channels.
TEST_F(AmplitudeMapsServiceTest, StartedEchoesTheEffectiveParameters) {
  auto session = running_->Client()->OpenSession(MapsStart());
  ASSERT_TRUE(session.ok()) << session.status();
  const v1::Parameters& p = (*session)->started().parameters();
  EXPECT_EQ(p.model(), v1::WRINKLE_MODEL_AMPLITUDE_MAPS);
  const v1::AmplitudeMapParameters& a = p.amplitude_maps();
  EXPECT_EQ(a.shrink_threshold(), 1.0);
  EXPECT_EQ(a.sensitivity_alpha(), 1.0);
  EXPECT_EQ(a.scale(), 1.0);
  EXPECT_EQ(a.max_slope(), 1.0);
  EXPECT_EQ(a.rest_lengths(), v1::AMPLITUDE_REST_LENGTHS_REST_POSITIONS);
  absl::StatusOr<double> wavelength = DefaultPatternWavelength(
      pants_->mesh.triangles, pants_->mesh.positions, pants_->mesh.corner_uvs);
  ASSERT_TRUE(wavelength.ok()) << wavelength.status();
  EXPECT_EQ(a.wavelength(), *wavelength);
  EXPECT_EQ(a.pattern_channels(), 3u);
  EXPECT_FALSE(a.keep_negative());
  EXPECT_FALSE(a.displace());
  EXPECT_FALSE(a.literal_sensitivity());
  EXPECT_FALSE(a.crest_count_sensitivity());  // directional channels
  EXPECT_EQ(a.directional_sharpness(), 4.0);
  EXPECT_EQ(a.channel_selectivity(), 4.0);
  EXPECT_EQ(a.direction_fit_rings(), 1u);
  // An SCA 2015 session says so too.
  auto sca = running_->Client()->OpenSession(StartFor(*pants_));
  ASSERT_TRUE(sca.ok()) << sca.status();
  EXPECT_EQ((*sca)->started().parameters().model(), v1::WRINKLE_MODEL_SCA2015);
  EXPECT_FALSE((*sca)->started().parameters().has_amplitude_maps());
}

// Without rest positions the first frame chooses the default pattern's
// wavelength: Started leaves it unset, every frame's vertex_amplitudes names
// it, and the amplitudes are the library's on that pattern.
TEST_F(AmplitudeMapsServiceTest,
       WithoutRestPositionsTheFirstFrameSetsTheScale) {
  v1::Start start = MapsStart();
  start.mutable_topology()->clear_rest_positions();
  auto session = running_->Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  EXPECT_FALSE(
      (*session)->started().parameters().amplitude_maps().has_wavelength());
  const auto first = pants_->frames.Sample(0);
  absl::StatusOr<double> wavelength = DefaultPatternWavelength(
      pants_->mesh.triangles, first, pants_->mesh.corner_uvs);
  ASSERT_TRUE(wavelength.ok()) << wavelength.status();
  absl::StatusOr<WrinklePattern> pattern = MakeDefaultPattern(*wavelength);
  ASSERT_TRUE(pattern.ok());
  auto local = testing::NewSession(pants_->mesh);
  // No rest pose: the native lengths come from the adaptive references.
  AmplitudeModelParams params;
  params.rest_lengths = RestLengthSource::kAdaptiveReferences;
  absl::StatusOr<AmplitudeModel> model = AmplitudeModel::Create(
      local->topology(), pants_->mesh.corner_uvs, *pattern, first, params);
  ASSERT_TRUE(model.ok()) << model.status();
  for (int f = 0; f < 5; ++f) {
    ASSERT_TRUE((*session)->Send(FrameOf(*pants_, f)).ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_FALSE(result->has_error()) << result->error().message();
    ASSERT_TRUE(local->ProcessFrame(pants_->frames.Sample(f)).ok());
    ASSERT_TRUE(
        model->Update(pants_->frames.Sample(f), local->references()).ok());
    EXPECT_EQ(result->vertex_amplitudes().wavelength(), *wavelength);
    EXPECT_THAT(
        std::vector<float>(result->vertex_amplitudes().amplitudes().begin(),
                           result->vertex_amplitudes().amplitudes().end()),
        ElementsAreArray(model->vertex_amplitudes()))
        << "frame " << f;
  }
  ASSERT_TRUE((*session)->WritesDone().ok());
  EXPECT_TRUE((*session)->Finish().ok());
}

// 30 frames of the knee (10 displaced): every frame's amplitudes are those
// of the library's model on an in-process session, bit for bit, and its
// image is the renderer's RenderPattern of them (same camera), byte for
// byte, bump-mapped and displaced.
TEST_F(AmplitudeMapsServiceTest, AmplitudesAndImagesAreTheLibrarys) {
  for (bool displace : {false, true}) {
    SCOPED_TRACE(displace ? "displaced" : "bump-mapped");
    CheckAgainstLibrary(displace, displace ? 10 : 30);
    if (HasFatalFailure()) return;
  }
}

void AmplitudeMapsServiceTest::CheckAgainstLibrary(bool displace, int frames) {
  v1::Start start = MapsStart();
  start.mutable_parameters()->mutable_amplitude_maps()->set_displace(displace);
  const image::Camera camera = AskForPngImages(&start, 160, 120);
  auto session = running_->Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();

  auto local = testing::NewSession(pants_->mesh);
  absl::StatusOr<double> wavelength = DefaultPatternWavelength(
      pants_->mesh.triangles, pants_->mesh.positions, pants_->mesh.corner_uvs);
  ASSERT_TRUE(wavelength.ok()) << wavelength.status();
  absl::StatusOr<WrinklePattern> pattern = MakeDefaultPattern(*wavelength);
  ASSERT_TRUE(pattern.ok());
  absl::StatusOr<AmplitudeModel> model =
      AmplitudeModel::Create(local->topology(), pants_->mesh.corner_uvs,
                             *pattern, pants_->mesh.positions);
  ASSERT_TRUE(model.ok()) << model.status();
  renderer::RenderOptions options;
  options.width = 160;
  options.height = 120;
  options.camera = camera;
  float largest = 0;
  for (int f = 0; f < frames; ++f) {
    ASSERT_TRUE((*session)->Send(FrameOf(*pants_, f)).ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_FALSE(result->has_error()) << result->error().message();
    const auto positions = pants_->frames.Sample(f);
    ASSERT_TRUE(local->ProcessFrame(positions).ok());
    ASSERT_TRUE(model->Update(positions, local->references()).ok());
    const v1::VertexAmplitudes& amplitudes = result->vertex_amplitudes();
    EXPECT_EQ(amplitudes.channels(), 3u);
    EXPECT_EQ(amplitudes.wavelength(), *wavelength);
    EXPECT_THAT(std::vector<float>(amplitudes.amplitudes().begin(),
                                   amplitudes.amplitudes().end()),
                ElementsAreArray(model->vertex_amplitudes()));
    for (float a : model->vertex_amplitudes()) largest = std::max(largest, a);
    EXPECT_GT(result->timings().amplitude_maps_ms(), 0.0);
    const renderer::RenderMesh mesh = {positions, pants_->mesh.triangles,
                                       local->topology().weld_map(),
                                       pants_->mesh.corner_uvs};
    renderer::PatternWrinkles wrinkles;
    wrinkles.pattern = {pattern->width, pattern->height, pattern->channels,
                        pattern->samples, true};
    wrinkles.amplitudes = model->vertex_amplitudes();
    wrinkles.displace = displace;
    absl::StatusOr<image::RgbaImage> expected =
        renderer_->RenderPattern(mesh, wrinkles, options);
    ASSERT_TRUE(expected.ok()) << expected.status();
    absl::StatusOr<image::RgbaImage> got =
        image::DecodePng(result->image().data());
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(got->pixels, expected->pixels) << "frame " << f;
  }
  EXPECT_GT(largest, 0.0f);  // the knee bends: some edge shrinks
  ASSERT_TRUE((*session)->WritesDone().ok());
  EXPECT_TRUE((*session)->Finish().ok());
}

// The pattern a client uploads: its red channel read with rows flipped (the
// PNG's top row is v = 1) and 0..255 mapped to -1..1.
TEST(DecodePatternPngTest, RowsFlipAndBytesMapToHeights) {
  image::RgbaImage png_image;
  png_image.width = 2;
  png_image.height = 2;
  png_image.pixels = {0,  0, 0, 255, 255, 0, 0, 255,  // top row
                      51, 0, 0, 255, 204, 0, 0, 255};
  const auto png = image::EncodePng(png_image);
  ASSERT_TRUE(png.ok());
  absl::StatusOr<WrinklePattern> pattern = DecodePatternPng(*png, 1);
  ASSERT_TRUE(pattern.ok()) << pattern.status();
  ASSERT_EQ(pattern->samples.size(), 4u);
  EXPECT_NEAR(pattern->samples[0], 51 / 127.5f - 1, 1e-6f);  // v = 0 row
  EXPECT_NEAR(pattern->samples[1], 204 / 127.5f - 1, 1e-6f);
  EXPECT_NEAR(pattern->samples[2], -1.0f, 1e-6f);
  EXPECT_NEAR(pattern->samples[3], 1.0f, 1e-6f);
  EXPECT_FALSE(DecodePatternPng("not a png", 1).ok());
}

// Each bad request is refused at the Start, naming the field.
TEST_F(AmplitudeMapsServiceTest, BadRequestsAreRefusedNamingTheField) {
  struct Case {
    const char* field;
    void (*change)(v1::Start*);
  };
  const Case cases[] = {
      {"start.parameters.model",
       [](v1::Start* s) { s->mutable_topology()->clear_corner_uvs(); }},
      {"start.outputs.vertex_amplitudes",
       [](v1::Start* s) {
         s->mutable_parameters()->set_model(v1::WRINKLE_MODEL_SCA2015);
       }},
      {"start.parameters.amplitude_maps.scale: 101 is outside [0, 100]",
       [](v1::Start* s) {
         s->mutable_parameters()->mutable_amplitude_maps()->set_scale(101);
       }},
      {"start.parameters.amplitude_maps.directional_sharpness: 0.5 is "
       "outside [1, 64]",
       [](v1::Start* s) {
         s->mutable_parameters()
             ->mutable_amplitude_maps()
             ->set_directional_sharpness(0.5);
       }},
      {"start.parameters.amplitude_maps.channel_selectivity: 65 is "
       "outside [0, 64]",
       [](v1::Start* s) {
         s->mutable_parameters()
             ->mutable_amplitude_maps()
             ->set_channel_selectivity(65);
       }},
      {"start.parameters.amplitude_maps.direction_fit_rings: 4 is outside "
       "0..3",
       [](v1::Start* s) {
         s->mutable_parameters()
             ->mutable_amplitude_maps()
             ->set_direction_fit_rings(4);
       }},
      {"start.parameters.amplitude_maps.wavelength",
       [](v1::Start* s) {
         s->mutable_parameters()->mutable_amplitude_maps()->set_wavelength(2);
       }},
      {"start.parameters.amplitude_maps.pattern_png",
       [](v1::Start* s) {
         s->mutable_parameters()->mutable_amplitude_maps()->set_pattern_png(
             "not a png");
       }},
      {"start.parameters.amplitude_maps.pattern_channels",
       [](v1::Start* s) {
         auto* a = s->mutable_parameters()->mutable_amplitude_maps();
         a->set_pattern_png("x");
         a->set_pattern_channels(4);
       }},
      {"start.parameters.amplitude_maps.rest_lengths",
       [](v1::Start* s) {
         s->mutable_topology()->clear_rest_positions();
         s->mutable_parameters()->mutable_amplitude_maps()->set_rest_lengths(
             v1::AMPLITUDE_REST_LENGTHS_REST_POSITIONS);
       }},
      {"start.outputs.uv_maps",
       [](v1::Start* s) {
         s->mutable_outputs()->mutable_uv_maps()->set_size(64);
       }},
      {"start.outputs.wrinkled_mesh",
       [](v1::Start* s) {
         s->mutable_outputs()->mutable_wrinkled_mesh()->set_level(2);
       }},
      {"start.topology.corner_uvs",
       [](v1::Start* s) { s->mutable_topology()->set_corner_uvs(0, 2e4f); }},
  };
  for (const Case& c : cases) {
    v1::Start start = MapsStart();
    c.change(&start);
    auto session = running_->Client()->OpenSession(start);
    ASSERT_FALSE(session.ok()) << c.field;
    EXPECT_EQ(session.status().code(), absl::StatusCode::kInvalidArgument)
        << c.field;
    EXPECT_THAT(session.status().message(), HasSubstr(c.field));
  }
  // A pattern over the size limit.
  image::RgbaImage big;
  big.width = kMaxPatternPngSize + 1;
  big.height = 1;
  big.pixels.assign(4 * static_cast<size_t>(big.width), 128);
  v1::Start start = MapsStart();
  start.mutable_parameters()->mutable_amplitude_maps()->set_pattern_png(
      *image::EncodePng(big));
  auto session = running_->Client()->OpenSession(start);
  ASSERT_FALSE(session.ok());
  EXPECT_THAT(session.status().message(),
              HasSubstr("each side must be 1..1024"));
}

// A decompression bomb: a small PNG whose header claims 32767 x 32767
// pixels (4.3 GB decoded) is refused from its header, before the decoder
// allocates: the server's peak memory does not move.
TEST_F(AmplitudeMapsServiceTest,
       APatternClaimingHugeSizeIsRefusedFromItsHeader) {
  const std::string png = testing::PngClaiming(32767, 32767);
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  v1::Start start = MapsStart();
  start.mutable_parameters()->mutable_amplitude_maps()->set_pattern_png(png);
  auto session = running_->Client()->OpenSession(start);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(session.status().message(), HasSubstr("32767 x 32767"));
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  // ru_maxrss in KiB: the peak grew by less than 64 MiB (decoding would have
  // taken 4 GiB).
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 64 * 1024);
}

}  // namespace
}  // namespace crease::server
