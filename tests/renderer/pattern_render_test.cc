// FrameRenderer::RenderPattern, the wrinkle-map model (Volino 1999) drawn by
// bump mapping and by displacement (docs/algorithm.md, "Drawing the
// wrinkle-map model"): the analytic flat sheet, zero amplitudes, the leading
// channel kept where it changes, sub-pixel patterns against their
// supersampled reference, and no cracks in a bundled
// animation displaced (across UV seams or along tessellated edges). Set
// CREASE_TEST_OUTPUT_DIR to keep the images (the crack test marks the
// cracks green).

#include <Eigen/Core>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "image/camera.h"
#include "renderer/pattern_data.h"
#include "tests/renderer/golden_image.h"
#include "tests/renderer/image_difference.h"
#include "tests/renderer/renderer_fixture.h"
#include "tests/testing/bundled_path.h"
#include "wrinkle/core/mesh.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/io/gltf.h"
#include "wrinkle/wrinkle_maps/amplitude_model.h"
#include "wrinkle/wrinkle_maps/wrinkle_pattern.h"

namespace crease::renderer {
namespace {

using PatternRenderTest = RendererTest;

// The crack test's amplitude scale k: 1 (the paper's) unless
// CREASE_PATTERN_SCALE says otherwise, to explore.
float FoxScale() {
  const char* s = std::getenv("CREASE_PATTERN_SCALE");
  return s != nullptr ? std::atof(s) : 1.0f;
}
const float kFoxScale = FoxScale();

PatternMap MapOf(const WrinklePattern& pattern) {
  return {pattern.width, pattern.height, pattern.channels, pattern.samples,
          pattern.wrap == PatternWrap::kRepeat};
}

void Keep(const image::RgbaImage& image, const std::string& name) {
  const char* dir = std::getenv("CREASE_TEST_OUTPUT_DIR");
  if (dir != nullptr && *dir != '\0') SaveTestImage(image, name);
}

// A flat 1 x 1 sheet ([0, 1]² in the XZ plane, UV = (x, z) / 1) seen from
// straight above, with one channel of a sinusoid across u and the same
// amplitude everywhere.
struct FlatSheet {
  io::TriangleMesh mesh;
  WrinklePattern pattern;
  std::vector<float> amplitudes;
  RenderOptions options;

