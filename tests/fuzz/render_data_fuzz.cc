// Fuzzes the renderer's CPU half (renderer/frame_data.h) on fuzzed animated
// sheets (fuzzed_sheet.h) seen through fuzzed cameras, close-ups and cameras
// inside the mesh included. Whatever the input, the buffers the shaders index
// must be consistent: sizes, indices in range, finite numbers, tessellation
// levels in [1, max] and, so that no crack opens, every edge given the same
// level by every triangle that shares it (edges identified through the
// welded vertices, as across UV seams). The tracker's exported frame must
// pass ValidateFrameWrinkles.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "image/camera.h"
#include "renderer/frame_data.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/fuzz/fuzzed_sheet.h"

namespace crease::fuzz {
namespace {

bool Finite4(const std::array<float, 4>& v) {
  return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]) &&
         std::isfinite(v[3]);
}

renderer::TessellationTarget MakeTarget(FuzzInput& in,
                                        absl::Span<const float> positions) {
  renderer::TessellationTarget target;
  constexpr int kSizes[] = {16, 64, 480, 1080, 4096};
  target.width = kSizes[in.Below(5)];
  target.height = kSizes[in.Below(5)];
  constexpr float kEdgePixels[] = {4.0f, 0.5f, 1.0f, 16.0f};
  target.min_edge_pixels = kEdgePixels[in.Below(4)];
  target.min_wrinkle_pixels = in.Below(2) == 0 ? 2.0f : 0.0f;
  target.max_level = in.Below(2) == 0 ? 64 : 8;
  const float aspect = static_cast<float>(target.width) / target.height;
  image::Camera camera =
      image::AutoFrame(positions, aspect, 360.0f * in.Byte() / 256.0f);
  // Sometimes pull the eye towards (or past) the target: close-ups, and
  // vertices behind the eye.
  const float pull = in.Byte() / 64.0f;  // 0 .. ~4
  for (int k = 0; k < 3; ++k) {
    camera.eye[k] += pull * (camera.target[k] - camera.eye[k]);
  }
  const Eigen::Vector3f view(camera.target[0] - camera.eye[0],
                             camera.target[1] - camera.eye[1],
                             camera.target[2] - camera.eye[2]);
  if (view.squaredNorm() == 0 ||
      view.cross(Eigen::Vector3f(camera.up[0], camera.up[1], camera.up[2]))
              .squaredNorm() == 0) {
    camera = image::AutoFrame(positions, aspect);  // the renderer refuses it
  }
  target.view_projection = image::ViewProjection(camera, positions, aspect);
  return target;
}

void CheckBuffers(const Sheet& sheet, absl::Span<const int32_t> welded,
                  const FrameWrinkles& wrinkles,
                  const renderer::TessellationTarget& target,
                  const renderer::WrinkleBuffers& w) {
  const size_t num_triangles = sheet.triangles.size();
  CREASE_FUZZ_CHECK(w.levels.size() == num_triangles);
  CREASE_FUZZ_CHECK(w.triangle_ranges.size() == num_triangles);
  int max_inner = 1;
  std::map<std::pair<int32_t, int32_t>, float> edge_level;
  for (size_t f = 0; f < num_triangles; ++f) {
    const std::array<float, 4>& level = w.levels[f];
    for (float l : level) {
      CREASE_FUZZ_CHECK(std::isfinite(l) && l >= 1 && l <= target.max_level);
    }
    max_inner = std::max(max_inner, static_cast<int>(level[3]));
    const io::Triangle& t = sheet.triangles[f];
    for (int k = 0; k < 3; ++k) {
      int32_t a = welded[t[k]], b = welded[t[(k + 1) % 3]];
      if (a == b) continue;  // a collapsed edge draws nothing
      if (a > b) std::swap(a, b);
      const auto [it, inserted] = edge_level.emplace(std::pair(a, b), level[k]);
      CREASE_FUZZ_CHECK(inserted || it->second == level[k]);
    }
    const std::array<int32_t, 4>& list = w.triangle_ranges[f];
    CREASE_FUZZ_CHECK(list[0] >= 0 && list[1] >= 0);
    CREASE_FUZZ_CHECK(static_cast<size_t>(list[0]) + list[1] <=
                      w.ranges.size());
    CREASE_FUZZ_CHECK(list[2] >= 0 && list[2] <= list[1]);
  }
  CREASE_FUZZ_CHECK(w.max_level >= max_inner);
  CREASE_FUZZ_CHECK(w.points.size() == w.frames.size());
  for (size_t i = 0; i < w.points.size(); ++i) {
    CREASE_FUZZ_CHECK(Finite4(w.points[i]) && Finite4(w.frames[i]));
    CREASE_FUZZ_CHECK(w.points[i][3] > 0);
    // The bisector normal the shaders' projection divides space with.
    const float norm =
        std::hypot(w.frames[i][0], w.frames[i][1], w.frames[i][2]);
    CREASE_FUZZ_CHECK(std::abs(norm - 1.0f) < 1e-3f);
  }
  const int32_t num_points = static_cast<int32_t>(w.points.size());
  for (const std::array<int32_t, 4>& range : w.ranges) {
    CREASE_FUZZ_CHECK(0 <= range[0] && range[0] <= range[1] &&
                      range[1] < num_points);
    CREASE_FUZZ_CHECK(range[2] == -1 || range[2] == range[0]);
    CREASE_FUZZ_CHECK(range[3] == -1 || range[3] == range[1]);
  }
  CREASE_FUZZ_CHECK(w.range_bounds.size() == w.ranges.size());
  for (const std::array<float, 4>& sphere : w.range_bounds) {
    CREASE_FUZZ_CHECK(Finite4(sphere) && sphere[3] >= 0);
  }
  CREASE_FUZZ_CHECK(0 <= w.displaced_wrinkles &&
                    w.displaced_wrinkles <= w.drawn_wrinkles &&
                    w.drawn_wrinkles <= wrinkles.num_wrinkles());
}

}  // namespace
}  // namespace crease::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace crease;
  fuzz::FuzzInput in(data, size);
  fuzz::FuzzedAnimation animation = fuzz::StartFuzzedAnimation(in);
  if (animation.session == nullptr) return 0;
  std::vector<float> positions;
  FrameWrinkles wrinkles;
  renderer::WrinkleBuffers buffers;
  for (int f = 0; f < animation.frames; ++f) {
    fuzz::MakeFrame(in, animation.sheet, positions);
    CREASE_FUZZ_CHECK(animation.session->ProcessFrame(positions).ok());
    animation.session->tracker().ExportFrame(&wrinkles);
    CREASE_FUZZ_CHECK(
        ValidateFrameWrinkles(wrinkles, animation.sheet.triangles.size()).ok());
    const renderer::RenderMesh mesh = {
        positions, animation.sheet.triangles,
        animation.session->topology().weld_map()};
    const renderer::TessellationTarget target = fuzz::MakeTarget(in, positions);
    renderer::FillWrinkleBuffers(mesh, wrinkles, target, &buffers);
    fuzz::CheckBuffers(animation.sheet, mesh.welded, wrinkles, target, buffers);
  }
  return 0;
}
