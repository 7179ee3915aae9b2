// VisibleChange on images made by hand.

#include "image/image_compare.h"

#include <array>
#include <cstdint>

#include "gtest/gtest.h"

namespace crease::image {
namespace {

constexpr std::array<uint8_t, 4> kWhite = {255, 255, 255, 255};

RgbaImage Filled(int width, int height, std::array<uint8_t, 4> colour) {
  RgbaImage image;
  image.width = width;
  image.height = height;
  for (int i = 0; i < width * height; ++i) {
    image.pixels.insert(image.pixels.end(), colour.begin(), colour.end());
  }
  return image;
}

void Set(RgbaImage* image, int x, int y, std::array<uint8_t, 4> colour) {
  for (int c = 0; c < 4; ++c) {
    image->pixels[4 * (y * image->width + x) + c] = colour[c];
  }
}

// A 10 x 10 white image whose left half (50 pixels) is the subject: 10 of
// those pixels changed by 20 levels, 5 by 12 (not more than the threshold).
TEST(VisibleChangeTest, CountsSubjectPixelsChangedPastTheThreshold) {
  RgbaImage plain = Filled(10, 10, kWhite);
  for (int y = 0; y < 10; ++y) {
    for (int x = 0; x < 5; ++x) Set(&plain, x, y, {100, 110, 120, 255});
  }
  RgbaImage wrinkled = plain;
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 5; ++x) Set(&wrinkled, x, y, {100, 130, 120, 255});
  }
  for (int x = 0; x < 5; ++x) Set(&wrinkled, x, 5, {112, 110, 120, 255});
  EXPECT_DOUBLE_EQ(VisibleChange(plain, wrinkled, kWhite, 12), 10.0 / 50);
  EXPECT_DOUBLE_EQ(VisibleChange(plain, wrinkled, kWhite, 11), 15.0 / 50);
  // A pixel that is background in one image and subject in the other counts
  // as subject, and as changed.
  Set(&wrinkled, 9, 9, {0, 0, 0, 255});
  EXPECT_DOUBLE_EQ(VisibleChange(plain, wrinkled, kWhite, 12), 11.0 / 51);
  EXPECT_EQ(
      VisibleChange(Filled(4, 4, kWhite), Filled(4, 4, kWhite), kWhite, 12),
      0.0);
}

}  // namespace
}  // namespace crease::image
