#include "renderer/frame_data.h"

#include <cmath>
#include <map>
#include <string>

#include "gtest/gtest.h"
#include "tests/renderer/renderer_fixture.h"
#include "tests/renderer/shader_twin.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/data/profile_shared.h"
#include "wrinkle/data/projection_shared.h"
#include "wrinkle/data/weld.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/sca2015/session.h"

namespace crease::renderer {
namespace {

// Two triangles of one square, the second with its own copies of the shared
// corners (a UV seam): the copies get the normal of the welded surface.
TEST(SmoothNormalsTest, CoincidentVerticesShareOneNormal) {
  // A crease: the second triangle tilts up out of the XY plane.
  const float positions[] = {0, 0, 0, 1, 0, 0, 0, 1, 0,   // triangle 0
                             1, 0, 0, 1, 1, 1, 0, 1, 0};  // triangle 1 (copies)
  const io::Triangle triangles[] = {{0, 1, 2}, {3, 4, 5}};
  // Welded ids need not be vertex indices nor in first-appearance order.
  const int32_t welded[] = {3, 2, 0, 2, 1, 0};
  SmoothNormals normals;
  normals.Compute({positions, triangles, welded});
  const std::vector<float>& v = normals.interleaved();
  ASSERT_EQ(v.size(), 36u);
  auto normal = [&](int i) {
    return Eigen::Vector3f(v[6 * i + 3], v[6 * i + 4], v[6 * i + 5]);
  };
  EXPECT_EQ(normal(1), normal(3));  // (1, 0, 0)
  EXPECT_EQ(normal(2), normal(5));  // (0, 1, 0)
  // The shared normal is the sum of both faces' area vectors: (0,0,1) +
  // (1,1,-1) x ... = face 0 (0, 0, 1) plus face 1's.
  const Eigen::Vector3f face1 =
      (Eigen::Vector3f(1, 1, 1) - Eigen::Vector3f(1, 0, 0))
          .cross(Eigen::Vector3f(0, 1, 0) - Eigen::Vector3f(1, 0, 0));
  EXPECT_TRUE(normal(1).isApprox(Eigen::Vector3f(0, 0, 1) + face1));
  // Vertex 0 is on face 0 only; positions pass through.
  EXPECT_EQ(normal(0), Eigen::Vector3f(0, 0, 1));
  EXPECT_EQ(v[6 * 4 + 2], 1.0f);
}

// On a real frame: levels of an edge agree between its two triangles, ranges
// point inside the point buffer, and the bisector normals are unit.
TEST(WrinkleBuffersTest, SharedEdgesAgreeAndRangesAreInBounds) {
  const io::Animation anim = testing::LoadBundled("cloth_pants_knee");
  ASSERT_GT(anim.num_frames(), 0);
  SessionParams params;
  params.wrinkles.min_width = 0.012;
  const auto session = testing::RunSessionTo(anim, 36, params);
  ASSERT_NE(session, nullptr);
  TessellationTarget target;
  target.view_projection(3, 2) = -1;  // something with w > 0 in front
  target.view_projection(3, 3) = 0;
  target.view_projection(2, 3) = -3;
  WrinkleBuffers buffers;
  const auto positions = anim.frames.Sample(36);
  const RenderMesh mesh = MeshOf(*session, positions);
  FillWrinkleBuffers(mesh, WrinklesOf(*session), target, &buffers);
  ASSERT_EQ(buffers.levels.size(), anim.mesh.triangles.size());
  // Every edge has one level, in whichever triangle: also between a wrinkled
  // triangle and one without wrinkles (no T-junctions).
  std::map<std::pair<int, int>, float> edge_level;
  int tessellated = 0, disagreements = 0, bordering = 0;
  for (size_t f = 0; f < anim.mesh.triangles.size(); ++f) {
    const auto& t = anim.mesh.triangles[f];
    for (int k = 0; k < 3; ++k) {
      const std::pair<int, int> edge =
          std::minmax(mesh.welded[t[k]], mesh.welded[t[(k + 1) % 3]]);
      const auto [it, inserted] =
          edge_level.emplace(edge, buffers.levels[f][k]);
      if (!inserted) disagreements += it->second != buffers.levels[f][k];
    }
    if (buffers.triangle_ranges[f][1] == 0) {
      bordering += buffers.levels[f][3] > 1;
      continue;
    }
    ++tessellated;
    for (int r = 0; r < buffers.triangle_ranges[f][1]; ++r) {
      const auto range = buffers.ranges[buffers.triangle_ranges[f][0] + r];
      EXPECT_LE(0, range[0]);
      EXPECT_LT(range[0], range[1]);
      EXPECT_LT(range[1], static_cast<int>(buffers.points.size()));
    }
  }
  EXPECT_GT(tessellated, 20);
  EXPECT_GT(bordering, 0);  // triangles next to wrinkles match their edges
  EXPECT_EQ(disagreements, 0);
  EXPECT_GT(buffers.max_level, 1);
  for (const auto& s : buffers.frames) {
    EXPECT_NEAR(std::hypot(s[0], s[1], s[2]), 1.0f, 1e-5f);
  }
}

}  // namespace
}  // namespace crease::renderer

