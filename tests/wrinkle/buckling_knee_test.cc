// The buckling model on the bundled trouser knee (data/cloth_pants_knee):
// found as a tube, folded where it gathers, and never self-intersecting, on
// every frame; and tube descriptions that are not tubes, refused one by one.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/heap_allocations.h"
#include "wrinkle/buckling/buckling_mesh.h"
#include "wrinkle/buckling/tube.h"
#include "wrinkle/core/mesh.h"
#include "wrinkle/core/synthetic_sheet.h"

namespace crease {
namespace {

using ::testing::HasSubstr;

// Does segment pq cross triangle abc (Moller-Trumbore, strictly inside)?
bool SegmentCrosses(const Eigen::Vector3d& p, const Eigen::Vector3d& q,
                    const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                    const Eigen::Vector3d& c) {
  const Eigen::Vector3d d = q - p, e1 = b - a, e2 = c - a;
  const Eigen::Vector3d h = d.cross(e2);
  const double det = e1.dot(h);
  if (std::abs(det) < 1e-18) return false;
  const Eigen::Vector3d s = p - a;
  const double u = s.dot(h) / det;
  if (u <= 0 || u >= 1) return false;
  const Eigen::Vector3d r = s.cross(e1);
  const double v = d.dot(r) / det;
  if (v <= 0 || u + v >= 1) return false;
  const double t = e2.dot(r) / det;
  return t > 0 && t < 1;
}

// Pairs of triangles with no shared vertex (after `same`) that intersect.
int CountSelfIntersections(absl::Span<const float> positions,
                           absl::Span<const io::Triangle> triangles,
                           const std::vector<int32_t>& same) {
  std::vector<Eigen::Vector3d> points(positions.size() / 3);
  for (size_t v = 0; v < points.size(); ++v) {
    points[v] = {positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]};
  }
  std::vector<Eigen::AlignedBox3d> boxes(triangles.size());
  double edge = 0;
  for (size_t f = 0; f < triangles.size(); ++f) {
    for (int32_t v : triangles[f]) boxes[f].extend(points[v]);
    edge = std::max(edge, boxes[f].diagonal().maxCoeff());
  }
  const double cell = 2 * edge;
  const auto key = [&](const Eigen::Vector3d& p) {
    return std::array<int64_t, 3>{
        static_cast<int64_t>(std::floor(p.x() / cell)),
        static_cast<int64_t>(std::floor(p.y() / cell)),
        static_cast<int64_t>(std::floor(p.z() / cell))};
  };
  absl::flat_hash_map<std::array<int64_t, 3>, std::vector<int32_t>> grid;
  for (int32_t f = 0; f < static_cast<int32_t>(triangles.size()); ++f) {
    grid[key(points[triangles[f][0]])].push_back(f);
  }
  int hits = 0;
  for (int32_t f = 0; f < static_cast<int32_t>(triangles.size()); ++f) {
    const std::array<int64_t, 3> k = key(points[triangles[f][0]]);
    for (int64_t dx = -1; dx <= 1; ++dx) {
      for (int64_t dy = -1; dy <= 1; ++dy) {
        for (int64_t dz = -1; dz <= 1; ++dz) {
          const auto it = grid.find({k[0] + dx, k[1] + dy, k[2] + dz});
          if (it == grid.end()) continue;
          for (int32_t g : it->second) {
            if (g <= f || !boxes[f].intersects(boxes[g])) continue;
            bool shared = false;
            for (int32_t a : triangles[f]) {
              for (int32_t b : triangles[g]) shared |= same[a] == same[b];
            }
            if (shared) continue;
            const io::Triangle &s = triangles[f], &t = triangles[g];
            bool cross = false;
            for (int e = 0; e < 3 && !cross; ++e) {
              cross =
                  SegmentCrosses(points[s[e]], points[s[(e + 1) % 3]],
                                 points[t[0]], points[t[1]], points[t[2]]) ||
                  SegmentCrosses(points[t[e]], points[t[(e + 1) % 3]],
                                 points[s[0]], points[s[1]], points[s[2]]);
            }
            hits += cross;
          }
        }
      }
    }
  }
  return hits;
}

// Per fine vertex of tube 0, the one it is the same point as: the seam
// column's copies are their first column's.
std::vector<int32_t> SeamTwins(const BucklingMesh& mesh) {
  std::vector<int32_t> same(mesh.num_vertices());
  for (int32_t v = 0; v < mesh.num_vertices(); ++v) same[v] = v;
  const TubeLayout& layout = mesh.layouts()[0];
  const int columns = kPrimitiveCells * layout.diamonds;
  for (int row = 0; row <= kPrimitiveCells * layout.rows; ++row) {
    same[mesh.FineVertex(0, columns, row)] = mesh.FineVertex(0, 0, row);
  }
  return same;
}

// The bundled trouser knee, its topology and the tubes found in it.
class BucklingKneeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    knee = testing::LoadBundled("cloth_pants_knee");
    ASSERT_GT(knee.num_frames(), 0);
    rest = knee.frames.Sample(0);
    topology = MeshTopology::Build(knee.mesh.triangles, rest);
    ASSERT_TRUE(topology.ok()) << topology.status();
    tubes = FindTubes(*topology, rest, {});
    ASSERT_TRUE(tubes.ok()) << tubes.status();
  }
  io::Animation knee;
  absl::Span<const float> rest;
  absl::StatusOr<MeshTopology> topology;
  absl::StatusOr<std::vector<Tube>> tubes;
};

