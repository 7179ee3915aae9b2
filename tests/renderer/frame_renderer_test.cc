#include "renderer/frame_renderer.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "image/image_encoding.h"
#include "tests/renderer/golden_image.h"
#include "tests/renderer/renderer_fixture.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/sca2015/session.h"

namespace crease::renderer {
namespace {

class FrameRendererTest : public RendererTest {
 protected:
  static bool IsBackground(const image::RgbaImage& image, int x, int y) {
    return image.At(x, y) == std::array<uint8_t, 4>{255, 255, 255, 255};
  }
};

// A unit square in the XY plane, two triangles, facing +Z.
const float kSquare[] = {-0.5f, -0.5f, 0, 0.5f,  -0.5f, 0,
                         0.5f,  0.5f,  0, -0.5f, 0.5f,  0};
const io::Triangle kSquareTriangles[] = {{0, 1, 2}, {0, 2, 3}};

TEST_F(FrameRendererTest, SquareSeenHeadOnIsCentredAndSymmetric) {
  RenderOptions options;
  options.width = 120;
  options.height = 120;
  options.camera = image::Camera{{0, 0, 3}, {0, 0, 0}, {0, 1, 0}, 35.0f};
  const auto image =
      renderer_->Render({kSquare, kSquareTriangles, {}}, nullptr, options);
  ASSERT_TRUE(image.ok()) << image.status();
  SaveTestImage(*image, "square");
  // The square spans 1 / (2 * 3 * tan(17.5 deg)) = 52.9 % of the view:
  // pixels 29..90.
  EXPECT_FALSE(IsBackground(*image, 60, 60));
  EXPECT_FALSE(IsBackground(*image, 33, 33));
  EXPECT_FALSE(IsBackground(*image, 86, 86));
  EXPECT_TRUE(IsBackground(*image, 25, 60));
  EXPECT_TRUE(IsBackground(*image, 60, 94));
  // Flat, lit by directional lights: evenly lit (only the faint specular and
  // sheen follow the view direction), and lit from the front.
  const auto centre = image->At(60, 60);
  EXPECT_GT(centre[2], 150);
  for (int y = 30; y < 90; y += 7) {
    for (int x = 30; x < 90; x += 7) {
      const auto a = image->At(x, y);
      for (int c = 0; c < 3; ++c) {
        EXPECT_NEAR(a[c], centre[c], 4) << x << "," << y;
      }
    }
  }
}

TEST_F(FrameRendererTest, AutoFramingKeepsABundledFrameInside) {
  const io::Animation anim = testing::LoadBundled("cloth_pants_knee");
  ASSERT_GT(anim.num_frames(), 0);
  RenderOptions options;
  const auto image = renderer_->Render(
      {anim.frames.Sample(35), anim.mesh.triangles, {}}, nullptr, options);
  ASSERT_TRUE(image.ok()) << image.status();
  SaveTestImage(*image, "pants_frame35");
  int covered = 0;
  for (int y = 0; y < image->height; ++y) {
    for (int x = 0; x < image->width; ++x) {
      if (IsBackground(*image, x, y)) continue;
      ++covered;
      EXPECT_TRUE(x > 0 && y > 0 && x < image->width - 1 &&
                  y < image->height - 1)
          << "mesh touches the border at " << x << "," << y;
    }
  }
  EXPECT_GT(covered, image->width * image->height / 50);
}

TEST_F(FrameRendererTest, SplitDrawsGiveTheSameImage) {
  const io::Animation anim = testing::LoadBundled("fox_walk");
  ASSERT_GT(anim.num_frames(), 0);
  RenderOptions options;
  options.width = 200;
  options.height = 150;
  const auto whole = renderer_->Render(
      {anim.frames.Sample(0), anim.mesh.triangles, {}}, nullptr, options);
  options.max_patches_per_draw = 7;
  const auto split = renderer_->Render(
      {anim.frames.Sample(0), anim.mesh.triangles, {}}, nullptr, options);
  ASSERT_TRUE(whole.ok() && split.ok());
  EXPECT_EQ(whole->pixels, split->pixels);
}

// The Fox is split along UV seams. Welded by its session's topology (the
// server's way) or by the renderer itself (no ids given), by one rule: the
// same image, seams shaded as one surface.
TEST_F(FrameRendererTest, TopologyWeldingMatchesTheRenderersOwn) {
  const io::Animation anim = testing::LoadBundled("fox_walk");
  ASSERT_GT(anim.num_frames(), 0);
  auto session = Session::Create(anim.mesh.triangles, anim.mesh.positions, {});
  ASSERT_TRUE(session.ok()) << session.status();
  ASSERT_LT((*session)->topology().num_welded_vertices(),
            (*session)->topology().num_vertices());  // it has seams
  RenderOptions options;
  options.width = 200;
  options.height = 150;
  const auto positions = anim.frames.Sample(20);
  const auto own =
      renderer_->Render({positions, anim.mesh.triangles, {}}, nullptr, options);
  const auto topology =
      renderer_->Render(MeshOf(**session, positions), nullptr, options);
  std::vector<int32_t> identity(positions.size() / 3);
  for (size_t v = 0; v < identity.size(); ++v) identity[v] = v;
  const auto unwelded = renderer_->Render(
      {positions, anim.mesh.triangles, identity}, nullptr, options);
  ASSERT_TRUE(own.ok() && topology.ok() && unwelded.ok());
  EXPECT_EQ(own->pixels, topology->pixels);
  // Not welding at all shows the seams: the ids are used.
  EXPECT_NE(own->pixels, unwelded->pixels);
}

TEST_F(FrameRendererTest, RejectsBadInput) {
  RenderOptions options;
  const float nan_square[] = {NAN,  -0.5f, 0, 0.5f,  -0.5f, 0,
                              0.5f, 0.5f,  0, -0.5f, 0.5f,  0};
  EXPECT_EQ(
      renderer_->Render({nan_square, kSquareTriangles, {}}, nullptr, options)
          .status()
          .code(),
      absl::StatusCode::kInvalidArgument);
  const io::Triangle bad[] = {{0, 1, 4}};
  EXPECT_EQ(
      renderer_->Render({kSquare, bad, {}}, nullptr, options).status().code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      renderer_
          ->Render({absl::MakeConstSpan(kSquare, 7), kSquareTriangles, {}},
                   nullptr, options)
          .status()
          .code(),
      absl::StatusCode::kInvalidArgument);
  const int32_t welded_out_of_range[] = {0, 1, 2, 4};
  const int32_t welded_too_few[] = {0, 1, 2};
  for (absl::Span<const int32_t> welded :
       {absl::Span<const int32_t>(welded_out_of_range),
        absl::Span<const int32_t>(welded_too_few)}) {
    EXPECT_EQ(
        renderer_->Render({kSquare, kSquareTriangles, welded}, nullptr, options)
            .status()
            .code(),
        absl::StatusCode::kInvalidArgument);
  }
  // Wrinkle lists for one triangle; the square has two.
  FrameWrinkles other_mesh;
  other_mesh.min_width = 0.1;
  other_mesh.point_offsets = {0};
  other_mesh.range_offsets = {0, 0};
  const auto wrong_lists =
      renderer_->Render({kSquare, kSquareTriangles, {}}, &other_mesh, options);
  EXPECT_EQ(wrong_lists.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(wrong_lists.status().message().find("triangle lists"),
            std::string::npos)
      << wrong_lists.status();
  options.width = 5000;
  EXPECT_EQ(renderer_->Render({kSquare, kSquareTriangles, {}}, nullptr, options)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  options.width = 64;
  options.camera = image::Camera{{0, 0, 0}, {0, 0, 0}, {0, 1, 0}, 35.0f};
  EXPECT_EQ(renderer_->Render({kSquare, kSquareTriangles, {}}, nullptr, options)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace crease::renderer

namespace crease::renderer {
namespace {

TEST_F(FrameRendererTest, WrinklesChangeOnlyTheirNeighbourhoodAndOpenNoHoles) {
  const io::Animation anim = testing::LoadBundled("cloth_pants_knee");
  ASSERT_GT(anim.num_frames(), 0);
  SessionParams params;
  params.wrinkles.min_width = 0.012;  // 1.2 cm: visible at 640 x 480
  const auto session = testing::RunSessionTo(anim, 36, params);
  ASSERT_NE(session, nullptr);
  ASSERT_GT(session->tracker().wrinkles().size(), 3u);
  RenderOptions options;
  options.wrinkles = false;
  const auto plain =
      RenderSession(*renderer_, *session, anim.frames.Sample(36), options);
  options.wrinkles = true;
  RenderStats stats;
  const auto wrinkled = RenderSession(*renderer_, *session,
                                      anim.frames.Sample(36), options, &stats);
  ASSERT_TRUE(plain.ok() && wrinkled.ok()) << wrinkled.status();
  // Displaced, not only shaded: the hole check below means something.
  EXPECT_GT(stats.displaced_wrinkles, 0);
  EXPECT_GT(stats.tessellated_triangles, 10);
  SaveTestImage(*plain, "pants36_plain");
  SaveTestImage(*wrinkled, "pants36_wrinkled");
  // A pixel the plain mesh covers, and every pixel within 2 of it: inside
  // the outline, where the shoulders' valleys (at most 0.13 of a fold's
  // height deep, under a pixel here) cannot pull the outline in.
  auto inside = [&](int x, int y) {
    for (int dy = -2; dy <= 2; ++dy) {
      for (int dx = -2; dx <= 2; ++dx) {
        const int u = x + dx, v = y + dy;
        if (u < 0 || v < 0 || u >= plain->width || v >= plain->height ||
            IsBackground(*plain, u, v)) {
          return false;
        }
      }
    }
    return true;
  };
  int changed = 0, holes = 0, outline_moved = 0;
  for (int y = 0; y < plain->height; ++y) {
    for (int x = 0; x < plain->width; ++x) {
      if (plain->At(x, y) != wrinkled->At(x, y)) ++changed;
      if (IsBackground(*plain, x, y) || !IsBackground(*wrinkled, x, y)) {
        continue;
      }
      ++(inside(x, y) ? holes : outline_moved);
    }
  }
  EXPECT_GT(changed, 100);
  // No crack: nothing inside the plain mesh's outline turns to background
  // (patches meet watertight, and valleys are shallow).
  EXPECT_EQ(holes, 0);
  RecordProperty("outline_pixels_pulled_in", outline_moved);
  // Triangles no wrinkle reaches render exactly as without wrinkles: the
  // image's top rows (the thigh, still straight) are identical.
  for (int y = 0; y < plain->height / 4; ++y) {
    for (int x = 0; x < plain->width; ++x) {
      ASSERT_EQ(plain->At(x, y), wrinkled->At(x, y)) << x << "," << y;
    }
  }
}

TEST_F(FrameRendererTest, PastLlvmpipesVertexLimitSplitDrawsRenderCorrectly) {
  // Narrow wrinkles (L_min 3 mm) tessellate the wrinkled triangles at the GL
  // maximum (64: 3,169 vertices per patch), far past 65,535 tessellated
  // vertices in all. The automatic split must give the image that one patch per
  // draw gives (which can never reach the limit); one unsplit draw would be
  // corrupt on llvmpipe.
  const io::Animation anim = testing::LoadBundled("cloth_pants_knee");
  ASSERT_GT(anim.num_frames(), 0);
  SessionParams params;
  params.wrinkles.min_width = 0.003;
  const auto session = testing::RunSessionTo(anim, 36, params);
  ASSERT_NE(session, nullptr);
  const FrameWrinkles wrinkles = WrinklesOf(*session);
  // A lower bound on the tessellated vertices: every wrinkled triangle's inner
  // level is at least its shortest edge over 3/8 L_min.
  const auto positions = anim.frames.Sample(36);
  long vertices = 0;
  for (size_t f = 0; f + 1 < wrinkles.range_offsets.size(); ++f) {
    if (wrinkles.range_offsets[f + 1] == wrinkles.range_offsets[f]) continue;
    double shortest = 1e9;
    for (int k = 0; k < 3; ++k) {
      const int a = anim.mesh.triangles[f][k],
                b = anim.mesh.triangles[f][(k + 1) % 3];
      double d2 = 0;
      for (int c = 0; c < 3; ++c)
        d2 += std::pow(positions[3 * a + c] - positions[3 * b + c], 2);
      shortest = std::min(shortest, std::sqrt(d2));
    }
    const int level =
        std::min(64, static_cast<int>(shortest / (0.375 * 0.003)));
    const int half = level / 2;
    vertices += 3 * half * (half + 1) + 1;
  }
  ASSERT_GT(vertices, 65535);
  RenderOptions options;
  options.min_edge_pixels = 0.1f;
  RenderStats stats;
  const RenderMesh mesh = MeshOf(*session, positions);
  const auto split = renderer_->Render(mesh, &wrinkles, options, &stats);
  // Every wrinkle displaces, so every triangle above is tessellated.
  EXPECT_EQ(stats.displaced_wrinkles, wrinkles.num_wrinkles());
  EXPECT_GT(stats.draw_calls, 1);
  options.max_patches_per_draw = 1;
  const auto one_by_one = renderer_->Render(mesh, &wrinkles, options);
  ASSERT_TRUE(split.ok() && one_by_one.ok());
  EXPECT_EQ(split->pixels, one_by_one->pixels);
}

}  // namespace
}  // namespace crease::renderer