  FlatSheet(double wavelength, int resolution, float amplitude, int size) {
    mesh = MakeGridSheet(16, 16, 1.0f, 1.0f);
    SetSheetUvs(1.0f, 1.0f, &mesh);
    pattern = *MakeSinusoidPattern({wavelength, resolution, 1});
    amplitudes.assign(mesh.positions.size() / 3, amplitude);
    options.width = options.height = size;
    options.background = {0, 0, 0, 0};
    options.camera =
        image::Camera{{0.5f, 2.5f, 0.5f}, {0.5f, 0, 0.5f}, {0, 0, -1}, 35.0f};
  }
  RenderMesh Mesh() const {
    return {mesh.positions, mesh.triangles, {}, mesh.corner_uvs};
  }
  PatternWrinkles Wrinkles() const { return {MapOf(pattern), amplitudes}; }
  // Two channels, each with one amplitude at every vertex.
  void SetTwoChannels(float first, float second) {
    const size_t num_vertices = mesh.positions.size() / 3;
    amplitudes.assign(2 * num_vertices, 0.0f);
    for (size_t v = 0; v < num_vertices; ++v) {
      amplitudes[2 * v] = first;
      amplitudes[2 * v + 1] = second;
    }
  }
};

// Luminance (sum of RGB) along row y.
std::vector<int> Row(const image::RgbaImage& image, int y) {
  std::vector<int> row(image.width);
  for (int x = 0; x < image.width; ++x) {
    const auto p = image.At(x, y);
    row[x] = p[0] + p[1] + p[2];
  }
  return row;
}

// A sinusoid of 8 cycles across the sheet, slope 0.5: the shading along a
// row across the crests goes up and down 8 times over the sheet, with the
// period the projection gives (the sheet spans pixels [x0, x1]).
TEST_F(PatternRenderTest, FlatSheetShowsTheSinusoidsBands) {
  const FlatSheet sheet(1.0 / 8.0, 256, 0.5f / (2 * 3.14159265f * 8), 256);
  const auto image =
      renderer_->RenderPattern(sheet.Mesh(), sheet.Wrinkles(), sheet.options);
  ASSERT_TRUE(image.ok()) << image.status();
  Keep(*image, "pattern_flat_sheet");
  const int y = image->height / 2;
  int x0 = 0, x1 = image->width - 1;
  while (image->At(x0, y)[3] == 0) ++x0;
  while (image->At(x1, y)[3] == 0) --x1;
  const std::vector<int> row = Row(*image, y);
  // Inside the sheet, away from its edges by 2 pixels.
  const int from = x0 + 2, to = x1 - 2;
  double mean = 0;
  for (int x = from; x <= to; ++x) mean += row[x];
  mean /= to - from + 1;
  std::vector<double> crossings;  // upward crossings of the mean
  int lo = 1 << 20, hi = 0;
  for (int x = from; x < to; ++x) {
    lo = std::min(lo, row[x]);
    hi = std::max(hi, row[x]);
    if (row[x] < mean && row[x + 1] >= mean) {
      crossings.push_back(x + (mean - row[x]) / (row[x + 1] - row[x]));
    }
  }
  // 8 cycles: 7 or 8 upward crossings inside, one period apart.
  EXPECT_GE(crossings.size(), 7u);
  EXPECT_LE(crossings.size(), 8u);
  const double period = (x1 - x0 + 1) / 8.0;
  ASSERT_GE(crossings.size(), 2u);
  const double measured =
      (crossings.back() - crossings.front()) / (crossings.size() - 1);
  EXPECT_NEAR(measured, period, 0.03 * period);
  // Relief worth the name: slope 0.5 swings the shading by tens of levels.
  EXPECT_GT(hi - lo, 60) << "luminance " << lo << ".." << hi;
  // Along a crest nothing changes: the column is one colour (the flat sheet
  // under perspective varies a little).
  const int x = (x0 + x1) / 2;
  int column_lo = 1 << 20, column_hi = 0;
  for (int yy = image->height / 2 - 20; yy <= image->height / 2 + 20; ++yy) {
    column_lo = std::min(column_lo, Row(*image, yy)[x]);
    column_hi = std::max(column_hi, Row(*image, yy)[x]);
  }
  EXPECT_LT(column_hi - column_lo, (hi - lo) / 4);
}

// A named pattern (PatternMap::id) is uploaded again only when its id
// changes: another pattern under a new id draws as it does unnamed, and the
// same id is trusted to mean the same samples (its owner never changes
// them), so its samples are not compared.
TEST_F(PatternRenderTest, NamedPatternUploadsOnlyWhenItsIdChanges) {
  const FlatSheet eight(1.0 / 8.0, 256, 0.5f / (2 * 3.14159265f * 8), 96);
  // The same amplitudes, so only the samples differ.
  const FlatSheet four(1.0 / 4.0, 256, 0.5f / (2 * 3.14159265f * 8), 96);
  const auto draw = [&](const FlatSheet& sheet, uint64_t id) {
    PatternWrinkles wrinkles = sheet.Wrinkles();
    wrinkles.pattern.id = id;
    absl::StatusOr<image::RgbaImage> image =
        renderer_->RenderPattern(sheet.Mesh(), wrinkles, sheet.options);
    EXPECT_TRUE(image.ok()) << image.status();
    return image.ok() ? image->pixels : std::vector<uint8_t>{};
  };
  const std::vector<uint8_t> eight_unnamed = draw(eight, 0);
  const std::vector<uint8_t> four_unnamed = draw(four, 0);
  ASSERT_NE(eight_unnamed, four_unnamed);
  const uint64_t eight_id = NewPatternId(), four_id = NewPatternId();
  EXPECT_NE(eight_id, 0u);
  EXPECT_NE(eight_id, four_id);
  EXPECT_EQ(draw(eight, eight_id), eight_unnamed);
  EXPECT_EQ(draw(four, four_id), four_unnamed);
  EXPECT_EQ(draw(eight, eight_id), eight_unnamed);
  // The same id with other samples: the uploaded pattern stays.
  EXPECT_EQ(draw(four, eight_id), eight_unnamed);
  // Unnamed again: compared, and uploaded.
  EXPECT_EQ(draw(four, 0), four_unnamed);
}

// Sessions of different meshes drawn in turn on one render thread: their
// named patterns stay on the GPU (built and uploaded once each, then found by
// id), each drawing as it does alone; past the kept count the least recently
// drawn is built again, and an unnamed pattern drawn between them does not
// push them out.
TEST_F(PatternRenderTest, NamedPatternsDrawnInTurnStayOnTheGpu) {
  const FlatSheet eight(1.0 / 8.0, 256, 0.5f / (2 * 3.14159265f * 8), 96);
  const FlatSheet four(1.0 / 4.0, 256, 0.5f / (2 * 3.14159265f * 8), 96);
  int uploads = 0;
  const auto draw = [&](const FlatSheet& sheet, uint64_t id) {
    PatternWrinkles wrinkles = sheet.Wrinkles();
    wrinkles.pattern.id = id;
    RenderStats stats;
    absl::StatusOr<image::RgbaImage> image =
        renderer_->RenderPattern(sheet.Mesh(), wrinkles, sheet.options, &stats);
    EXPECT_TRUE(image.ok()) << image.status();
    uploads = stats.pattern_uploads;
    return image.ok() ? image->pixels : std::vector<uint8_t>{};
  };
  const std::vector<uint8_t> eight_alone = draw(eight, 0);
  EXPECT_EQ(uploads, 1);
  EXPECT_EQ(draw(eight, 0), eight_alone);
  EXPECT_EQ(uploads, 0);  // unnamed, the same samples
  const std::vector<uint8_t> four_alone = draw(four, 0);
  ASSERT_NE(eight_alone, four_alone);
  const uint64_t eight_id = NewPatternId(), four_id = NewPatternId();
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(draw(eight, eight_id), eight_alone) << "round " << round;
    EXPECT_EQ(uploads, round == 0 ? 1 : 0) << "round " << round;
    EXPECT_EQ(draw(four, four_id), four_alone) << "round " << round;
    EXPECT_EQ(uploads, round == 0 ? 1 : 0) << "round " << round;
    EXPECT_EQ(draw(four, 0), four_alone) << "round " << round;  // unnamed
  }
  // Seven more named patterns (the same samples under new ids): with eight
  // kept, the least recently drawn (eight_id) goes, four_id stays.
  EXPECT_EQ(draw(four, four_id), four_alone);
  for (int k = 0; k < 7; ++k) {
    (void)draw(eight, NewPatternId());
    EXPECT_EQ(uploads, 1) << k;
  }
  EXPECT_EQ(draw(four, four_id), four_alone);
  EXPECT_EQ(uploads, 0);
  EXPECT_EQ(draw(eight, eight_id), eight_alone);
  EXPECT_EQ(uploads, 1);
}

// Zero amplitudes draw the plain mesh (Render with no wrinkles), bump or
// displaced.
TEST_F(PatternRenderTest, ZeroAmplitudesMatchThePlainMesh) {
  FlatSheet sheet(1.0 / 8.0, 256, 0.0f, 128);
  // Curved, so normals and lighting vary.
  for (size_t v = 0; v < sheet.mesh.positions.size(); v += 3) {
    const float x = sheet.mesh.positions[v], z = sheet.mesh.positions[v + 2];
    sheet.mesh.positions[v + 1] = 0.2f * std::sin(3 * x) * std::cos(2 * z);
  }
  sheet.options.camera.reset();
  const auto plain = renderer_->Render(sheet.Mesh(), nullptr, sheet.options);
  ASSERT_TRUE(plain.ok()) << plain.status();
  for (bool displace : {false, true}) {
    PatternWrinkles wrinkles = sheet.Wrinkles();
    wrinkles.displace = displace;
    const auto image =
        renderer_->RenderPattern(sheet.Mesh(), wrinkles, sheet.options);
    ASSERT_TRUE(image.ok()) << image.status();
    int worst = 0;
    for (size_t i = 0; i < plain->pixels.size(); ++i) {
      worst = std::max(worst, std::abs(plain->pixels[i] - image->pixels[i]));
    }
    EXPECT_LE(worst, 1) << "displace " << displace;
  }
}

// Luminance differences along y over along x, summed over the pixels of
// columns [x_from, x_to) and rows [y_from, y_to): about 0 for crests along
// y (a sinusoid across u), over 1 for crests that turn towards x.
double AlongYOverAlongX(const image::RgbaImage& image, int x_from, int x_to,
                        int y_from, int y_to, double* along_x = nullptr) {
  const auto luminance = [&](int x, int y) {
    const auto p = image.At(x, y);
    return static_cast<double>(p[0] + p[1] + p[2]);
  };
  double x_energy = 0, y_energy = 0;
  for (int y = y_from; y < y_to; ++y) {
    for (int x = x_from; x < x_to; ++x) {
      const double here = luminance(x, y);
      x_energy += (luminance(x + 1, y) - here) * (luminance(x + 1, y) - here);
      y_energy += (luminance(x, y + 1) - here) * (luminance(x, y + 1) - here);
    }
  }
  if (along_x != nullptr) *along_x = x_energy;
  return x_energy > 0 ? y_energy / x_energy : 0;
}

// Two channels, sinusoids at 0° and 60°: the first's amplitude falls from A
// on the sheet's left edge to 0 on its right, the second's rises from 0 to
// A, as across a coarse triangle whose corners lead with different
// channels. A third of the way across (the band at 25-40 %) the first leads
// by 1.5-3 to 1: the plain sum draws the second's crests across the
// first's there (a crosshatch), and keeping the leading channel per point
// draws the first's alone, as strong as the first channel drawn without
// the second. Two thirds of the way across (60-75 %) the second leads, and
// kept draws the second's alone there (a rule that always kept the first
// channel would not). Bump-mapped and displaced.
TEST_F(PatternRenderTest, LeadingChannelKeepsOneFamilyWhereTheLeaderChanges) {
  FlatSheet sheet(1.0 / 8.0, 256, 0.0f, 256);
  sheet.pattern = *MakeSinusoidPattern({1.0 / 8.0, 256, 2});
  const float amplitude = 0.5f / (2 * 3.14159265f * 8);
  const size_t num_vertices = sheet.mesh.positions.size() / 3;
  // Drawn: the two channels summed and kept, and each alone.
  struct Drawn {
    const char* name;
    float power, first, second;
  };
  for (const bool displace : {false, true}) {
    SCOPED_TRACE(displace);
    // [0..3]: summed, kept, the first alone, the second alone; in the band
    // where the first leads (ratio, along_x) and where the second does.
    double ratio[4], along_x[4];
    std::vector<image::RgbaImage> images;
    int i = 0, y = 0, x0 = 0, span = 0;
    for (const Drawn drawn : {Drawn{"summed", 0.0f, 1.0f, 1.0f},
                              Drawn{"kept", kLeadingChannelPower, 1.0f, 1.0f},
                              Drawn{"first_alone", 0.0f, 1.0f, 0.0f},
                              Drawn{"second_alone", 0.0f, 0.0f, 1.0f}}) {
      sheet.amplitudes.assign(2 * num_vertices, 0.0f);
      for (size_t v = 0; v < num_vertices; ++v) {
        const float x = sheet.mesh.positions[3 * v];
        sheet.amplitudes[2 * v] = drawn.first * amplitude * (1 - x);
        sheet.amplitudes[2 * v + 1] = drawn.second * amplitude * x;
      }
      PatternWrinkles wrinkles = sheet.Wrinkles();
      wrinkles.displace = displace;
      wrinkles.leading_channel_power = drawn.power;
      const auto image =
          renderer_->RenderPattern(sheet.Mesh(), wrinkles, sheet.options);
      ASSERT_TRUE(image.ok()) << image.status();
      Keep(*image, std::string("pattern_leading_channel_") +
                       (displace ? "displaced_" : "") + drawn.name);
      y = image->height / 2;
      x0 = 0;
      int x1 = image->width - 1;
      while (image->At(x0, y)[3] == 0) ++x0;
      while (image->At(x1, y)[3] == 0) --x1;
      span = x1 - x0;
      ratio[i] = AlongYOverAlongX(*image, x0 + span / 4, x0 + 2 * span / 5,
                                  y - span / 4, y + span / 4, &along_x[i]);
      images.push_back(*image);
      ++i;
    }
    // Where the second leads: how far summed and kept are from the second
    // drawn alone (mean absolute difference of R + G + B).
    const auto from_second_alone = [&](int drawn) {
      double sum = 0;
      int n = 0;
      for (int yy = y - span / 4; yy < y + span / 4; ++yy) {
        for (int x = x0 + 3 * span / 5; x < x0 + 3 * span / 4; ++x, ++n) {
          for (int c = 0; c < 3; ++c) {
            sum +=
                std::abs(images[drawn].At(x, yy)[c] - images[3].At(x, yy)[c]);
          }
        }
      }
      return sum / n;
    };
    const double summed_off = from_second_alone(0);
    const double kept_off = from_second_alone(1);
    std::printf(
        "%s: along y / along x where the first leads %.3f summed, %.3f kept, "
        "%.3f the first alone (along x kept / first alone %.2f); where the "
        "second leads, off the second alone by %.2f summed, %.2f kept\n",
        displace ? "displaced" : "bump-mapped", ratio[0], ratio[1], ratio[2],
        along_x[1] / along_x[2], summed_off, kept_off);
    EXPECT_GT(ratio[0], 0.3);
    EXPECT_LT(ratio[1], 0.05);
    EXPECT_NEAR(along_x[1], along_x[2], 0.15 * along_x[2]);
    EXPECT_LT(kept_off, 0.25 * summed_off);
  }
}

// A flat channel (an uploaded pattern's constant one) draws no folds, so it
// never leads: a sinusoid with amplitude A beside a flat channel with 2A
// draws as the sinusoid alone, where letting the flat one lead would keep
// (1/2)^8 of the sinusoid, a plain sheet. Bump-mapped and displaced.
TEST_F(PatternRenderTest, AFlatChannelNeverLeads) {
  FlatSheet sheet(1.0 / 8.0, 256, 0.0f, 256);
  const WrinklePattern sinusoid = *MakeSinusoidPattern({1.0 / 8.0, 256, 1});
  sheet.pattern = sinusoid;
  sheet.pattern.channels = 2;
  sheet.pattern.samples.assign(2 * sinusoid.samples.size(), 0.0f);
  for (size_t i = 0; i < sinusoid.samples.size(); ++i) {
    sheet.pattern.samples[2 * i] = sinusoid.samples[i];
  }
  const float amplitude = 0.5f / (2 * 3.14159265f * 8);
  for (const bool displace : {false, true}) {
    SCOPED_TRACE(displace);
    std::vector<image::RgbaImage> images;  // with the flat channel, without
    for (const float flat : {2 * amplitude, 0.0f}) {
      sheet.SetTwoChannels(amplitude, flat);
      PatternWrinkles wrinkles = sheet.Wrinkles();
      wrinkles.displace = displace;
      const auto image =
          renderer_->RenderPattern(sheet.Mesh(), wrinkles, sheet.options);
      ASSERT_TRUE(image.ok()) << image.status();
      images.push_back(*image);
    }
    const int y = images[1].height / 2;
    const std::vector<int> with_flat = Row(images[0], y);
    const std::vector<int> alone = Row(images[1], y);
    const auto [low, high] = std::minmax_element(alone.begin(), alone.end());
    int worst = 0;
    for (size_t x = 0; x < alone.size(); ++x) {
      worst = std::max(worst, std::abs(with_flat[x] - alone[x]));
    }
    std::printf(
        "%s: the sinusoid alone spans %d levels along a row; with a "
        "flat channel beside it, at most %d off\n",
        displace ? "displaced" : "bump-mapped", *high - *low, worst);
    EXPECT_GT(*high - *low, 60);
    EXPECT_LE(worst, 6);
  }
}

// The height pattern.tese samples for a channel whose samples vary along u
// only (`row`, one texel row): textureLod over the mip chain
// glGenerateTextureMipmap makes (each level the mean of two texels of the
// one below), bilinear in a level with the repeat wrap, the two levels
// around `lod` blended.
float FilteredHeight(const std::vector<float>& row, float u, float lod) {
  // GL's mip filter for other widths is the driver's own.
  EXPECT_TRUE(std::has_single_bit(row.size())) << row.size();
  std::vector<std::vector<float>> levels = {row};
  while (levels.back().size() > 1) {
    const std::vector<float>& below = levels.back();
    std::vector<float> level(below.size() / 2);
    for (size_t j = 0; j < level.size(); ++j) {
      level[j] = 0.5f * (below[2 * j] + below[2 * j + 1]);
    }
    levels.push_back(std::move(level));
  }
  const auto bilinear = [&](int l) {
    const std::vector<float>& level =
        levels[std::min<size_t>(static_cast<size_t>(l), levels.size() - 1)];
    const int width = static_cast<int>(level.size());
    const float t = u * width - 0.5f;
    const int j = static_cast<int>(std::floor(t));
    const float f = t - j;
    return (1 - f) * level[((j % width) + width) % width] +
           f * level[(((j + 1) % width) + width) % width];
  };
  const int l = static_cast<int>(std::floor(lod));
  return bilinear(l) + (lod - l) * (bilinear(l + 1) - bilinear(l));
}

// A box of a quarter step where the steps resolve the shortest wavelength,
// a whole step where they cannot (2 or fewer a wavelength), between in
// between; a whole step without a wavelength, and level 0 under a texel.
TEST(DisplacementLodTest, AQuarterStepWhereResolvedAWholeStepWhereNot) {
  EXPECT_FLOAT_EQ(DisplacementLod(32, 128), 3.0f);  // 4 steps: 8 texels
  EXPECT_FLOAT_EQ(DisplacementLod(16, 128), 2.0f);  // 8 steps: 4 texels
  EXPECT_FLOAT_EQ(DisplacementLod(64, 128), 6.0f);  // 2 steps: 64 texels
  EXPECT_FLOAT_EQ(DisplacementLod(256, 128), 8.0f);
  EXPECT_FLOAT_EQ(DisplacementLod(32, 96), std::log2(32 * 0.625f));  // 3
  EXPECT_FLOAT_EQ(DisplacementLod(32, 0), 5.0f);
  EXPECT_FLOAT_EQ(DisplacementLod(32, std::numeric_limits<float>::infinity()),
                  5.0f);
  EXPECT_FLOAT_EQ(DisplacementLod(2, 128), 0.0f);
  EXPECT_FLOAT_EQ(DisplacementLod(0, 128), 0.0f);
}

// One sinusoid's finest detail is its wavelength. A fundamental of 0.7 at
// 8 cycles a tile with a third harmonic of 0.3 has an RMS wavelength
// (PatternWavelengths) of sqrt(m0 / m2) = 0.083 of the tile and a finest
// detail of sqrt(m2 / m4) = 0.051, m_n = Σ a² k^n over the frequencies k
// (0.087 and 0.055 through the texels' central differences): where the
// tessellation places 4 steps an RMS wavelength, that is 2.5 steps a detail
// wavelength, and the box widens from a quarter step to 0.80.
TEST(PatternDetailWavelengthsTest, AHarmonicShortensTheFinestDetail) {
  const WrinklePattern sinusoid = *MakeSinusoidPattern({1.0 / 8.0, 256, 1});
  std::vector<float> layers;
  BuildPatternLayers(MapOf(sinusoid), &layers);
  EXPECT_NEAR(PatternDetailWavelengths(MapOf(sinusoid), layers)[0], 1.0 / 8,
              0.01 / 8);
  EXPECT_NEAR(PatternWavelengths(MapOf(sinusoid), layers)[0], 1.0 / 8,
              0.01 / 8);
  WrinklePattern harmonics = sinusoid;
  for (int y = 0; y < 256; ++y) {
    for (int x = 0; x < 256; ++x) {
      const double u = (x + 0.5) / 256;
      harmonics.samples[y * 256 + x] =
          static_cast<float>(0.7 * std::sin(2 * 3.14159265358979 * 8 * u) +
                             0.3 * std::sin(2 * 3.14159265358979 * 24 * u));
    }
  }
  BuildPatternLayers(MapOf(harmonics), &layers);
  const float rms = PatternWavelengths(MapOf(harmonics), layers)[0];
  const float detail = PatternDetailWavelengths(MapOf(harmonics), layers)[0];
  // The central differences see k cycles in 256 texels as sin(2πk/256)
  // 256 / 2π (23.1 for 24 by one difference).
  const auto seen = [](double k) {
    return std::sin(2 * 3.14159265358979 * k / 256) * 256 /
           (2 * 3.14159265358979);
  };
  const auto m = [&](int n) {
    return 0.49 * std::pow(seen(8), n) + 0.09 * std::pow(seen(24), n);
  };
  std::printf(
      "RMS wavelength %.4f (%.4f), finest detail %.4f (%.4f); exact "
      "frequencies %.4f, %.4f\n",
      rms, std::sqrt(m(0) / m(2)), detail, std::sqrt(m(2) / m(4)),
      std::sqrt(0.58 / (0.49 * 64 + 0.09 * 576)),
      std::sqrt((0.49 * 64 + 0.09 * 576) / (0.49 * 4096 + 0.09 * 331776)));
  EXPECT_NEAR(rms, std::sqrt(m(0) / m(2)), 0.01 * rms);
  EXPECT_NEAR(detail, std::sqrt(m(2) / m(4)), 0.01 * detail);
  EXPECT_LT(detail, 0.65f * rms);
  // A flat channel has no detail.
  WrinklePattern flat = sinusoid;
  std::fill(flat.samples.begin(), flat.samples.end(), 0.25f);
  BuildPatternLayers(MapOf(flat), &layers);
  EXPECT_EQ(PatternDetailWavelengths(MapOf(flat), layers)[0], 0.0f);
}

// The displaced variant's geometry, not its shading: the flat sheet seen
// from 10° above its plane, nearly orthographically, across the crests (they
// run along z, towards the camera), so the sheet's far edge is its top
// outline. Each far-edge vertex x_k = k / 16 moves up by a h(x_k), h the
// sinusoid of 2 cycles (the grid's vertices sample it, no tessellation): the
// outline's rise over the plain sheet's at that vertex's column is the
// projection of a h(x_k) up the smooth normal (+y), within 0.75 px, h as
// filtered at the vertex's mip level (FillPatternTessellation's lod,
// FilteredHeight; at 8 vertices a wavelength a crest keeps over 0.88 of a),
// and the bump-mapped variant's outline does not move. With a flat channel of
// twice the amplitude beside the sinusoid, the heights are the sinusoid's alone
// (a flat channel never leads, in pattern.tese as in pattern.frag).
TEST_F(PatternRenderTest, DisplacedOutlineRisesByTheAmplitudeTimesTheHeight) {
  constexpr int kSize = 512;
  constexpr float kAmplitude = 0.05f;
  constexpr double kWavelength = 0.5;
  FlatSheet sheet(kWavelength, 256, 0.0f, kSize);
  const WrinklePattern sinusoid = *MakeSinusoidPattern({kWavelength, 256, 1});
  sheet.pattern = sinusoid;
  sheet.pattern.channels = 2;  // the sinusoid and a flat channel
  sheet.pattern.samples.assign(2 * sinusoid.samples.size(), 0.0f);
  for (size_t i = 0; i < sinusoid.samples.size(); ++i) {
    sheet.pattern.samples[2 * i] = sinusoid.samples[i];
  }
  const float elevation = 10.0f * 3.14159265f / 180.0f;
  const float distance = 40.0f;
  sheet.options.camera = image::Camera{
      {0.5f, distance * std::sin(elevation), distance * std::cos(elevation)},
      {0.5f, 0.0f, 0.0f},
      {0, 1, 0},
      1.8f};
  const size_t num_vertices = sheet.mesh.positions.size() / 3;
  // Where each column's coverage starts, in pixels from the image's top
  // (continuous, as the projection below): the uncovered part of every pixel
  // above the first fully covered one (the multisampled edge's alpha).
  const auto outline = [&](float sinusoid_amplitude, float flat_amplitude,
                           bool displace, const std::string& name) {
    sheet.SetTwoChannels(sinusoid_amplitude, flat_amplitude);
    PatternWrinkles wrinkles = sheet.Wrinkles();
    wrinkles.displace = displace;
    const auto image =
        renderer_->RenderPattern(sheet.Mesh(), wrinkles, sheet.options);
    EXPECT_TRUE(image.ok()) << image.status();
    std::vector<double> top(kSize, kSize);
    if (!image.ok()) return top;
    Keep(*image, "pattern_outline_" + name);
    for (int x = 0; x < kSize; ++x) {
      double uncovered = 0;
      for (int y = 0; y < kSize && image->At(x, y)[3] != 255; ++y) {
        uncovered += 1.0 - image->At(x, y)[3] / 255.0;
      }
      top[x] = uncovered;
    }
    return top;
  };
  const std::vector<double> plain = outline(0.0f, 0.0f, true, "plain");
  const std::vector<double> displaced =
      outline(kAmplitude, 0.0f, true, "displaced");
  const std::vector<double> beside_flat =
      outline(kAmplitude, 2 * kAmplitude, true, "displaced_beside_flat");
  const std::vector<double> bumped = outline(kAmplitude, 0.0f, false, "bumped");
  // Each vertex's mip level, as RenderPattern finds it (every level is 1
  // here, so the screen target does not matter): the wavelength is 128
  // texels, a far-edge vertex's coarsest step 16 texels or, on a diagonal,
  // 16√2, 5.7 steps a wavelength or more, so a box of a quarter step.
  std::vector<int32_t> welded(num_vertices);
  for (size_t v = 0; v < num_vertices; ++v) welded[v] = static_cast<int32_t>(v);
  RenderMesh mesh = sheet.Mesh();
  mesh.welded = welded;
  std::vector<float> layers;
  BuildPatternLayers(MapOf(sheet.pattern), &layers);
  PatternTessellation tessellation;
  FillPatternTessellation(
      mesh, sheet.Wrinkles(), PatternWavelengths(MapOf(sheet.pattern), layers),
      PatternDetailWavelengths(MapOf(sheet.pattern), layers), PatternTarget{},
      &tessellation);
  for (int k = 1; k < 16; ++k) {
    EXPECT_TRUE(std::abs(tessellation.lod[k] - 2.0f) < 0.01f ||
                std::abs(tessellation.lod[k] - 2.5f) < 0.01f)
        << "vertex " << k << ": lod " << tessellation.lod[k];
  }
  std::vector<float> row(sinusoid.samples.begin(),
                         sinusoid.samples.begin() + sinusoid.width);
  const auto h_exact = [&](float x) {
    return std::sin(2 * 3.14159265f * x / static_cast<float>(kWavelength));
  };
  // Where the far edge's vertices project, and how far up a h(x) moves them.
  const Eigen::Matrix4f view_projection =
      image::ViewProjection(*sheet.options.camera, sheet.mesh.positions, 1.0f);
  const auto project = [&](float x, float y) {
    const Eigen::Vector4f clip = view_projection * Eigen::Vector4f(x, y, 0, 1);
    return Eigen::Vector2f((clip.x() / clip.w() + 1) * 0.5f * kSize,
                           (1 - clip.y() / clip.w()) * 0.5f * kSize);
  };
  double largest_rise = 0, lowest_crest = 1, worst = 0;
  for (int k = 1; k < 16; ++k) {
    const float x = k / 16.0f;  // vertex k of the far edge (z = 0)
    ASSERT_EQ(sheet.mesh.positions[3 * k], x);
    ASSERT_EQ(sheet.mesh.positions[3 * k + 2], 0.0f);
    const float h = FilteredHeight(row, x, tessellation.lod[k]);
    const Eigen::Vector2f at = project(x, 0.0f);
    const float rise = at.y() - project(x, kAmplitude * h).y();
    const int column = static_cast<int>(at.x());
    SCOPED_TRACE(::testing::Message()
                 << "vertex " << k << ", column " << column << ", h " << h);
    // Within 0.75 px: the column's centre is up to half a pixel from the
    // vertex, where the outline slopes by up to about 0.6.
    ASSERT_LT(plain[column], kSize);
    EXPECT_NEAR(plain[column], at.y(), 0.75);  // the projection is read right
    EXPECT_NEAR(plain[column] - displaced[column], rise, 0.75);
    EXPECT_NEAR(plain[column] - beside_flat[column], rise, 0.75);
    EXPECT_NEAR(plain[column], bumped[column], 0.75);
    worst = std::max({worst, std::abs(plain[column] - at.y()),
                      std::abs(plain[column] - displaced[column] - rise),
                      std::abs(plain[column] - beside_flat[column] - rise),
                      std::abs(plain[column] - bumped[column])});
    largest_rise = std::max(largest_rise, static_cast<double>(rise));
    if (k % 4 == 2) {  // a crest or a trough: exact h = ±1
      const float full = at.y() - project(x, kAmplitude * h_exact(x)).y();
      lowest_crest =
          std::min(lowest_crest, (plain[column] - displaced[column]) / full);
    }
  }
  // 8 vertices a wavelength resolve it: its crests keep nearly their height
  // (0.77 with a whole step's box, the level before DisplacementLod).
  EXPECT_GT(lowest_crest, 0.88);
  std::printf(
      "displaced crests rise %.2f of a at the least; outlines at most %.2f px "
      "off\n",
      lowest_crest, worst);
  // Heights worth measuring: a h = 0.05 rises about 20 pixels.
  EXPECT_GT(largest_rise, 15.0);
}

// A sinusoid of 0.5 pixel wavelength and slope 3 (sampled once a pixel it
// would be noise) draws like its 4x supersampled reference, and both like
// the plain sheet: the mip-mapped filter and the fade leave no stipple.
TEST_F(PatternRenderTest, SubPixelPatternDoesNotAlias) {
  const int size = 128;
  FlatSheet sheet(1.0 / 160.0, 1024, 3.0f / (2 * 3.14159265f * 160), size);
  // Tilted, so the footprint is anisotropic.
  sheet.options.camera =
      image::Camera{{0.5f, 1.6f, 2.3f}, {0.5f, 0, 0.5f}, {0, 1, 0}, 35.0f};
  const auto frame =
      renderer_->RenderPattern(sheet.Mesh(), sheet.Wrinkles(), sheet.options);
  RenderOptions big = sheet.options;
  big.width = big.height = 4 * size;
  big.min_wrinkle_pixels *= 4;
  const auto large =
      renderer_->RenderPattern(sheet.Mesh(), sheet.Wrinkles(), big);
  const auto plain = renderer_->Render(sheet.Mesh(), nullptr, sheet.options);
  ASSERT_TRUE(frame.ok() && large.ok() && plain.ok());
  image::RgbaImage reference = *frame;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      for (int c = 0; c < 4; ++c) {
        int sum = 0;
        for (int j = 0; j < 16; ++j) {
          sum += large->At(4 * x + j % 4, 4 * y + j / 4)[c];
        }
        reference.pixels[4 * (y * size + x) + c] = (sum + 8) / 16;
      }
    }
  }
  const PixelMask interior = SubjectInterior(*frame, reference);
  const ImageDifference to_reference = Difference(*frame, reference, interior);
  const ImageDifference to_plain = Difference(*frame, *plain, interior);
  Keep(*frame, "pattern_subpixel");
  Keep(reference, "pattern_subpixel_reference");
  ASSERT_GT(to_reference.pixels, 2000);
  EXPECT_LT(to_reference.mean, 1.5) << to_reference.ToString();
  EXPECT_LT(to_reference.p99, 8) << to_reference.ToString();
  EXPECT_LT(to_plain.mean, 1.5) << to_plain.ToString();
}

