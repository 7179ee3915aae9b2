// The UV-space maps: tangent frames, dilation, and the GPU maps of a squeezed
// sheet held to the wrinkle's own profile (docs/algorithm.md, "UV-space
// maps").
#include <Eigen/Core>
#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "renderer/frame_data.h"
#include "renderer/uv_map_dilation.h"
#include "renderer/uv_map_renderer.h"
#include "renderer/uv_maps.h"
#include "tests/renderer/renderer_fixture.h"
#include "tests/renderer/uv_map_difference.h"
#include "tests/testing/bundled_path.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/data/weld.h"
#include "wrinkle/io/gltf.h"

namespace crease::renderer {
namespace {

// UVs of a MakeGridSheet(_, _, 1, 1) sheet: u = x, v = z at rest.
std::vector<float> SheetUvs(const io::TriangleMesh& rest) {
  std::vector<float> uvs;
  for (const io::Triangle& t : rest.triangles) {
    for (int32_t v : t) {
      uvs.push_back(rest.positions[3 * v]);
      uvs.push_back(rest.positions[3 * v + 2]);
    }
  }
  return uvs;
}

// Checks every corner's frame on a flat sheet with `uvs`: the tangent is
// `tangent`, and sign * n x t (the bitangent) is +z.
void ExpectSheetFrames(const io::TriangleMesh& sheet,
                       const std::vector<float>& uvs,
                       const Eigen::Vector3f& tangent) {
  std::vector<int32_t> welded(sheet.num_vertices());
  for (int v = 0; v < sheet.num_vertices(); ++v) welded[v] = v;
  const RenderMesh mesh{sheet.positions, sheet.triangles, welded, uvs};
  SmoothNormals normals;
  normals.Compute(mesh);
  std::vector<float> tangents;
  CornerTangents(mesh, normals.interleaved(), &tangents);
  ASSERT_EQ(tangents.size(), 4 * 3 * sheet.triangles.size());
  for (size_t corner = 0; corner < 3 * sheet.triangles.size(); ++corner) {
    const int32_t v = sheet.triangles[corner / 3][corner % 3];
    const Eigen::Vector3f n =
        Eigen::Vector3f::Map(&normals.interleaved()[6 * v + 3]).normalized();
    const Eigen::Vector3f t(tangents[4 * corner], tangents[4 * corner + 1],
                            tangents[4 * corner + 2]);
    EXPECT_NEAR((t - tangent).norm(), 0.0f, 1e-5f) << corner;
    const Eigen::Vector3f b = tangents[4 * corner + 3] * n.cross(t);
    EXPECT_NEAR((b - Eigen::Vector3f::UnitZ()).norm(), 0.0f, 1e-5f) << corner;
  }
}

TEST(CornerTangentsTest, FlatSheetTangentsRunAlongUAndBitangentsAlongV) {
  const io::TriangleMesh sheet = MakeGridSheet(4, 3, 1.0f, 1.0f);
  ExpectSheetFrames(sheet, SheetUvs(sheet), Eigen::Vector3f::UnitX());
}

TEST(CornerTangentsTest, MirroredUvsFlipTheBitangentSign) {
  const io::TriangleMesh sheet = MakeGridSheet(2, 2, 1.0f, 1.0f);
  std::vector<float> uvs = SheetUvs(sheet);
  for (size_t i = 0; i < uvs.size(); i += 2) uvs[i] = 1.0f - uvs[i];  // u = 1-x
  // u now runs along -x; v still along +z, so the sign must flip.
  ExpectSheetFrames(sheet, uvs, -Eigen::Vector3f::UnitX());
}

// The tangent rule (docs/algorithm.md, "Tangent frame") written plainly, a
// corner at a time: the face's dp/du, normalised and weighted by the
// corner's own angle (atan2 of its two edges), summed over the corners with
// the same welded vertex, UV bits and handedness; made orthogonal to the
// smooth normal; the bitangent's sign from the face's and the UV triangle's
// turns. Per corner (t, sign); sign 0 where the face's UVs are degenerate.
std::vector<Eigen::Vector4f> TangentsByThePlainRule(
    const RenderMesh& mesh, const SmoothNormals& normals) {
  auto position = [&](int32_t v) {
    return Eigen::Vector3f(mesh.positions[3 * v], mesh.positions[3 * v + 1],
                           mesh.positions[3 * v + 2]);
  };
  auto uv = [&](size_t corner) {
    return Eigen::Vector2f(mesh.corner_uvs[2 * corner],
                           mesh.corner_uvs[2 * corner + 1]);
  };
  using Key = std::tuple<int32_t, uint32_t, uint32_t, bool>;
  std::map<Key, Eigen::Vector3f> sums;
  std::vector<Key> keys(3 * mesh.triangles.size());
  std::vector<Eigen::Vector4f> out(keys.size(), Eigen::Vector4f::Zero());
  for (size_t f = 0; f < mesh.triangles.size(); ++f) {
    const io::Triangle& tri = mesh.triangles[f];
    const Eigen::Vector3f e1 = position(tri[1]) - position(tri[0]),
                          e2 = position(tri[2]) - position(tri[0]);
    const Eigen::Vector2f d1 = uv(3 * f + 1) - uv(3 * f),
                          d2 = uv(3 * f + 2) - uv(3 * f);
    const float det = d1.x() * d2.y() - d2.x() * d1.y();
    if (!(std::abs(det) > 1e-20f)) continue;
    const Eigen::Vector3f t = (e1 * d2.y() - e2 * d1.y()) / det;
    const Eigen::Vector3f b = (e2 * d1.x() - e1 * d2.x()) / det;
    const bool right = e1.cross(e2).dot(t.cross(b)) >= 0.0f;
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3f a = position(tri[(k + 1) % 3]) - position(tri[k]),
                            c = position(tri[(k + 2) % 3]) - position(tri[k]);
      const size_t corner = 3 * f + k;
      keys[corner] = {mesh.welded[tri[k]],
                      std::bit_cast<uint32_t>(uv(corner).x()),
                      std::bit_cast<uint32_t>(uv(corner).y()), right};
      auto it = sums.try_emplace(keys[corner], Eigen::Vector3f::Zero()).first;
      it->second += std::atan2(a.cross(c).norm(), a.dot(c)) * t.normalized();
      const Eigen::Vector3f n =
          Eigen::Vector3f::Map(&normals.interleaved()[6 * tri[k] + 3])
              .normalized();
      out[corner].w() = (det >= 0.0f) == (e1.cross(e2).dot(n) >= 0.0f) ? 1 : -1;
    }
  }
  for (size_t corner = 0; corner < out.size(); ++corner) {
    if (out[corner].w() == 0) continue;
    const int32_t v = mesh.triangles[corner / 3][corner % 3];
    const Eigen::Vector3f n =
        Eigen::Vector3f::Map(&normals.interleaved()[6 * v + 3]).normalized();
    const Eigen::Vector3f sum = sums[keys[corner]];
    out[corner].head<3>() = (sum - n.dot(sum) * n).normalized();
  }
  return out;
}

// CornerTangents, which shares work within a face, agrees with the rule
// written plainly on the Fox's glTF mesh (UV seams, and bitangent signs of
// both kinds: 1,716 of its 1,728 corners -1).
TEST(CornerTangentsTest, FoxMatchesTheRuleWrittenPlainly) {
  io::GltfOptions options;
  options.frames = 1;
  auto fox = io::ReadGltf(testing::BundledPath("Fox.glb"), options);
  ASSERT_TRUE(fox.ok()) << fox.status();
  const auto positions = fox->frames.Sample(0);
  int num_welded = 0;
  const std::vector<int32_t> welded = WeldVerticesRelative(
      positions, kDefaultWeldRelativeTolerance, &num_welded);
  const RenderMesh mesh{positions, fox->mesh.triangles, welded,
                        fox->mesh.corner_uvs};
  SmoothNormals normals;
  normals.Compute(mesh);
  std::vector<float> tangents;
  CornerTangents(mesh, normals.interleaved(), &tangents);
  const std::vector<Eigen::Vector4f> expected =
      TangentsByThePlainRule(mesh, normals);
  int checked = 0, mirrored = 0;
  for (size_t corner = 0; corner < expected.size(); ++corner) {
    if (expected[corner].w() == 0) continue;
    const Eigen::Vector4f actual(tangents[4 * corner], tangents[4 * corner + 1],
                                 tangents[4 * corner + 2],
                                 tangents[4 * corner + 3]);
    EXPECT_LT((actual.head<3>() - expected[corner].head<3>()).norm(), 1e-4f)
        << "corner " << corner;
    EXPECT_EQ(actual.w(), expected[corner].w()) << "corner " << corner;
    ++checked;
    mirrored += actual.w() < 0;
  }
  EXPECT_GT(checked, 1500);
  EXPECT_GT(mirrored, 0);
  EXPECT_LT(mirrored, checked);
  RecordProperty("mirrored_corners", mirrored);
}

// A scratch kept across frames gives what a fresh call gives, keeps its
// storage while the mesh's triangles, weld and UVs stay (so frames do not
// allocate), and notices when the UVs change.
TEST(CornerTangentsTest, ScratchKeepsItsStorageAndFollowsTheUvs) {
  io::TriangleMesh sheet = MakeGridSheet(4, 3, 1.0f, 1.0f);
  std::vector<int32_t> welded(sheet.num_vertices());
  for (int v = 0; v < sheet.num_vertices(); ++v) welded[v] = v;
  std::vector<float> uvs = SheetUvs(sheet);
  TangentScratch scratch;
  std::vector<float> kept, fresh;
  const auto tangents_of = [&](const std::vector<float>& positions) {
    const RenderMesh mesh{positions, sheet.triangles, welded, uvs};
    SmoothNormals normals;
    normals.Compute(mesh);
    CornerTangents(mesh, normals.interleaved(), &kept, &scratch);
    CornerTangents(mesh, normals.interleaved(), &fresh);
    EXPECT_EQ(kept, fresh);
  };
  tangents_of(sheet.positions);
  const int32_t* keys = scratch.key.data();
  const Eigen::Vector3f* sums = scratch.sums.data();
  // The next frame bends the sheet: same keys, same storage.
  std::vector<float> bent = sheet.positions;
  for (size_t i = 0; i < bent.size(); i += 3)
    bent[i + 1] = 0.3f * bent[i] * bent[i];
  tangents_of(bent);
  EXPECT_EQ(scratch.key.data(), keys);
  EXPECT_EQ(scratch.sums.data(), sums);
  // Mirrored UVs: the keys are made anew and the tangents follow (-x).
  for (size_t i = 0; i < uvs.size(); i += 2) uvs[i] = 1.0f - uvs[i];
  tangents_of(sheet.positions);
  EXPECT_NEAR(kept[0], -1.0f, 1e-5f);
}

TEST(DilateUvMapsTest, GrowsOneRingPerPassWithTheNeighboursMean) {
  UvMaps maps;
  maps.size = 7;
  maps.normal.width = maps.normal.height = 7;
  maps.normal.pixels.assign(4 * 49, 0);
  maps.height.assign(49, 0);
  // One covered texel, tilted along +x; and its height.
  const size_t centre = 3 * 7 + 3;
  maps.normal.pixels[4 * centre + 0] = 218;  // x = 0.71
  maps.normal.pixels[4 * centre + 1] = 128;
  maps.normal.pixels[4 * centre + 2] = 218;  // z = 0.71
  maps.normal.pixels[4 * centre + 3] = 255;
  maps.height[centre] = 1000;
  DilateUvMaps(1, &maps);
  auto covered = [&] {
    int n = 0;
    for (size_t i = 0; i < 49; ++i) n += maps.normal.pixels[4 * i + 3] == 255;
    return n;
  };
  EXPECT_EQ(covered(), 9);
  const size_t corner = 2 * 7 + 2;
  EXPECT_EQ(maps.height[corner], 1000);
  EXPECT_NEAR(maps.normal.pixels[4 * corner + 0], 218, 1);
  EXPECT_NEAR(maps.normal.pixels[4 * corner + 2], 218, 1);
  EXPECT_EQ(maps.height[0], 0);
  DilateUvMaps(5, &maps);
  EXPECT_EQ(covered(), 49);
  EXPECT_EQ(maps.height[0], 1000);
}

// The dilation's rule written plainly, as the reference: ring by ring, every
// uncovered texel with covered 8-neighbours takes their mean normal
// (renormalised) and mean height, all of a ring read before any is written.
void NaiveDilate(int rings, UvMaps* maps) {
  const int size = maps->size;
  for (int ring = 0; ring < rings; ++ring) {
    UvMaps before = *maps;
    auto covered = [&](int x, int y) {
      return x >= 0 && y >= 0 && x < size && y < size &&
             before.normal.pixels[4 * (y * size + x) + 3] == 255;
    };
    for (int y = 0; y < size; ++y) {
      for (int x = 0; x < size; ++x) {
        if (covered(x, y)) continue;
        float sum[3] = {0, 0, 0};
        uint32_t height = 0, count = 0;
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            if (!covered(x + dx, y + dy)) continue;
            const int j = (y + dy) * size + x + dx;
            for (int c = 0; c < 3; ++c) {
              sum[c] += before.normal.pixels[4 * j + c] / 127.5f - 1.0f;
            }
            height += before.height[j];
            ++count;
          }
        }
        if (count == 0) continue;
        const float len =
            std::sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
        uint8_t* out = &maps->normal.pixels[4 * (y * size + x)];
        for (int c = 0; c < 3; ++c) {
          const float unit = len > 0 ? sum[c] / len : (c == 2 ? 1.0f : 0.0f);
          out[c] = static_cast<uint8_t>(
              std::clamp(0.5f * unit + 0.5f, 0.0f, 1.0f) * 255.0f + 0.5f);
        }
        out[3] = 255;
        maps->height[y * size + x] =
            static_cast<uint16_t>((height + count / 2) / count);
      }
    }
  }
}