namespace crease::renderer {
namespace {

// Checks that along every edge two triangles share (welded, so soups and
// seams count), both triangles' wrinkle lists give the same offset for the
// session's wrinkles on `positions`; returns the number of edges checked.
int ExpectOffsetsAgreeAlongSharedEdges(const Session& session,
                                       absl::Span<const float> positions,
                                       const std::string& what) {
  WrinkleBuffers buffers;
  const RenderMesh mesh = MeshOf(session, positions);
  const absl::Span<const io::Triangle> triangles = mesh.triangles;
  FillWrinkleBuffers(mesh, WrinklesOf(session), {}, &buffers);
  auto at = [&](int v) {
    return Eigen::Vector3f(positions[3 * v], positions[3 * v + 1],
                           positions[3 * v + 2]);
  };
  std::map<std::pair<int, int>, int> first_triangle;
  int edges_checked = 0;
  for (size_t f = 0; f < triangles.size(); ++f) {
    const auto& t = triangles[f];
    for (int k = 0; k < 3; ++k) {
      const auto edge =
          std::minmax(mesh.welded[t[k]], mesh.welded[t[(k + 1) % 3]]);
      const auto [it, inserted] =
          first_triangle.emplace(edge, static_cast<int>(f));
      if (inserted) continue;
      const int g = it->second;
      if (buffers.triangle_ranges[f][2] == 0 &&
          buffers.triangle_ranges[g][2] == 0) {
        continue;
      }
      ++edges_checked;
      const Eigen::Vector3f a = at(t[k]), b = at(t[(k + 1) % 3]);
      for (int i = 0; i <= 16; ++i) {
        const Eigen::Vector3f p = a + (b - a) * (i / 16.0f);
        const float mine = OffsetAt(buffers, static_cast<int>(f), p);
        const float theirs = OffsetAt(buffers, g, p);
        EXPECT_NEAR(mine, theirs,
                    1e-6f + 1e-3f * std::max(std::abs(mine), std::abs(theirs)))
            << what << ": triangles " << f << ", " << g << " at " << i << "/16";
        if (std::abs(mine - theirs) >
            1e-6f + 1e-3f * std::max(std::abs(mine), std::abs(theirs))) {
          return edges_checked;
        }
      }
    }
  }
  return edges_checked;
}

// No cracks by construction, on every frame of the Fox (a soup that is closed
// once welded).
TEST(WrinkleBuffersTest, OffsetsAgreeAlongSharedEdges) {
  const io::Animation anim = testing::LoadBundled("fox_walk");
  ASSERT_GT(anim.num_frames(), 0);
  auto session = *Session::Create(anim.mesh.triangles, anim.mesh.positions, {});
  int edges_checked = 0;
  for (int frame = 0; frame < anim.num_frames(); ++frame) {
    const auto positions = anim.frames.Sample(frame);
    ASSERT_TRUE(session->ProcessFrame(positions).ok());
    edges_checked += ExpectOffsetsAgreeAlongSharedEdges(
        *session, positions, "frame " + std::to_string(frame));
    if (HasFailure()) return;
  }
  EXPECT_GT(edges_checked, 100);
}

// What a client holding the FrameResult of `sent` has: each wrinkle's points
// (one segment per refined segment), no lists, L_min left automatic; then
// the lists it computes.
FrameWrinkles AsReceived(const FrameWrinkles& sent, const RenderMesh& mesh) {
  FrameWrinkles received;
  received.points = sent.points;
  received.point_offsets = sent.point_offsets;
  for (int w = 0; w < sent.num_wrinkles(); ++w) {
    received.segments.push_back(std::max<int32_t>(
        0, sent.point_offsets[w + 1] - sent.point_offsets[w] - 1));
  }
  ListTrianglesReached(mesh.positions, mesh.triangles, &received);
  return received;
}

// The per-triangle lists (the tracker's conservative ranges, or a client's
// from the points alone, clipped to the refined segments that reach the
// triangle) give exactly the offset of every wrinkle looked up whole, at 15
// points over every triangle of every 8th Fox frame.
void ExpectListsLoseNothing(bool lists_from_points) {
  const io::Animation anim = testing::LoadBundled("fox_walk");
  ASSERT_GT(anim.num_frames(), 0);
  auto session = *Session::Create(anim.mesh.triangles, anim.mesh.positions, {});
  WrinkleBuffers buffers;
  FrameWrinkles wrinkles;
  int lifted = 0, clipped = 0, whole = 0;
  for (int frame = 0; frame < anim.num_frames(); ++frame) {
    const auto positions = anim.frames.Sample(frame);
    ASSERT_TRUE(session->ProcessFrame(positions).ok());
    if (frame % 8 != 0) continue;
    const RenderMesh mesh = MeshOf(*session, positions);
    wrinkles = WrinklesOf(*session);
    if (lists_from_points) {
      wrinkles = AsReceived(wrinkles, mesh);
      ASSERT_TRUE(ValidateFrameWrinkles(wrinkles, mesh.triangles.size()).ok());
    }
    FillWrinkleBuffers(mesh, wrinkles, {}, &buffers);
    for (const auto& range : buffers.ranges) {
      whole += range[2] >= 0 && range[3] >= 0;
      clipped += range[2] < 0 || range[3] < 0;
    }
    for (size_t f = 0; f < anim.mesh.triangles.size(); ++f) {
      Eigen::Vector3f corner[3];
      for (int k = 0; k < 3; ++k) {
        const int v = anim.mesh.triangles[f][k];
        corner[k] = {positions[3 * v], positions[3 * v + 1],
                     positions[3 * v + 2]};
      }
      constexpr int kSteps = 4;
      for (int i = 0; i <= kSteps; ++i) {
        for (int j = 0; i + j <= kSteps; ++j) {
          const Eigen::Vector3f p =
              (corner[0] * static_cast<float>(kSteps - i - j) +
               corner[1] * static_cast<float>(i) +
               corner[2] * static_cast<float>(j)) /
              static_cast<float>(kSteps);
          const float listed = OffsetAt(buffers, static_cast<int>(f), p);
          // Against every wrinkle as drawn (its points thinned).
          const float all = OffsetOfAllWrinkles(buffers, buffers.thinned, p);
          lifted += all > 0;
          ASSERT_NEAR(listed, all, 1e-6f + 1e-4f * std::abs(all))
              << "frame " << frame << " triangle " << f << " at " << i << ","
              << j;
        }
      }
    }
  }
  EXPECT_GT(lifted, 1000);
  EXPECT_GT(clipped, whole);  // the clipping is exercised
}

TEST(WrinkleBuffersTest, TriangleListsLoseNothing) {
  ExpectListsLoseNothing(/*lists_from_points=*/false);
}

// A client can fill the lists from a FrameResult's points alone
// (ListTrianglesReached) and draw the same wrinkles.
TEST(WrinkleBuffersTest, ListsFromAFrameResultsPointsLoseNothing) {
  ExpectListsLoseNothing(/*lists_from_points=*/true);
}

// The same on a flat sheet squeezed in its plane (the golden image's scene).
// Wrinkles whose bisector cells fan out (a half circle, an S) and whose ends
// are as high as their middles: the lists, clipped to the segments whose
// spheres meet each triangle, give the offset of every wrinkle looked up
// whole at 45 points over every triangle, and the ends' caps lift the points
// past them (a clip that dropped an end's segment would leave them flat).
TEST(WrinkleBuffersTest, ListsKeepCurvedWrinklesAndTheirBluntEnds) {
  io::TriangleMesh sheet = MakeGridSheet(12, 12, 1.0f, 1.0f);
  constexpr double kWidth = 0.06, kHeight = 0.02;
  FrameWrinkles wrinkles = BluntCurvedWrinkles(kWidth, kHeight);
  // And a straight one along +x ending at x = 0.49, short of the grid line
  // x = 6/12 by more than the footprint reach: the triangles past that line
  // lie wholly beyond its end, where only the end's cap lifts them.
  for (int i = 0; i <= 8; ++i) {
    wrinkles.points.push_back(
        {Eigen::Vector3d(0.1 + 0.39 * i / 8.0, 0.0, 0.85), kWidth, kHeight});
  }
  wrinkles.point_offsets.push_back(
      static_cast<int32_t>(wrinkles.points.size()));
  wrinkles.segments.push_back(2);
  // The XZ sheet turned to face the default target's view: (x, z) -> (x, y).
  for (size_t i = 0; i < sheet.positions.size(); i += 3) {
    std::swap(sheet.positions[i + 1], sheet.positions[i + 2]);
  }
  for (RefinedPoint& p : wrinkles.points) {
    std::swap(p.position.y(), p.position.z());
  }
  ListTrianglesReached(sheet.positions, sheet.triangles, &wrinkles);
  std::vector<int32_t> welded(sheet.num_vertices());
  for (int v = 0; v < sheet.num_vertices(); ++v) welded[v] = v;
  const RenderMesh mesh{sheet.positions, sheet.triangles, welded};
  WrinkleBuffers buffers;
  // Edges short enough on screen that all three displace (four edges across
  // each one's width).
  TessellationTarget target;
  target.min_edge_pixels = 2.0f;
  FillWrinkleBuffers(mesh, wrinkles, target, &buffers);
  ASSERT_EQ(buffers.displaced, std::vector<uint8_t>({1, 1, 1}));
  auto corner = [&](size_t f, int k) {
    const int v = sheet.triangles[f][k];
    return Eigen::Vector3f(sheet.positions[3 * v], sheet.positions[3 * v + 1],
                           sheet.positions[3 * v + 2]);
  };
  int lifted = 0;
  for (size_t f = 0; f < sheet.triangles.size(); ++f) {
    constexpr int kSteps = 8;
    for (int i = 0; i <= kSteps; ++i) {
      for (int j = 0; i + j <= kSteps; ++j) {
        const Eigen::Vector3f p =
            (corner(f, 0) * static_cast<float>(kSteps - i - j) +
             corner(f, 1) * static_cast<float>(i) +
             corner(f, 2) * static_cast<float>(j)) /
            static_cast<float>(kSteps);
        const float all = OffsetOfAllWrinkles(buffers, buffers.thinned, p);
        lifted += all > 0;
        ASSERT_NEAR(OffsetAt(buffers, static_cast<int>(f), p), all,
                    1e-6f + 1e-4f * std::abs(all))
            << "triangle " << f << " at " << i << "," << j;
      }
    }
  }
  EXPECT_GT(lifted, 300);
  // A third of a width from each end point, past it: at t = 2 / (3 sqrt(3))
  // of the support, P = (1 - u)^2 (1 - 3u) h with u = 4/27, from
  // the triangle that holds the point.
  for (const Eigen::Vector3f& past :
       {Eigen::Vector3f(0.3f - kWidth / 3, 0.3f, 0),
        Eigen::Vector3f(0.3f - kWidth / 3, 0.7f, 0),
        Eigen::Vector3f(0.72f, 0.2f - kWidth / 3, 0),
        Eigen::Vector3f(0.72f, 0.8f + kWidth / 3, 0),
        Eigen::Vector3f(0.49f + kWidth / 3, 0.85f, 0)}) {
    float offset = -1;
    for (size_t f = 0; f < sheet.triangles.size() && offset < 0; ++f) {
      const Eigen::Vector3f a = corner(f, 0), b = corner(f, 1),
                            c = corner(f, 2);
      auto side = [&](const Eigen::Vector3f& u, const Eigen::Vector3f& v) {
        return (v - u).cross(past - u).z();
      };
      const float s0 = side(a, b), s1 = side(b, c), s2 = side(c, a);
      if ((s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0)) {
        offset = OffsetAt(buffers, static_cast<int>(f), past);
      }
    }
    constexpr double u = 4.0 / 27;
    EXPECT_NEAR(offset, kHeight * (1 - u) * (1 - u) * (1 - 3 * u),
                0.01 * kHeight)
        << past.transpose();
  }
}

TEST(WrinkleBuffersTest, OffsetsAgreeOnASqueezedSheet) {
  const SqueezedSheet scene = RunSqueezedSheet(/*max_wrinkles=*/1);
  ASSERT_NE(scene.session, nullptr);
  const std::vector<float>& positions = scene.positions;
  const Session* session = scene.session.get();
  ASSERT_FALSE(session->tracker().wrinkles().empty());

  EXPECT_GT(ExpectOffsetsAgreeAlongSharedEdges(*session, positions, "sheet"),
            10);
}

}  // namespace
}  // namespace crease::renderer

