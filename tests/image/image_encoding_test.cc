#include "image/image_encoding.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/png_bomb.h"

namespace crease::image {
namespace {

RgbaImage Gradient(int width, int height) {
  RgbaImage image{
      width, height,
      std::vector<uint8_t>(static_cast<size_t>(width) * height * 4)};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      uint8_t* p = &image.pixels[(static_cast<size_t>(y) * width + x) * 4];
      p[0] = static_cast<uint8_t>(255 * x / (width - 1));
      p[1] = static_cast<uint8_t>(255 * y / (height - 1));
      p[2] = static_cast<uint8_t>((x * 7 + y * 3) % 256);
      p[3] = static_cast<uint8_t>(255 - (x + y) % 64);
    }
  }
  return image;
}

TEST(ImageEncodingTest, PngRoundTripsExactly) {
  const RgbaImage image = Gradient(53, 31);
  for (PngFilter filter : {PngFilter::kAdaptive, PngFilter::kSub}) {
    for (int level : {0, 1, 6, 9}) {
      const auto png = EncodePng(image, level, filter);
      ASSERT_TRUE(png.ok()) << png.status();
      EXPECT_EQ(png->substr(1, 3), "PNG");
      const auto back = DecodePng(*png);
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(back->width, 53);
      EXPECT_EQ(back->height, 31);
      EXPECT_EQ(back->pixels, image.pixels) << "level " << level;
    }
  }
}

// The same image stored upside down (as a GPU read-back's rows are).
std::vector<uint8_t> Flipped(const RgbaImage& image) {
  const size_t row = static_cast<size_t>(image.width) * 4;
  std::vector<uint8_t> flipped(image.pixels.size());
  for (int y = 0; y < image.height; ++y) {
    std::copy_n(image.pixels.begin() + row * y, row,
                flipped.begin() + row * (image.height - 1 - y));
  }
  return flipped;
}

TEST(ImageEncodingTest, BottomUpRowsEncodeAsTheUprightImage) {
  const RgbaImage image = Gradient(53, 31);
  const std::vector<uint8_t> flipped = Flipped(image);
  const RgbaRows bottom_up{image.width, image.height, flipped.data(), true};
  const auto png = EncodePng(bottom_up);
  ASSERT_TRUE(png.ok()) << png.status();
  const auto back = DecodePng(*png);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->pixels, image.pixels);
  // JPEG: the very bytes of the upright image's encoding.
  const auto upright_jpeg = EncodeJpeg(image, 90);
  const auto jpeg = EncodeJpeg(bottom_up, 90);
  ASSERT_TRUE(jpeg.ok() && upright_jpeg.ok());
  EXPECT_EQ(*jpeg, *upright_jpeg);
  // Read as top-down, the rows make a different image: the flag matters.
  const RgbaRows as_top_down{image.width, image.height, flipped.data(), false};
  EXPECT_NE(*EncodeJpeg(as_top_down, 90), *upright_jpeg);
  EXPECT_EQ(EncodeJpeg(RgbaRows{0, 4, flipped.data(), true}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodePng(RgbaRows{4, 4, nullptr, true}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Sizes are checked from the header, before the decoder allocates: a small
// PNG claiming 32767² pixels (4.3 GB decoded) is refused at once.
TEST(ImageEncodingTest, DecodersRefuseHeadersOverTheirSizeLimit) {
  const std::string bomb = testing::PngClaiming(32767, 32767);
  const auto rgba = DecodePng(bomb);
  EXPECT_EQ(rgba.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(rgba.status().message(), ::testing::HasSubstr("32767 x 32767"));
  int width = 0, height = 0;
  EXPECT_EQ(DecodePngGray16(bomb, &width, &height).status().code(),
            absl::StatusCode::kInvalidArgument);
  // A caller's own limit, and the image at it still decodes.
  const RgbaImage image = Gradient(53, 31);
  const std::string png = *EncodePng(image);
  EXPECT_EQ(DecodePng(png, 52).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(DecodePng(png, 53).ok());
  const std::string jpeg = *EncodeJpeg(image, 90);
  EXPECT_EQ(DecodeJpeg(jpeg, 40).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(DecodeJpeg(jpeg, 53).ok());
}

TEST(ImageEncodingTest, Gray16PngRoundTripsExactly) {
  std::vector<uint16_t> values(37 * 5);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<uint16_t>(i * 354 + (i % 3) * 21000);
  }
  values[0] = 65535;
  for (PngFilter filter : {PngFilter::kAdaptive, PngFilter::kSub}) {
    const auto png = EncodePngGray16(37, 5, values, 1, filter);
    ASSERT_TRUE(png.ok()) << png.status();
    int width = 0, height = 0;
    const auto back = DecodePngGray16(*png, &width, &height);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(width, 37);
    EXPECT_EQ(height, 5);
    EXPECT_EQ(*back, values);
  }
  EXPECT_FALSE(EncodePngGray16(37, 6, values).ok());
}

TEST(ImageEncodingTest, JpegIsCloseAndSmall) {
  RgbaImage image = Gradient(320, 240);
  for (size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 255;
  const auto jpeg = EncodeJpeg(image, 90);
  ASSERT_TRUE(jpeg.ok()) << jpeg.status();
  EXPECT_LT(jpeg->size(), image.pixels.size() / 4);
  const auto back = DecodeJpeg(*jpeg);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->pixels.size(), image.pixels.size());
  double error = 0;
  for (size_t i = 0; i < image.pixels.size(); ++i) {
    if (i % 4 == 2)
      continue;  // the blue channel is a sawtooth, hard for any JPEG
    error += std::abs(int{back->pixels[i]} - int{image.pixels[i]});
  }
  EXPECT_LT(error / (image.pixels.size() * 3 / 4), 2.0);
}

TEST(ImageEncodingTest, RejectsBadInput) {
  RgbaImage bad{4, 4, std::vector<uint8_t>(10)};
  EXPECT_EQ(EncodePng(bad).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodeJpeg(bad).status().code(),
            absl::StatusCode::kInvalidArgument);
  const RgbaImage ok = Gradient(4, 4);
  EXPECT_EQ(EncodePng(ok, 10).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodeJpeg(ok, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(DecodePng("not a png").ok());
  EXPECT_FALSE(DecodeJpeg("not a jpeg").ok());
}

}  // namespace
}  // namespace crease::image
