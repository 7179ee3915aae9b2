#include "tests/renderer/golden_image.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "image/image_encoding.h"

namespace crease::renderer {
namespace {

std::string OutputDir() {
  const char* dir = std::getenv("CREASE_TEST_OUTPUT_DIR");
  std::string out = dir != nullptr && *dir != '\0' ? dir : ::testing::TempDir();
  std::filesystem::create_directories(out);
  return out;
}

}  // namespace

std::string SaveTestImage(const image::RgbaImage& image,
                          const std::string& name) {
  const std::string path = OutputDir() + "/" + name + ".png";
  const auto png = image::EncodePng(image);
  if (png.ok()) (void)files::WriteStringToFile(path, *png);
  return path;
}

::testing::AssertionResult MatchesGolden(const image::RgbaImage& image,
                                         const std::string& name,
                                         const GoldenTolerance& tolerance) {
  const std::string golden_path =
      std::string(CREASE_GOLDEN_DIR) + "/" + name + ".png";
  const char* update = std::getenv("CREASE_UPDATE_GOLDEN");
  if (update != nullptr && std::strcmp(update, "1") == 0) {
    const auto png = image::EncodePng(image);
    if (!png.ok()) return ::testing::AssertionFailure() << png.status();
    if (auto s = files::WriteStringToFile(golden_path, *png); !s.ok()) {
      return ::testing::AssertionFailure() << s;
    }
    return ::testing::AssertionSuccess() << "wrote " << golden_path;
  }
  const auto bytes = files::ReadFileToString(golden_path);
  if (!bytes.ok()) {
    return ::testing::AssertionFailure()
           << bytes.status()
           << " (run with CREASE_UPDATE_GOLDEN=1 to create it)";
  }
  const auto golden = image::DecodePng(*bytes);
  if (!golden.ok()) return ::testing::AssertionFailure() << golden.status();
  if (golden->width != image.width || golden->height != image.height) {
    return ::testing::AssertionFailure() << absl::StrFormat(
               "%s: image is %dx%d, golden %dx%d", name, image.width,
               image.height, golden->width, golden->height);
  }
  image::RgbaImage diff = image;
  int different = 0, worst = 0;
  for (size_t i = 0; i < image.pixels.size(); i += 4) {
    int channel = 0;
    for (int c = 0; c < 4; ++c) {
      channel = std::max(channel,
                         std::abs(image.pixels[i + c] - golden->pixels[i + c]));
    }
    worst = std::max(worst, channel);
    const bool off = channel > tolerance.channel_tolerance;
    different += off;
    for (int c = 0; c < 3; ++c) {
      diff.pixels[i + c] =
          off ? (c == 0 ? 255 : 0)
              : static_cast<uint8_t>(192 + golden->pixels[i + c] / 4);
    }
    diff.pixels[i + 3] = 255;
  }
  const double fraction =
      static_cast<double>(different) / (image.width * image.height);
  const std::string summary = absl::StrFormat(
      "%s: %d pixels (%.3f%%) differ by more than %d (largest difference %d; "
      "allowed %.3f%%)",
      name, different, 100 * fraction, tolerance.channel_tolerance, worst,
      100 * tolerance.max_different_fraction);
  if (fraction <= tolerance.max_different_fraction) {
    return ::testing::AssertionSuccess() << summary;
  }
  const std::string actual_path = SaveTestImage(image, name + ".actual");
  const std::string diff_path = SaveTestImage(diff, name + ".diff");
  return ::testing::AssertionFailure()
         << summary << "; wrote " << actual_path << " and " << diff_path;
}

}  // namespace crease::renderer