namespace crease::renderer {
namespace {

// A 640 x 480 target looking down -Z from `distance` with a 90 degree field of
// view: w = distance - z, one unit is 240 / w pixels.
TessellationTarget LookingDownFrom(float distance) {
  TessellationTarget target;
  target.view_projection.setZero();
  target.view_projection(0, 0) = 0.75f;
  target.view_projection(1, 1) = 1.0f;
  target.view_projection(3, 2) = -1.0f;
  target.view_projection(3, 3) = distance;
  return target;
}

// Level of detail: seen from far enough that every wrinkle is under
// kFadeStart * min_wrinkle_pixels wide, no triangle lists any; from near, they
// do; in between, heights fade in smoothly with the width on screen.
TEST(WrinkleBuffersTest, WrinklesTooNarrowOnScreenAreLeftOut) {
  const SqueezedSheet scene = RunSqueezedSheet();
  ASSERT_NE(scene.session, nullptr);
  const io::TriangleMesh& sheet = scene.mesh;
  const std::vector<float>& positions = scene.positions;
  const Session* session = scene.session.get();
  ASSERT_FALSE(session->tracker().wrinkles().empty());
  ASSERT_EQ(session->topology().triangles(), sheet.triangles);
  const FrameWrinkles wrinkles = WrinklesOf(*session);
  auto listed_at = [&](float distance) {
    const TessellationTarget target = LookingDownFrom(distance);
    WrinkleBuffers buffers;
    FillWrinkleBuffers(MeshOf(*session, positions), wrinkles, target, &buffers);
    int listed = 0;
    for (const auto& list : buffers.triangle_ranges) listed += list[1];
    return listed;
  };
  // The widest wrinkle is at most pi * 0.08 = 0.25 units wide: under 1/4 px
  // beyond w = 240.
  EXPECT_GT(listed_at(2.0f), 20);
  EXPECT_GT(listed_at(100.0f), 0);
  EXPECT_EQ(listed_at(300.0f), 0);
}

// The fade: 0 up to a quarter of min_wrinkle_pixels, 1 from it on, smooth and
// rising in between; applied to the uploaded heights per refined point.
TEST(WrinkleBuffersTest, HeightsFadeInWithTheWidthOnScreen) {
  TessellationTarget target;
  target.min_wrinkle_pixels = 2.0f;
  EXPECT_EQ(LevelOfDetailFade(0.0f, target), 0.0f);
  EXPECT_EQ(LevelOfDetailFade(0.5f, target), 0.0f);
  EXPECT_EQ(LevelOfDetailFade(2.0f, target), 1.0f);
  EXPECT_EQ(LevelOfDetailFade(INFINITY, target), 1.0f);
  float previous = 0.0f;
  for (float px = 0.5f; px <= 2.0f; px += 0.01f) {
    const float fade = LevelOfDetailFade(px, target);
    EXPECT_GE(fade, previous);
    EXPECT_LT(fade - previous, 0.03f) << px;  // no step
    previous = fade;
  }
  const SqueezedSheet scene = RunSqueezedSheet();
  ASSERT_NE(scene.session, nullptr);
  const FrameWrinkles wrinkles = WrinklesOf(*scene.session);
  for (float distance : {2.0f, 150.0f}) {
    WrinkleBuffers buffers;
    FillWrinkleBuffers(MeshOf(*scene.session, scene.positions), wrinkles,
                       LookingDownFrom(distance), &buffers);
    // The points as drawn: thinned (ThinRefinedPoints, tested on its own in
    // frame_wrinkles_test), each one the tracker's.
    ASSERT_EQ(buffers.thinned.num_wrinkles(), wrinkles.num_wrinkles());
    size_t i = 0;
    for (const RefinedPoint& r : buffers.thinned.points) {
      const float px = r.width * 240.0 / (distance - r.position.z());
      EXPECT_NEAR(buffers.frames[i++][3],
                  r.height * LevelOfDetailFade(px, LookingDownFrom(distance)),
                  1e-6);
    }
    ASSERT_EQ(i, buffers.frames.size());
    EXPECT_LT(buffers.thinned.points.size(), wrinkles.points.size());
  }
}

// Which wrinkles displace the surface: exactly those whose widest point is at
// least 4 min_edge_pixels wide on screen (brute force over the refined
// points); the others only bend normals and leave every
// tessellation level at 1.
TEST(WrinkleBuffersTest, OnlyWrinklesTheTessellationCanSampleDisplace) {
  const SqueezedSheet scene = RunSqueezedSheet();
  ASSERT_NE(scene.session, nullptr);
  const WrinkleTracker& tracker = scene.session->tracker();
  ASSERT_FALSE(tracker.wrinkles().empty());
  const FrameWrinkles wrinkles = WrinklesOf(*scene.session);
  int both = 0, normals_only = 0, neither = 0;
  for (float distance = 1.5f; distance < 400.0f; distance *= 1.25f) {
    const TessellationTarget target = LookingDownFrom(distance);
    WrinkleBuffers buffers;
    FillWrinkleBuffers(MeshOf(*scene.session, scene.positions), wrinkles,
                       target, &buffers);
    int drawn = 0, displaced = 0;
    for (const WrinkleShape& shape : tracker.shapes()) {
      double widest = 0;
      for (const RefinedPoint& r : shape.refined) {
        widest =
            std::max(widest, r.width * 240.0 / (distance - r.position.z()));
      }
      drawn += widest > kFadeStart * target.min_wrinkle_pixels;
      displaced += widest >= 4.0 * target.min_edge_pixels;
    }
    EXPECT_EQ(buffers.drawn_wrinkles, drawn) << distance;
    EXPECT_EQ(buffers.displaced_wrinkles, displaced) << distance;
    int listed = 0, listed_displacing = 0, tessellated = 0;
    for (size_t f = 0; f < buffers.triangle_ranges.size(); ++f) {
      listed += buffers.triangle_ranges[f][1];
      listed_displacing += buffers.triangle_ranges[f][2];
      tessellated += buffers.levels[f][3] > 1;
    }
    EXPECT_EQ(listed_displacing > 0, displaced > 0) << distance;
    // (Displaced wrinkles may still leave level 1 where the triangles are
    // small on screen.)
    EXPECT_TRUE(tessellated == 0 || displaced > 0) << distance;
    if (distance == 1.5f) {
      EXPECT_GT(tessellated, 10);
    }
    both += displaced > 0;
    normals_only += displaced == 0 && listed > 0;
    neither += listed == 0;
  }
  // The sweep sees all three regimes.
  EXPECT_GT(both, 0);
  EXPECT_GT(normals_only, 0);
  EXPECT_GT(neither, 0);
}

}  // namespace
}  // namespace crease::renderer