// Pixels where the displaced Fox shows background with back faces culled but
// is covered with culling off: on a closed mesh a ray that meets only back
// faces looks through an opening into the inside, so these are the cracks.
// Outline motion (the pattern also displaces inwards) changes coverage alike
// in both renders and does not count.
int CountCracks(FrameRenderer& renderer, const RenderMesh& mesh,
                const PatternWrinkles& wrinkles, RenderOptions options,
                const std::string& name) {
  options.culling = FaceCulling::kBack;
  const auto culled = renderer.RenderPattern(mesh, wrinkles, options);
  options.culling = FaceCulling::kNone;
  const auto unculled = renderer.RenderPattern(mesh, wrinkles, options);
  if (!culled.ok() || !unculled.ok()) {
    ADD_FAILURE() << culled.status() << " " << unculled.status();
    return -1;
  }
  const std::array<uint8_t, 4> background = {255, 0, 255, 255};
  image::RgbaImage marked = *culled;
  int count = 0;
  for (int y = 0; y < culled->height; ++y) {
    for (int x = 0; x < culled->width; ++x) {
      if (culled->At(x, y) == background && unculled->At(x, y) != background) {
        ++count;
        uint8_t* p =
            &marked.pixels[4 * (static_cast<size_t>(y) * marked.width + x)];
        p[0] = 0, p[1] = 255, p[2] = 0;  // green
      }
    }
  }
  Keep(marked, name);
  return count;
}

