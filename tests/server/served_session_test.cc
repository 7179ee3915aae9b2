// ServedSession, the server's Start -> answer -> render job sequence without
// gRPC: its answers are the library's, a bad frame changes nothing, a
// wrinkle-map session runs no graph cut or tracing unless an output reads
// them, and render jobs carry the model's draw descriptor.

#include "server/served_session.h"

#include <algorithm>
#include <memory>
#include <variant>
#include <vector>

#include "client/mesh_messages.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "image/image_encoding.h"
#include "server/session_setup.h"
#include "tests/server/service_fixture.h"
#include "tests/testing/bundled_data.h"
#include "wrinkle/core/synthetic_animations.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/wrinkle_maps/amplitude_model.h"
#include "wrinkle/wrinkle_maps/default_pattern.h"
#include "wrinkle/wrinkle_maps/wrinkle_pattern.h"

namespace crease::server {
namespace {

using ::testing::ElementsAreArray;

constexpr int kFrames = 40;

class ServedSessionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    knee_ = new io::Animation(testing::LoadBundled("cloth_pants_knee"));
    knee_->mesh.corner_uvs = PlanarUvs(knee_->mesh);
  }
  static void TearDownTestSuite() {
    delete knee_;
    knee_ = nullptr;
  }

  static v1::Start MapsStart() {
    v1::Start start = client::StartForMesh(knee_->mesh);
    start.mutable_parameters()->set_model(v1::WRINKLE_MODEL_AMPLITUDE_MAPS);
    start.mutable_outputs()->set_vertex_amplitudes(true);
    return start;
  }

  static std::unique_ptr<ServedSession> Serve(const v1::Start& start) {
    absl::StatusOr<SessionSetup> setup =
        ValidateStart(start, ServerLimits(), /*can_render=*/true);
    EXPECT_TRUE(setup.ok()) << setup.status();
    if (!setup.ok()) return nullptr;
    absl::StatusOr<std::unique_ptr<ServedSession>> served =
        ServedSession::Create(*std::move(setup));
    EXPECT_TRUE(served.ok()) << served.status();
    return served.ok() ? *std::move(served) : nullptr;
  }

  static v1::FrameResult Answer(ServedSession& served, int f) {
    v1::FrameResult result;
    served.AnswerFrame(FrameOf(*knee_, f), &result);
    EXPECT_FALSE(result.has_error()) << result.error().message();
    return result;
  }

  static inline io::Animation* knee_ = nullptr;
};

// The default pattern counts in the session's memory before it is made
// (Prepare, after the budget's reservation): at its size when the rest
// positions give its wavelength, at the largest when the first frame will;
// an uploaded pattern is decoded at the Start and counts nothing more.
TEST_F(ServedSessionTest, WrinkleMapPatternCountsBeforeItIsMade) {
  absl::StatusOr<double> wavelength = DefaultPatternWavelength(
      knee_->mesh.triangles, knee_->mesh.positions, knee_->mesh.corner_uvs);
  ASSERT_TRUE(wavelength.ok());
  const auto bytes_of = [](int side) {
    return static_cast<int64_t>(side) * side * 3 * 4;
  };
  absl::StatusOr<SessionSetup> with_rest =
      ValidateStart(MapsStart(), ServerLimits(), true);
  ASSERT_TRUE(with_rest.ok()) << with_rest.status();
  EXPECT_EQ(with_rest->model->MemoryBytes(),
            bytes_of(DefaultPatternSize(*wavelength)));
  v1::Start no_rest = MapsStart();
  no_rest.mutable_topology()->clear_rest_positions();
  absl::StatusOr<SessionSetup> without_rest =
      ValidateStart(no_rest, ServerLimits(), true);
  ASSERT_TRUE(without_rest.ok()) << without_rest.status();
  EXPECT_EQ(without_rest->model->MemoryBytes(),
            bytes_of(kMaxDefaultPatternSize));
  // Served: the default pattern exists from Prepare on and draws; two
  // sessions of one mesh share it, under one id, so a render thread drawing
  // both in turn keeps one texture.
  std::unique_ptr<ServedSession> served = Serve(MapsStart());
  std::unique_ptr<ServedSession> beside = Serve(MapsStart());
  ASSERT_NE(served, nullptr);
  ASSERT_NE(beside, nullptr);
  const v1::FrameResult first = Answer(*served, 0);
  EXPECT_EQ(first.vertex_amplitudes().wavelength(), *wavelength);
  (void)Answer(*beside, 0);
  const renderer::WrinkleDraw one =
      served->setup().model->Draw(*served->analysis());
  const renderer::WrinkleDraw two =
      beside->setup().model->Draw(*beside->analysis());
  const auto* one_maps = std::get_if<renderer::PatternWrinkles>(&one);
  const auto* two_maps = std::get_if<renderer::PatternWrinkles>(&two);
  ASSERT_NE(one_maps, nullptr);
  ASSERT_NE(two_maps, nullptr);
  EXPECT_NE(one_maps->pattern.id, 0u);
  EXPECT_EQ(one_maps->pattern.id, two_maps->pattern.id);
  EXPECT_EQ(one_maps->pattern.samples.data(), two_maps->pattern.samples.data());
  EXPECT_EQ(one_maps->pattern.width, DefaultPatternSize(*wavelength));
}

