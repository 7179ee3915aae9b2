#include "wrinkle/wrinkle_maps/amplitude_model.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/session_runner.h"
#include "tests/wrinkle/wrinkle_sheet_test.h"
#include "wrinkle/core/mesh.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/sca2015/session.h"

namespace crease {
namespace {

using ::testing::HasSubstr;

constexpr double kPi = std::numbers::pi;

// Eq. 1 at the five elongations the paper plots (lambda = 1), and the
// threshold moving the zero to l = L / lambda.
TEST(AmplitudeModelTest, ShrinkTermByHand) {
  AmplitudeModelParams p;
  const double ratios[] = {1.2, 1.0, 0.8, 0.5, 0.2};
  const double reconstructed[] = {-0.18033, 0.0, 0.21951, 0.6, 0.92308};
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(ShrinkTerm(ratios[i] * 2.0, 2.0, p), reconstructed[i], 1e-5);
  }
  EXPECT_DOUBLE_EQ(ShrinkTerm(0.0, 2.0, p), 1.0);
  p.shrink_threshold = 1.25;
  EXPECT_NEAR(ShrinkTerm(0.8, 1.0, p), 0.0, 1e-12);
  EXPECT_GT(ShrinkTerm(0.79, 1.0, p), 0.0);
  // The literal reading is 1 at rest and never negative.
  p = {};
  p.shrink = ShrinkFormula::kLiteral;
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(ShrinkTerm(ratios[i], 1.0, p), reconstructed[i] + 1.0, 1e-5);
  }
  // No native length: no wrinkles.
  EXPECT_EQ(ShrinkTerm(1.0, 0.0, p), 0.0);
}

TEST(AmplitudeModelTest, SensitivityByHand) {
  AmplitudeModelParams p;
  EXPECT_EQ(SensitivityFromVariation(0.0, p), 0.0);
  EXPECT_DOUBLE_EQ(SensitivityFromVariation(3.0, p), 0.75);
  p.sensitivity_alpha = 2.0;
  EXPECT_DOUBLE_EQ(SensitivityFromVariation(1.5, p), 0.75);
  p.sensitivity = SensitivityFormula::kLiteral;
  EXPECT_DOUBLE_EQ(SensitivityFromVariation(1.5, p), 0.25);
  EXPECT_EQ(SensitivityFromVariation(0.0, p), 1.0);
}

// One channel, crests along v: h = sin(2 pi 16 u), 32 texels per wavelength.
WrinklePattern CrestsAlongV() {
  SinusoidPatternParams params;
  params.wavelength = 1.0 / 16;
  params.resolution = 512;
  params.channels = 1;
  return *MakeSinusoidPattern(params);
}

// A = l_uv^2 mean((dh/ds)^2) over an edge spanning whole wavelengths:
// (2 pi f du)^2 / 2. Across the crests it is large; along them exactly 0.
TEST(AmplitudeModelTest, PatternVariationOfSinusoid) {
  const WrinklePattern pattern = CrestsAlongV();
  const double across =
      PatternVariation(pattern, 0, {0.1f, 0.3f}, {0.1f + 0.125f, 0.3f}, 8);
  EXPECT_NEAR(across, std::pow(2 * kPi * 16 * 0.125, 2) / 2, 0.01 * across);
  const double diagonal = PatternVariation(pattern, 0, {0.1f, 0.3f},
                                           {0.1f + 0.125f, 0.3f + 0.125f}, 8);
  EXPECT_NEAR(diagonal, across, 5e-3 * across);
  EXPECT_NEAR(PatternVariation(pattern, 0, {0.1f, 0.3f}, {0.1f, 0.55f}, 8), 0.0,
              1e-9);
  // Brute force with n = 8 on an edge shorter than 4 texels.
  const Eigen::Vector2f a(0.2f, 0.4f), b(0.2f + 3.0f / 512, 0.4f + 1.0f / 512);
  double sum = 0;
  for (int k = 1; k <= 8; ++k) {
    const double d = SamplePattern(pattern, 0, a + (k / 8.0f) * (b - a)) -
                     SamplePattern(pattern, 0, a + ((k - 1) / 8.0f) * (b - a));
    sum += d * d;
  }
  EXPECT_NEAR(PatternVariation(pattern, 0, a, b, 8), 8 * sum, 1e-9);
}

// The paper's model: Eq. 2 per edge and no slope cap (both ours).
AmplitudeModelParams Paper() {
  AmplitudeModelParams p;
  p.sensitivity = SensitivityFormula::kReconstructed;
  p.max_slope = 0.0;
  return p;
}

