// Fold families (docs/algorithm.md, "Fold families"): the compression
// field's directions smoothed over neighbouring compressed triangles but not
// across creases, traces that turn at most a bounded angle per triangle,
// straight walks on the surface, and siblings seeded across a fold that run
// beside it.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <utility>
#include <vector>

#include "tests/testing/session_runner.h"
#include "tests/wrinkle/wrinkle_sheet_test.h"
#include "wrinkle/core/field_smoothing.h"
#include "wrinkle/core/mesh.h"
#include "wrinkle/core/surface.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/sca2015/tracing.h"
#include "wrinkle/sca2015/wrinkle_stats.h"

namespace crease {
namespace {

constexpr double kDegree = std::numbers::pi / 180.0;

// A mesh with its per-triangle frames and a field to set by hand.
struct Scene {
  explicit Scene(MeshTopology t) : topology(std::move(t)) {}
  MeshTopology topology;
  std::vector<Eigen::Vector3d> positions;
  std::vector<Eigen::Matrix2d> edge_matrices;
  std::vector<LocalFrame> frames;
  std::vector<StretchTensor> field;

  SurfaceFrame Surface() const {
    SurfaceFrame s;
    s.topology = &topology;
    s.positions = positions;
    s.edge_matrices = edge_matrices;
    s.frames = frames;
    s.field = field;
    return s;
  }
  Eigen::Vector3d Normal(int32_t f) const {
    return frames[f].x_axis.cross(frames[f].y_axis);
  }
  Eigen::Vector3d Centroid(int32_t f) const {
    Eigen::Vector3d c = Eigen::Vector3d::Zero();
    for (int32_t v : topology.triangles()[f]) c += positions[v];
    return c / 3.0;
  }
};

// A 1 x 1 grid sheet of n x n quads in the XZ plane; with `fold`, the part
// z > 0.5 is turned up about the line z = 0.5 by 90 degrees (to y = z -
// 0.5), a crease across the sheet.
std::unique_ptr<Scene> Sheet(int n, bool fold) {
  const io::TriangleMesh sheet = MakeGridSheet(n, n, 1.0f, 1.0f);
  auto topology = MeshTopology::Build(sheet.triangles, sheet.positions);
  if (!topology.ok()) return nullptr;
  auto scene = std::make_unique<Scene>(*std::move(topology));
  for (int v = 0; v < sheet.num_vertices(); ++v) {
    const double x = sheet.positions[3 * v], z = sheet.positions[3 * v + 2];
    scene->positions.emplace_back(x, fold && z > 0.5 ? z - 0.5 : 0.0,
                                  fold && z > 0.5 ? 0.5 : z);
  }
  const int faces = scene->topology.num_triangles();
  scene->edge_matrices.resize(faces);
  scene->frames.resize(faces);
  for (int32_t f = 0; f < faces; ++f) {
    const io::Triangle& t = scene->topology.triangles()[f];
    scene->edge_matrices[f] =
        EdgeMatrix(scene->positions[t[0]], scene->positions[t[1]],
                   scene->positions[t[2]], &scene->frames[f]);
  }
  scene->field.resize(faces);
  return scene;
}

// Compressed by c along `direction` (in the triangle's plane), stretched
// 1.0 the other way.
StretchTensor Compressed(double c, const Eigen::Vector3d& direction,
                         const Eigen::Vector3d& normal) {
  StretchTensor t;
  t.lambda_min = 1.0 / c;
  t.lambda_max = 1.0;
  t.compression = c;
  t.compression_dir = direction.normalized();
  t.wrinkle_dir = normal.cross(t.compression_dir);
  return t;
}

double AngleDegrees(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return std::acos(
             std::min(1.0, std::abs(a.normalized().dot(b.normalized())))) /
         kDegree;
}

// Directions 30 degrees either side of x, at random, on a flat sheet
// compressed everywhere: smoothed, every triangle away from the border runs
// within a few degrees of x; magnitudes and uncompressed triangles are left
// as they were.
TEST(FieldSmoothingTest, NoisyDirectionsOfOneRegionAlign) {
  auto scene = Sheet(10, /*fold=*/false);
  ASSERT_NE(scene, nullptr);
  SplitMix64 rng(7);
  const int faces = scene->topology.num_triangles();
  double raw_worst = 0;
  for (int32_t f = 0; f < faces; ++f) {
    const double angle = (rng.Uniform() * 60.0 - 30.0) * kDegree;
    const Eigen::Vector3d dir(std::cos(angle), 0, std::sin(angle));
    scene->field[f] = Compressed(1.5, dir, scene->Normal(f));
    raw_worst =
        std::max(raw_worst, AngleDegrees(dir, Eigen::Vector3d::UnitX()));
  }
  // One corner triangle stays at rest: smoothing must not give it a fold.
  scene->field[0] = StretchTensor{};
  const std::vector<StretchTensor> raw = scene->field;
  FieldSmoothingScratch scratch;
  SmoothFieldDirections(scene->topology, scene->frames, scene->edge_matrices,
                        FieldSmoothingParams{}, 1.0, scratch,
                        absl::MakeSpan(scene->field));
  double worst = 0;
  for (int32_t f = 1; f < faces; ++f) {
    const Eigen::Vector3d c = scene->Centroid(f);
    EXPECT_EQ(scene->field[f].compression, raw[f].compression);
    EXPECT_EQ(scene->field[f].lambda_min, raw[f].lambda_min);
    EXPECT_NEAR(
        scene->field[f].wrinkle_dir.dot(scene->field[f].compression_dir), 0.0,
        1e-12);
    if (c.x() < 0.2 || c.x() > 0.8 || c.z() < 0.2 || c.z() > 0.8) continue;
    worst = std::max(worst, AngleDegrees(scene->field[f].compression_dir,
                                         Eigen::Vector3d::UnitX()));
  }
  EXPECT_GT(raw_worst, 25.0);
  EXPECT_LT(worst, 8.0);
  EXPECT_EQ(scene->field[0].compression_dir, raw[0].compression_dir);
  EXPECT_EQ(scene->field[0].compression, 1.0);
}

// Only the triangles a wrinkle may follow (compressed beyond the threshold)
// need their smoothed directions. With `rings` = passes - 1 they end exactly
// as if every triangle were smoothed; with 0 rings only they change, pulled
// by their neighbours' own directions.
TEST(FieldSmoothingTest,
     RingsAroundTheFollowedTrianglesAreSmoothedAsFarAsAsked) {
  auto scene = Sheet(10, /*fold=*/false);
  ASSERT_NE(scene, nullptr);
  SplitMix64 rng(11);
  const int faces = scene->topology.num_triangles();
  constexpr double kThreshold = 1.3;
  for (int32_t f = 0; f < faces; ++f) {
    const double angle = (rng.Uniform() * 60.0 - 30.0) * kDegree;
    const Eigen::Vector3d dir(std::cos(angle), 0, std::sin(angle));
    const Eigen::Vector3d c = scene->Centroid(f);
    const bool patch =
        std::abs(c.x() - 0.5) < 0.15 && std::abs(c.z() - 0.5) < 0.15;
    scene->field[f] = Compressed(patch ? 1.5 : 1.1, dir, scene->Normal(f));
  }
  const std::vector<StretchTensor> raw = scene->field;
  const auto smoothed = [&](double threshold, int rings) {
    std::vector<StretchTensor> field = raw;
    FieldSmoothingParams params;
    params.rings = rings;
    FieldSmoothingScratch scratch;
    SmoothFieldDirections(scene->topology, scene->frames, scene->edge_matrices,
                          params, threshold, scratch, absl::MakeSpan(field));
    return field;
  };
  const std::vector<StretchTensor> everywhere = smoothed(1.0, 0);
  const std::vector<StretchTensor> all_rings = smoothed(kThreshold, 3);
  const std::vector<StretchTensor> no_rings = smoothed(kThreshold, 0);
  int followed = 0, differ = 0;
  for (int32_t f = 0; f < faces; ++f) {
    if (raw[f].compression > kThreshold) {
      ++followed;
      EXPECT_EQ(all_rings[f].compression_dir, everywhere[f].compression_dir);
      differ += no_rings[f].compression_dir != everywhere[f].compression_dir;
    } else {
      EXPECT_EQ(no_rings[f].compression_dir, raw[f].compression_dir);
    }
  }
  EXPECT_GT(followed, 10);
  EXPECT_GT(differ, 0);  // the rings matter: the test can fail
}

// A sheet folded 90 degrees: compressed across the crease line on the flat
// half (along z) and along it on the upturned half (along x). Each half
// keeps its own direction up to the crease; without the crease rule, the
// other half's direction, projected, pulls the triangles beside it.
TEST(FieldSmoothingTest, CreasesKeepTheirOwnDirections) {
  for (double crease : {45.0, 180.0}) {
    auto scene = Sheet(10, /*fold=*/true);
    ASSERT_NE(scene, nullptr);
    const int faces = scene->topology.num_triangles();
    for (int32_t f = 0; f < faces; ++f) {
      const bool up = scene->Centroid(f).y() > 1e-9;
      scene->field[f] =
          Compressed(up ? 1.6 : 1.4,
                     up ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitZ(),
                     scene->Normal(f));
    }
    FieldSmoothingParams params;
    params.crease_degrees = crease;
    FieldSmoothingScratch scratch;
    SmoothFieldDirections(scene->topology, scene->frames, scene->edge_matrices,
                          params, 1.0, scratch, absl::MakeSpan(scene->field));
    double worst = 0;  // on the flat half, off z
    for (int32_t f = 0; f < faces; ++f) {
      if (scene->Centroid(f).y() > 1e-9) continue;
      worst = std::max(worst, AngleDegrees(scene->field[f].compression_dir,
                                           Eigen::Vector3d::UnitZ()));
    }
    if (crease == 45.0) {
      EXPECT_LT(worst, 1e-6);
    } else {
      EXPECT_GT(worst, 20.0);  // the test can fail
    }
  }
}

// BoundedTurn: the field's direction when it is within the bound (either
// sign), else the heading turned by the bound towards it, in the plane.
TEST(BoundedTurnTest, TurnsAtMostTheBoundWithinThePlane) {
  const Eigen::Vector3d n(0, 1, 0), x(1, 0, 0);
  auto at = [](double degrees) {
    return Eigen::Vector3d(std::cos(degrees * kDegree), 0,
                           -std::sin(degrees * kDegree));
  };
  // n x a rotates a towards -z here, so positive angles run towards -z.
  EXPECT_LT((BoundedTurn(x, at(10), n, 12) - at(10)).norm(), 1e-12);
  EXPECT_LT((BoundedTurn(x, -at(10), n, 12) - at(10)).norm(), 1e-12);
  EXPECT_LT((BoundedTurn(x, at(40), n, 12) - at(12)).norm(), 1e-12);
  EXPECT_LT((BoundedTurn(x, at(-40), n, 12) - at(-12)).norm(), 1e-12);
  // 170 degrees is -10 with the sign flipped: a wrinkle has no sign.
  EXPECT_LT((BoundedTurn(x, at(170), n, 12) - at(-10)).norm(), 1e-12);
  // A heading partly out of the plane is projected first.
  EXPECT_LT(
      (BoundedTurn(Eigen::Vector3d(1, 1, 0), at(40), n, 12) - at(12)).norm(),
      1e-12);
  // 180: the field's direction, as the papers trace.
  EXPECT_LT((BoundedTurn(x, at(80), n, 180) - at(80)).norm(), 1e-12);
  // Along the normal there is no heading in the plane.
  EXPECT_EQ(BoundedTurn(n, at(10), n, 12), Eigen::Vector3d::Zero());
}

// The face whose centroid is nearest p.
int32_t NearestFace(const Scene& scene, const Eigen::Vector3d& p) {
  int32_t best = 0;
  for (int32_t f = 1; f < scene.topology.num_triangles(); ++f) {
    if ((scene.Centroid(f) - p).squaredNorm() <
        (scene.Centroid(best) - p).squaredNorm()) {
      best = f;
    }
  }
  return best;
}

// A walk is straight on the flat sheet, keeps its length over a crease
// (carried up the folded half), and stops at the border.
TEST(WalkOnSurfaceTest, StraightAcrossTrianglesAndCreasesStopsAtTheBorder) {
  auto flat = Sheet(8, /*fold=*/false);
  ASSERT_NE(flat, nullptr);
  const SurfaceFrame surface = flat->Surface();
  const int32_t start_face = NearestFace(*flat, {0.2, 0, 0.3});
  const Eigen::Vector3d start = flat->Centroid(start_face);
  // Not along the grid's diagonals, which a walk would run along.
  const Eigen::Vector3d dir = Eigen::Vector3d(1, 0, 0.4).normalized();
  int32_t face;
  Eigen::Vector3d end;
  ASSERT_TRUE(WalkOnSurface(surface, start_face, start, dir, 0.4, &face, &end));
  EXPECT_LT((end - (start + 0.4 * dir)).norm(), 1e-9);
  EXPECT_EQ(face, NearestFace(*flat, end)) << "the triangle it ends in";
  EXPECT_FALSE(WalkOnSurface(surface, start_face, start,
                             -Eigen::Vector3d::UnitX(), 0.5, &face, &end));
  EXPECT_NEAR(end.x(), 0.0, 1e-9) << "stopped on the border";

  auto folded = Sheet(8, /*fold=*/true);
  ASSERT_NE(folded, nullptr);
  const int32_t low = NearestFace(*folded, {0.5, 0, 0.3});
  const Eigen::Vector3d from = folded->Centroid(low);
  // Straight up the sheet (+z, then +y past the crease at z = 0.5).
  ASSERT_TRUE(WalkOnSurface(folded->Surface(), low, from,
                            Eigen::Vector3d::UnitZ(), 0.4, &face, &end));
  const double beyond = 0.4 - (0.5 - from.z());
  EXPECT_NEAR(end.z(), 0.5, 1e-9);
  EXPECT_NEAR(end.y(), beyond, 1e-9);
  EXPECT_NEAR(end.x(), from.x(), 1e-9);
}

// A sheet squeezed along x everywhere: a fold seeded at a peak brings a
// sibling on each side, two of its (seeding) widths away, running beside
// it; without families, folds keep the seeding's spacing, one and a half
// triangles apart.
TEST(FoldFamilyTest, SiblingsRunBesideTheirFold) {
  const io::TriangleMesh sheet = MakeGridSheet(16, 16, 1.0f, 1.0f);
  std::vector<float> squeezed;
  testing::SqueezeSheet(sheet, 0.7, 0.0, 2.0, &squeezed);
  double nearest[2] = {0, 0};  // mid point to mid point, in mid widths
  for (bool families : {false, true}) {
    SessionParams params;
    params.wrinkles.max_new_per_frame = 3;  // one fold and its two siblings
    params.wrinkles.family_spacing_widths = families ? 2.0 : 0.0;
    auto session = testing::NewSession(sheet, params);
    ASSERT_NE(session, nullptr);
    ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
    ASSERT_TRUE(session->ProcessFrame(squeezed).ok());
    const auto& shapes = session->tracker().shapes();
    ASSERT_EQ(shapes.size(), 3u);
    // Each runs along z, across the squeeze.
    std::vector<MidPoint> middles;
    for (const WrinkleShape& shape : shapes) {
      const auto mid = ArcLengthMiddle(shape.refined);
      ASSERT_TRUE(mid.has_value());
      middles.push_back(*mid);
      EXPECT_LT(AngleDegrees(mid->tangent, Eigen::Vector3d::UnitZ()), 10.0);
    }
    nearest[families] = 1e300;
    for (int a = 0; a < 3; ++a) {
      for (int b = a + 1; b < 3; ++b) {
        nearest[families] =
            std::min(nearest[families],
                     std::abs(middles[a].point.x() - middles[b].point.x()) /
                         shapes[a].mid_width);
      }
    }
    if (families) {
      EXPECT_LT((middles[1].point.x() - middles[0].point.x()) *
                    (middles[2].point.x() - middles[0].point.x()),
                0.0)
          << "one sibling on each side";
    }
  }
  RecordProperty("nearest_widths_apart_alone", std::to_string(nearest[0]));
  RecordProperty("nearest_widths_apart_family", std::to_string(nearest[1]));
  // Two seeding widths; a fold's shape is wider than its seeding width where
  // it holds its band's slack (docs/algorithm.md, "Shape"), so fewer of its
  // mid widths.
  EXPECT_GT(nearest[1], 1.0);
  EXPECT_LT(nearest[1], 2.5);
  EXPECT_GT(nearest[0], 3.0);
}

}  // namespace
}  // namespace crease