// An uploaded pattern is decoded at the Start and counted by its samples; it
// has no wavelength to echo or report. It is named, so a render thread keeps
// its texture by id: sessions uploading the same PNG share the pattern and its
// id; another PNG (one sample apart) gets its own.
TEST_F(ServedSessionTest, UploadedPatternIsCountedAndNamed) {
  image::RgbaImage tile;
  tile.width = 8;
  tile.height = 4;
  tile.pixels.resize(4 * 8 * 4);
  for (size_t i = 0; i < tile.pixels.size(); ++i) {
    tile.pixels[i] = static_cast<uint8_t>(i % 4 == 3 ? 255 : 37 * i % 256);
  }
  const auto start_with = [&](const image::RgbaImage& image) {
    absl::StatusOr<std::string> png = image::EncodePng(image);
    EXPECT_TRUE(png.ok()) << png.status();
    v1::Start start = MapsStart();
    start.mutable_parameters()->mutable_amplitude_maps()->set_pattern_png(
        png.ok() ? *png : "");
    return start;
  };
  const v1::Start start = start_with(tile);
  absl::StatusOr<SessionSetup> setup =
      ValidateStart(start, ServerLimits(), true);
  ASSERT_TRUE(setup.ok()) << setup.status();
  EXPECT_EQ(setup->model->MemoryBytes(), 8 * 4 * 3 * 4);
  EXPECT_FALSE(setup->effective.amplitude_maps().has_wavelength());
  const auto pattern_of = [](const ServedSession& served) {
    const renderer::WrinkleDraw draw =
        served.setup().model->Draw(*served.analysis());
    const auto* maps = std::get_if<renderer::PatternWrinkles>(&draw);
    EXPECT_NE(maps, nullptr);
    return maps != nullptr ? maps->pattern : renderer::PatternMap{};
  };
  std::unique_ptr<ServedSession> served = Serve(start);
  std::unique_ptr<ServedSession> same = Serve(start);
  image::RgbaImage changed = tile;
  changed.pixels[0] ^= 1;
  std::unique_ptr<ServedSession> other = Serve(start_with(changed));
  ASSERT_NE(served, nullptr);
  ASSERT_NE(same, nullptr);
  ASSERT_NE(other, nullptr);
  const v1::FrameResult first = Answer(*served, 0);
  EXPECT_EQ(first.vertex_amplitudes().wavelength(), 0.0);
  (void)Answer(*same, 0);
  (void)Answer(*other, 0);
  const renderer::PatternMap mine = pattern_of(*served);
  EXPECT_NE(mine.id, 0u);
  EXPECT_EQ(mine.width, 8);
  EXPECT_EQ(mine.height, 4);
  EXPECT_EQ(pattern_of(*same).id, mine.id);
  EXPECT_EQ(pattern_of(*same).samples.data(), mine.samples.data());
  EXPECT_NE(pattern_of(*other).id, mine.id);
  EXPECT_NE(pattern_of(*other).id, 0u);
  EXPECT_EQ(served->setup().model->MemoryBytes(), 8 * 4 * 3 * 4);
}