// The RMS-slope wavelength of a sinusoid is its own (1 / 16 here), along u
// or v alike, and a flat channel has none. Central differences read the
// slope low by sin(x) / x, x = 2π / texels per wavelength: 0.6 % at 32.
TEST(AmplitudeModelTest, PatternWavelengthOfSinusoid) {
  EXPECT_NEAR(PatternWavelength(CrestsAlongV(), 0), 1.0 / 16, 1e-2 / 16);
  SinusoidPatternParams params;
  params.wavelength = 1.0 / 8;
  params.resolution = 256;
  const WrinklePattern three = *MakeSinusoidPattern(params);
  for (int c = 0; c < 3; ++c) {
    // Frequencies are rounded to whole cycles: 1 / |f|.
    const double expected =
        1.0 / SinusoidFrequency(1.0 / 8, c).cast<double>().norm();
    EXPECT_NEAR(PatternWavelength(three, c), expected, 1e-2 * expected) << c;
  }
  WrinklePattern flat = CrestsAlongV();
  std::fill(flat.samples.begin(), flat.samples.end(), 0.25f);
  EXPECT_EQ(PatternWavelength(flat, 0), 0.0);
}

// The 8 x 8 unit sheet with planar UVs, and its model.
struct Sheet {
  io::TriangleMesh mesh;
  MeshTopology topology;
};

Sheet MakeSheet() {
  io::TriangleMesh mesh = MakeGridSheet(8, 8, 1.0f, 1.0f);
  SetSheetUvs(1.0f, 1.0f, &mesh);
  auto topology = MeshTopology::Build(mesh.triangles, mesh.positions);
  EXPECT_TRUE(topology.ok()) << topology.status();
  return {std::move(mesh), *std::move(topology)};
}

AmplitudeModel MakeModel(const Sheet& sheet, const AmplitudeModelParams& p) {
  auto model = AmplitudeModel::Create(sheet.topology, sheet.mesh.corner_uvs,
                                      CrestsAlongV(), sheet.mesh.positions, p);
  EXPECT_TRUE(model.ok()) << model.status();
  return *std::move(model);
}

// Hand values for the sheet squeezed along X to `s`: edges along X and the
// diagonals cross 2 wavelengths (A = 8 pi^2 from PatternVariationOfSinusoid),
// edges along Z none. Every edge of one direction has the same w.
struct HandEdges {
  double w_x, w_z, w_diagonal;
};

HandEdges ByHand(double s, const AmplitudeModelParams& p) {
  const double m_crossing = SensitivityFromVariation(8 * kPi * kPi, p);
  const double m_along = SensitivityFromVariation(0.0, p);
  const double h = 1.0 / 8;
  const double d = std::sqrt(2.0) * h;
  const double d_now = std::sqrt(s * s + 1.0) * h;
  return {h * m_crossing * ShrinkTerm(s * h, h, p),
          h * m_along * ShrinkTerm(h, h, p),
          d * m_crossing * ShrinkTerm(d_now, d, p)};
}

// Eq. 3 by hand: each vertex's amplitude is the mean of its edges' w, the
// edges found from the triangles and classified by direction.
std::vector<double> VertexAmplitudesByHand(const io::TriangleMesh& mesh,
                                           const HandEdges& w) {
  std::vector<std::set<int>> neighbours(mesh.num_vertices());
  for (const io::Triangle& t : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      neighbours[t[k]].insert(t[(k + 1) % 3]);
      neighbours[t[(k + 1) % 3]].insert(t[k]);
    }
  }
  std::vector<double> out(mesh.num_vertices());
  for (int v = 0; v < mesh.num_vertices(); ++v) {
    double sum = 0;
    for (int n : neighbours[v]) {
      const bool dx = mesh.positions[3 * n] != mesh.positions[3 * v];
      const bool dz = mesh.positions[3 * n + 2] != mesh.positions[3 * v + 2];
      sum += dx && dz ? w.w_diagonal : (dx ? w.w_x : w.w_z);
    }
    out[v] = sum / neighbours[v].size();
  }
  return out;
}

void ExpectVertexAmplitudes(const AmplitudeModel& model,
                            const std::vector<double>& expected, double scale,
                            bool clamp) {
  ASSERT_EQ(model.vertex_amplitudes().size(), expected.size());
  for (size_t v = 0; v < expected.size(); ++v) {
    const double s = clamp ? std::max(expected[v], 0.0) : expected[v];
    EXPECT_NEAR(model.vertex_amplitudes()[v], scale * s, 2e-5 * scale + 1e-7)
        << "vertex " << v;
  }
}

