// The wrinkle-map model's default pattern for a mesh: its wavelength is 3 %
// of the mesh's diagonal on the surface, whatever the mesh's units and UV
// scale, and the pattern's texels follow it.

#include "wrinkle/wrinkle_maps/default_pattern.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/bundled_path.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/io/gltf.h"

namespace crease {
namespace {

using ::testing::HasSubstr;

// A flat 2 x 1 sheet whose UVs are its (x, z) times `uv_scale`: 1 / uv_scale
// world units per UV unit along every edge.
io::TriangleMesh ScaledSheet(float uv_scale, float world_scale = 1.0f) {
  io::TriangleMesh mesh = MakeGridSheet(8, 4, 2.0f, 1.0f);
  for (float& p : mesh.positions) p *= world_scale;
  mesh.corner_uvs.resize(6 * mesh.triangles.size());
  for (size_t t = 0; t < mesh.triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const int v = mesh.triangles[t][k];
      mesh.corner_uvs[6 * t + 2 * k] =
          uv_scale * mesh.positions[3 * v] / world_scale;
      mesh.corner_uvs[6 * t + 2 * k + 1] =
          uv_scale * mesh.positions[3 * v + 2] / world_scale;
    }
  }
  return mesh;
}

double WavelengthOf(const io::TriangleMesh& mesh) {
  absl::StatusOr<double> w =
      DefaultPatternWavelength(mesh.triangles, mesh.positions, mesh.corner_uvs);
  EXPECT_TRUE(w.ok()) << w.status();
  return w.ok() ? *w : -1.0;
}

// By hand: diagonal √5 (the sheet is flat), 1 / 0.5 = 2 world units per UV
// unit, so 0.03 √5 / 2 UV units. Metres or millimetres give the same UV
// wavelength; UVs twice as large give twice it.
TEST(DefaultPatternTest, WavelengthIsAShareOfTheDiagonalOnTheSurface) {
  const double by_hand = 0.03 * std::sqrt(5.0) / 2.0;
  EXPECT_NEAR(WavelengthOf(ScaledSheet(0.5f)), by_hand, 1e-6);
  EXPECT_NEAR(WavelengthOf(ScaledSheet(0.5f, 1000.0f)), by_hand, 1e-6);
  EXPECT_NEAR(WavelengthOf(ScaledSheet(1.0f)), 2.0 * by_hand, 1e-6);
}

// Clamped to [1/256, 1/8] (longer sinusoids lose their angles to the
// rounding to whole cycles); no scale at all gives the fallback.
TEST(DefaultPatternTest, ClampedAndFallsBackWithoutAScale) {
  EXPECT_EQ(WavelengthOf(ScaledSheet(1e-4f)), kMinPatternWavelength);
  EXPECT_EQ(WavelengthOf(ScaledSheet(100.0f)), kMaxDefaultWavelength);
  EXPECT_EQ(WavelengthOf(ScaledSheet(0.0f)), kFallbackPatternWavelength);
  io::TriangleMesh point = ScaledSheet(0.5f);
  std::fill(point.positions.begin(), point.positions.end(), 1.0f);
  EXPECT_EQ(WavelengthOf(point), kFallbackPatternWavelength);
}

TEST(DefaultPatternTest, BadInputIsRefused) {
  const io::TriangleMesh mesh = ScaledSheet(0.5f);
  std::vector<float> uvs = mesh.corner_uvs;
  uvs.pop_back();
  EXPECT_THAT(DefaultPatternWavelength(mesh.triangles, mesh.positions, uvs)
                  .status()
                  .message(),
              HasSubstr("corner UV floats"));
  std::vector<io::Triangle> triangles = mesh.triangles;
  triangles[3][1] = 10000;
  EXPECT_THAT(
      DefaultPatternWavelength(triangles, mesh.positions, mesh.corner_uvs)
          .status()
          .message(),
      HasSubstr("triangle 3 names vertex 10000"));
  std::vector<float> positions = mesh.positions;
  positions[7] = NAN;
  EXPECT_THAT(
      DefaultPatternWavelength(mesh.triangles, positions, mesh.corner_uvs)
          .status()
          .message(),
      HasSubstr("vertex 2 is not finite"));
  uvs = mesh.corner_uvs;
  uvs[13] = INFINITY;
  EXPECT_THAT(DefaultPatternWavelength(mesh.triangles, mesh.positions, uvs)
                  .status()
                  .message(),
              HasSubstr("triangle 2's corner UV"));
}

// At least 12 texels a wavelength, a power of two in 64..1024 a side, and the
// sinusoids' own wavelength within the rounding of whole cycles per tile.
TEST(DefaultPatternTest, PatternTexelsFollowTheWavelength) {
  const struct {
    double wavelength;
    int size;
  } cases[] = {{1.0, 64},          {1.0 / 16.0, 256}, {1.0 / 21.0, 256},
               {1.0 / 22.0, 512},  {1.0 / 37.1, 512}, {1.0 / 64.0, 1024},
               {1.0 / 256.0, 1024}};
  for (const auto& c : cases) {
    absl::StatusOr<WrinklePattern> pattern = MakeDefaultPattern(c.wavelength);
    ASSERT_TRUE(pattern.ok()) << pattern.status();
    EXPECT_EQ(pattern->width, c.size) << c.wavelength;
    EXPECT_EQ(pattern->height, c.size) << c.wavelength;
    EXPECT_EQ(pattern->channels, 3);
  }
  absl::StatusOr<WrinklePattern> fox = MakeDefaultPattern(1.0 / 37.1);
  ASSERT_TRUE(fox.ok());
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(PatternWavelength(*fox, c), 1.0 / 37.1, 0.04 / 37.1) << c;
  }
  EXPECT_FALSE(MakeDefaultPattern(2.0).ok());
  EXPECT_FALSE(MakeDefaultPattern(1.0 / 512.0).ok());
}