// With a rest pose the wrinkle-map model reads only the welding: no labels,
// no field, no wrinkles, and the same amplitudes as the library's model.
// Asking for paths turns the analysis on, and the amplitudes stay the same.
TEST_F(ServedSessionTest, WrinkleMapSessionRunsNoGraphCutUnlessAsked) {
  std::unique_ptr<ServedSession> maps_only = Serve(MapsStart());
  v1::Start with_paths_start = MapsStart();
  with_paths_start.mutable_outputs()->set_paths(true);
  std::unique_ptr<ServedSession> with_paths = Serve(with_paths_start);
  ASSERT_NE(maps_only, nullptr);
  ASSERT_NE(with_paths, nullptr);

  auto topology =
      MeshTopology::Build(knee_->mesh.triangles, knee_->mesh.positions);
  ASSERT_TRUE(topology.ok()) << topology.status();
  // The server's default pattern for this mesh (its Start has rest positions).
  absl::StatusOr<double> wavelength = DefaultPatternWavelength(
      knee_->mesh.triangles, knee_->mesh.positions, knee_->mesh.corner_uvs);
  ASSERT_TRUE(wavelength.ok()) << wavelength.status();
  absl::StatusOr<WrinklePattern> pattern = MakeDefaultPattern(*wavelength);
  ASSERT_TRUE(pattern.ok());
  absl::StatusOr<AmplitudeModel> library = AmplitudeModel::Create(
      *topology, knee_->mesh.corner_uvs, *pattern, knee_->mesh.positions);
  ASSERT_TRUE(library.ok()) << library.status();

  int compressed = 0, wrinkles = 0;
  float largest = 0;
  for (int f = 0; f < kFrames; ++f) {
    const v1::FrameResult alone = Answer(*maps_only, f);
    const v1::FrameResult beside_paths = Answer(*with_paths, f);
    ASSERT_TRUE(library->Update(knee_->frames.Sample(f)).ok());
    const auto amplitudes = [](const v1::FrameResult& r) {
      return std::vector<float>(r.vertex_amplitudes().amplitudes().begin(),
                                r.vertex_amplitudes().amplitudes().end());
    };
    EXPECT_THAT(amplitudes(alone),
                ElementsAreArray(library->vertex_amplitudes()))
        << "frame " << f;
    EXPECT_EQ(amplitudes(beside_paths), amplitudes(alone)) << "frame " << f;
    for (float a : amplitudes(alone)) largest = std::max(largest, a);

    const Session& off = *maps_only->analysis();
    EXPECT_EQ(off.timings().labeling_ms, 0.0);
    EXPECT_EQ(off.timings().seed_ms, 0.0);
    EXPECT_TRUE(std::all_of(off.labels().begin(), off.labels().end(),
                            [](Label l) { return l == Label::kRest; }));
    EXPECT_TRUE(off.tracker().wrinkles().empty());
    EXPECT_EQ(alone.wrinkles_size(), 0);

    const Session& on = *with_paths->analysis();
    compressed += static_cast<int>(
        std::count(on.labels().begin(), on.labels().end(), Label::kCompress));
    wrinkles += beside_paths.wrinkles_size();
  }
  EXPECT_GT(largest, 0.0f);  // the knee bends: the model has work to do
  EXPECT_GT(compressed, 0);
  EXPECT_GT(wrinkles, 0);
}

// An SCA 2015 session answers what the library's Session computes.
TEST_F(ServedSessionTest, Sca2015AnswersAreTheSessions) {
  v1::Start start = client::StartForMesh(knee_->mesh);
  start.mutable_outputs()->set_paths(true);
  start.mutable_outputs()->set_labels(true);
  std::unique_ptr<ServedSession> served = Serve(start);
  ASSERT_NE(served, nullptr);
  auto library = Session::Create(knee_->mesh.triangles, knee_->mesh.positions);
  ASSERT_TRUE(library.ok()) << library.status();
  int wrinkles = 0;
  for (int f = 0; f < kFrames; ++f) {
    const v1::FrameResult result = Answer(*served, f);
    ASSERT_TRUE((*library)->ProcessFrame(knee_->frames.Sample(f)).ok());
    const WrinkleTracker& tracker = (*library)->tracker();
    ASSERT_EQ(result.wrinkles_size(),
              static_cast<int>(tracker.wrinkles().size()))
        << "frame " << f;
    for (int w = 0; w < result.wrinkles_size(); ++w) {
      EXPECT_EQ(result.wrinkles(w).id(), tracker.wrinkles()[w].id);
      EXPECT_EQ(result.wrinkles(w).points_size(),
                3 * static_cast<int>(tracker.shapes()[w].refined.size()));
    }
    ASSERT_EQ(result.labels().size(), (*library)->labels().size());
    for (size_t t = 0; t < result.labels().size(); ++t) {
      EXPECT_EQ(result.labels()[t] == v1::TRIANGLE_LABEL_COMPRESS,
                (*library)->labels()[t] == Label::kCompress);
    }
    EXPECT_EQ(result.input_noise(),
              static_cast<float>((*library)->input_noise()));
    wrinkles += result.wrinkles_size();
  }
  EXPECT_GT(wrinkles, 0);
}

