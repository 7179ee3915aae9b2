// Tracing (wrinkle/sca2015/tracing.h): a wrinkle traced from a seed runs
// across the compression, straight where the field is uniform, to the
// border; it stops where the cloth is no longer compressed enough to carry
// it, saying why; smoothing pulls a kinked path back toward its chord.

#include "wrinkle/sca2015/tracing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "tests/testing/session_runner.h"
#include "tests/wrinkle/wrinkle_sheet_test.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/sca2015/metrics.h"
#include "wrinkle/sca2015/session.h"

namespace crease {
namespace {

// A 1 x 1 sheet of 20 x 20 quads after `frame` (the compression field only:
// no wrinkles are traced by the session itself).
struct Squeezed {
  io::TriangleMesh sheet = MakeGridSheet(20, 20, 1.0f, 1.0f);
  std::unique_ptr<Session> session;
};

// Squeezed to kSqueeze along x everywhere (`across` false), or along z for
// x < 0.4 only, easing to none from x = 0.4 to 0.5 (`across` true).
std::unique_ptr<Squeezed> Squeeze(bool across) {
  auto s = std::make_unique<Squeezed>();
  SessionParams params;
  params.trace_wrinkles = false;
  s->session = testing::NewSession(s->sheet, params);
  if (s->session == nullptr) return nullptr;
  EXPECT_TRUE(s->session->ProcessFrame(s->sheet.positions).ok());
  std::vector<float> frame = s->sheet.positions;
  for (size_t v = 0; v < frame.size(); v += 3) {
    if (!across) {
      frame[v] *= static_cast<float>(testing::kSqueeze);
      continue;
    }
    const double x = frame[v];
    const double ease = std::clamp((x - 0.4) / 0.1, 0.0, 1.0);
    frame[v + 2] *=
        static_cast<float>(testing::kSqueeze + (1 - testing::kSqueeze) * ease);
  }
  EXPECT_TRUE(s->session->ProcessFrame(frame).ok());
  return s;
}

// The triangle whose centroid is nearest (x, z), and that centroid.
int32_t FaceNear(const SurfaceFrame& surface, int num_faces, double x, double z,
                 Eigen::Vector3d* centroid) {
  int32_t best = 0;
  double best_distance = 1e300;
  for (int32_t f = 0; f < num_faces; ++f) {
    const Eigen::Vector3d c =
        (surface.Corner(f, 0) + surface.Corner(f, 1) + surface.Corner(f, 2)) /
        3.0;
    const double d = std::hypot(c.x() - x, c.z() - z);
    if (d < best_distance) {
      best_distance = d;
      best = f;
      *centroid = c;
    }
  }
  return best;
}

// The wrinkle traced from the triangle nearest the middle of the sheet
// squeezed along x (`seed`: that triangle's centroid); none if it fails.
std::optional<WrinklePath> TraceFromMiddle(const Squeezed& s,
                                           Eigen::Vector3d* seed) {
  const SurfaceFrame& surface = s.session->surface();
  SegmentIndex segments;
  segments.Reset(s.session->num_triangles());
  TraceScratch scratch;
  const int32_t face = FaceNear(surface, s.session->num_triangles(),
                                0.5 * testing::kSqueeze, 0.5, seed);
  WrinklePath path;
  if (!TraceFromSeed(surface, face, *seed, TracingParams{}, segments, 0, 0.0,
                     scratch, &path)) {
    return std::nullopt;
  }
  return path;
}

TEST(TracingTest, UniformSqueezeTracesAStraightLineAcrossToTheBorders) {
  // Squeezed along x: the wrinkle runs along z, from border to border.
  auto s = Squeeze(false);
  ASSERT_NE(s, nullptr);
  const SurfaceFrame& surface = s->session->surface();
  Eigen::Vector3d seed;
  const std::optional<WrinklePath> traced = TraceFromMiddle(*s, &seed);
  ASSERT_TRUE(traced.has_value());
  WrinklePath path = *traced;
  EXPECT_EQ(CheckPath(s->session->topology(), path), "");
  double z_lo = 1e300, z_hi = -1e300;
  for (const EdgePoint& p : path.points) {
    const Eigen::Vector3d q = surface.Position(p);
    // Straight: within a triangle's width of the seed's x.
    EXPECT_NEAR(q.x(), seed.x(), 0.05 * testing::kSqueeze);
    z_lo = std::min(z_lo, q.z());
    z_hi = std::max(z_hi, q.z());
  }
  EXPECT_LT(z_lo, 0.01);  // reaches both borders
  EXPECT_GT(z_hi, 0.99);
}

TEST(TracingTest, ATraceStopsWhereTheClothIsNoLongerCompressed) {
  // Squeezed along z for x < 0.4 only: a wrinkle along x from x = 0.2 ends
  // where the squeeze eases off, saying so.
  auto s = Squeeze(true);
  ASSERT_NE(s, nullptr);
  const SurfaceFrame& surface = s->session->surface();
  SegmentIndex segments;
  segments.Reset(s->session->num_triangles());
  TraceScratch scratch;
  Eigen::Vector3d seed;
  const int32_t face = FaceNear(surface, s->session->num_triangles(), 0.2,
                                0.5 * testing::kSqueeze, &seed);
  scratch.visit_stamp.assign(s->session->num_triangles(), 0);
  for (const double sign : {1.0, -1.0}) {
    ++scratch.stamp;  // a fresh trace (TraceDirection's precondition)
    TraceRequest request;
    request.face = face;
    request.start = seed;
    request.direction = Eigen::Vector3d(sign, 0, 0);
    request.max_segments = 64;
    TracedEdges out;
    TraceDirection(surface, TracingParams{}, segments, request, scratch, &out);
    ASSERT_FALSE(out.points.empty());
    const Eigen::Vector3d last = surface.Position(out.points.back());
    if (sign > 0) {
      EXPECT_EQ(out.end, TraceEnd::kBelowKeep);
      // At the last triangle still above the keep threshold: the squeeze
      // has eased off by x = 0.5.
      EXPECT_GT(last.x(), 0.35);
      EXPECT_LE(last.x(), 0.5 + 1e-6);
    } else {
      EXPECT_EQ(out.end, TraceEnd::kBoundary);
      EXPECT_LT(last.x(), 0.01);
    }
  }
}

TEST(TracingTest, SmoothingPullsAKinkBackTowardTheChord) {
  auto s = Squeeze(false);
  ASSERT_NE(s, nullptr);
  const SurfaceFrame& surface = s->session->surface();
  Eigen::Vector3d seed;
  const std::optional<WrinklePath> traced = TraceFromMiddle(*s, &seed);
  ASSERT_TRUE(traced.has_value());
  WrinklePath path = *traced;
  ASSERT_GE(path.points.size(), 8u);
  // Kink one interior point along its edge, then smooth.
  const size_t k = path.points.size() / 2;
  const auto off_line = [&] {
    const Eigen::Vector3d a = surface.Position(path.points[k - 1]);
    const Eigen::Vector3d b = surface.Position(path.points[k + 1]);
    const Eigen::Vector3d p = surface.Position(path.points[k]);
    return ((p - a).cross(b - a)).norm() / (b - a).norm();
  };
  const double straight = off_line();
  path.points[k].t = path.points[k].t < 0.5 ? 0.95 : 0.05;
  const double kinked = off_line();
  ASSERT_GT(kinked, straight + 0.01);
  for (int pass = 0; pass < 4; ++pass) SmoothPath(surface, 0.5, &path);
  EXPECT_LT(off_line(), 0.25 * kinked);
  EXPECT_EQ(CheckPath(s->session->topology(), path), "");
}

}  // namespace
}  // namespace crease
