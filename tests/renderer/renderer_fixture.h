#ifndef CREASE_TESTS_RENDERER_RENDERER_FIXTURE_H_
#define CREASE_TESTS_RENDERER_RENDERER_FIXTURE_H_

// What the renderer tests share: one GPU context and FrameRenderer per suite,
// and the squeezed-sheet scene with its session.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "renderer/frame_renderer.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/data/frame_wrinkles.h"
#include "wrinkle/sca2015/session.h"

namespace crease::renderer {

class RendererTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto gpu = GpuContext::Create();
    ASSERT_TRUE(gpu.ok()) << gpu.status();
    gpu_ = std::move(gpu).value().release();
    auto renderer = FrameRenderer::Create(gpu_);
    ASSERT_TRUE(renderer.ok()) << renderer.status();
    renderer_ = std::move(renderer).value().release();
  }
  static void TearDownTestSuite() {
    delete renderer_;
    delete gpu_;
    renderer_ = nullptr;
    gpu_ = nullptr;
  }
  static inline GpuContext* gpu_ = nullptr;
  static inline FrameRenderer* renderer_ = nullptr;
};

// A session's current wrinkles, as the renderer takes them.
inline FrameWrinkles WrinklesOf(const Session& session) {
  FrameWrinkles wrinkles;
  session.tracker().ExportFrame(&wrinkles);
  return wrinkles;
}

// `positions` (borrowed) on the session's mesh, welded by its topology.
inline RenderMesh MeshOf(const Session& session,
                         absl::Span<const float> positions) {
  return {positions, session.topology().triangles(),
          session.topology().weld_map()};
}

// Renders `session`'s current wrinkles on `positions` (its mesh).
inline absl::StatusOr<image::RgbaImage> RenderSession(
    FrameRenderer& renderer, const Session& session,
    absl::Span<const float> positions, const RenderOptions& options,
    RenderStats* stats = nullptr) {
  const FrameWrinkles wrinkles = WrinklesOf(session);
  return renderer.Render(MeshOf(session, positions), &wrinkles, options, stats);
}

// A flat 16 x 16 grid sheet (1 x 1, XZ plane) squeezed in its plane along X,
// most in the middle (SqueezeSheetMiddle, to 70 % by frame 10), run through
// a Session for 13 frames; `positions` are the last frame's.
struct SqueezedSheet {
  io::TriangleMesh mesh = MakeGridSheet(16, 16, 1.0f, 1.0f);
  std::unique_ptr<Session> session;
  std::vector<float> positions;
};

// L_min 0.08; `max_wrinkles` 0 keeps the default.
inline SqueezedSheet RunSqueezedSheet(int max_wrinkles = 0) {
  SqueezedSheet sheet;
  SessionParams params;
  params.wrinkles.min_width = 0.08;
  if (max_wrinkles > 0) params.wrinkles.max_wrinkles = max_wrinkles;
  auto session =
      Session::Create(sheet.mesh.triangles, sheet.mesh.positions, params);
  EXPECT_TRUE(session.ok()) << session.status();
  if (!session.ok()) return sheet;
  sheet.session = *std::move(session);
  for (int frame = 0; frame <= 12; ++frame) {
    SqueezeSheetMiddle(sheet.mesh, std::min(frame, 10) / 10.0f * 0.3f,
                       &sheet.positions);
    EXPECT_TRUE(sheet.session->ProcessFrame(sheet.positions).ok());
  }
  return sheet;
}

// Two hand-made wrinkles on a flat 1 x 1 sheet in the XZ plane (y = 0):
// a half circle of radius 0.2 around (x, z) = (0.3, 0.5) and an S from
// (0.72, 0.2) to (0.72, 0.8), 8 path segments of 4 refined points each, as
// wide and as high all along (blunt: a point past an end projects onto it,
// and the end's round cap lifts). No lists (ListTrianglesReached fills them).
inline FrameWrinkles BluntCurvedWrinkles(double width, double height) {
  constexpr double kPi = 3.14159265358979;
  constexpr int kSegments = 8, kSamples = 4;
  FrameWrinkles wrinkles;
  wrinkles.point_offsets = {0};
  auto add = [&](auto curve) {
    for (int i = 0; i <= kSegments * kSamples; ++i) {
      const Eigen::Vector2d xz = curve(i / double(kSegments * kSamples));
      wrinkles.points.push_back(
          {Eigen::Vector3d(xz.x(), 0.0, xz.y()), width, height});
    }
    wrinkles.point_offsets.push_back(
        static_cast<int32_t>(wrinkles.points.size()));
    wrinkles.segments.push_back(kSegments);
  };
  add([&](double t) {
    return Eigen::Vector2d(0.3 + 0.2 * std::cos(kPi * t - kPi / 2),
                           0.5 + 0.2 * std::sin(kPi * t - kPi / 2));
  });
  add([&](double t) {
    return Eigen::Vector2d(0.72 + 0.08 * std::sin(2 * kPi * t), 0.2 + 0.6 * t);
  });
  wrinkles.min_width = width;
  return wrinkles;
}

}  // namespace crease::renderer

#endif  // CREASE_TESTS_RENDERER_RENDERER_FIXTURE_H_