// A client streaming a jittery mesh learns so: the sleeve with every
// coordinate jittered by up to 2 % of its radius reads about 3 % (edges jitter
// by that much of their length) within ten frames, the clean sleeve 0.
TEST_F(ServedSessionTest, InputNoiseIsReported) {
  for (const double noise : {0.0, 0.02}) {
    SleeveBendParams params;
    params.noise = noise;
    const SyntheticAnimation sleeve = SleeveBendAnimation(params);
    v1::Start start = client::StartForMesh(sleeve.rest);
    std::unique_ptr<ServedSession> served = Serve(start);
    ASSERT_NE(served, nullptr);
    v1::FrameResult result;
    for (int f = 0; f < 10; ++f) {
      result.Clear();
      served->AnswerFrame(
          client::FrameOf(sleeve.frames[f], static_cast<uint32_t>(f)), &result);
      ASSERT_FALSE(result.has_error()) << result.error().message();
    }
    if (noise == 0) {
      EXPECT_LT(result.input_noise(), 1e-6);
    } else {
      EXPECT_GT(result.input_noise(), 0.025);
      EXPECT_LT(result.input_noise(), 0.035);
    }
  }
}

// A bad frame is answered with its error and leaves the session as it was:
// the frames after it are answered as if it never came.
TEST_F(ServedSessionTest, ABadFrameChangesNothing) {
  v1::Start start = client::StartForMesh(knee_->mesh);
  start.mutable_outputs()->set_paths(true);
  std::unique_ptr<ServedSession> with_bad = Serve(start);
  std::unique_ptr<ServedSession> clean = Serve(start);
  ASSERT_NE(with_bad, nullptr);
  ASSERT_NE(clean, nullptr);
  for (int f = 0; f < kFrames; ++f) {
    if (f == 10) {
      v1::Frame short_frame = FrameOf(*knee_, f);
      short_frame.mutable_positions()->RemoveLast();
      v1::FrameResult error;
      EXPECT_FALSE(with_bad->AnswerFrame(short_frame, &error));
      EXPECT_EQ(error.index(), 10u);
      EXPECT_EQ(error.error().code(),
                static_cast<int>(absl::StatusCode::kInvalidArgument));
      EXPECT_THAT(error.error().message(),
                  ::testing::HasSubstr("frame.positions"));
    }
    v1::FrameResult a = Answer(*with_bad, f);
    v1::FrameResult b = Answer(*clean, f);
    a.clear_timings();
    b.clear_timings();
    EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString()) << "frame " << f;
  }
}

// Render jobs carry the model's descriptor: SCA 2015's traced wrinkles, the
// wrinkle-map pattern (displaced as the Start asked), and none for a plain
// image.
TEST_F(ServedSessionTest, RenderJobsCarryTheModelsDrawDescriptor) {
  v1::Start sca = client::StartForMesh(knee_->mesh);
  sca.mutable_outputs()->mutable_image()->set_width(64);
  v1::Start maps = MapsStart();
  maps.mutable_outputs()->mutable_image()->set_width(64);
  maps.mutable_parameters()->mutable_amplitude_maps()->set_displace(true);
  v1::Start plain_maps = maps;
  plain_maps.mutable_outputs()->mutable_image()->set_plain(true);
  for (const v1::Start* start : {&sca, &maps, &plain_maps}) {
    std::unique_ptr<ServedSession> served = Serve(*start);
    ASSERT_NE(served, nullptr);
    ASSERT_TRUE(served->renders());
    for (int f = 0; f < 3; ++f) {
      v1::FrameResult result;
      ASSERT_TRUE(served->AnswerFrame(FrameOf(*knee_, f), &result));
      const RenderJob job = served->MakeRenderJob(nullptr);
      EXPECT_TRUE(job.screen);
      EXPECT_TRUE(job.options.camera.has_value());  // framed on the mesh
      if (start == &maps) {
        const auto* pattern =
            std::get_if<renderer::PatternWrinkles>(&job.wrinkles);
        ASSERT_NE(pattern, nullptr);
        EXPECT_TRUE(pattern->displace);
        EXPECT_EQ(pattern->amplitudes.size(),
                  knee_->mesh.positions.size() / 3 *
                      static_cast<size_t>(pattern->pattern.channels));
      } else {
        const auto* traced =
            std::get_if<renderer::TracedWrinkles>(&job.wrinkles);
        ASSERT_NE(traced, nullptr);
        EXPECT_EQ(traced->frame == nullptr, start == &plain_maps);
      }
    }
  }
}

}  // namespace
}  // namespace crease::server