TEST_F(BucklingKneeTest, FoldsWhereItGathersAndNeverIntersectsItself) {
  ASSERT_EQ(tubes->size(), 1u);
  EXPECT_EQ(tubes->front().triangles.size(), knee.mesh.triangles.size());
  absl::StatusOr<BucklingMesh> mesh =
      BucklingMesh::Create(*topology, rest, *tubes, {});
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  const std::vector<int32_t> same = SeamTwins(*mesh);
  const TubeLayout& layout = mesh->layouts()[0];
  // Every frame, the held bends included, where the animation crushes the
  // back of the knee to a quarter of its length and folds the coarse
  // surface into sharp creases (docs/algorithm.md, "Buckling of tubes").
  double deepest = 0, farthest_held = 0;
  double least_ratio = 1;
  for (int frame = 0; frame < knee.num_frames(); ++frame) {
    ASSERT_TRUE(mesh->Update(knee.frames.Sample(frame)).ok());
    deepest = std::max(deepest, mesh->stats().max_diamond_depth);
    if (frame >= 31 && frame <= 42) {
      farthest_held = std::max(farthest_held, mesh->stats().max_fold_offset);
    }
    least_ratio = std::min(least_ratio, mesh->stats().min_axial_ratio);
    if (frame == 0) {
      EXPECT_EQ(mesh->stats().max_diamond_depth, 0);
    }
    EXPECT_EQ(
        CountSelfIntersections(mesh->positions(), mesh->triangles(), same), 0)
        << "frame " << frame << ", axial ratio "
        << mesh->stats().min_axial_ratio;
  }
  EXPECT_LT(least_ratio, 0.3);  // the crushed frames were checked
  // The held bends (frames 31-42) gather the back of the knee, and the
  // folds keep their depth where the surface has room.
  EXPECT_GT(deepest, 0.3 * layout.row_heights[0]);
  EXPECT_GT(farthest_held, 0.3 * layout.row_heights[0])
      << "deepest " << deepest;
}

// Every frame's storage is made by Create: Update allocates nothing, the
// crushed frames (where columns are relaxed and folds lose their room)
// included.
TEST_F(BucklingKneeTest, UpdateAllocatesNothing) {
  absl::StatusOr<BucklingMesh> mesh =
      BucklingMesh::Create(*topology, rest, *tubes, {});
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  const long before = testing::HeapAllocations();
  for (int frame = 0; frame < knee.num_frames(); ++frame) {
    ASSERT_TRUE(mesh->Update(knee.frames.Sample(frame)).ok());
  }
  EXPECT_EQ(testing::HeapAllocations() - before, 0);
}

// Where the knee is crushed into pleats that face along the leg, folds
// across the axis slide the pleats along themselves; along the normal they
// push them into each other.
TEST_F(BucklingKneeTest, RadialFoldsCrossFarLessWhereTheKneeIsCrushed) {
  int crossings[2] = {0, 0};
  for (const bool radial : {true, false}) {
    BucklingParams params;
    params.radial_folds = radial;
    absl::StatusOr<BucklingMesh> mesh =
        BucklingMesh::Create(*topology, rest, *tubes, params);
    ASSERT_TRUE(mesh.ok()) << mesh.status();
    const std::vector<int32_t> same = SeamTwins(*mesh);
    // The held bends (axial threads down to a third of their rest length).
    for (int frame : {30, 36, 42, 86, 92, 98}) {
      ASSERT_TRUE(mesh->Update(knee.frames.Sample(frame)).ok());
      crossings[radial ? 0 : 1] +=
          CountSelfIntersections(mesh->positions(), mesh->triangles(), same);
    }
  }
  EXPECT_GT(crossings[1], 0);
  EXPECT_LT(crossings[0], crossings[1] / 2)
      << "radial " << crossings[0] << ", along the normal " << crossings[1];
}

// A cylinder around +y of 24 x 9 vertices, radius 0.1, 0.4 long from y0.
io::TriangleMesh Tube24(double y0 = 0) {
  return MakeOpenCylinder(0.1, 0.4, 24, 9, y0);
}

absl::Status Describe(const io::TriangleMesh& m,
                      const std::vector<TubeDescription>& tubes) {
  absl::StatusOr<MeshTopology> topology =
      MeshTopology::Build(m.triangles, m.positions);
  if (!topology.ok()) return topology.status();
  return FindTubes(*topology, m.positions, tubes).status();
}

TubeDescription Range(int32_t from, int32_t to) {
  TubeDescription d;
  for (int32_t f = from; f < to; ++f) d.triangles.push_back(f);
  return d;
}

