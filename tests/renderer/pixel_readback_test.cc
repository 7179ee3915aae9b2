#include "renderer/pixel_readback.h"

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
// synchronous Render draws them, byte for byte, rows bottom to top.
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
  EXPECT_TRUE(pixels_first->rows().bottom_up);
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