UvMaps EmptyMaps(int size) {
  UvMaps maps;
  maps.size = size;
  maps.normal.width = maps.normal.height = size;
  maps.normal.pixels.assign(4 * size * size, 0);
  maps.height.assign(size * size, 0);
  return maps;
}

// Covers [x0, x1] x [y0, y1] with a normal tilted along +x by `tilt` levels
// and `height`.
void Cover(int x0, int y0, int x1, int y1, int tilt, uint16_t height,
           UvMaps* maps) {
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      uint8_t* p = &maps->normal.pixels[4 * (y * maps->size + x)];
      p[0] = static_cast<uint8_t>(128 + tilt);
      p[1] = 128;
      p[2] = 255;
      p[3] = 255;
      maps->height[y * maps->size + x] = height;
    }
  }
}

TEST(DilationPlanTest, BuildDilatesAsTheRuleSays) {
  UvMaps maps = EmptyMaps(40);
  Cover(5, 5, 12, 14, 0, 0, &maps);
  Cover(9, 10, 12, 14, 60, 5000, &maps);
  Cover(24, 20, 33, 35, -30, 700, &maps);
  UvMaps expected = maps;
  NaiveDilate(4, &expected);
  DilationPlan plan;
  plan.Build(4, &maps);
  EXPECT_EQ(maps.normal.pixels, expected.normal.pixels);
  EXPECT_EQ(maps.height, expected.height);
  // Rings beyond what the map holds are clamped, not an error.
  UvMaps tiny = EmptyMaps(3);
  Cover(1, 1, 1, 1, 0, 9, &tiny);
  plan.Build(1 << 30, &tiny);
  EXPECT_EQ(tiny.height, std::vector<uint16_t>(9, 9));
}

