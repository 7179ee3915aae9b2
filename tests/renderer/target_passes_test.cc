// The compute passes that clear and resolve a renderer's targets on a GPU
// (TargetWork::kCompute, renderer/gl/target_passes.h), forced on the software
// rasteriser: they draw what the GL's own clear and blit draw.

#include <cstdlib>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "image/camera.h"
#include "renderer/frame_renderer.h"
#include "renderer/pixel_readback.h"
#include "tests/renderer/renderer_fixture.h"
#include "tests/testing/bundled_data.h"
#include "wrinkle/io/animation.h"

namespace crease::renderer {
namespace {

// Pixels of two top-down images of one size that differ by more than
// `tolerance` in some channel.
int PixelsDiffering(const image::RgbaImage& a, const image::RgbaImage& b,
                    int tolerance) {
  int differing = 0;
  for (size_t i = 0; i + 3 < a.pixels.size(); i += 4) {
    bool differs = false;
    for (int c = 0; c < 4; ++c) {
      differs |= std::abs(a.pixels[i + c] - b.pixels[i + c]) > tolerance;
    }
    differing += differs;
  }
  return differing;
}

class TargetPassesTest : public RendererTest {
 protected:
  void SetUp() override {
    auto compute = FrameRenderer::Create(
        gpu_, FrameRenderer::kDefaultBufferSets, TargetWork::kCompute);
    ASSERT_TRUE(compute.ok()) << compute.status();
    compute_ = *std::move(compute);
    auto fixed = FrameRenderer::Create(gpu_, FrameRenderer::kDefaultBufferSets,
                                       TargetWork::kFixedFunction);
    ASSERT_TRUE(fixed.ok()) << fixed.status();
    fixed_ = *std::move(fixed);
    ASSERT_TRUE(compute_->uses_target_passes());
    ASSERT_FALSE(fixed_->uses_target_passes());
    sheet_ = RunSqueezedSheet();
    ASSERT_NE(sheet_.session, nullptr);
    wrinkles_ = WrinklesOf(*sheet_.session);
    ASSERT_FALSE(wrinkles_.points.empty());
  }
  RenderMesh Sheet() const { return MeshOf(*sheet_.session, sheet_.positions); }

  std::unique_ptr<FrameRenderer> compute_, fixed_;
  SqueezedSheet sheet_;
  FrameWrinkles wrinkles_;
};

// A wrinkled frame (displaced and shaded): the mean of the samples rounds as
// the blit's does, to a level.
TEST_F(TargetPassesTest, ComputeTargetsDrawWhatTheGlsClearAndBlitDraw) {
  RenderOptions options;
  options.width = 240;
  options.height = 180;
  options.background = {0.2f, 0.3f, 0.4f, 1.0f};
  auto fixed = fixed_->Render(Sheet(), &wrinkles_, options);
  auto compute = compute_->Render(Sheet(), &wrinkles_, options);
  ASSERT_TRUE(fixed.ok()) << fixed.status();
  ASSERT_TRUE(compute.ok()) << compute.status();
  EXPECT_EQ(PixelsDiffering(*fixed, *compute, 1), 0);
  // Not a blank frame: the sheet covers a good part of it.
  image::RgbaImage background = *fixed;
  for (size_t i = 0; i < background.pixels.size(); i += 4) {
    for (int c = 0; c < 3; ++c) {
      background.pixels[i + c] =
          static_cast<uint8_t>(options.background[c] * 255.0f + 0.5f);
    }
  }
  EXPECT_GT(PixelsDiffering(*fixed, background, 2), 240 * 180 / 10);
}

// The resolved rows run top to bottom, and a read-back's lease says so.
TEST_F(TargetPassesTest, ReadBackRowsRunTopToBottom) {
  RenderOptions options;
  options.width = 96;
  options.height = 64;
  auto readback = PixelReadback::Create(gpu_, 2);
  ASSERT_TRUE(readback.ok()) << readback.status();
  auto expected = fixed_->Render(Sheet(), &wrinkles_, options);
  ASSERT_TRUE(expected.ok()) << expected.status();
  auto ticket =
      compute_->RenderToReadback(Sheet(), &wrinkles_, options, readback->get());
  ASSERT_TRUE(ticket.ok()) << ticket.status();
  auto pixels = (*readback)->Finish(*ticket);
  ASSERT_TRUE(pixels.ok()) << pixels.status();
  EXPECT_FALSE(pixels->rows().bottom_up);
  EXPECT_EQ(PixelsDiffering(pixels->ToImage(), *expected, 1), 0);
}

// The depth is cleared only where a frame can draw (DrawnPixelsOf): every
// pixel the frame draws lies in that box, displaced wrinkles included, and the
// box leaves out some of the image, so the clear is smaller.
TEST_F(TargetPassesTest, FramesDrawOnlyWithinTheirDrawnPixels) {
  const io::Animation knee = testing::LoadBundled("cloth_pants_knee");
  const RenderMesh knee_mesh{knee.frames.Sample(30), knee.mesh.triangles, {}};
  RenderOptions options;
  options.width = 320;
  options.height = 240;
  // A wrinkle wide enough on screen displaces the surface at 2 px edges.
  RenderOptions displacing = options;
  displacing.min_edge_pixels = 2.0f;
  struct Case {
    RenderMesh mesh;
    const FrameWrinkles* wrinkles;
    RenderOptions options;
    bool displaces;
  };
  // The sheet (in the XZ plane) seen edge-on from along Z: the flat sheet
  // projects to a line, and the wrinkles it displaces (along Y) rise above
  // it, out of the flat sheet's bounds.
  const image::BoundingSphere bounds = image::BoundsOf(sheet_.positions);
  const Eigen::Vector3f m = bounds.center;
  const float r = bounds.radius;
  RenderOptions edge_on = displacing;
  edge_on.camera = image::Camera{
      {m.x(), m.y(), m.z() + 2.0f * r}, {m.x(), m.y(), m.z()}, {0, 1, 0}, 35};
  for (const Case& c : {Case{Sheet(), &wrinkles_, options, false},
                        Case{Sheet(), &wrinkles_, displacing, true},
                        Case{Sheet(), &wrinkles_, edge_on, true},
                        Case{knee_mesh, nullptr, options, false}}) {
    PreparedFrame prepared;
    ASSERT_TRUE(
        FrameRenderer::Prepare(c.mesh, c.wrinkles, c.options, &prepared).ok());
    const auto box = FrameRenderer::DrawnPixelsOf(prepared);
    ASSERT_TRUE(box.has_value());
    RenderStats stats;
    auto image = fixed_->Render(c.mesh, c.wrinkles, c.options, &stats);
    ASSERT_TRUE(image.ok()) << image.status();
    const int w = image->width, h = image->height;
    int drawn = 0, outside = 0;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const uint8_t* p = image->pixels.data() + 4 * (size_t{1} * w * y + x);
        if (p[0] == 255 && p[1] == 255 && p[2] == 255) continue;  // white
        ++drawn;
        const int row = h - 1 - y;  // counted from the bottom
        outside += x < (*box)[0] || x >= (*box)[2] || row < (*box)[1] ||
                   row >= (*box)[3];
      }
    }
    EXPECT_GT(drawn, c.options.camera ? 0 : w * h / 20);
    EXPECT_EQ(outside, 0);
    const int box_area = (std::min((*box)[2], w) - std::max((*box)[0], 0)) *
                         (std::min((*box)[3], h) - std::max((*box)[1], 0));
    EXPECT_LT(box_area, w * h);
    if (c.displaces) {
      EXPECT_GT(stats.displaced_wrinkles, 0);
    }
  }
}

