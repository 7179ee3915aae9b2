#include "server/render_pool.h"

#include <memory>
#include <vector>

#include "absl/synchronization/notification.h"
#include "gtest/gtest.h"
#include "image/image_encoding.h"
#include "renderer/frame_renderer.h"
#include "renderer/gpu_context.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/data/frame_wrinkles.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/sca2015/session.h"

namespace crease::server {
namespace {

class RenderPoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    animation_ = testing::LoadBundled("cloth_pants_knee");
    options_.width = 160;
    options_.height = 120;
  }
  renderer::RenderMesh Frame(int f) const {
    return {animation_.frames.Sample(f), animation_.mesh.triangles, {}};
  }
  RenderJob Job(int f, renderer::RenderOptions options) const {
    RenderJob job;
    job.mesh = Frame(f);
    job.options = options;
    job.encoding = ImageEncoding::kPng;
    return job;
  }
  // What a synchronous FrameRenderer draws for frame `f`.
  image::RgbaImage Expected(int f, const renderer::RenderOptions& options) {
    auto gpu = renderer::GpuContext::Create();
    EXPECT_TRUE(gpu.ok()) << gpu.status();
    auto frame_renderer = renderer::FrameRenderer::Create(gpu->get());
    EXPECT_TRUE(frame_renderer.ok()) << frame_renderer.status();
    auto image = (*frame_renderer)->Render(Frame(f), nullptr, options);
    EXPECT_TRUE(image.ok()) << image.status();
    return *std::move(image);
  }
  // Submits `jobs` at once and waits for every outcome.
  static std::vector<RenderOutcome> RunAll(RenderPool& pool,
                                           std::vector<RenderJob> jobs) {
    std::vector<RenderOutcome> outcomes(jobs.size());
    std::vector<absl::Notification> done(jobs.size());
    for (size_t i = 0; i < jobs.size(); ++i) {
      pool.Submit(std::move(jobs[i]), [&outcomes, &done, i](RenderOutcome o) {
        outcomes[i] = std::move(o);
        done[i].Notify();
      });
    }
    for (absl::Notification& n : done) n.WaitForNotification();
    return outcomes;
  }
  io::Animation animation_;
  renderer::RenderOptions options_;
};

// Frames queued together are drawn back to back with their read-backs in
// flight and encoded on other threads; each comes back as the synchronous
// renderer draws it, upright.
TEST_F(RenderPoolTest, PipelinedFramesEqualSynchronousRenders) {
  RenderPoolOptions options;
  options.frames_in_flight = 3;
  options.encode_threads = 2;
  auto pool = RenderPool::Create(options);
  ASSERT_TRUE(pool.ok()) << pool.status();
  const std::vector<int> frames = {0, 20, 40, 60, 80, 100, 119};
  std::vector<RenderJob> jobs;
  for (int f : frames) jobs.push_back(Job(f, options_));
  const std::vector<RenderOutcome> outcomes = RunAll(**pool, std::move(jobs));
  for (size_t i = 0; i < frames.size(); ++i) {
    ASSERT_TRUE(outcomes[i].encoded.ok()) << outcomes[i].encoded.status();
    const auto decoded = image::DecodePng(*outcomes[i].encoded);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(decoded->pixels, Expected(frames[i], options_).pixels)
        << "frame " << frames[i];
  }
  EXPECT_EQ((*pool)->encode_threads(), 2);
}

// A wrinkled frame's CPU half made on the encoding pool (the default) or on
// the GL thread draws the same image as the synchronous renderer, frame
// after frame through the rotating buffer sets.
TEST_F(RenderPoolTest, FramesPreparedOnEitherSideEqualSynchronousRenders) {
  const std::unique_ptr<Session> session =
      testing::RunSessionTo(animation_, 36);
  ASSERT_NE(session, nullptr);
  FrameWrinkles wrinkles;
  session->tracker().ExportFrame(&wrinkles);
  ASSERT_GT(wrinkles.num_wrinkles(), 0);
  const renderer::RenderMesh mesh{animation_.frames.Sample(36),
                                  animation_.mesh.triangles,
                                  session->topology().weld_map()};
  auto gpu = renderer::GpuContext::Create();
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  auto frame_renderer = renderer::FrameRenderer::Create(gpu->get());
  ASSERT_TRUE(frame_renderer.ok()) << frame_renderer.status();
  const auto expected = (*frame_renderer)->Render(mesh, &wrinkles, options_);
  ASSERT_TRUE(expected.ok()) << expected.status();
  for (bool off : {false, true}) {
    RenderPoolOptions options;
    options.frames_in_flight = 2;
    options.prepare_off_gl_thread = off;
    auto pool = RenderPool::Create(options);
    ASSERT_TRUE(pool.ok()) << pool.status();
    std::vector<RenderJob> jobs;
    for (int i = 0; i < 5; ++i) {  // more than the 3 buffer sets
      RenderJob job = Job(36, options_);
      job.mesh = mesh;
      job.wrinkles = renderer::TracedWrinkles{&wrinkles};
      jobs.push_back(std::move(job));
    }
    for (const RenderOutcome& outcome : RunAll(**pool, std::move(jobs))) {
      ASSERT_TRUE(outcome.encoded.ok()) << outcome.encoded.status();
      const auto decoded = image::DecodePng(*outcome.encoded);
      ASSERT_TRUE(decoded.ok()) << decoded.status();
      EXPECT_EQ(decoded->pixels, expected->pixels)
          << (off ? "prepared on the encoding pool" : "on the GL thread");
    }
  }
}