// Two flat islands on a 40 x 40 map (16-texel tiles); a frame draws a wrinkle
// on island A's right edge (x = 12), so its fourth ring (x = 16) lies in the
// next tile: a refill that reached 3 texels instead of 4 would leave it stale.
// Refilling around the change must give what dilating the drawn frame afresh
// gives, and leave island B's rings in untouched tiles alone.
TEST(DilationPlanTest, RefillAroundAChangeEqualsDilatingAfresh) {
  const int size = 40;
  UvMaps flat = EmptyMaps(size);
  Cover(5, 5, 12, 14, 0, 0, &flat);    // island A
  Cover(24, 20, 33, 35, 0, 0, &flat);  // island B
  UvMaps expected = flat;              // the frame, dilated afresh
  Cover(9, 10, 12, 14, 60, 5000, &expected);
  NaiveDilate(4, &expected);
  ASSERT_GT(expected.height[12 * size + 16], 0);  // the fourth ring changed

  DilationPlan plan;
  UvMaps frame = flat;
  plan.Build(4, &frame);  // the dilated base
  EXPECT_GT(plan.fills(), 0u);
  Cover(9, 10, 12, 14, 60, 5000, &frame);  // drawn over the base's copy
  // A sentinel in one of B's rings, in a tile the change does not reach.
  const int sentinel = 36 * size + 35;
  frame.height[sentinel] = 777;
  const TexelBox boxes[] = {{9, 10, 12, 14}, {}};  // and an empty box
  plan.Refill(boxes, &frame);
  EXPECT_EQ(frame.height[sentinel], 777);
  frame.height[sentinel] = expected.height[sentinel];
  EXPECT_EQ(frame.normal.pixels, expected.normal.pixels);
  EXPECT_EQ(frame.height, expected.height);

  // Refill skips a fill whose target and sources hold what Build saw, so a
  // target drawn over (its sources unchanged: island A's first ring left of
  // the change) must still be made again.
  // Either map alone drawn over must be enough.
  const int ring_texel = 8 * size + 4;  // left of A's (5, 8)
  const TexelBox over_ring{4, 8, 4, 8};
  frame.normal.pixels[4 * ring_texel] = 7;
  plan.Refill({&over_ring, 1}, &frame);
  EXPECT_EQ(frame.normal.pixels, expected.normal.pixels);
  frame.height[ring_texel] = 4321;
  plan.Refill({&over_ring, 1}, &frame);
  EXPECT_EQ(frame.height, expected.height);

  // A box that misses the change leaves the rings stale: the refill follows
  // the boxes, not the whole map.
  UvMaps stale = flat;
  plan.Build(4, &stale);
  Cover(9, 10, 12, 14, 60, 5000, &stale);
  const TexelBox elsewhere{24, 20, 33, 35};
  plan.Refill({&elsewhere, 1}, &stale);
  EXPECT_NE(stale.height, expected.height);
}