// The uniformly compressed sheet with the reconstructed Eq. 1 and 2, with
// a vertex checked against numbers worked out on paper.
TEST(AmplitudeModelTest, UniformlyCompressedSheetReconstructed) {
  const Sheet sheet = MakeSheet();
  AmplitudeModel model = MakeModel(sheet, Paper());
  std::vector<float> squeezed;
  testing::SqueezeSheet(sheet.mesh, 0.8, 0.0, 2.0, &squeezed);
  ASSERT_TRUE(model.Update(squeezed).ok());
  const HandEdges w = ByHand(0.8, {});
  EXPECT_NEAR(w.w_x, 0.125 * 0.98749 * 0.21951, 1e-5);
  EXPECT_EQ(w.w_z, 0.0);  // along the crests: m = 0 (and t = 0)
  ExpectVertexAmplitudes(model, VertexAmplitudesByHand(sheet.mesh, w), 1.0,
                         true);
  // Vertex (1, 1) has two edges along X, two along Z and four diagonals:
  // (2 * 0.027096 + 4 * 0.017265) / 8; vertex (2, 1) no diagonal:
  // 2 * 0.027096 / 4.
  EXPECT_NEAR(model.vertex_amplitudes()[1 * 9 + 1], 0.015406, 2e-5);
  EXPECT_NEAR(model.vertex_amplitudes()[1 * 9 + 2], 0.013548, 2e-5);
  // Each edge's terms.
  for (int e = 0; e < model.num_edges(); ++e) {
    const auto& edge = model.edge(e);
    const bool along_z =
        sheet.mesh.positions[3 * edge.v0] == sheet.mesh.positions[3 * edge.v1];
    EXPECT_NEAR(model.edge_sensitivities()[e], along_z ? 0.0 : 0.98749, 1e-4);
    if (along_z) {
      EXPECT_NEAR(model.edge_shrink()[e], 0.0, 1e-6);
    }
  }
}

// The literal readings, each beside the other's reconstruction, on the same
// sheet: edges along the crests now react most (literal Eq. 2), and the rest
// state is wrinkled (literal Eq. 1).
TEST(AmplitudeModelTest, UniformlyCompressedSheetLiteral) {
  const Sheet sheet = MakeSheet();
  std::vector<float> squeezed;
  testing::SqueezeSheet(sheet.mesh, 0.8, 0.0, 2.0, &squeezed);
  for (int which = 0; which < 2; ++which) {
    AmplitudeModelParams p = Paper();
    if (which == 0) p.sensitivity = SensitivityFormula::kLiteral;
    if (which == 1) p.shrink = ShrinkFormula::kLiteral;
    AmplitudeModel model = MakeModel(sheet, p);
    ASSERT_TRUE(model.Update(squeezed).ok());
    const HandEdges w = ByHand(0.8, p);
    if (which == 0) {
      EXPECT_NEAR(w.w_x, 0.125 / (1 + 8 * kPi * kPi) * 0.21951, 1e-6);
      EXPECT_EQ(w.w_z, 0.0);  // m = 1 but t = 0
    } else {
      EXPECT_NEAR(w.w_x, 0.125 * 0.98749 * 1.21951, 1e-5);
      EXPECT_EQ(w.w_z, 0.0);  // t = 1 but m = 0
    }
    ExpectVertexAmplitudes(model, VertexAmplitudesByHand(sheet.mesh, w), 1.0,
                           true);
  }
  // Both literal, at rest: t = 1 and m = 1 along Z, so w = L there.
  AmplitudeModelParams both = Paper();
  both.sensitivity = SensitivityFormula::kLiteral;
  both.shrink = ShrinkFormula::kLiteral;
  AmplitudeModel model = MakeModel(sheet, both);
  ASSERT_TRUE(model.Update(sheet.mesh.positions).ok());
  ExpectVertexAmplitudes(
      model, VertexAmplitudesByHand(sheet.mesh, ByHand(1.0, both)), 1.0, true);
  EXPECT_GT(model.vertex_amplitudes()[10], 0.125 / 6);
}

// Stretching gives t < 0: the clamp removes the wrinkles, and without it the
// vertex amplitudes are the (negative) means of Eq. 3; k scales them.
TEST(AmplitudeModelTest, StretchingRemovesWrinkles) {
  const Sheet sheet = MakeSheet();
  std::vector<float> stretched;
  testing::SqueezeSheet(sheet.mesh, 1.2, 0.0, 2.0, &stretched);
  AmplitudeModel clamped = MakeModel(sheet, {});
  ASSERT_TRUE(clamped.Update(stretched).ok());
  for (float s : clamped.vertex_amplitudes()) EXPECT_EQ(s, 0.0f);
  AmplitudeModelParams p = Paper();
  p.clamp_negative = false;
  p.scale = 0.5;
  AmplitudeModel raw = MakeModel(sheet, p);
  ASSERT_TRUE(raw.Update(stretched).ok());
  const HandEdges w = ByHand(1.2, p);
  EXPECT_NEAR(w.w_x, 0.125 * 0.98749 * -0.18033, 1e-5);
  ExpectVertexAmplitudes(raw, VertexAmplitudesByHand(sheet.mesh, w), 0.5,
                         false);
  EXPECT_LT(raw.vertex_amplitudes()[10], -0.005);
}

