#include "wrinkle/outputs/vertex_fields.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "tests/wrinkle/wrinkle_sheet_test.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/sca2015/session.h"

namespace crease {
namespace {

Eigen::Vector3f PointAt(absl::Span<const float> xyz, int v) {
  return {xyz[3 * v], xyz[3 * v + 1], xyz[3 * v + 2]};
}

VertexFields FieldsOf(const Session& session,
                      absl::Span<const float> positions) {
  VertexFields fields;
  VertexFieldBuilder builder;
  builder.Compute(positions, session.topology().triangles(),
                  session.topology().weld_map(), session.compression_field(),
                  session.labels(), &fields);
  return fields;
}

// The sheet squeezed to 80 % along a direction 30 degrees from X in its
// plane, all at once: every triangle is labelled compress and has the same
// tensor, so every vertex has that tensor's compression, its direction and
// the label mix 1 / 0 / 0.
TEST(VertexFieldsTest, UniformlyCompressedSheet) {
  const io::TriangleMesh sheet = MakeGridSheet(8, 8, 1.0f, 1.0f);
  auto session = testing::NewSession(sheet);
  ASSERT_NE(session, nullptr);
  const double theta = std::numbers::pi / 6;
  std::vector<float> rest, squeezed;
  testing::SqueezeSheet(sheet, 1.0, theta, 2.0, &rest);
  testing::SqueezeSheet(sheet, 0.8, theta, 2.0, &squeezed);
  ASSERT_TRUE(session->ProcessFrame(rest).ok());
  ASSERT_TRUE(session->ProcessFrame(squeezed).ok());
  const StretchTensor& first = session->compression_field()[0];
  for (size_t f = 0; f < session->labels().size(); ++f) {
    ASSERT_EQ(session->labels()[f], Label::kCompress) << "triangle " << f;
    ASSERT_NEAR(session->compression_field()[f].compression, first.compression,
                1e-6);
  }
  // The compressed reference eases each singular value 5 % of the way to 1
  // (docs/algorithm.md, "Reference shapes").
  EXPECT_NEAR(first.compression, 1 / (0.95 * 0.8 + 0.05), 1e-6);
  const VertexFields fields = FieldsOf(*session, squeezed);
  const Eigen::Vector3f expected(std::cos(theta), 0, std::sin(theta));
  for (int v = 0; v < sheet.num_vertices(); ++v) {
    EXPECT_NEAR(fields.compression[v], first.compression, 1e-5) << v;
    EXPECT_LT((PointAt(fields.directions, v) - expected).norm(), 1e-5) << v;
    EXPECT_EQ(fields.label_weights[3 * v], 1.0f);
    EXPECT_EQ(fields.label_weights[3 * v + 1], 0.0f);
    EXPECT_EQ(fields.label_weights[3 * v + 2], 0.0f);
  }
}

// A sheet compressed on its left half only: vertices inside either half get
// that half's labels, those on the border a share of both, by area.
TEST(VertexFieldsTest, LabelWeightsAreAreaShares) {
  const io::TriangleMesh sheet = MakeGridSheet(8, 8, 1.0f, 1.0f);
  auto session = testing::NewSession(sheet);
  ASSERT_NE(session, nullptr);
  std::vector<float> rest, squeezed;
  testing::SqueezeSheet(sheet, 1.0, 0.0, 0.5, &rest);
  testing::SqueezeSheet(sheet, 0.7, 0.0, 0.5, &squeezed);
  ASSERT_TRUE(session->ProcessFrame(rest).ok());
  ASSERT_TRUE(session->ProcessFrame(squeezed).ok());
  const VertexFields fields = FieldsOf(*session, squeezed);
  // Brute force: the incident triangles' areas per label.
  const auto& triangles = session->topology().triangles();
  int mixed = 0;
  for (int v = 0; v < sheet.num_vertices(); ++v) {
    double area[3] = {0, 0, 0};
    for (size_t f = 0; f < triangles.size(); ++f) {
      const auto& t = triangles[f];
      if (t[0] != v && t[1] != v && t[2] != v) continue;
      const Eigen::Vector3f a = PointAt(squeezed, t[0]);
      area[LabelIndex(session->labels()[f])] +=
          0.5 * (PointAt(squeezed, t[1]) - a)
                    .cross(PointAt(squeezed, t[2]) - a)
                    .norm();
    }
    const double total = area[0] + area[1] + area[2];
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(fields.label_weights[3 * v + k], area[k] / total, 1e-6);
    }
    mixed += area[0] > 0 && area[0] < total;
  }
  EXPECT_GE(mixed, 9);  // the border column
}

// At rest every triangle's tensor is the identity in its own plane: at every
// vertex, also where the surface bends sharply (the Fox's ears, paws), the
// compression is 1 and there is no direction. Projecting the triangles'
// tensors onto the vertex's tangent plane, instead of turning them into it,
// would shrink them there and read compression.
TEST(VertexFieldsTest, RestIsOneEverywhereOnACurvedMesh) {
  const io::Animation anim = testing::LoadBundled("fox_walk");
  ASSERT_GT(anim.num_frames(), 0);
  const auto session = testing::RunSessionTo(anim, 0);
  ASSERT_NE(session, nullptr);
  const VertexFields fields = FieldsOf(*session, anim.frames.Sample(0));
  for (int v = 0; v < anim.mesh.num_vertices(); ++v) {
    EXPECT_NEAR(fields.compression[v], 1.0f, 1e-5f) << v;
    EXPECT_EQ(PointAt(fields.directions, v), Eigen::Vector3f::Zero()) << v;
    EXPECT_EQ(fields.label_weights[3 * v + 1], 1.0f) << v;
  }
}

// On a walking character: finite; directions unit (or zero) and in the
// tangent plane; weights summing to 1; vertices split at seams (the Fox is a
// soup) share their values.
TEST(VertexFieldsTest, BundledFoxIsWellFormed) {
  const io::Animation anim = testing::LoadBundled("fox_walk");
  ASSERT_GT(anim.num_frames(), 0);
  const auto session = testing::RunSessionTo(anim, 40);
  ASSERT_NE(session, nullptr);
  const auto positions = anim.frames.Sample(40);
  const VertexFields fields = FieldsOf(*session, positions);
  const std::vector<int32_t>& welded = session->topology().weld_map();
  std::vector<Eigen::Vector3f> normals(welded.size(), Eigen::Vector3f::Zero());
  for (const auto& t : session->topology().triangles()) {
    const Eigen::Vector3f a = PointAt(positions, t[0]);
    const Eigen::Vector3f n =
        (PointAt(positions, t[1]) - a).cross(PointAt(positions, t[2]) - a);
    for (int32_t v : t) normals[welded[v]] += n;
  }
  std::vector<int> first(welded.size(), -1);
  int compressed = 0, directed = 0;
  for (int v = 0; v < anim.mesh.num_vertices(); ++v) {
    ASSERT_TRUE(std::isfinite(fields.compression[v]));
    const Eigen::Vector3f d = PointAt(fields.directions, v);
    if (d != Eigen::Vector3f::Zero()) {
      ++directed;
      EXPECT_NEAR(d.norm(), 1.0f, 1e-5f);
      EXPECT_NEAR(d.dot(normals[welded[v]].normalized()), 0.0f, 1e-5f);
    }
    const float sum = fields.label_weights[3 * v] +
                      fields.label_weights[3 * v + 1] +
                      fields.label_weights[3 * v + 2];
    EXPECT_NEAR(sum, 1.0f, 1e-6f);
    compressed += fields.compression[v] > 1.05f;
    int& seen = first[welded[v]];
    if (seen < 0) {
      seen = v;
      continue;
    }
    EXPECT_EQ(fields.compression[v], fields.compression[seen]);
    EXPECT_EQ(PointAt(fields.directions, v), PointAt(fields.directions, seen));
  }
  EXPECT_GT(compressed, 10);
  EXPECT_GT(directed, anim.mesh.num_vertices() / 2);
}

}  // namespace
}  // namespace crease