class UvMapTest : public RendererTest {
 protected:
  static void SetUpTestSuite() {
    RendererTest::SetUpTestSuite();
    auto uv = UvMapRenderer::Create(gpu_);
    ASSERT_TRUE(uv.ok()) << uv.status();
    uv_renderer_ = std::move(uv).value().release();
  }
  static void TearDownTestSuite() {
    delete uv_renderer_;
    uv_renderer_ = nullptr;
    RendererTest::TearDownTestSuite();
  }
  static inline UvMapRenderer* uv_renderer_ = nullptr;
};

TEST_F(UvMapTest, RejectsMeshesWithoutValidUvs) {
  SqueezedSheet scene = RunSqueezedSheet(1);
  RenderMesh mesh = MeshOf(*scene.session, scene.positions);
  UvMaps maps;
  EXPECT_EQ(uv_renderer_->Render(mesh, nullptr, {}, &maps).code(),
            absl::StatusCode::kInvalidArgument);
  std::vector<float> uvs = SheetUvs(scene.mesh);
  uvs[7] = std::nanf("");
  mesh.corner_uvs = uvs;
  const absl::Status status = uv_renderer_->Render(mesh, nullptr, {}, &maps);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("triangle 1 corner 0"), std::string::npos)
      << status;
  UvMapOptions too_big;
  too_big.size = 5000;
  const std::vector<float> good_uvs = SheetUvs(scene.mesh);
  mesh.corner_uvs = good_uvs;
  EXPECT_EQ(uv_renderer_->Render(mesh, nullptr, too_big, &maps).code(),
            absl::StatusCode::kInvalidArgument);
  for (int pieces : {0, 65}) {
    UvMapOptions bad_pieces;
    bad_pieces.max_pieces_per_edge = pieces;
    const absl::Status s =
        uv_renderer_->Render(mesh, nullptr, bad_pieces, &maps);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("max_pieces_per_edge"), std::string::npos) << s;
  }
}

