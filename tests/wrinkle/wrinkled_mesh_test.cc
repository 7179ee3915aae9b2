#include "wrinkle/outputs/wrinkled_mesh.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/data/refined_topology.h"
#include "wrinkle/data/weld.h"
#include "wrinkle/sca2015/session.h"

namespace crease {
namespace {

using Triangles = std::vector<std::array<int32_t, 3>>;

Eigen::Vector3f At(absl::Span<const float> xyz, int v) {
  return {xyz[3 * v], xyz[3 * v + 1], xyz[3 * v + 2]};
}

// Two triangles sharing edge 1-2, folded along it (not coplanar).
const std::vector<float> kKitePositions = {0, 0, 0, 1, 0, 0,
                                           0, 1, 0, 1, 1, 0.5f};
const Triangles kKite = {{0, 1, 2}, {2, 1, 3}};
// The same as a soup: the second triangle has its own copies of 1 and 2.
const std::vector<float> kSoupPositions = {0, 0, 0, 1, 0, 0, 0, 1, 0,
                                           0, 1, 0, 1, 0, 0, 1, 1, 0.5f};
const Triangles kSoup = {{0, 1, 2}, {3, 4, 5}};

RefinedTopology Refine(const Triangles& triangles, int vertices, int level) {
  absl::StatusOr<RefinedTopology> refined =
      RefineTopology(triangles, vertices, level);
  EXPECT_TRUE(refined.ok()) << refined.status();
  return refined.ok() ? *std::move(refined) : RefinedTopology{};
}

std::vector<int32_t> Weld(const std::vector<float>& positions) {
  int num_welded = 0;
  return WeldVerticesRelative(positions, kDefaultWeldRelativeTolerance,
                              &num_welded);
}

TEST(RefineTopologyTest, CountsFollowTheFormula) {
  for (int k = 1; k <= 6; ++k) {
    const RefinedTopology kite = Refine(kKite, 4, k);
    // 4 vertices, 5 edges, 2 triangles.
    EXPECT_EQ(kite.num_vertices(), 4 + 5 * (k - 1) + 2 * (k - 1) * (k - 2) / 2)
        << "level " << k;
    EXPECT_EQ(kite.num_triangles(), 2 * k * k);
    const RefinedTopology soup = Refine(kSoup, 6, k);
    // The soup shares no edge by vertex id: 6 edges.
    EXPECT_EQ(soup.num_vertices(), 6 + 6 * (k - 1) + 2 * (k - 1) * (k - 2) / 2);
    EXPECT_EQ(soup.num_triangles(), 2 * k * k);
  }
  for (int k : {1, 2, 5}) {  // counted without building, the same
    const RefinedTopology kite = Refine(kKite, 4, k);
    const RefinedCounts counts = CountRefined(kKite, 4, k);
    EXPECT_EQ(counts.vertices, kite.num_vertices());
    EXPECT_EQ(counts.triangles, kite.num_triangles());
    const RefinedCounts soup = CountRefined(kSoup, 6, k);
    EXPECT_EQ(soup.vertices, Refine(kSoup, 6, k).num_vertices());
  }
  const RefinedTopology one = Refine(kKite, 4, 1);
  EXPECT_EQ(one.triangles, kKite);  // level 1 is the coarse mesh
}

TEST(RefineTopologyTest, RejectsBadInput) {
  EXPECT_FALSE(RefineTopology(kKite, 4, 0).ok());
  EXPECT_FALSE(RefineTopology(kKite, 4, kMaxRefinementLevel + 1).ok());
  const absl::Status bad_index = RefineTopology(kKite, 3, 2).status();
  EXPECT_EQ(bad_index.message(), "triangle 1 uses vertex 3 of 3");
}

// The vertices on the shared edge are one set used by both sides; the
// soup's two sides keep their own.
TEST(RefineTopologyTest, SharedEdgesShareVerticesAndSoupsKeepTheirs) {
  const int k = 4;
  const RefinedTopology kite = Refine(kKite, 4, k);
  std::set<int32_t> side[2];
  for (int t = 0; t < kite.num_triangles(); ++t) {
    for (int32_t v : kite.triangles[t]) {
      if (kite.vertices[v].corners == std::array<int32_t, 3>{1, 2, -1}) {
        side[t / (k * k)].insert(v);
      }
    }
  }
  EXPECT_EQ(side[0].size(), static_cast<size_t>(k - 1));
  EXPECT_EQ(side[0], side[1]);
  const RefinedTopology soup = Refine(kSoup, 6, k);
  std::set<int32_t> soup_side[2];
  for (int t = 0; t < soup.num_triangles(); ++t) {
    for (int32_t v : soup.triangles[t]) {
      if (soup.vertices[v].corners[1] >= 0 && soup.vertices[v].corners[2] < 0) {
        soup_side[t / (k * k)].insert(v);
      }
    }
  }
  EXPECT_EQ(soup_side[0].size(), static_cast<size_t>(3 * (k - 1)));
  std::vector<int32_t> common;
  std::set_intersection(soup_side[0].begin(), soup_side[0].end(),
                        soup_side[1].begin(), soup_side[1].end(),
                        std::back_inserter(common));
  EXPECT_TRUE(common.empty());
  // Every refined triangle keeps the coarse winding (normal along the
  // coarse one) and has positive area.
  WrinkledMeshBuilder builder;
  WrinkledMeshFrame frame;
  builder.Compute(kite, kKitePositions, Weld(kKitePositions), {}, &frame);
  for (int t = 0; t < kite.num_triangles(); ++t) {
    const auto& tri = kite.triangles[t];
    const auto& coarse = kKite[t / (k * k)];
    const Eigen::Vector3f n =
        (At(frame.positions, tri[1]) - At(frame.positions, tri[0]))
            .cross(At(frame.positions, tri[2]) - At(frame.positions, tri[0]));
    const Eigen::Vector3f coarse_n =
        (At(kKitePositions, coarse[1]) - At(kKitePositions, coarse[0]))
            .cross(At(kKitePositions, coarse[2]) -
                   At(kKitePositions, coarse[0]));
    EXPECT_NEAR(n.dot(coarse_n) / (n.norm() * coarse_n.norm()), 1.0f, 1e-5f)
        << "refined triangle " << t;
  }
}

// Without wrinkles the refined mesh lies on the coarse triangles at the
// lattice's barycentric points, with the renderer's normals: the welded
// area-weighted sums interpolated, then normalised.
void ExpectOnCoarseSurface(const Triangles& triangles,
                           const std::vector<float>& positions, int k) {
  const RefinedTopology topology =
      Refine(triangles, static_cast<int>(positions.size() / 3), k);
  const std::vector<int32_t> welded = Weld(positions);
  std::vector<Eigen::Vector3d> sums(welded.size(), Eigen::Vector3d::Zero());
  for (const auto& t : triangles) {
    const Eigen::Vector3d a = At(positions, t[0]).cast<double>();
    const Eigen::Vector3d n =
        (At(positions, t[1]).cast<double>() - a)
            .cross(At(positions, t[2]).cast<double>() - a);
    for (int32_t v : t) sums[welded[v]] += n;
  }
  WrinkledMeshBuilder builder;
  WrinkledMeshFrame frame;
  builder.Compute(topology, positions, welded, {}, &frame);
  ASSERT_EQ(frame.positions.size(), 3u * topology.num_vertices());
  for (int v = 0; v < topology.num_vertices(); ++v) {
    const RefinedVertex& r = topology.vertices[v];
    Eigen::Vector3d expected_p = Eigen::Vector3d::Zero();
    Eigen::Vector3d expected_n = Eigen::Vector3d::Zero();
    for (int c = 0; c < 3; ++c) {
      if (r.corners[c] < 0) continue;
      const double w = r.weights[c];
      expected_p += w * At(positions, r.corners[c]).cast<double>();
      expected_n += w * sums[welded[r.corners[c]]];
    }
    expected_n.normalize();
    const Eigen::Vector3d p = At(frame.positions, v).cast<double>();
    const Eigen::Vector3d n = At(frame.normals, v).cast<double>();
    EXPECT_LT((p - expected_p).norm(), 1e-6) << "vertex " << v;
    EXPECT_LT((n - expected_n).norm(), 1e-6) << "vertex " << v;
    // On the plane of its triangle.
    const auto& t = triangles[r.triangle];
    const Eigen::Vector3d a = At(positions, t[0]).cast<double>();
    const Eigen::Vector3d face =
        (At(positions, t[1]).cast<double>() - a)
            .cross(At(positions, t[2]).cast<double>() - a)
            .normalized();
    EXPECT_NEAR((p - a).dot(face), 0.0, 1e-6) << "vertex " << v;
  }
  // The lattice weights are i / k: the inner vertices of a level-3 triangle
  // sit at its centroid.
  if (k == 3) {
    for (const RefinedVertex& r : topology.vertices) {
      if (r.corners[2] < 0) continue;
      for (float w : r.weights) EXPECT_FLOAT_EQ(w, 1.0f / 3.0f);
    }
  }
}

TEST(WrinkledMeshTest, WithoutWrinklesItIsTheRenderersSurface) {
  for (int k : {1, 2, 3, 5}) {
    ExpectOnCoarseSurface(kKite, kKitePositions, k);
    ExpectOnCoarseSurface(kSoup, kSoupPositions, k);
  }
}

// The soup's two copies of the shared edge are placed on the same points
// with the same (welded) normals: no crack, no shading seam.
TEST(WrinkledMeshTest, SoupCopiesCoincide) {
  const int k = 4;
  const RefinedTopology topology = Refine(kSoup, 6, k);
  WrinkledMeshBuilder builder;
  WrinkledMeshFrame frame;
  builder.Compute(topology, kSoupPositions, Weld(kSoupPositions), {}, &frame);
  int matched = 0;
  for (int v = 0; v < topology.num_vertices(); ++v) {
    for (int u = 0; u < v; ++u) {
      if ((At(frame.positions, u) - At(frame.positions, v)).norm() > 1e-6f) {
        continue;
      }
      ++matched;
      EXPECT_LT((At(frame.normals, u) - At(frame.normals, v)).norm(), 1e-6f);
    }
  }
  EXPECT_EQ(matched, 2 + (k - 1));  // the two corners and the edge's inside
}

// The cross-section by hand: t = distance / half width; h (1 - 3 t^2) to
// t = 1/3, then 1.5 h (1 - t)^2 to t = 1. And its slope d / d distance.
// The profile as docs/algorithm.md writes it: h (1 - u)^2 (1 - 3u), u = t^2,
// t in half-supports (the support is sqrt(3) times the fold's width).
double HandProfile(double distance, double width, double height) {
  const double half_support = 0.5 * std::sqrt(3.0) * width;
  const double t = distance / half_support, u = t * t;
  return t < 1 ? height * (1 - u) * (1 - u) * (1 - 3 * u) : 0.0;
}
double HandSlope(double distance, double width, double height) {
  const double half_support = 0.5 * std::sqrt(3.0) * width;
  const double t = distance / half_support, u = t * t;
  // d/dt of (1 - u)^2 (1 - 3u) is -2t (1 - u)(5 - 9u).
  return t < 1 ? -2 * height * t * (1 - u) * (5 - 9 * u) / half_support : 0.0;
}

// One straight wrinkle along Z at x = x0 from z = 0.1 to 0.9 on the flat
// sheet, `width` wide and `height` high everywhere.
FrameWrinkles StraightWrinkle(const io::TriangleMesh& sheet, double x0,
                              double width, double height) {
  FrameWrinkles wrinkles;
  for (int i = 0; i <= 16; ++i) {
    wrinkles.points.push_back(
        {Eigen::Vector3d(x0, 0, 0.1 + 0.05 * i), width, height});
  }
  wrinkles.point_offsets = {0, 17};
  wrinkles.segments = {16};
  wrinkles.min_width = width;
  ListTrianglesReached(sheet.positions, sheet.triangles, &wrinkles);
  EXPECT_TRUE(ValidateFrameWrinkles(wrinkles, sheet.triangles.size()).ok());
  return wrinkles;
}

// On a flat sheet (normal +Y) the offset at every refined vertex is the
// profile at its distance from the wrinkle's centre line, and the normal is
// +Y tilted by the profile's slope away from the crest, and beside the
// ridge, out to sqrt(3) half-widths, the shoulders' valleys.
TEST(WrinkledMeshTest, StraightWrinkleOnAFlatSheetIsTheProfile) {
  const io::TriangleMesh sheet = MakeGridSheet(10, 10, 1.0f, 1.0f);
  const double x0 = 0.51, width = 0.2, height = 0.02;
  const FrameWrinkles wrinkles = StraightWrinkle(sheet, x0, width, height);
  const RefinedTopology topology =
      Refine(sheet.triangles, sheet.num_vertices(), 4);
  const std::vector<int32_t> welded = Weld(sheet.positions);
  WrinkledMeshBuilder builder;
  WrinkledMeshFrame flat, wrinkled;
  builder.Compute(topology, sheet.positions, welded, {}, &flat);
  builder.Compute(topology, sheet.positions, welded, wrinkles, &wrinkled);
  int lifted = 0, crest = 0, flank = 0, valley = 0;
  for (int v = 0; v < topology.num_vertices(); ++v) {
    const Eigen::Vector3d base = At(flat.positions, v).cast<double>();
    const Eigen::Vector3d p = At(wrinkled.positions, v).cast<double>();
    ASSERT_EQ(At(flat.normals, v), Eigen::Vector3f::UnitY());
    // Distance to the centre line; past its ends, to the end point.
    const double along = std::clamp(base.z(), 0.1, 0.9);
    const double distance = std::hypot(base.x() - x0, base.z() - along);
    const double expected = HandProfile(distance, width, height);
    EXPECT_NEAR(p.y() - base.y(), expected, 1e-6) << "vertex " << v;
    EXPECT_EQ(p.x(), base.x());
    EXPECT_EQ(p.z(), base.z());
    lifted += expected > 0;
    crest += expected > 0 && distance < width / 6;
    flank += expected > 0 && distance > width / 6;
    valley += expected < 0;
    if (expected != 0 && base.z() > 0.15 && base.z() < 0.85 && distance > 0) {
      const double slope = HandSlope(distance, width, height);
      const Eigen::Vector3d across(base.x() > x0 ? 1 : -1, 0, 0);
      const Eigen::Vector3d normal =
          (Eigen::Vector3d::UnitY() - slope * across) /
          std::sqrt(1 + slope * slope);
      EXPECT_LT((At(wrinkled.normals, v).cast<double>() - normal).norm(), 1e-5)
          << "vertex " << v << " at distance " << distance;
    }
  }
  EXPECT_GT(crest, 20);  // the crest, its flanks and the shoulders' valleys
  EXPECT_GT(flank, 40);
  EXPECT_GT(valley, 40);
  EXPECT_GT(lifted, crest + flank - 1);
}

// Largest displacement over the refined vertices (against the same mesh
// without wrinkles), whether every value is finite, and whether each
// displacement is along the smooth normal.
struct Displacement {
  double largest = 0;
  bool finite = true;
  double worst_off_normal = 0;  // |component across the normal|
};
Displacement Measure(const RefinedTopology& topology,
                     absl::Span<const float> positions,
                     absl::Span<const int32_t> welded,
                     const FrameWrinkles& wrinkles) {
  WrinkledMeshBuilder builder;
  WrinkledMeshFrame flat, wrinkled;
  builder.Compute(topology, positions, welded, {}, &flat);
  builder.Compute(topology, positions, welded, wrinkles, &wrinkled);
  Displacement out;
  for (int v = 0; v < topology.num_vertices(); ++v) {
    const Eigen::Vector3d d = (At(wrinkled.positions, v).cast<double>() -
                               At(flat.positions, v).cast<double>());
    const Eigen::Vector3d n = At(flat.normals, v).cast<double>();
    out.finite = out.finite && d.allFinite() &&
                 At(wrinkled.normals, v).allFinite() &&
                 std::abs(At(wrinkled.normals, v).norm() - 1) < 1e-5;
    out.largest = std::max(out.largest, d.norm());
    out.worst_off_normal =
        std::max(out.worst_off_normal, (d - d.dot(n) * n).norm());
  }
  return out;
}

// On the trouser knee's wrinkled frames: finite, unit normals, displaced
// along the smooth normal, and by at most the tallest wrinkle's height,
// which a fine enough mesh reaches (the crest is sampled; the refined
// centre line can bow a little off the surface, so not exactly).
TEST(WrinkledMeshTest, BundledKneeLiftsByTheTallestWrinkle) {
  const io::Animation anim = testing::LoadBundled("cloth_pants_knee");
  ASSERT_GT(anim.num_frames(), 0);
  const RefinedTopology level2 =
      Refine(anim.mesh.triangles, anim.mesh.num_vertices(), 2);
  const RefinedTopology level16 =
      Refine(anim.mesh.triangles, anim.mesh.num_vertices(), 16);
  int checked = 0;
  const auto session = testing::RunSessionTo(
      anim, 90, {}, [&](int frame, const Session& session) {
        if (frame != 30 && frame != 90) return;
        FrameWrinkles wrinkles;
        session.tracker().ExportFrame(&wrinkles);
        double tallest = 0;
        for (const RefinedPoint& r : wrinkles.points) {
          tallest = std::max(tallest, r.height);
        }
        ASSERT_GT(tallest, 1e-3) << "frame " << frame;
        for (const RefinedTopology* topology : {&level2, &level16}) {
          const Displacement d =
              Measure(*topology, anim.frames.Sample(frame),
                      session.topology().weld_map(), wrinkles);
          SCOPED_TRACE(::testing::Message()
                       << "frame " << frame << ", level " << topology->level);
          EXPECT_TRUE(d.finite);
          EXPECT_LT(d.worst_off_normal, 1e-6);
          EXPECT_LE(d.largest, tallest * (1 + 1e-5));
          // Folds that hold their band's slack are as wide as L_max, and on
          // frame 90 their crests came to 0.84 (level 2) and 0.95 (level 16).
          EXPECT_GE(d.largest, tallest * (topology->level == 2 ? 0.8 : 0.94));
          ++checked;
        }
      });
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(checked, 4);
}

// Per-frame work reuses its storage: once every frame of the Fox's walk has
// been seen, going through them again allocates nothing.
TEST(WrinkledMeshTest, FramesReuseTheirStorage) {
  const io::Animation anim = testing::LoadBundled("fox_walk");
  ASSERT_GT(anim.num_frames(), 0);
  const RefinedTopology topology =
      Refine(anim.mesh.triangles, anim.mesh.num_vertices(), 2);
  std::vector<FrameWrinkles> frames(anim.num_frames());
  std::vector<int32_t> welded;
  const auto session = testing::RunSessionTo(
      anim, anim.num_frames() - 1, {}, [&](int frame, const Session& session) {
        session.tracker().ExportFrame(&frames[frame]);
        welded = session.topology().weld_map();
      });
  ASSERT_NE(session, nullptr);
  WrinkledMeshBuilder builder;
  WrinkledMeshFrame out;
  for (int f = 0; f < anim.num_frames(); ++f) {
    builder.Compute(topology, anim.frames.Sample(f), welded, frames[f], &out);
  }
  const size_t capacity = builder.capacity_bytes();
  const float* positions = out.positions.data();
  const float* normals = out.normals.data();
  int wrinkled_frames = 0;
  for (int f = 0; f < anim.num_frames(); ++f) {
    builder.Compute(topology, anim.frames.Sample(f), welded, frames[f], &out);
    EXPECT_EQ(builder.capacity_bytes(), capacity) << "frame " << f;
    EXPECT_EQ(out.positions.data(), positions);
    EXPECT_EQ(out.normals.data(), normals);
    wrinkled_frames += frames[f].num_wrinkles() > 0;
  }
  EXPECT_GT(wrinkled_frames, anim.num_frames() / 2);
}

}  // namespace
}  // namespace crease
