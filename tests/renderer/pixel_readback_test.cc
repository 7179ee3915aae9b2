#include "renderer/pixel_readback.h"

#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "renderer/frame_renderer.h"
#include "tests/renderer/renderer_fixture.h"
#include "tests/testing/bundled_data.h"
#include "wrinkle/io/animation.h"

namespace crease::renderer {
namespace {

class PixelReadbackTest : public RendererTest {
 protected:
  void SetUp() override {
    animation_ = testing::LoadBundled("cloth_pants_knee");
    auto readback = PixelReadback::Create(gpu_, 2);
    ASSERT_TRUE(readback.ok()) << readback.status();
    readback_ = *std::move(readback);
  }
  RenderMesh Frame(int f) const {
    return {animation_.frames.Sample(f), animation_.mesh.triangles, {}};
  }
  io::Animation animation_;
  std::unique_ptr<PixelReadback> readback_;
};

// Frames drawn back to back with their pixels in flight come back as the
// synchronous Render draws them, byte for byte, rows in the order the
// renderer's targets resolve them (bottom to top with the GL's own blit,
// top to bottom with the compute passes a GPU uses).
TEST_F(PixelReadbackTest, InFlightFramesEqualSynchronousOnes) {
  RenderOptions options;
  options.width = 200;
  options.height = 150;
  std::vector<image::RgbaImage> expected;
  for (int f : {10, 40}) {
    auto image = renderer_->Render(Frame(f), nullptr, options);
    ASSERT_TRUE(image.ok()) << image.status();
    expected.push_back(*std::move(image));
  }
  auto first =
      renderer_->RenderToReadback(Frame(10), nullptr, options, readback_.get());
  ASSERT_TRUE(first.ok()) << first.status();
  auto second =
      renderer_->RenderToReadback(Frame(40), nullptr, options, readback_.get());
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(readback_->free_slots(), 0);
  // Both in flight: a third must wait for one to finish.
  EXPECT_EQ(
      renderer_->RenderToReadback(Frame(0), nullptr, options, readback_.get())
          .status()
          .code(),
      absl::StatusCode::kFailedPrecondition);
  auto pixels_first = readback_->Finish(*first);
  auto pixels_second = readback_->Finish(*second);
  ASSERT_TRUE(pixels_first.ok()) << pixels_first.status();
  ASSERT_TRUE(pixels_second.ok()) << pixels_second.status();
  EXPECT_EQ(pixels_first->rows().bottom_up, !renderer_->uses_target_passes());
  EXPECT_EQ(pixels_first->ToImage().pixels, expected[0].pixels);
  EXPECT_EQ(pixels_second->ToImage().pixels, expected[1].pixels);
  // The frames differ, so the comparison could fail.
  EXPECT_NE(expected[0].pixels, expected[1].pixels);
  // Leased slots are not free until the leases end.
  EXPECT_EQ(readback_->free_slots(), 0);
  *pixels_first = ReadbackPixels();
  EXPECT_EQ(readback_->free_slots(), 1);
}

TEST_F(PixelReadbackTest, ArrivedAfterFinishingAndTrimFreesLargeSlots) {
  RenderOptions options;
  options.width = 64;
  options.height = 48;
  auto ticket =
      renderer_->RenderToReadback(Frame(5), nullptr, options, readback_.get());
  ASSERT_TRUE(ticket.ok()) << ticket.status();
  auto pixels = readback_->Finish(*ticket);
  ASSERT_TRUE(pixels.ok()) << pixels.status();
  EXPECT_FALSE(readback_->Arrived(*ticket));  // no longer in flight
  EXPECT_EQ(pixels->rows().width, 64);
  EXPECT_EQ(pixels->rows().height, 48);
  // Leased: not freed yet, and Trim says so.
  EXPECT_FALSE(readback_->Trim(16));
  *pixels = ReadbackPixels();
  EXPECT_TRUE(readback_->Trim(16));  // frees the 12 KB buffer; the next
                                     // start makes one
  auto again =
      renderer_->RenderToReadback(Frame(5), nullptr, options, readback_.get());
  ASSERT_TRUE(again.ok()) << again.status();
  auto pixels_again = readback_->Finish(*again);
  ASSERT_TRUE(pixels_again.ok()) << pixels_again.status();
  EXPECT_EQ(pixels_again->ToImage().pixels.size(), 64u * 48u * 4u);
}

// Pixels of `image` (top to bottom) that differ from `rows` (a part of a
// batch, either way up) by more than `tolerance` in some channel.
int PixelsDiffering(const image::RgbaImage& image, const image::RgbaRows& rows,
                    int tolerance) {
  int differing = 0;
  for (int y = 0; y < image.height; ++y) {
    const uint8_t* a = image.pixels.data() + size_t{4} * image.width * y;
    const int stored = rows.bottom_up ? rows.height - 1 - y : y;
    const uint8_t* b = rows.data + size_t{4} * rows.width * stored;
    for (int x = 0; x < image.width * 4; x += 4) {
      bool differs = false;
      for (int c = 0; c < 4; ++c)
        differs |= std::abs(a[x + c] - b[x + c]) > tolerance;
      differing += differs;
    }
  }
  return differing;
}

// A batch draws each frame as Render draws it alone: different meshes, with
// and without wrinkles, one with its own background, stacked in one target
// and read back once. Each part's lease keeps the slot until the last goes.
TEST_F(PixelReadbackTest, BatchedFramesEqualFramesDrawnAlone) {
  SqueezedSheet sheet = RunSqueezedSheet();
  ASSERT_NE(sheet.session, nullptr);
  const FrameWrinkles wrinkles = WrinklesOf(*sheet.session);
  ASSERT_FALSE(wrinkles.points.empty());
  RenderOptions options;
  options.width = 160;
  options.height = 120;
  RenderOptions dark = options;
  dark.background = {0.1f, 0.1f, 0.1f, 1.0f};
  const RenderMesh sheet_mesh = MeshOf(*sheet.session, sheet.positions);
  struct Part {
    RenderMesh mesh;
    const FrameWrinkles* wrinkles;
    RenderOptions options;
  };
  const std::vector<Part> parts = {{Frame(10), nullptr, options},
                                   {sheet_mesh, &wrinkles, dark},
                                   {Frame(40), nullptr, options}};
  std::vector<PreparedFrame> prepared(parts.size());
  std::vector<const PreparedFrame*> batch;
  std::vector<image::RgbaImage> alone;
  for (size_t i = 0; i < parts.size(); ++i) {
    ASSERT_TRUE(FrameRenderer::Prepare(parts[i].mesh, parts[i].wrinkles,
                                       parts[i].options, &prepared[i])
                    .ok());
    batch.push_back(&prepared[i]);
    auto image =
        renderer_->Render(parts[i].mesh, parts[i].wrinkles, parts[i].options);
    ASSERT_TRUE(image.ok()) << image.status();
    alone.push_back(*std::move(image));
  }
  auto ticket = renderer_->DrawBatchToReadback(batch, readback_.get());
  ASSERT_TRUE(ticket.ok()) << ticket.status();
  auto pixels = readback_->Finish(*ticket);
  ASSERT_TRUE(pixels.ok()) << pixels.status();
  EXPECT_EQ(pixels->rows().height, 3 * 120);
  auto split = std::move(*pixels).Split(3);
  ASSERT_TRUE(split.ok()) << split.status();
  ASSERT_EQ(split->size(), 3u);
  for (size_t i = 0; i < parts.size(); ++i) {
    const image::RgbaRows& rows = (*split)[i].rows();
    ASSERT_EQ(rows.width, 160);
    ASSERT_EQ(rows.height, 120);
    // Drawn the same way, a few rows higher: equal, to the rounding of a
    // corner's window position (none on llvmpipe).
    EXPECT_LE(PixelsDiffering(alone[i], rows, 2), 160 * 120 / 1000) << i;
    // Each part is its own frame: it differs from the others.
    EXPECT_GT(PixelsDiffering(alone[(i + 1) % 3], rows, 2), 160 * 120 / 20)
        << i;
  }
  EXPECT_EQ(readback_->free_slots(), 1);  // leased by the parts
  (*split)[0] = ReadbackPixels();
  (*split)[2] = ReadbackPixels();
  EXPECT_EQ(readback_->free_slots(), 1);
  split->clear();
  EXPECT_EQ(readback_->free_slots(), 2);
}

TEST_F(PixelReadbackTest, BatchesOfMixedSizesOrTooTallAreRefused) {
  RenderOptions small, large;
  small.width = large.width = 64;
  small.height = 48;
  large.height = 64;
  PreparedFrame a, b;
  ASSERT_TRUE(FrameRenderer::Prepare(Frame(1), nullptr, small, &a).ok());
  ASSERT_TRUE(FrameRenderer::Prepare(Frame(1), nullptr, large, &b).ok());
  EXPECT_EQ(
      renderer_->DrawBatchToReadback({&a, &b}, readback_.get()).status().code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(renderer_->DrawBatchToReadback({}, readback_.get()).status().code(),
            absl::StatusCode::kInvalidArgument);
  const int most = FrameRenderer::MaxBatchFrames(48);
  std::vector<const PreparedFrame*> too_many(most + 1, &a);
  EXPECT_EQ(
      renderer_->DrawBatchToReadback(too_many, readback_.get()).status().code(),
      absl::StatusCode::kInvalidArgument);
  // A lease splits only into parts that divide its rows.
  auto ticket = renderer_->DrawBatchToReadback({&a, &a}, readback_.get());
  ASSERT_TRUE(ticket.ok()) << ticket.status();
  auto pixels = readback_->Finish(*ticket);
  ASSERT_TRUE(pixels.ok()) << pixels.status();
  EXPECT_EQ(std::move(*pixels).Split(5).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(PixelReadbackTest, AGlErrorFailsTheHealthCheckOnce) {
  EXPECT_TRUE(gpu_->CheckHealth().ok());
  gpu_->RaiseGlErrorForTest();
  const absl::Status health = gpu_->CheckHealth();
  EXPECT_EQ(health.code(), absl::StatusCode::kInternal) << health;
  EXPECT_NE(health.message().find("0x0500"), std::string::npos) << health;
  EXPECT_TRUE(gpu_->CheckHealth().ok());
}

// EGL gives every context of a platform the same display: a context made and
// dropped on another thread (a GL thread starting afresh) must not end this
// one's.
TEST_F(PixelReadbackTest, DroppingAnotherContextKeepsThisOne) {
  std::thread other([] {
    auto gpu = GpuContext::Create();
    EXPECT_TRUE(gpu.ok()) << gpu.status();
  });
  other.join();
  RenderOptions options;
  options.width = 32;
  options.height = 24;
  auto ticket =
      renderer_->RenderToReadback(Frame(1), nullptr, options, readback_.get());
  ASSERT_TRUE(ticket.ok()) << ticket.status();
  EXPECT_TRUE(readback_->Finish(*ticket).ok());
  EXPECT_TRUE(gpu_->CheckHealth().ok());
}

}  // namespace
}  // namespace crease::renderer