// Images run top to bottom, so row 0 is v = 1: UVs on the top half of the
// square cover the rows of the image's top half only.
TEST_F(UvMapTest, RowZeroIsTheTopOfUvSpace) {
  SqueezedSheet scene = RunSqueezedSheet(1);
  std::vector<float> uvs = SheetUvs(scene.mesh);
  for (size_t i = 1; i < uvs.size(); i += 2) uvs[i] = 0.5f + 0.5f * uvs[i];
  RenderMesh mesh = MeshOf(*scene.session, scene.positions);
  mesh.corner_uvs = uvs;
  UvMapOptions options;
  options.size = 64;
  options.dilate_texels = 0;
  UvMaps maps;
  ASSERT_TRUE(uv_renderer_->Render(mesh, nullptr, options, &maps).ok());
  auto covered_rows = [&](int from, int to) {
    int covered = 0;
    for (int row = from; row < to; ++row) {
      for (int x = 0; x < 64; ++x) {
        covered += maps.normal.pixels[4 * (row * 64 + x) + 3] == 255;
      }
    }
    return covered;
  };
  EXPECT_EQ(covered_rows(0, 32), 32 * 64);
  EXPECT_EQ(covered_rows(32, 64), 0);
}

// The sheet's one wrinkle in UV space: flat and zero away from it, its peak
// the wrinkle's largest height, and the normal map the height map's own
// gradient (n ∝ (-dh/du, -dh/dv, 1) on a flat sheet with t = +x, b = +z),
// where the profile is resolved.
// The maps a GPU makes (reached triangles shaded by a compute pass, read
// back through a pixel buffer), forced here, are the rasterised maps read
// straight into their memory, to the rounding of interpolated corners, frame
// after frame, flat frames included.
TEST_F(UvMapTest, ReadsThroughABufferEqualDirectReads) {
  SqueezedSheet scene = RunSqueezedSheet();
  const FrameWrinkles wrinkles = WrinklesOf(*scene.session);
  ASSERT_FALSE(wrinkles.points.empty());
  const std::vector<float> uvs = SheetUvs(scene.mesh);
  RenderMesh mesh = MeshOf(*scene.session, scene.positions);
  mesh.corner_uvs = uvs;
  auto buffered = UvMapRenderer::Create(gpu_, TargetWork::kCompute);
  auto direct = UvMapRenderer::Create(gpu_, TargetWork::kFixedFunction);
  ASSERT_TRUE(buffered.ok() && direct.ok());
  UvMapOptions options;
  options.size = 128;
  const FrameWrinkles* none = nullptr;
  for (const FrameWrinkles* frame : {&wrinkles, none, &wrinkles}) {
    UvMaps a, b;
    ASSERT_TRUE((*buffered)->Render(mesh, frame, options, &a).ok());
    ASSERT_TRUE((*direct)->Render(mesh, frame, options, &b).ok());
    const UvMapDifference d = CompareUvMaps(b, a);
    EXPECT_LE(d.normal_max, 1) << d.ToString();
    EXPECT_LE(d.height_max, 16) << d.ToString();
    EXPECT_EQ(a.size, 128);
    if (frame != nullptr) {
      EXPECT_GT(d.wrinkled, 100);
    }
  }
}