// The slope cap (ours): each vertex's amplitude is the paper's, or
// max_slope λ / 2π where that is smaller, λ = 1 / 16 times the vertex's
// world length per UV unit, the RMS over its edges of length / UV length:
// 0.8 along X (squeezed), 1 along Z, sqrt(0.64 + 1) / sqrt 2 on diagonals.
TEST(AmplitudeModelTest, SlopeCapHoldsTheReliefUnderMaxSlope) {
  const Sheet sheet = MakeSheet();
  std::vector<float> squeezed;
  testing::SqueezeSheet(sheet.mesh, 0.8, 0.0, 2.0, &squeezed);
  AmplitudeModelParams paper = Paper();
  // The paper's k = 1; a cap of 1.6 clips the vertices with the most
  // compressed edges and leaves the rest.
  AmplitudeModelParams capped = paper;
  capped.max_slope = 1.6;
  AmplitudeModel a = MakeModel(sheet, paper), b = MakeModel(sheet, capped);
  ASSERT_TRUE(a.Update(squeezed).ok());
  ASSERT_TRUE(b.Update(squeezed).ok());
  std::vector<std::set<int>> neighbours(sheet.mesh.num_vertices());
  for (const io::Triangle& t : sheet.mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      neighbours[t[k]].insert(t[(k + 1) % 3]);
      neighbours[t[(k + 1) % 3]].insert(t[k]);
    }
  }
  // 1 / 16 as the pattern measures it (PatternWavelengthOfSinusoid).
  const double wavelength = PatternWavelength(CrestsAlongV(), 0);
  int clipped = 0;
  for (int v = 0; v < sheet.mesh.num_vertices(); ++v) {
    double ratio_sum = 0;
    for (int n : neighbours[v]) {
      const bool dx =
          sheet.mesh.positions[3 * n] != sheet.mesh.positions[3 * v];
      const bool dz =
          sheet.mesh.positions[3 * n + 2] != sheet.mesh.positions[3 * v + 2];
      ratio_sum += dx && dz ? 1.64 / 2 : (dx ? 0.64 : 1.0);  // squared
    }
    const double world_per_uv = std::sqrt(ratio_sum / neighbours[v].size());
    const double limit = 1.6 * wavelength * world_per_uv / (2 * kPi);
    const double expected = std::min<double>(a.vertex_amplitudes()[v], limit);
    EXPECT_NEAR(b.vertex_amplitudes()[v], expected, 1e-3 * limit) << v;
    clipped += a.vertex_amplitudes()[v] > limit;
  }
  EXPECT_GT(clipped, 20);
  EXPECT_LT(clipped, sheet.mesh.num_vertices());
}

// A rigid motion of the squeezed sheet changes no amplitude.
TEST(AmplitudeModelTest, RigidMotionChangesNothing) {
  const Sheet sheet = MakeSheet();
  std::vector<float> squeezed, moved;
  testing::SqueezeSheet(sheet.mesh, 0.7, 0.4, 2.0, &squeezed);
  const Eigen::Affine3d motion =
      Eigen::Translation3d(3.0, -2.0, 5.0) *
      Eigen::AngleAxisd(1.1, Eigen::Vector3d(1, 2, -0.5).normalized());
  moved.resize(squeezed.size());
  for (size_t v = 0; v < squeezed.size() / 3; ++v) {
    const Eigen::Vector3d x(squeezed[3 * v], squeezed[3 * v + 1],
                            squeezed[3 * v + 2]);
    const Eigen::Vector3d y = motion * x;
    for (int i = 0; i < 3; ++i) moved[3 * v + i] = static_cast<float>(y[i]);
  }
  AmplitudeModel a = MakeModel(sheet, {});
  AmplitudeModel b = MakeModel(sheet, {});
  ASSERT_TRUE(a.Update(squeezed).ok());
  ASSERT_TRUE(b.Update(moved).ok());
  double largest = 0;
  for (size_t i = 0; i < a.vertex_amplitudes().size(); ++i) {
    EXPECT_NEAR(a.vertex_amplitudes()[i], b.vertex_amplitudes()[i], 1e-6);
    largest = std::max<double>(largest, a.vertex_amplitudes()[i]);
  }
  EXPECT_GT(largest, 0.005);  // the squeeze made wrinkles to compare
}