// A bundled animation with UV seams (the Fox is a closed triangle soup: 576
// triangles, 1,728 corners, 805 of them on UV seams), displaced by the
// model's amplitudes on one frame at the paper's scale, seen from four
// sides: no cracks; without the seam rule the seams open. Before the
// evaluation stage sampled through its own sampler without anisotropy,
// llvmpipe cracked it along tessellated edges away from any seam (104
// pixels from the front at k = 1; gl/pattern_pass.h).
TEST_F(PatternRenderTest, DisplacedFoxHasNoCracks) {
  io::GltfOptions gltf;
  gltf.animation = "Walk";
  gltf.frames = 31;
  gltf.loop = true;
  auto animation = io::ReadGltf(testing::BundledPath("Fox.glb"), gltf);
  ASSERT_TRUE(animation.ok()) << animation.status();
  const io::TriangleMesh& mesh = animation->mesh;
  auto topology = MeshTopology::Build(mesh.triangles, mesh.positions);
  ASSERT_TRUE(topology.ok()) << topology.status();
  ASSERT_TRUE(topology->boundary_edges().empty());  // closed: see CountCracks
  const WrinklePattern pattern = *MakeSinusoidPattern({});
  AmplitudeModelParams params;
  params.scale = kFoxScale;
  auto model = AmplitudeModel::Create(*topology, mesh.corner_uvs, pattern,
                                      mesh.positions, params);
  ASSERT_TRUE(model.ok()) << model.status();
  const auto positions = animation->frames.Sample(30);
  ASSERT_TRUE(model->Update(positions).ok());
  const float largest = *std::max_element(model->vertex_amplitudes().begin(),
                                          model->vertex_amplitudes().end());
  ASSERT_GT(largest, 0.0f);
  RecordProperty("largest_amplitude", std::to_string(largest));
  const RenderMesh render_mesh{positions, mesh.triangles, topology->weld_map(),
                               mesh.corner_uvs};
  PatternWrinkles wrinkles{MapOf(pattern), model->vertex_amplitudes()};
  wrinkles.displace = true;
  RenderOptions options;
  options.width = 480;
  options.height = 360;
  options.samples = 1;  // every pixel is covered or not
  options.background = {1, 0, 1, 1};
  options.min_edge_pixels = 2.0f;  // many tessellated edges to crack
  int with_rule = 0, without_rule = 0;
  for (float azimuth : {0.0f, 90.0f, 180.0f, 270.0f}) {
    options.camera = image::AutoFrame(positions, 480.0f / 360.0f, azimuth);
    const std::string side = std::to_string(static_cast<int>(azimuth));
    wrinkles.seam_fade = true;
    RenderStats stats;
    ASSERT_TRUE(
        renderer_->RenderPattern(render_mesh, wrinkles, options, &stats).ok());
    EXPECT_GT(stats.tessellated_triangles, 100);
    const int cracks = CountCracks(*renderer_, render_mesh, wrinkles, options,
                                   "pattern_fox_cracks_" + side);
    EXPECT_EQ(cracks, 0) << "azimuth " << azimuth;
    with_rule += cracks;
    wrinkles.seam_fade = false;
    without_rule += CountCracks(*renderer_, render_mesh, wrinkles, options,
                                "pattern_fox_no_seam_rule_" + side);
  }
  // The control: the counter sees the seams open.
  EXPECT_GT(without_rule, 40);
  RecordProperty("cracks", std::to_string(with_rule) + " with the seam rule, " +
                               std::to_string(without_rule) + " without");
}