TEST_F(UvMapTest, SqueezedSheetMapsAreTheWrinklesHeightAndItsGradient) {
  SqueezedSheet scene = RunSqueezedSheet(1);
  const FrameWrinkles wrinkles = WrinklesOf(*scene.session);
  ASSERT_FALSE(wrinkles.points.empty());
  float peak = 0;
  for (const RefinedPoint& p : wrinkles.points) {
    peak = std::max(peak, static_cast<float>(p.height));
  }
  ASSERT_GT(peak, 0.0f);
  const std::vector<float> uvs = SheetUvs(scene.mesh);
  RenderMesh mesh = MeshOf(*scene.session, scene.positions);
  mesh.corner_uvs = uvs;
  UvMapOptions options;
  options.size = 256;
  UvMaps maps;
  ASSERT_TRUE(uv_renderer_->Render(mesh, &wrinkles, options, &maps).ok());
  ASSERT_EQ(maps.size, 256);
  auto height = [&](int x, int row) {
    return (maps.height[static_cast<size_t>(row) * 256 + x] -
            maps.height_zero) /
           65535.0f * maps.height_range;
  };
  float max_height = 0, min_height = 0;
  int flat = 0, zero = 0, checked = 0;
  double worst_slope_error = 0;
  for (int row = 2; row < 254; ++row) {
    for (int x = 2; x < 254; ++x) {
      max_height = std::max(max_height, height(x, row));
      min_height = std::min(min_height, height(x, row));
      const uint8_t* n = &maps.normal.pixels[4 * (row * 256 + x)];
      ASSERT_EQ(n[3], 255);
      if (height(x, row) == 0.0f && height(x - 2, row) == 0.0f &&
          height(x + 2, row) == 0.0f) {
        ++zero;
        flat += std::abs(n[0] - 128) <= 1 && std::abs(n[1] - 128) <= 1 &&
                n[2] == 255;
        continue;
      }
      const float nx = n[0] / 127.5f - 1.0f, nz = n[2] / 127.5f - 1.0f;
      const float dh = height(x + 1, row) - height(x - 1, row);
      // d(world x) / du at this u, from SqueezeSheetMiddle's mapping (the
      // sheet is squeezed along x: texels are closer than 1 / 256 there).
      const float u = (x + 0.5f) / 256.0f;
      const float dxdu =
          1.0f - 0.3f * std::cos(2.0f * 3.14159265f * (u - 0.5f));
      const float slope = dh / (2.0f / 256.0f * dxdu);
      if (std::abs(slope) > 2.0f) continue;  // steep flanks: quantised
      worst_slope_error =
          std::max(worst_slope_error, std::abs(-nx / nz - slope) * 1.0);
      ++checked;
    }
  }
  EXPECT_NEAR(max_height, peak, 0.03f * peak);
  // The signed map keeps the shoulders' valleys beside the ridge: 32/243 of
  // its height deep (an unsigned map would clamp them to 0).
  EXPECT_NEAR(min_height, -peak * 32.0f / 243.0f, 0.02f * peak);
  EXPECT_GT(zero, 1000);
  EXPECT_EQ(flat, zero);
  EXPECT_GT(checked, 200);
  EXPECT_LT(worst_slope_error, 0.1);
}