// Rest lengths from the Session's adaptive references: on the first frame
// they are the rest shape, so the model matches the rest-pose model; after
// one compressed frame the reference has relaxed 5 % toward the squeeze
// (S' = 0.95 * 0.8 + 0.05 = 0.81), so edges along X have L = h 0.8 / 0.81.
TEST(AmplitudeModelTest, RestLengthsFromAdaptiveReferences) {
  const Sheet sheet = MakeSheet();
  std::vector<float> squeezed;
  testing::SqueezeSheet(sheet.mesh, 0.8, 0.0, 2.0, &squeezed);
  auto session = testing::NewSession(sheet.mesh);
  ASSERT_NE(session, nullptr);
  ASSERT_TRUE(session->ProcessFrame(sheet.mesh.positions).ok());
  AmplitudeModelParams p;
  p.rest_lengths = RestLengthSource::kAdaptiveReferences;
  auto from_references =
      AmplitudeModel::Create(sheet.topology, sheet.mesh.corner_uvs,
                             CrestsAlongV(), /*rest_positions=*/{}, p);
  ASSERT_TRUE(from_references.ok()) << from_references.status();
  AmplitudeModel from_rest = MakeModel(sheet, {});
  ASSERT_TRUE(from_references->Update(squeezed, session->references()).ok());
  ASSERT_TRUE(from_rest.Update(squeezed).ok());
  for (size_t i = 0; i < from_rest.vertex_amplitudes().size(); ++i) {
    EXPECT_NEAR(from_references->vertex_amplitudes()[i],
                from_rest.vertex_amplitudes()[i], 1e-6);
  }
  ASSERT_TRUE(session->ProcessFrame(squeezed).ok());
  ASSERT_TRUE(from_references->Update(squeezed, session->references()).ok());
  const double h = 1.0 / 8;
  for (int e = 0; e < from_references->num_edges(); ++e) {
    const auto& edge = from_references->edge(e);
    const bool along_x = sheet.mesh.positions[3 * edge.v0 + 2] ==
                         sheet.mesh.positions[3 * edge.v1 + 2];
    if (!along_x) continue;
    EXPECT_NEAR(from_references->edge_rest_lengths()[e], h * 0.8 / 0.81, 1e-6);
    EXPECT_NEAR(from_references->edge_shrink()[e], 2 / (1 + 0.81 * 0.81) - 1,
                1e-5);
  }
}

// An edge whose two triangles' references disagree gets the root mean square
// of its length in each: the shared edge (corners 1-2 of the first triangle,
// 0-1 of the second) is 1 long in one and 3 long in the other, so L = sqrt 5
// (the plain mean would be 2).
TEST(AmplitudeModelTest, ReferenceLengthIsRootMeanSquareOfTheTwoTriangles) {
  io::TriangleMesh quad;
  quad.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  quad.triangles = {{0, 1, 2}, {2, 1, 3}};
  quad.corner_uvs = {0, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 1};
  auto topology = MeshTopology::Build(quad.triangles, quad.positions);
  ASSERT_TRUE(topology.ok());
  AmplitudeModelParams p;
  p.rest_lengths = RestLengthSource::kAdaptiveReferences;
  auto model =
      AmplitudeModel::Create(*topology, quad.corner_uvs, CrestsAlongV(), {}, p);
  ASSERT_TRUE(model.ok()) << model.status();
  // Columns: corner 1 - corner 0, corner 2 - corner 0.
  Eigen::Matrix2d first, second;
  first << 1, 1, 0, 1;   // edge 1-2: |(0, 1)| = 1
  second << 3, 0, 0, 4;  // edge 0-1 of the second: |col 0| = 3
  const std::vector<Eigen::Matrix2d> references = {first, second};
  ASSERT_TRUE(model->Update(quad.positions, references).ok());
  int shared = -1;
  for (int e = 0; e < model->num_edges(); ++e) {
    const auto& edge = model->edge(e);
    if (std::minmax(edge.v0, edge.v1) == std::minmax(1, 2)) shared = e;
  }
  ASSERT_GE(shared, 0);
  EXPECT_DOUBLE_EQ(model->edge_rest_lengths()[shared], std::sqrt(5.0));
  // Boundary edges take their one triangle's: 0-1 and 0-2 of the first are
  // |(1, 0)| = 1 and |(1, 1)| = sqrt 2; 1-3 and 2-3 of the second are
  // |(0, 4) - (3, 0)| = 5 and |(0, 4)| = 4.
  std::vector<double> boundary;
  for (int e = 0; e < model->num_edges(); ++e) {
    if (e != shared) boundary.push_back(model->edge_rest_lengths()[e]);
  }
  std::sort(boundary.begin(), boundary.end());
  EXPECT_THAT(boundary, ::testing::Pointwise(
                            ::testing::DoubleNear(1e-12),
                            std::vector<double>{1.0, std::sqrt(2.0), 4, 5}));
}