TubeDescription Listed(std::vector<int32_t> triangles) {
  TubeDescription d;
  d.triangles = std::move(triangles);
  return d;
}

TubeDescription WithAxis(TubeDescription d,
                         std::optional<Eigen::Vector3d> origin,
                         std::optional<Eigen::Vector3d> direction) {
  d.axis_origin = origin;
  d.axis_direction = direction;
  return d;
}

TEST(BucklingTubesTest, DescriptionsThatAreNotTubesAreRefusedSaidWhy) {
  io::TriangleMesh two = Tube24();
  const io::TriangleMesh second = Tube24(1.0);
  const int32_t offset = two.num_vertices();
  two.positions.insert(two.positions.end(), second.positions.begin(),
                       second.positions.end());
  for (io::Triangle t : second.triangles) {
    two.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  }
  const int32_t n = 24 * 8 * 2;  // triangles per tube
  EXPECT_TRUE(Describe(two, {Range(0, n), Range(n, 2 * n)}).ok());
  const struct {
    std::vector<TubeDescription> tubes;
    const char* why;
  } cases[] = {
      {{Range(0, 2 * n)}, "not connected"},
      {{Listed({0, 1, 2 * n})}, "out of range"},
      {{Listed({0, 1, 1})}, "listed twice"},
      {{Range(0, n), Range(n - 2, 2 * n)}, "already in tube 0"},
      {{Range(0, 24)}, "boundary loops"},  // half a ring: a strip
      {{Range(0, n / 2)}, ""},             // the lower half: a shorter tube
      {{WithAxis(Range(0, n), Eigen::Vector3d(0, 0, 0), std::nullopt)},
       "both an origin and a direction"},
      {{WithAxis(Range(0, n), Eigen::Vector3d(0, 0.2, 0),
                 Eigen::Vector3d(1, 0, 0))},
       "tube 0 is not a tube"},  // an axis across it
      {{WithAxis(Range(0, n), Eigen::Vector3d(0, 0, 0),
                 Eigen::Vector3d(0, 0, 0))},
       "axis direction is zero"},
  };
  for (const auto& c : cases) {
    const absl::Status s = Describe(two, c.tubes);
    if (*c.why == '\0') {
      EXPECT_TRUE(s.ok()) << s;
      continue;
    }
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.why;
    EXPECT_THAT(s.message(), HasSubstr(c.why));
  }
  // Two rings of vertices: the part between them.
  const auto ring = [](int row) {
    std::vector<int32_t> r;
    for (int k = 0; k < 24; ++k) r.push_back(row * 24 + k);
    return r;
  };
  TubeDescription rings;
  rings.ring_a = ring(1);
  rings.ring_b = ring(5);
  absl::StatusOr<MeshTopology> two_topology =
      MeshTopology::Build(two.triangles, two.positions);
  ASSERT_TRUE(two_topology.ok());
  absl::StatusOr<std::vector<Tube>> between =
      FindTubes(*two_topology, two.positions, {rings});
  ASSERT_TRUE(between.ok()) << between.status();
  EXPECT_EQ(between->front().triangles.size(), 4u * 48);  // rows 1 to 5
  EXPECT_EQ(between->front().triangles.front(), 48);
  const auto refused = [&](TubeDescription d, const char* why) {
    const absl::Status st = Describe(two, {d});
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << why;
    EXPECT_THAT(st.message(), HasSubstr(why));
  };
  TubeDescription bad = rings;
  bad.ring_b = {120, 122, 124};
  refused(bad,
          "ring_b: vertices 120 and 122 are consecutive but share no edge");
  bad = rings;
  bad.ring_a = {24, 25};
  refused(bad, "ring_a: 2 vertices, need 3 or more");
  bad = rings;
  bad.triangles = {0};
  refused(bad, "give its triangles or two rings");
  bad = rings;
  bad.ring_b = ring(9 + 5);  // a ring of the other tube
  refused(bad, "bound no part of the mesh between them");
  bad = rings;
  bad.ring_a.push_back(24);  // a vertex twice: a ring costs its vertices once
  refused(bad, "ring_a: vertex 24 appears twice");
  // The same rings twice: the second is refused before its part is filled.
  const absl::Status twice = Describe(two, {rings, rings});
  EXPECT_THAT(twice.message(), HasSubstr("tube 1: the part beside ring_a"));
  EXPECT_THAT(twice.message(), HasSubstr("is already in another tube"));
  // At most kMaxTubes descriptions.
  const absl::Status many =
      Describe(two, std::vector<TubeDescription>(kMaxTubes + 1, Range(0, 48)));
  EXPECT_THAT(many.message(), HasSubstr("1025 tubes described, over 1024"));

  // Without descriptions, a mesh with no open tube says so.
  io::TriangleMesh strip = Tube24();
  strip.triangles.resize(24);
  const absl::Status none = Describe(strip, {});
  EXPECT_EQ(none.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(none.message(), HasSubstr("no part of the mesh is an open tube"));
}

}  // namespace
}  // namespace crease