// Hand-made wrinkles on a flat sheet: a half circle and an S, each with ends
// as high as its middle (blunt: a texel past an end projects onto it, and the
// end's cap shows), drawn in pieces and as whole triangles without strips.
// The pieces clip each range to the segments whose reach and cell meet them
// (uv_map_pieces.h), keeping an end's segment: the maps must agree as on the
// bundled frames (PiecesDrawTheSameMapsAsWholeTriangles), and the caps must
// be drawn.
TEST_F(UvMapTest, PiecesKeepCurvedWrinklesAndTheirBluntEnds) {
  io::TriangleMesh sheet = MakeGridSheet(12, 12, 1.0f, 1.0f);
  SetSheetUvs(1.0f, 1.0f, &sheet);
  constexpr double kWidth = 0.03, kHeight = 0.015;
  FrameWrinkles wrinkles = BluntCurvedWrinkles(kWidth, kHeight);
  ListTrianglesReached(sheet.positions, sheet.triangles, &wrinkles);
  std::vector<int32_t> welded(sheet.num_vertices());
  for (int v = 0; v < sheet.num_vertices(); ++v) welded[v] = v;
  const RenderMesh mesh{sheet.positions, sheet.triangles, welded,
                        sheet.corner_uvs};
  UvMapOptions pieces;
  pieces.size = 256;
  UvMapOptions whole = pieces;
  whole.max_pieces_per_edge = 1;
  whole.prune_lookups = false;
  UvMaps expected, actual;
  ASSERT_TRUE(uv_renderer_->Render(mesh, &wrinkles, whole, &expected).ok());
  ASSERT_TRUE(uv_renderer_->Render(mesh, &wrinkles, pieces, &actual).ok());
  const UvMapDifference d = CompareUvMaps(expected, actual);
  EXPECT_LE(d.normal_max, 1) << d.ToString();
  EXPECT_LE(d.height_max, 16) << d.ToString();
  if (HasFailure()) {
    UvMapOptions cut_only = pieces;
    cut_only.prune_lookups = false;
    UvMaps unpruned;
    ASSERT_TRUE(
        uv_renderer_->Render(mesh, &wrinkles, cut_only, &unpruned).ok());
    ADD_FAILURE() << "pieces unpruned: "
                  << CompareUvMaps(expected, unpruned).ToString()
                  << "; maps kept: "
                  << SaveUvMapDifference("blunt_curved_pieces", expected,
                                         actual);
  }
  // Each end's cap: a third of a width from the end point, past it, at
  // t = 2 / (3 sqrt(3)) of the support: P = (1 - u)^2 (1 - 3u) h, u = 4/27.
  auto height_at = [&](const UvMaps& maps, double x, double z) {
    const int col = static_cast<int>(x * 256),
              row = static_cast<int>((1 - z) * 256);
    return (maps.height[static_cast<size_t>(row) * 256 + col] -
            maps.height_zero) /
           65535.0 * maps.height_range;
  };
  for (const Eigen::Vector3d& past :
       {Eigen::Vector3d(0.3 - kWidth / 3, 0, 0.3),
        Eigen::Vector3d(0.3 - kWidth / 3, 0, 0.7),
        Eigen::Vector3d(0.72, 0, 0.2 - kWidth / 3),
        Eigen::Vector3d(0.72, 0, 0.8 + kWidth / 3)}) {
    EXPECT_NEAR(height_at(actual, past.x(), past.z()),
                kHeight * (1 - 4.0 / 27) * (1 - 4.0 / 27) * (1 - 12.0 / 27),
                0.25 * kHeight)
        << past.transpose();
  }
}

}  // namespace
}  // namespace crease::renderer