// A batch's frames come back in order with the rows top to bottom.
TEST_F(TargetPassesTest, BatchPartsAreTheirFramesInOrder) {
  RenderOptions options;
  options.width = 120;
  options.height = 90;
  RenderOptions dark = options;
  dark.background = {0.1f, 0.1f, 0.1f, 1.0f};
  const io::Animation knee = testing::LoadBundled("cloth_pants_knee");
  const RenderMesh knee_mesh{knee.frames.Sample(30), knee.mesh.triangles, {}};
  std::vector<PreparedFrame> prepared(2);
  ASSERT_TRUE(
      FrameRenderer::Prepare(Sheet(), &wrinkles_, options, &prepared[0]).ok());
  ASSERT_TRUE(
      FrameRenderer::Prepare(knee_mesh, nullptr, dark, &prepared[1]).ok());
  auto sheet_alone = fixed_->Render(Sheet(), &wrinkles_, options);
  auto knee_alone = fixed_->Render(knee_mesh, nullptr, dark);
  ASSERT_TRUE(sheet_alone.ok() && knee_alone.ok());
  auto readback = PixelReadback::Create(gpu_, 1);
  ASSERT_TRUE(readback.ok()) << readback.status();
  auto ticket = compute_->DrawBatchToReadback({&prepared[0], &prepared[1]},
                                              readback->get());
  ASSERT_TRUE(ticket.ok()) << ticket.status();
  auto pixels = (*readback)->Finish(*ticket);
  ASSERT_TRUE(pixels.ok()) << pixels.status();
  auto parts = std::move(*pixels).Split(2);
  ASSERT_TRUE(parts.ok()) << parts.status();
  // Drawn a few rows higher in the batch: equal to a corner's rounding.
  EXPECT_LE(PixelsDiffering((*parts)[0].ToImage(), *sheet_alone, 2),
            120 * 90 / 1000);
  EXPECT_LE(PixelsDiffering((*parts)[1].ToImage(), *knee_alone, 2),
            120 * 90 / 1000);
  EXPECT_GT(PixelsDiffering((*parts)[0].ToImage(), *knee_alone, 2),
            120 * 90 / 20);
}

}  // namespace
}  // namespace crease::renderer