// A frame whose GL check fails is answered with an error, never its image;
// the GL thread makes a fresh context and the next frame is right again.
TEST_F(RenderPoolTest, AFailedGlCheckGivesAnErrorThenAFreshContext) {
  auto pool = RenderPool::Create(1);
  ASSERT_TRUE(pool.ok()) << pool.status();
  (*pool)->InjectGlErrorForTest();
  std::vector<RenderOutcome> failed = RunAll(**pool, {Job(30, options_)});
  ASSERT_FALSE(failed[0].encoded.ok());
  EXPECT_EQ(failed[0].encoded.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(failed[0].encoded.status().message().find("fresh GPU context"),
            std::string::npos)
      << failed[0].encoded.status();
  std::vector<RenderOutcome> next = RunAll(**pool, {Job(30, options_)});
  ASSERT_TRUE(next[0].encoded.ok()) << next[0].encoded.status();
  const auto decoded = image::DecodePng(*next[0].encoded);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->pixels, Expected(30, options_).pixels);
}

// Bad frames fail alone, wherever they are prepared: the frames around them
// are drawn.
TEST_F(RenderPoolTest, AnInvalidJobFailsAloneInABatch) {
  for (bool off : {false, true}) {
    RenderPoolOptions options;
    options.prepare_off_gl_thread = off;
    auto pool = RenderPool::Create(options);
    ASSERT_TRUE(pool.ok()) << pool.status();
    renderer::RenderOptions too_big = options_;
    too_big.width = 5000;
    std::vector<RenderJob> jobs;
    jobs.push_back(Job(10, options_));
    jobs.push_back(Job(10, too_big));
    RenderJob bad_mesh = Job(30, options_);
    bad_mesh.mesh.positions = bad_mesh.mesh.positions.subspan(3);  // short
    jobs.push_back(std::move(bad_mesh));
    jobs.push_back(Job(50, options_));
    const std::vector<RenderOutcome> outcomes = RunAll(**pool, std::move(jobs));
    EXPECT_TRUE(outcomes[0].encoded.ok()) << outcomes[0].encoded.status();
    EXPECT_EQ(outcomes[1].encoded.status().code(),
              absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(outcomes[2].encoded.status().code(),
              absl::StatusCode::kInvalidArgument)
        << outcomes[2].encoded.status();
    EXPECT_TRUE(outcomes[3].encoded.ok()) << outcomes[3].encoded.status();
  }
}

// A burst of large frames leaves their read-back buffers held (16 slots of
// 1080p would be 133 MB no session's budget counts); once the GL thread has
// had nothing to draw for kIdleTrimAfter (2 s) it keeps only what 640x480
// frames need, and a new frame is drawn as before.
TEST_F(RenderPoolTest, AnIdleGlThreadGivesBackLargeReadbackBuffers) {
  auto pool = RenderPool::Create(1);
  ASSERT_TRUE(pool.ok()) << pool.status();
  renderer::RenderOptions large = options_;
  large.width = 1280;
  large.height = 720;
  std::vector<RenderJob> jobs;
  for (int f = 0; f < 4; ++f) jobs.push_back(Job(f, large));
  for (const RenderOutcome& o : RunAll(**pool, std::move(jobs))) {
    ASSERT_TRUE(o.encoded.ok()) << o.encoded.status();
  }
  const int64_t frame_bytes = int64_t{1280} * 720 * 4;
  EXPECT_GE((*pool)->held_readback_bytes(), frame_bytes);
  // Not before the 2 s are up (a frame then would find its buffers).
  absl::SleepFor(absl::Seconds(1));
  EXPECT_GE((*pool)->held_readback_bytes(), frame_bytes);
  const absl::Time give_up = absl::Now() + absl::Seconds(10);
  while ((*pool)->held_readback_bytes() >= frame_bytes &&
         absl::Now() < give_up) {
    absl::SleepFor(absl::Milliseconds(100));
  }
  EXPECT_EQ((*pool)->held_readback_bytes(), 0);  // none was 640x480 or less
  const std::vector<RenderOutcome> again = RunAll(**pool, {Job(5, options_)});
  EXPECT_TRUE(again[0].encoded.ok()) << again[0].encoded.status();
}

TEST(ParseGpuListTest, IndicesAllAndErrors) {
  EXPECT_TRUE(ParseGpuList("")->empty());
  EXPECT_EQ(*ParseGpuList("0,2"), (std::vector<int>{0, 2}));
  EXPECT_EQ(ParseGpuList("0,0").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseGpuList("x").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseGpuList("16").status().code(),
            absl::StatusCode::kInvalidArgument);
  // "all" lists the GPUs EGL has; where it has none (llvmpipe only), it says
  // so rather than starting without a GPU.
  const absl::StatusOr<std::vector<int>> all = ParseGpuList("all");
  EXPECT_EQ(all.ok(), !renderer::GpuContext::HardwareEglDevices().empty());
}

// A GPU index EGL does not have is refused at start, naming it.
TEST(RenderPoolStartTest, AMissingDeviceFailsTheStart) {
  RenderPoolOptions options;
  options.gpus = {15};
  auto pool = RenderPool::Create(options);
  ASSERT_FALSE(pool.ok());
  EXPECT_NE(pool.status().message().find("device"), std::string::npos)
      << pool.status();
}

}  // namespace
}  // namespace crease::server