// The Fox's atlas: 1/16 UV is about 7 % of its diagonal on the body, one
// crest per coarse edge; the default is 3 %, under one median edge.
TEST(DefaultPatternTest, FoxGetsFoldsFinerThanItsEdges) {
  io::GltfOptions options;
  options.animation = "Walk";
  auto fox = io::ReadGltf(testing::BundledPath("Fox.glb"), options);
  ASSERT_TRUE(fox.ok()) << fox.status();
  const double wavelength = WavelengthOf(fox->mesh);
  // World length per UV unit and edge lengths, per triangle side.
  std::vector<double> per_uv, edges;
  const auto& p = fox->mesh.positions;
  const auto& uv = fox->mesh.corner_uvs;
  for (size_t t = 0; t < fox->mesh.triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const int a = fox->mesh.triangles[t][k];
      const int b = fox->mesh.triangles[t][(k + 1) % 3];
      const double world =
          std::hypot(p[3 * b] - p[3 * a], p[3 * b + 1] - p[3 * a + 1],
                     p[3 * b + 2] - p[3 * a + 2]);
      const size_t i = 6 * t + 2 * k, j = 6 * t + 2 * ((k + 1) % 3);
      const double in_uv = std::hypot(uv[j] - uv[i], uv[j + 1] - uv[i + 1]);
      edges.push_back(world);
      if (in_uv > 1e-12 && world > 1e-12) per_uv.push_back(world / in_uv);
    }
  }
  std::sort(per_uv.begin(), per_uv.end());
  std::sort(edges.begin(), edges.end());
  const double scale = per_uv[per_uv.size() / 2];
  const double median_edge = edges[edges.size() / 2];
  EXPECT_GT(scale / 16.0, median_edge);  // 1/16 UV: more than an edge
  EXPECT_LT(wavelength * scale, median_edge);
  EXPECT_GT(wavelength, 1.0 / 64.0);
  EXPECT_LT(wavelength, 1.0 / 32.0);
}

}  // namespace
}  // namespace crease
