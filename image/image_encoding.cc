#include "image/image_encoding.h"

#include <png.h>
#include <turbojpeg.h>
#include <zlib.h>

#include <bit>
#include <csetjmp>
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/status_macros.h"

namespace crease::image {
namespace {

absl::Status CheckImage(const RgbaImage& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.pixels.size() !=
          static_cast<size_t>(image.width) * image.height * 4) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "image: %dx%d with %d bytes, expected width * height * 4", image.width,
        image.height, image.pixels.size()));
  }
  return absl::OkStatus();
}

absl::Status CheckRows(const RgbaRows& rows) {
  if (rows.width <= 0 || rows.height <= 0 || rows.data == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrFormat("image: %dx%d rows%s", rows.width, rows.height,
                        rows.data == nullptr ? " without pixels" : ""));
  }
  return absl::OkStatus();
}

// Refuses a header's size past `max_side` (or empty) before any allocation.
absl::Status CheckDecodedSize(const char* format, int64_t width, int64_t height,
                              int max_side) {
  if (width < 1 || height < 1 || width > max_side || height > max_side) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: %d x %d pixels, each side must be 1..%d", format,
                        width, height, max_side));
  }
  return absl::OkStatus();
}

struct TjHandle {
  explicit TjHandle(tjhandle h) : handle(h) {}
  ~TjHandle() {
    if (handle != nullptr) tjDestroy(handle);
  }
  tjhandle handle;
};

}  // namespace

namespace {

void AppendToString(png_structp png, png_bytep data, png_size_t length) {
  static_cast<std::string*>(png_get_io_ptr(png))
      ->append(reinterpret_cast<const char*>(data), length);
}

// Rows of samples as libpng takes them.
struct PngRows {
  int width = 0, height = 0;
  int bit_depth = 8;
  int color_type = PNG_COLOR_TYPE_RGB_ALPHA;
  const uint8_t* data = nullptr;
  size_t row_bytes = 0;
  bool swap16 = false;     // 16-bit samples in host (little-endian) order
  bool bottom_up = false;  // data's first row is the image's last
};

// libpng reports errors by longjmp; keep this function free of objects with
// destructors between setjmp and the calls that may jump.
bool WritePng(const PngRows& rows, int level, PngFilter filter,
              std::string* out, std::string* error) {
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (png == nullptr) {
    *error = "png_create_write_struct failed";
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (info == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    *error = "libpng failed while encoding";
    return false;
  }
  png_set_write_fn(png, out, AppendToString, nullptr);
  png_set_compression_level(png, level);
  if (filter == PngFilter::kSub) {
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    // A smooth map's Sub-filtered rows are mostly runs of zeros, which
    // run-length matches alone find: a fifth smaller and a little quicker
    // than the default strategy's hash-chain matches (docs/benchmarks.md,
    // "UV maps").
    png_set_compression_strategy(png, Z_RLE);
  }
  png_set_IHDR(png, info, rows.width, rows.height, rows.bit_depth,
               rows.color_type, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  if (rows.swap16) png_set_swap(png);
  for (int y = 0; y < rows.height; ++y) {
    const int stored = rows.bottom_up ? rows.height - 1 - y : y;
    png_write_row(png,
                  rows.data + static_cast<size_t>(stored) * rows.row_bytes);
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

absl::StatusOr<std::string> EncodePng(const RgbaImage& image,
                                      int compression_level, PngFilter filter) {
  CREASE_RETURN_IF_ERROR(CheckImage(image));
  return EncodePng(RgbaRows::Of(image), compression_level, filter);
}

absl::StatusOr<std::string> EncodePng(const RgbaRows& image,
                                      int compression_level, PngFilter filter) {
  CREASE_RETURN_IF_ERROR(CheckRows(image));
  if (compression_level < 0 || compression_level > 9) {
    return absl::InvalidArgumentError("png: compression level must be 0-9");
  }
  std::string out, error;
  out.reserve(static_cast<size_t>(image.width) * image.height / 2);
  PngRows rows;
  rows.width = image.width;
  rows.height = image.height;
  rows.data = image.data;
  rows.row_bytes = static_cast<size_t>(image.width) * 4;
  rows.bottom_up = image.bottom_up;
  if (!WritePng(rows, compression_level, filter, &out, &error)) {
    return absl::InternalError(absl::StrCat("png: ", error));
  }
  out.shrink_to_fit();  // it is kept (in a message) at its size, not ours
  return out;
}

absl::StatusOr<std::string> EncodePngGray16(int width, int height,
                                            absl::Span<const uint16_t> values,
                                            int compression_level,
                                            PngFilter filter) {
  if (width <= 0 || height <= 0 ||
      values.size() != static_cast<size_t>(width) * height) {
    return absl::InvalidArgumentError(
        absl::StrFormat("image: %dx%d with %d samples, expected width * height",
                        width, height, values.size()));
  }
  if (compression_level < 0 || compression_level > 9) {
    return absl::InvalidArgumentError("png: compression level must be 0-9");
  }
  std::string out, error;
  PngRows rows;
  rows.width = width;
  rows.height = height;
  rows.bit_depth = 16;
  rows.color_type = PNG_COLOR_TYPE_GRAY;
  rows.data = reinterpret_cast<const uint8_t*>(values.data());
  rows.row_bytes = static_cast<size_t>(width) * 2;
  rows.swap16 = std::endian::native == std::endian::little;
  if (!WritePng(rows, compression_level, filter, &out, &error)) {
    return absl::InternalError(absl::StrCat("png: ", error));
  }
  out.shrink_to_fit();  // it is kept (in a message) at its size, not ours
  return out;
}

absl::StatusOr<std::vector<uint16_t>> DecodePngGray16(std::string_view bytes,
                                                      int* width, int* height,
                                                      int max_side) {
  png_image png;
  std::memset(&png, 0, sizeof(png));
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&png, bytes.data(), bytes.size())) {
    return absl::InvalidArgumentError(absl::StrCat("png: ", png.message));
  }
  if (absl::Status size =
          CheckDecodedSize("png", png.width, png.height, max_side);
      !size.ok()) {
    png_image_free(&png);
    return size;
  }
  png.format = PNG_FORMAT_LINEAR_Y;  // 16-bit gray, host order
  std::vector<uint16_t> values(static_cast<size_t>(png.width) * png.height);
  *width = static_cast<int>(png.width);
  *height = static_cast<int>(png.height);
  if (!png_image_finish_read(&png, nullptr, values.data(), 0, nullptr)) {
    return absl::InvalidArgumentError(absl::StrCat("png: ", png.message));
  }
  return values;
}

absl::StatusOr<RgbaImage> DecodePng(std::string_view bytes, int max_side) {
  png_image png;
  std::memset(&png, 0, sizeof(png));
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&png, bytes.data(), bytes.size())) {
    return absl::InvalidArgumentError(absl::StrCat("png: ", png.message));
  }
  if (absl::Status size =
          CheckDecodedSize("png", png.width, png.height, max_side);
      !size.ok()) {
    png_image_free(&png);
    return size;
  }
  png.format = PNG_FORMAT_RGBA;
  RgbaImage image;
  image.width = static_cast<int>(png.width);
  image.height = static_cast<int>(png.height);
  image.pixels.resize(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, image.pixels.data(), 0, nullptr)) {
    return absl::InvalidArgumentError(absl::StrCat("png: ", png.message));
  }
  return image;
}