TEST(AmplitudeModelTest, RejectsBadInput) {
  const Sheet sheet = MakeSheet();
  const WrinklePattern pattern = CrestsAlongV();
  const auto create = [&](const AmplitudeModelParams& p,
                          absl::Span<const float> uvs,
                          absl::Span<const float> rest) {
    return AmplitudeModel::Create(sheet.topology, uvs, pattern, rest, p)
        .status();
  };
  const auto& uvs = sheet.mesh.corner_uvs;
  const auto& rest = sheet.mesh.positions;
  AmplitudeModelParams p;
  p.shrink_threshold = 0;
  EXPECT_THAT(create(p, uvs, rest).message(),
              HasSubstr("shrink_threshold is 0, expected (0, 10]"));
  p = {};
  p.sensitivity_alpha = -1;
  EXPECT_THAT(create(p, uvs, rest).message(), HasSubstr("sensitivity_alpha"));
  p = {};
  p.scale = 101;
  EXPECT_THAT(create(p, uvs, rest).message(), HasSubstr("scale is 101"));
  p = {};
  p.direction_fit_rings = 4;
  EXPECT_THAT(create(p, uvs, rest).message(),
              HasSubstr("direction_fit_rings is 4, expected 0..3"));
  p.direction_fit_rings = -1;
  EXPECT_THAT(create(p, uvs, rest).message(), HasSubstr("direction_fit_rings"));
  p = {};
  p.min_edge_segments = 0;
  EXPECT_THAT(create(p, uvs, rest).message(), HasSubstr("min_edge_segments"));
  EXPECT_THAT(create({}, {}, rest).message(), HasSubstr("corner_uvs: none"));
  std::vector<float> bad_uvs = uvs;
  bad_uvs.pop_back();
  EXPECT_THAT(create({}, bad_uvs, rest).message(),
              HasSubstr("767 floats, expected 768"));
  bad_uvs = uvs;
  bad_uvs[13] = NAN;
  EXPECT_THAT(create({}, bad_uvs, rest).message(), HasSubstr("triangle 2"));
  bad_uvs = uvs;
  bad_uvs[15] = -2e4f;
  EXPECT_THAT(create({}, bad_uvs, rest).message(),
              HasSubstr("triangle 2 corner 1 has v = -20000"));
  EXPECT_THAT(create({}, uvs, {}).message(), HasSubstr("rest_positions"));
  WrinklePattern empty;
  EXPECT_THAT(AmplitudeModel::Create(sheet.topology, uvs, empty, rest, {})
                  .status()
                  .message(),
              HasSubstr("wrinkle pattern"));

  AmplitudeModel model = MakeModel(sheet, {});
  std::vector<float> frame = rest;
  frame[7] = INFINITY;
  EXPECT_THAT(model.Update(frame).message(), HasSubstr("vertex 2"));
  frame.pop_back();
  EXPECT_THAT(model.Update(frame).message(), HasSubstr("positions"));
  p = {};
  p.rest_lengths = RestLengthSource::kAdaptiveReferences;
  auto adaptive = AmplitudeModel::Create(sheet.topology, uvs, pattern, {}, p);
  ASSERT_TRUE(adaptive.ok());
  EXPECT_THAT(adaptive->Update(rest).message(),
              HasSubstr("references: 0 matrices, expected one per triangle "
                        "(128)"));
  std::vector<Eigen::Matrix2d> references(128, Eigen::Matrix2d::Identity());
  references[5](1, 0) = NAN;
  EXPECT_THAT(adaptive->Update(rest, references).message(),
              HasSubstr("triangle 5"));
}

// kDirectional's weight by hand: a sinusoid's channel (S along u) under
// compression along u, v, at 60° and mixed with stretching; an isotropic
// channel; nothing compressed; a flat channel.
TEST(AmplitudeModelTest, ChannelWeightByHand) {
  const Eigen::Matrix2d along_u{{1.0, 0.0}, {0.0, 0.0}};
  const auto uniaxial = [](double degrees) {
    const double a = degrees * kPi / 180.0;
    const Eigen::Vector2d g(std::cos(a), std::sin(a));
    return Eigen::Matrix2d(0.1 * g * g.transpose());
  };
  EXPECT_NEAR(ChannelWeight(uniaxial(0), along_u, 4.0), 1.0, 1e-12);
  EXPECT_NEAR(ChannelWeight(uniaxial(90), along_u, 4.0), 0.0, 1e-12);
  EXPECT_NEAR(ChannelWeight(uniaxial(60), along_u, 4.0), 0.0625, 1e-12);
  EXPECT_NEAR(ChannelWeight(uniaxial(60), along_u, 2.0), 0.25, 1e-12);
  const Eigen::Matrix2d mixed{{0.1, 0.0}, {0.0, -0.05}};
  EXPECT_NEAR(ChannelWeight(mixed, along_u, 4.0), 1.0, 1e-12);
  const Eigen::Matrix2d mixed_v{{-0.05, 0.0}, {0.0, 0.1}};
  EXPECT_NEAR(ChannelWeight(mixed_v, along_u, 4.0), 0.0, 1e-12);
  EXPECT_NEAR(ChannelWeight(uniaxial(37), Eigen::Matrix2d::Identity(), 4.0),
              1.0, 1e-12);
  EXPECT_EQ(ChannelWeight(-Eigen::Matrix2d::Identity(), along_u, 4.0), 0.0);
  EXPECT_EQ(ChannelWeight(uniaxial(0), Eigen::Matrix2d::Zero(), 4.0), 0.0);
}

