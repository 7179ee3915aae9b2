// The amplitude model on a real game animation with UVs: the Fox's walk
// (data/Fox.glb), whose vertices are split along UV seams and which has no
// rest pose but its bind pose.

#include <algorithm>
#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/bundled_path.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/io/gltf.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/wrinkle_maps/amplitude_model.h"

namespace crease {
namespace {

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
        if (model == nullptr) {
          auto created = AmplitudeModel::Create(
              s.topology(), fox->mesh.corner_uvs, *pattern, {}, params);
          ASSERT_TRUE(created.ok()) << created.status();
          model = std::make_unique<AmplitudeModel>(*std::move(created));
        }
        ASSERT_TRUE(
            model->Update(fox->frames.Sample(frame), s.references()).ok());
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

}  // namespace
}  // namespace crease