absl::StatusOr<std::string> EncodeJpeg(const RgbaImage& image, int quality) {
  CREASE_RETURN_IF_ERROR(CheckImage(image));
  return EncodeJpeg(RgbaRows::Of(image), quality);
}

absl::StatusOr<std::string> EncodeJpeg(const RgbaRows& image, int quality) {
  CREASE_RETURN_IF_ERROR(CheckRows(image));
  if (quality < 1 || quality > 100) {
    return absl::InvalidArgumentError("jpeg: quality must be 1-100");
  }
  TjHandle tj(tjInitCompress());
  if (tj.handle == nullptr)
    return absl::InternalError("jpeg: tjInitCompress failed");
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  const int flags = TJFLAG_FASTDCT | (image.bottom_up ? TJFLAG_BOTTOMUP : 0);
  if (tjCompress2(tj.handle, image.data, image.width, 0, image.height,
                  TJPF_RGBA, &buffer, &size, TJSAMP_420, quality, flags) != 0) {
    const std::string message = tjGetErrorStr2(tj.handle);
    tjFree(buffer);
    return absl::InternalError(absl::StrCat("jpeg: ", message));
  }
  std::string out(reinterpret_cast<const char*>(buffer), size);
  tjFree(buffer);
  return out;
}

absl::StatusOr<RgbaImage> DecodeJpeg(std::string_view bytes, int max_side) {
  TjHandle tj(tjInitDecompress());
  if (tj.handle == nullptr)
    return absl::InternalError("jpeg: tjInitDecompress failed");
  int width = 0, height = 0, subsampling = 0, colorspace = 0;
  auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (tjDecompressHeader3(tj.handle, data, bytes.size(), &width, &height,
                          &subsampling, &colorspace) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("jpeg: ", tjGetErrorStr2(tj.handle)));
  }
  CREASE_RETURN_IF_ERROR(CheckDecodedSize("jpeg", width, height, max_side));
  RgbaImage image;
  image.width = width;
  image.height = height;
  image.pixels.resize(static_cast<size_t>(width) * height * 4);
  if (tjDecompress2(tj.handle, data, bytes.size(), image.pixels.data(), width,
                    0, height, TJPF_RGBA, 0) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("jpeg: ", tjGetErrorStr2(tj.handle)));
  }
  return image;
}

}  // namespace crease::image