// channel_selectivity by hand: three sinusoid channels with crest normals at
// 0°, 60° and 120°. Compression 20° off the first gives each its cos⁴, and
// the others a further (cos² θ_c / cos² 20°)^k; the leading channel keeps its
// weight whatever k; at the midpoint between two channels both lead equally.
TEST(AmplitudeModelTest, ChannelSelectivityByHand) {
  const auto across = [](double degrees) {
    const double a = degrees * kPi / 180.0;
    const Eigen::Vector2d g(std::cos(a), std::sin(a));
    return Eigen::Matrix2d(g * g.transpose());
  };
  const Eigen::Matrix2d channels[] = {across(0), across(60), across(120)};
  const auto cos2 = [](double degrees) {
    return std::pow(std::cos(degrees * kPi / 180.0), 2);
  };
  const Eigen::Matrix2d compression = 0.1 * across(20);
  const auto plain = ChannelWeights(compression, channels, 4.0, 0.0);
  const auto selective = ChannelWeights(compression, channels, 4.0, 4.0);
  EXPECT_NEAR(plain[0], cos2(20) * cos2(20), 1e-12);
  EXPECT_NEAR(plain[1], cos2(40) * cos2(40), 1e-12);
  EXPECT_NEAR(plain[2], cos2(100) * cos2(100), 1e-12);
  EXPECT_NEAR(plain[1] / plain[0], 0.4416, 1e-4);  // the egg-crate's cause
  EXPECT_NEAR(selective[0], plain[0], 1e-12);
  EXPECT_NEAR(selective[1], plain[1] * std::pow(cos2(40) / cos2(20), 4), 1e-12);
  EXPECT_NEAR(selective[2], plain[2] * std::pow(cos2(100) / cos2(20), 4),
              1e-15);
  EXPECT_LT(selective[1] / selective[0], 0.09);
  // Halfway between the first two: a tie, which selectivity keeps.
  const auto tie = ChannelWeights(0.1 * across(30), channels, 4.0, 4.0);
  EXPECT_NEAR(tie[0], tie[1], 1e-12);
  EXPECT_NEAR(tie[0], cos2(30) * cos2(30), 1e-12);
  // One channel: ChannelWeight.
  EXPECT_NEAR(ChannelWeight(compression, channels[1], 4.0), plain[1], 1e-15);
  // Nothing compressed: no weight.
  const auto none =
      ChannelWeights(-Eigen::Matrix2d::Identity(), channels, 4.0, 4.0);
  EXPECT_EQ(none[0] + none[1] + none[2], 0.0);
}

// The sheet squeezed 20° off the first channel's crest normal: with the
// default selectivity the second channel (40° off) is under a tenth of the
// first at every interior vertex; without it, over 0.3 at the median (0.44
// by hand: an egg-crate).
TEST(AmplitudeModelTest, SqueezeBetweenChannelsDrivesTheNearerOne) {
  const Sheet sheet = MakeSheet();
  const WrinklePattern pattern = *MakeSinusoidPattern({});
  std::vector<float> squeezed;
  testing::SqueezeSheet(sheet.mesh, 0.8, 20.0 * kPi / 180.0, 2.0, &squeezed);
  for (double selectivity : {4.0, 0.0}) {
    AmplitudeModelParams p;
    p.max_slope = 0.0;
    p.channel_selectivity = selectivity;
    auto model = AmplitudeModel::Create(sheet.topology, sheet.mesh.corner_uvs,
                                        pattern, sheet.mesh.positions, p);
    ASSERT_TRUE(model.ok()) << model.status();
    ASSERT_TRUE(model->Update(squeezed).ok());
    std::vector<double> ratios;
    for (int v = 0; v < sheet.mesh.num_vertices(); ++v) {
      const float x = sheet.mesh.positions[3 * v];
      const float z = sheet.mesh.positions[3 * v + 2];
      if (x <= 0.0f || x >= 1.0f || z <= 0.0f || z >= 1.0f) continue;
      const float* a = &model->vertex_amplitudes()[3 * v];
      ASSERT_GT(a[0], 0.0f) << "vertex " << v;
      ratios.push_back(a[1] / a[0]);
    }
    std::sort(ratios.begin(), ratios.end());
    if (selectivity > 0) {
      EXPECT_LT(ratios.back(), 0.1);
    } else {
      EXPECT_GT(ratios[ratios.size() / 2], 0.3);
    }
  }
}

// A sinusoid's structure tensor is (2π f)² / 2 across its crests, 0 along;
// central differences read the slope low by sin(x) / x, x = 2π / 32 texels.
TEST(AmplitudeModelTest, PatternStructureTensorOfSinusoid) {
  const Eigen::Matrix2d s = PatternStructureTensor(CrestsAlongV(), 0);
  const double x = 2 * kPi / 32;
  const double expected = 0.5 * (2 * kPi * 16) * (2 * kPi * 16) *
                          (std::sin(x) / x) * (std::sin(x) / x);
  EXPECT_NEAR(s(0, 0), expected, 1e-3 * expected);
  EXPECT_NEAR(s(1, 1), 0.0, 1e-9 * expected);
  EXPECT_NEAR(s(0, 1), 0.0, 1e-9 * expected);
}