TEST_F(PatternRenderTest, RejectsBadInput) {
  FlatSheet sheet(1.0 / 8.0, 64, 0.01f, 32);
  PatternWrinkles wrinkles = sheet.Wrinkles();
  auto message = [&](const RenderMesh& mesh, const PatternWrinkles& w) {
    const auto image = renderer_->RenderPattern(mesh, w, sheet.options);
    EXPECT_EQ(image.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(image.status().message());
  };
  RenderMesh no_uvs = sheet.Mesh();
  no_uvs.corner_uvs = {};
  EXPECT_NE(message(no_uvs, wrinkles).find("corner_uvs"), std::string::npos);
  PatternWrinkles short_amplitudes = wrinkles;
  short_amplitudes.amplitudes = short_amplitudes.amplitudes.subspan(1);
  EXPECT_EQ(message(sheet.Mesh(), short_amplitudes),
            "amplitudes: 288 floats, need 1 channels x 289 vertices = 289");
  std::vector<float> samples(sheet.pattern.samples);
  samples[5] = 1.5f;
  PatternWrinkles bad_sample = wrinkles;
  bad_sample.pattern.samples = samples;
  EXPECT_EQ(message(sheet.Mesh(), bad_sample),
            "pattern: sample 5 is 1.5, outside [-1, 1]");
  PatternWrinkles big = wrinkles;
  big.pattern.width = 2048;
  EXPECT_EQ(message(sheet.Mesh(), big),
            "pattern: 2048x64 texels, need 1..1024 a side");
}

}  // namespace
}  // namespace crease::renderer
