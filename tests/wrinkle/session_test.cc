#include "wrinkle/sca2015/session.h"

#include <cmath>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/heap_allocations.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/sca2015/metrics.h"

namespace crease {
namespace {

using ::testing::HasSubstr;
using testing::NewSession;

TEST(SessionTest, StaticMeshRestsWithUnitCompression) {
  const io::TriangleMesh sheet = MakeGridSheet(6, 6, 1.0f, 1.0f);
  auto session = NewSession(sheet);
  for (int frame = 0; frame < 5; ++frame) {
    ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
    for (int f = 0; f < session->num_triangles(); ++f) {
      EXPECT_EQ(session->labels()[f], Label::kRest);
      EXPECT_NEAR(session->compression_field()[f].compression, 1.0, 1e-6);
    }
  }
  EXPECT_EQ(session->frames_processed(), 5);
  EXPECT_NEAR(session->labeling_energy(), 0.0, 1e-9);
}

TEST(SessionTest, SqueezedSheetIsLabeledCompressAlongTheSqueeze) {
  // Squeeze uniformly along X by 10 % per frame: every triangle compresses
  // along X. (At 3 % per frame the unary costs of Eq. 4.4-4.7 still prefer
  // Rest.)
  const io::TriangleMesh sheet = MakeGridSheet(8, 8, 1.0f, 1.0f);
  auto session = NewSession(sheet);
  std::vector<float> positions = sheet.positions;
  for (int frame = 0; frame < 6; ++frame) {
    const float scale = std::pow(0.9f, static_cast<float>(frame));
    for (int v = 0; v < sheet.num_vertices(); ++v) {
      positions[3 * v] = sheet.positions[3 * v] * scale;
    }
    ASSERT_TRUE(session->ProcessFrame(positions).ok());
  }
  for (int f = 0; f < session->num_triangles(); ++f) {
    EXPECT_EQ(session->labels()[f], Label::kCompress) << f;
    const StretchTensor& t = session->compression_field()[f];
    EXPECT_GT(t.compression, 1.1);
    EXPECT_NEAR(std::abs(t.compression_dir.x()), 1.0, 1e-4);
  }
}

TEST(SessionTest, BadFramesAreRejectedAndChangeNothing) {
  const io::TriangleMesh sheet = MakeGridSheet(4, 4, 1.0f, 1.0f);
  auto clean = NewSession(sheet);
  auto hit = NewSession(sheet);
  std::vector<float> positions;
  for (int frame = 0; frame < 8; ++frame) {
    AnimateSheet(sheet, frame, 8, 0.3f, &positions);
    if (frame == 4) {
      std::vector<float> short_frame(positions.begin(), positions.end() - 3);
      const absl::Status s = hit->ProcessFrame(short_frame);
      EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
      EXPECT_THAT(s.message(), HasSubstr("72 floats, expected 75"));
      std::vector<float> nan_frame = positions;
      nan_frame[7] = std::nanf("");
      const absl::Status n = hit->ProcessFrame(nan_frame);
      EXPECT_EQ(n.code(), absl::StatusCode::kInvalidArgument);
      EXPECT_THAT(n.message(),
                  HasSubstr("vertex 2 has a non-finite y coordinate"));
      EXPECT_EQ(hit->frames_processed(), 4);
    }
    ASSERT_TRUE(clean->ProcessFrame(positions).ok());
    ASSERT_TRUE(hit->ProcessFrame(positions).ok());
    ASSERT_EQ(
        std::vector<Label>(clean->labels().begin(), clean->labels().end()),
        std::vector<Label>(hit->labels().begin(), hit->labels().end()));
    for (int f = 0; f < clean->num_triangles(); ++f) {
      ASSERT_EQ(clean->compression_field()[f].compression,
                hit->compression_field()[f].compression);
    }
  }
}

TEST(SessionTest, DegenerateTrianglesRestAndStayFinite) {
  io::TriangleMesh sheet = MakeGridSheet(3, 3, 1.0f, 1.0f);
  auto session = NewSession(sheet);
  std::vector<float> positions = sheet.positions;
  ASSERT_TRUE(session->ProcessFrame(positions).ok());
  // Collapse vertex 5 onto vertex 6: the triangles using both become
  // degenerate.
  for (int k = 0; k < 3; ++k) positions[3 * 5 + k] = positions[3 * 6 + k];
  for (int frame = 0; frame < 3; ++frame) {
    ASSERT_TRUE(session->ProcessFrame(positions).ok());
  }
  int degenerate = 0;
  for (int f = 0; f < session->num_triangles(); ++f) {
    const StretchTensor& t = session->compression_field()[f];
    EXPECT_TRUE(std::isfinite(t.compression) && t.compression_dir.allFinite());
    if (t.degenerate) {
      ++degenerate;
      EXPECT_EQ(session->labels()[f], Label::kRest);
    }
  }
  EXPECT_EQ(degenerate, 2);
  // Restoring the vertex restores finite, non-degenerate tensors.
  ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
  for (int f = 0; f < session->num_triangles(); ++f) {
    EXPECT_FALSE(session->compression_field()[f].degenerate);
  }
}

TEST(SessionTest, TrianglesCollapsedByTheWeldStayDegenerate) {
  // Rest positions that put vertex 20 on vertex 21 weld them: the two
  // triangles using both have no edges. The frames then pull the two apart,
  // so those triangles have area, but the tracer cannot cross them; they must
  // stay degenerate (found by tests/fuzz/session_fuzz: the tracer read edge
  // -1).
  const io::TriangleMesh sheet = MakeGridSheet(8, 8, 1.0f, 1.0f);
  io::TriangleMesh welded = sheet;
  for (int k = 0; k < 3; ++k) {
    welded.positions[3 * 20 + k] = welded.positions[3 * 21 + k];
  }
  auto session = NewSession(welded);
  ASSERT_EQ(session->topology().num_collapsed_triangles(), 2);
  std::vector<float> positions;
  size_t wrinkles_seen = 0;
  for (int frame = 0; frame < 16; ++frame) {
    AnimateSheet(sheet, frame, 8, 0.3f, &positions);
    ASSERT_TRUE(session->ProcessFrame(positions).ok());
    for (int f = 0; f < session->num_triangles(); ++f) {
      if (session->topology().face_edges(f)[0] >= 0) continue;
      EXPECT_TRUE(session->compression_field()[f].degenerate) << f;
      EXPECT_EQ(session->labels()[f], Label::kRest) << f;
    }
    for (const WrinklePath& path : session->tracker().wrinkles()) {
      for (int32_t f : path.faces) {
        EXPECT_GE(session->topology().face_edges(f)[0], 0);
      }
    }
    wrinkles_seen += session->tracker().wrinkles().size();
  }
  EXPECT_GT(wrinkles_seen, 0u);  // the tracer did run on this sheet
}

TEST(SessionTest, CompressionFieldAllocatesOnlyMaxflowsPoolEvery64Frames) {
  const io::TriangleMesh sheet = MakeGridSheet(20, 20, 1.0f, 1.0f);
  SessionParams params;
  params.trace_wrinkles = false;
  auto session = NewSession(sheet, params);
  constexpr int kPeriod = 16, kFrames = 3 + 128;
  std::vector<std::vector<float>> frames(kPeriod);
  for (int i = 0; i < kPeriod; ++i)
    AnimateSheet(sheet, i, kPeriod, 0.3f, &frames[i]);
  // Frames 0-2 warm up: the first max-flow call runs without search-tree reuse.
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(session->ProcessFrame(frames[i]).ok());
  const long before = testing::HeapAllocations();
  for (int i = 3; i < kFrames; ++i) {
    ASSERT_TRUE(session->ProcessFrame(frames[i % kPeriod]).ok());
  }
  // libmaxflow frees its orphan pool on every 64th call and reallocates it (a
  // pool header and one block) on the next: 2 allocations per 64 frames,
  // nothing else.
  EXPECT_LE(testing::HeapAllocations() - before, 2 * (kFrames - 3) / 64);
}

TEST(SessionTest, SteadyWrinklesDoNotAllocate) {
  // A sheet squeezed once and held: after the wrinkles have settled (no births,
  // no growth), a frame costs no allocation. Births and growth do allocate.
  const io::TriangleMesh sheet = MakeGridSheet(20, 20, 1.0f, 1.0f);
  auto session = NewSession(sheet);
  std::vector<float> squeezed = sheet.positions;
  for (int v = 0; v < sheet.num_vertices(); ++v) squeezed[3 * v] *= 0.59f;
  ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
  for (int i = 0; i < 60; ++i)
    ASSERT_TRUE(session->ProcessFrame(squeezed).ok());
  ASSERT_GT(session->tracker().wrinkles().size(), 0u);
  ASSERT_EQ(session->tracker().births(), 0);
  const long before = testing::HeapAllocations();
  for (int i = 0; i < 20; ++i)
    ASSERT_TRUE(session->ProcessFrame(squeezed).ok());
  EXPECT_EQ(session->tracker().births(), 0);
  EXPECT_LE(testing::HeapAllocations() - before,
            2);  // maxflow's pool, at most once
}

// Every bundled animation: labels for every frame, finite fields, and a graph
// cut that flickers less than the per-triangle argmin.
class BundledAnimationTest : public ::testing::TestWithParam<const char*> {};

TEST_P(BundledAnimationTest, LabelsAreFiniteAndSteadierThanArgmin) {
  const io::Animation anim = testing::LoadBundled(GetParam());
  // The previous frame's labels (flicker counts from frame 2).
  std::vector<Label> prev, prev_argmin;
  double flicker = 0, argmin_flicker = 0, peak = 1;
  const auto session = testing::RunSessionTo(
      anim, anim.num_frames() - 1, {}, [&](int frame, const Session& s) {
        const int n = s.num_triangles();
        ASSERT_EQ(s.labels().size(), static_cast<size_t>(n));
        for (int f = 0; f < n; ++f) {
          const StretchTensor& t = s.compression_field()[f];
          ASSERT_TRUE(
              std::isfinite(t.compression) && std::isfinite(t.lambda_max) &&
              t.compression_dir.allFinite() && t.wrinkle_dir.allFinite())
              << "frame " << frame << " triangle " << f;
          ASSERT_GE(t.compression, 0.0);
          ASSERT_LE(LabelIndex(s.labels()[f]), 2);
          peak = std::max(peak, t.compression);
        }
        ASSERT_TRUE(std::isfinite(s.labeling_energy()));
        if (frame >= 2) {
          flicker += LabelFlicker(prev, s.labels());
          argmin_flicker += LabelFlicker(prev_argmin, s.argmin_labels());
        }
        prev.assign(s.labels().begin(), s.labels().end());
        prev_argmin.assign(s.argmin_labels().begin(), s.argmin_labels().end());
      });
  ASSERT_NE(session, nullptr);
  const int frames = anim.num_frames() - 2;
  RecordProperty("mean_flicker", std::to_string(flicker / frames));
  RecordProperty("mean_argmin_flicker",
                 std::to_string(argmin_flicker / frames));
  EXPECT_LT(flicker, argmin_flicker)
      << "graph cut " << flicker / frames << " vs argmin "
      << argmin_flicker / frames;
  EXPECT_GT(peak, 1.0);
}

INSTANTIATE_TEST_SUITE_P(Data, BundledAnimationTest,
                         ::testing::Values("cloth_pants_knee",
                                           "cloth_skirt_walk",
                                           "cloth_drape_sphere", "fox_walk",
                                           "cesiumman_walk"));

TEST(SessionTest, SameInputsGiveTheSameOutputs) {
  const io::Animation anim = testing::LoadBundled("fox_walk");
  ASSERT_GT(anim.num_frames(), 0);
  auto a = NewSession(anim.mesh);
  auto b = NewSession(anim.mesh);
  for (int frame = 0; frame < 20; ++frame) {
    ASSERT_TRUE(a->ProcessFrame(anim.frames.Sample(frame)).ok());
    ASSERT_TRUE(b->ProcessFrame(anim.frames.Sample(frame)).ok());
    for (int f = 0; f < a->num_triangles(); ++f) {
      ASSERT_EQ(a->labels()[f], b->labels()[f]);
      ASSERT_EQ(a->compression_field()[f].compression,
                b->compression_field()[f].compression);
    }
  }
}

}  // namespace
}  // namespace crease
