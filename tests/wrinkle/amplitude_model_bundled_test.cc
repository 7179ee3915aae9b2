// The amplitude model on a real game animation with UVs: the Fox's walk
// (data/Fox.glb), whose vertices are split along UV seams and which has no
// rest pose but its bind pose.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/bundled_path.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/io/gltf.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/wrinkle_maps/amplitude_model.h"

namespace crease {
namespace {

// The model on the session's topology, made on its first frame, updated
// with the frame's positions and the session's adaptive references.
void UpdateOnFrame(const io::Animation& animation, int frame, const Session& s,
                   const WrinklePattern& pattern,
                   const AmplitudeModelParams& params,
                   std::unique_ptr<AmplitudeModel>* model) {
  if (*model == nullptr) {
    auto created = AmplitudeModel::Create(
        s.topology(), animation.mesh.corner_uvs, pattern, {}, params);
    ASSERT_TRUE(created.ok()) << created.status();
    *model = std::make_unique<AmplitudeModel>(*std::move(created));
  }
  ASSERT_TRUE(
      (*model)->Update(animation.frames.Sample(frame), s.references()).ok());
}

// Over the walk with rest lengths from the adaptive references: amplitudes
// are finite, >= 0, at most k times the longest edge (|m t| <= 1), equal on
// the copies of a seam vertex, and where the Session labels triangles
// compressed their corners carry more amplitude than elsewhere.
TEST(AmplitudeModelBundledTest, FoxWalkWithAdaptiveReferences) {
  io::GltfOptions options;
  options.animation = "Walk";
  auto fox = io::ReadGltf(testing::BundledPath("Fox.glb"), options);
  ASSERT_TRUE(fox.ok()) << fox.status();
  ASSERT_TRUE(fox->mesh.has_uvs());
  AmplitudeModelParams params;
  params.rest_lengths = RestLengthSource::kAdaptiveReferences;
  auto pattern = MakeSinusoidPattern({});
  ASSERT_TRUE(pattern.ok());
  std::unique_ptr<AmplitudeModel> model;
  double compressed_sum = 0, other_sum = 0, peak = 0;
  int compressed_count = 0, other_count = 0;
  auto session = testing::RunSessionTo(
      *fox, fox->num_frames() - 1, {}, [&](int frame, const Session& s) {
        ASSERT_NO_FATAL_FAILURE(
            UpdateOnFrame(*fox, frame, s, *pattern, params, &model));
        const double longest =
            *std::max_element(model->edge_rest_lengths().begin(),
                              model->edge_rest_lengths().end());
        const int channels = model->channels();
        std::vector<float> welded_value(
            3 * static_cast<size_t>(s.topology().num_welded_vertices()), -1);
        for (int v = 0; v < model->num_vertices(); ++v) {
          const int w = s.topology().welded_vertex(v);
          for (int c = 0; c < channels; ++c) {
            const float a = model->vertex_amplitudes()[v * channels + c];
            ASSERT_TRUE(std::isfinite(a) && a >= 0 && a <= longest)
                << "frame " << frame << " vertex " << v << ": " << a;
            if (welded_value[3 * w + c] >= 0) {
              ASSERT_EQ(a, welded_value[3 * w + c]) << "seam vertex " << v;
            }
            welded_value[3 * w + c] = a;
            peak = std::max<double>(peak, a / longest);
          }
        }
        for (size_t f = 0; f < s.labels().size(); ++f) {
          for (int32_t v : s.topology().triangles()[f]) {
            double a = 0;
            for (int c = 0; c < channels; ++c)
              a += model->vertex_amplitudes()[v * channels + c];
            if (s.labels()[f] == Label::kCompress) {
              compressed_sum += a;
              ++compressed_count;
            } else {
              other_sum += a;
              ++other_count;
            }
          }
        }
      });
  ASSERT_NE(session, nullptr);
  ASSERT_GT(compressed_count, 0);
  ASSERT_GT(other_count, 0);
  const double compressed_mean = compressed_sum / compressed_count;
  const double other_mean = other_sum / other_count;
  std::printf(
      "fox walk: mean amplitude at compressed corners %g, others %g, "
      "peak %g of the longest edge\n",
      compressed_mean, other_mean, peak);
  EXPECT_GT(compressed_mean, 1.5 * other_mean);
  EXPECT_GT(peak, 0.01);
}

// How the Fox's compressed regions read, over its walk: the share of the
// welded edges between two vertices carrying amplitude whose ends lead with
// different channels (a fold family changing direction, 60° at a time), and
// the median over those vertices of the second channel's amplitude over the
// first's (two channels alike cross as an egg-crate).
struct ChannelCoherence {
  double switching_edges = 0;
  double second_over_first = 0;
  int carrying_vertices = 0;  // vertex-frames carrying folds, over the walk
};

ChannelCoherence ChannelCoherenceOver(const char* file, const char* animation,
                                      int direction_fit_rings) {
  io::GltfOptions options;
  options.animation = animation;
  auto fox = io::ReadGltf(testing::BundledPath(file), options);
  EXPECT_TRUE(fox.ok()) << fox.status();
  if (!fox.ok()) return {};
  AmplitudeModelParams params;
  params.rest_lengths = RestLengthSource::kAdaptiveReferences;
  params.direction_fit_rings = direction_fit_rings;
  auto pattern = MakeSinusoidPattern({});
  EXPECT_TRUE(pattern.ok());
  std::unique_ptr<AmplitudeModel> model;
  int edges = 0, switching = 0, carrying = 0;
  std::vector<double> ratios;
  testing::RunSessionTo(
      *fox, fox->num_frames() - 1, {}, [&](int frame, const Session& s) {
        ASSERT_NO_FATAL_FAILURE(
            UpdateOnFrame(*fox, frame, s, *pattern, params, &model));
        const int channels = model->channels();
        ASSERT_EQ(channels, 3);
        const auto amplitudes = model->vertex_amplitudes();
        // A vertex carries amplitude when its largest channel is over a
        // tenth of the frame's largest.
        double peak = 0;
        for (float a : amplitudes) peak = std::max<double>(peak, a);
        if (peak <= 0) return;
        const auto lead = [&](int v) {
          const float* a = &amplitudes[3 * static_cast<size_t>(v)];
          const int c = static_cast<int>(std::max_element(a, a + 3) - a);
          return a[c] > 0.1 * peak ? c : -1;
        };
        for (int e = 0; e < model->num_edges(); ++e) {
          const int c0 = lead(model->edge(e).v0), c1 = lead(model->edge(e).v1);
          if (c0 < 0 || c1 < 0) continue;
          ++edges;
          switching += c0 != c1;
        }
        for (int v = 0; v < model->num_vertices(); ++v) {
          if (lead(v) < 0) continue;
          ++carrying;
          std::array<float, 3> a;
          std::copy_n(&amplitudes[3 * static_cast<size_t>(v)], 3, a.begin());
          std::sort(a.begin(), a.end());
          ratios.push_back(a[1] / a[2]);
        }
      });
  EXPECT_GT(edges, 100);
  if (edges == 0 || ratios.empty()) return {};
  std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2,
                   ratios.end());
  return {static_cast<double>(switching) / edges, ratios[ratios.size() / 2],
          carrying};
}

// A coarse vertex's five or six edges fit its compression tensor loosely, so
// alone they turn from vertex to vertex and neighbouring vertices lead with
// channels 60° apart: a crosshatch of chevrons across a compressed region.
// Fitted over a ring of neighbours too (the default), a region agrees.
// Measured: the Fox 48 % of such edges alone, 23 % with one ring; Cesium Man
// 39 %, 27 %.
TEST(AmplitudeModelBundledTest,
     FittingOverTheNeighboursGivesOneFamilyPerRegion) {
  ASSERT_EQ(AmplitudeModelParams{}.direction_fit_rings, 1);
  for (const auto& [file, animation] :
       {std::pair{"Fox.glb", "Walk"}, std::pair{"CesiumMan.glb", ""}}) {
    SCOPED_TRACE(file);
    const ChannelCoherence alone = ChannelCoherenceOver(file, animation, 0);
    const ChannelCoherence ring = ChannelCoherenceOver(file, animation, 1);
    std::printf(
        "%s: edges between vertices carrying folds that switch channel: "
        "%.3f fitted alone, %.3f over a ring; second / first channel "
        "%.3f, %.3f; vertex-frames carrying folds %d, %d\n",
        file, alone.switching_edges, ring.switching_edges,
        alone.second_over_first, ring.second_over_first,
        alone.carrying_vertices, ring.carrying_vertices);
    EXPECT_GT(alone.switching_edges, 0.35);
    EXPECT_LT(ring.switching_edges, 0.3);
    // Each vertex still leads with one channel, and the regions carrying
    // folds do not shrink (a widened fit could find no compression where
    // the vertex's own Eq. 3 sum does).
    EXPECT_LT(ring.second_over_first, 0.1);
    EXPECT_GT(ring.carrying_vertices, 0.95 * alone.carrying_vertices);
  }
}

}  // namespace
}  // namespace crease