namespace crease::renderer {
namespace {

TEST(ClassifyClosureTest, TetrahedraSoupsAndOpenMeshes) {
  const float tetra[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  const int32_t welded[] = {0, 1, 2, 3};
  // Counter-clockwise seen from outside.
  std::vector<io::Triangle> outward = {
      {0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  std::vector<uint64_t> scratch;
  EXPECT_EQ(ClassifyClosure({tetra, outward, welded}, &scratch),
            Closure::kClosedOutward);
  std::vector<io::Triangle> inward = outward;
  for (io::Triangle& t : inward) std::swap(t[1], t[2]);
  EXPECT_EQ(ClassifyClosure({tetra, inward, welded}, &scratch),
            Closure::kClosedInward);
  std::vector<io::Triangle> open(outward.begin(), outward.end() - 1);
  EXPECT_EQ(ClassifyClosure({tetra, open, welded}, &scratch), Closure::kOpen);
  std::vector<io::Triangle> flipped_one = outward;
  std::swap(flipped_one[3][1], flipped_one[3][2]);
  EXPECT_EQ(ClassifyClosure({tetra, flipped_one, welded}, &scratch),
            Closure::kOpen);
  // The bundled Fox is a soup that is closed once welded; the trouser leg is
  // open.
  for (const auto& [name, want] :
       {std::pair{"fox_walk", Closure::kClosedOutward},
        std::pair{"cloth_pants_knee", Closure::kOpen}}) {
    const io::Animation anim = testing::LoadBundled(name);
    ASSERT_GT(anim.num_frames(), 0);
    int num_welded = 0;
    const std::vector<int32_t> welded = WeldVerticesRelative(
        anim.mesh.positions, kDefaultWeldRelativeTolerance, &num_welded);
    EXPECT_EQ(
        ClassifyClosure({anim.frames.Sample(10), anim.mesh.triangles, welded},
                        &scratch),
        want)
        << name;
  }
}

// The topological half found once (a session's) gives the same culling as
// finding it every frame; the sign still follows the frame's positions.
TEST(ClassifyClosureTest, AClosureFoundOnceClassifiesLikeEveryFrame) {
  const float tetra[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  const float mirrored[] = {0, 0, 0, -1, 0, 0, 0, 1, 0, 0, 0, 1};
  const int32_t welded[] = {0, 1, 2, 3};
  const std::vector<io::Triangle> outward = {
      {0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  const std::vector<io::Triangle> open(outward.begin(), outward.end() - 1);
  std::vector<uint64_t> scratch;
  EXPECT_TRUE(ClosedAndConsistent(outward, welded, &scratch));
  EXPECT_FALSE(ClosedAndConsistent(open, welded, &scratch));
  RenderMesh known{tetra, outward, welded};
  known.closed_and_consistent = true;
  EXPECT_EQ(ClassifyClosure(known, &scratch), Closure::kClosedOutward);
  known.positions = mirrored;  // the same topology turned inside out
  EXPECT_EQ(ClassifyClosure(known, &scratch), Closure::kClosedInward);
  known.closed_and_consistent = false;  // the caller's word is taken
  EXPECT_EQ(ClassifyClosure(known, &scratch), Closure::kOpen);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  int num_welded = 0;
  const std::vector<int32_t> fox_welded = WeldVerticesRelative(
      fox.mesh.positions, kDefaultWeldRelativeTolerance, &num_welded);
  RenderMesh frame{fox.frames.Sample(10), fox.mesh.triangles, fox_welded};
  const Closure every_frame = ClassifyClosure(frame, &scratch);
  frame.closed_and_consistent =
      ClosedAndConsistent(frame.triangles, frame.welded, &scratch);
  EXPECT_TRUE(*frame.closed_and_consistent);
  EXPECT_EQ(ClassifyClosure(frame, &scratch), every_frame);
}

}  // namespace
}  // namespace crease::renderer