// The default pattern (0°, 60°, 120° sinusoids) on a sheet squeezed along u:
// directional channels drive the channel across whose crests it shrinks and
// leave the two others under a tenth of it, while the paper's Eq. 2 drives
// all three nearly alike (the egg-crate). Interior vertices only: a border
// vertex's edges run in two directions, too few to fit a tensor.
TEST(AmplitudeModelTest, UniaxialCompressionDrivesOneChannel) {
  const Sheet sheet = MakeSheet();
  const WrinklePattern pattern = *MakeSinusoidPattern({});
  std::vector<float> squeezed;
  testing::SqueezeSheet(sheet.mesh, 0.8, 0.0, 2.0, &squeezed);
  // The directional fit is of t against its value at rest, so the literal
  // Eq. 1 (t = 1 at rest) picks the same channel as the reconstruction.
  for (const ShrinkFormula shrink :
       {ShrinkFormula::kReconstructed, ShrinkFormula::kLiteral}) {
    for (bool directional : {true, false}) {
      AmplitudeModelParams p;
      p.max_slope = 0.0;
      p.shrink = shrink;
      if (!directional) p.sensitivity = SensitivityFormula::kReconstructed;
      auto model = AmplitudeModel::Create(sheet.topology, sheet.mesh.corner_uvs,
                                          pattern, sheet.mesh.positions, p);
      ASSERT_TRUE(model.ok()) << model.status();
      ASSERT_TRUE(model->Update(squeezed).ok());
      double worst_ratio = 0, least_ratio = 1;
      int interior = 0;
      for (int v = 0; v < sheet.mesh.num_vertices(); ++v) {
        const float x = sheet.mesh.positions[3 * v];
        const float z = sheet.mesh.positions[3 * v + 2];
        if (x <= 0.0f || x >= 1.0f || z <= 0.0f || z >= 1.0f) continue;
        ++interior;
        const float* a = &model->vertex_amplitudes()[3 * v];
        ASSERT_GT(a[0], 0.0f) << "vertex " << v;
        const double ratio = std::max(a[1], a[2]) / a[0];
        worst_ratio = std::max(worst_ratio, ratio);
        least_ratio = std::min(least_ratio, ratio);
      }
      EXPECT_EQ(interior, 7 * 7);
      if (directional) {
        EXPECT_LT(worst_ratio, 0.1);
      } else {
        EXPECT_GT(least_ratio, 0.5);  // the cause the directional rule cures
      }
    }
  }
}

// Each frame's fit stands alone whatever the rings: a model that has seen
// one squeeze gives the next frame exactly what a fresh model gives it (the
// widened sums swap buffers once per ring, an odd or even number of times).
// And on a sheet squeezed alike everywhere the rings change nothing in the
// interior: every fit there sees the same compression.
TEST(AmplitudeModelTest, RingsOfNeighboursKeepFramesApart) {
  const Sheet sheet = MakeSheet();
  std::vector<float> first, second;
  testing::SqueezeSheet(sheet.mesh, 0.7, 0.4, 2.0, &first);
  testing::SqueezeSheet(sheet.mesh, 0.8, 0.0, 2.0, &second);
  AmplitudeModelParams alone;
  alone.max_slope = 0.0;
  alone.direction_fit_rings = 0;
  AmplitudeModel reference = MakeModel(sheet, alone);
  ASSERT_TRUE(reference.Update(second).ok());
  for (int rings = 0; rings <= 3; ++rings) {
    SCOPED_TRACE(rings);
    AmplitudeModelParams p = alone;
    p.direction_fit_rings = rings;
    AmplitudeModel seen = MakeModel(sheet, p);
    AmplitudeModel fresh = MakeModel(sheet, p);
    ASSERT_TRUE(seen.Update(first).ok());
    ASSERT_TRUE(seen.Update(second).ok());
    ASSERT_TRUE(fresh.Update(second).ok());
    double largest = 0;
    for (size_t i = 0; i < fresh.vertex_amplitudes().size(); ++i) {
      ASSERT_EQ(seen.vertex_amplitudes()[i], fresh.vertex_amplitudes()[i])
          << "value " << i;
      largest = std::max<double>(largest, fresh.vertex_amplitudes()[i]);
    }
    EXPECT_GT(largest, 0.005);
    for (int v = 0; v < sheet.mesh.num_vertices(); ++v) {
      const float x = sheet.mesh.positions[3 * v];
      const float z = sheet.mesh.positions[3 * v + 2];
      // Interior and away from the border by the rings: its fit sees only
      // interior edges.
      const float margin = 0.125f * static_cast<float>(rings + 1);
      if (x < margin || x > 1 - margin || z < margin || z > 1 - margin)
        continue;
      const int channels = fresh.channels();
      for (int c = 0; c < channels; ++c) {
        EXPECT_NEAR(fresh.vertex_amplitudes()[channels * v + c],
                    reference.vertex_amplitudes()[channels * v + c], 1e-6)
            << "vertex " << v << " channel " << c;
      }
    }
  }
}

}  // namespace
}  // namespace crease
