#include "wrinkle/io/pc2.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "common/status_macros.h"
#include "wrinkle/io/binary_append.h"

namespace crease::io {
namespace {

static_assert(std::endian::native == std::endian::little,
              "PC2 is little-endian; add byte swapping for this platform");

constexpr char kMagic[12] = {'P', 'O', 'I', 'N', 'T', 'C',
                             'A', 'C', 'H', 'E', '2', '\0'};
constexpr size_t kHeaderSize = 32;

template <typename T>
T Load(std::string_view bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

}  // namespace

absl::StatusOr<PointCache> ParsePc2(std::string_view bytes,
                                    std::string_view name,
                                    int expected_points) {
  auto error = [&](size_t offset, std::string_view problem) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: offset %d: %s", name, offset, problem));
  };
  if (bytes.size() < kHeaderSize) {
    return error(bytes.size(),
                 absl::StrFormat("truncated header (%d of %d bytes)",
                                 bytes.size(), kHeaderSize));
  }
  if (std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    return error(0, "bad magic, expected \"POINTCACHE2\\0\"");
  }
  const int32_t version = Load<int32_t>(bytes, 12);
  if (version != 1) {
    return error(
        12, absl::StrFormat("unsupported version %d, expected 1", version));
  }
  PointCache cache;
  const int32_t num_points = Load<int32_t>(bytes, 16);
  cache.start_frame = Load<float>(bytes, 20);
  cache.sample_rate = Load<float>(bytes, 24);
  const int32_t num_samples = Load<int32_t>(bytes, 28);
  if (num_points <= 0) {
    return error(
        16, absl::StrFormat("numPoints is %d, must be positive", num_points));
  }
  if (expected_points >= 0 && num_points != expected_points) {
    return error(16,
                 absl::StrFormat("numPoints is %d but the mesh has %d vertices",
                                 num_points, expected_points));
  }
  if (num_samples <= 0) {
    return error(
        28, absl::StrFormat("numSamples is %d, must be positive", num_samples));
  }
  if (!std::isfinite(cache.start_frame) || !std::isfinite(cache.sample_rate)) {
    return error(20, "non-finite startFrame or sampleRate");
  }
  const uint64_t values = uint64_t{3} * static_cast<uint64_t>(num_points) *
                          static_cast<uint64_t>(num_samples);
  const uint64_t expected_size = kHeaderSize + values * sizeof(float);
  if (bytes.size() < expected_size) {
    return error(
        bytes.size(),
        absl::StrFormat("truncated: %d points x %d samples need %d bytes, "
                        "file has %d",
                        num_points, num_samples, expected_size, bytes.size()));
  }
  if (bytes.size() > expected_size) {
    return error(
        expected_size,
        absl::StrFormat("%d trailing bytes after %d points x %d samples",
                        bytes.size() - expected_size, num_points, num_samples));
  }
  cache.num_points = num_points;
  cache.num_samples = num_samples;
  cache.positions.resize(values);
  std::memcpy(cache.positions.data(), bytes.data() + kHeaderSize,
              values * sizeof(float));
  for (uint64_t i = 0; i < values; ++i) {
    if (!std::isfinite(cache.positions[i])) {
      const uint64_t point = i / 3;
      return error(kHeaderSize + i * sizeof(float),
                   absl::StrFormat(
                       "non-finite value (sample %d, point %d, axis %c)",
                       point / num_points, point % num_points, "xyz"[i % 3]));
    }
  }
  return cache;
}

absl::StatusOr<PointCache> ReadPc2(const std::string& path,
                                   int expected_points) {
  CREASE_ASSIGN_OR_RETURN(std::string bytes, files::ReadFileToString(path));
  return ParsePc2(bytes, path, expected_points);
}

std::string FormatPc2(const PointCache& cache) {
  std::string out(kMagic, sizeof(kMagic));
  AppendBinary<int32_t>(out, 1);
  AppendBinary<int32_t>(out, cache.num_points);
  AppendBinary<float>(out, cache.start_frame);
  AppendBinary<float>(out, cache.sample_rate);
  AppendBinary<int32_t>(out, cache.num_samples);
  out.append(reinterpret_cast<const char*>(cache.positions.data()),
             cache.positions.size() * sizeof(float));
  return out;
}

absl::Status WritePc2(const std::string& path, const PointCache& cache) {
  if (cache.positions.size() != static_cast<size_t>(3) * cache.num_points *
                                    static_cast<size_t>(cache.num_samples)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %d floats do not match %d points x %d samples", path,
        cache.positions.size(), cache.num_points, cache.num_samples));
  }
  return files::WriteStringToFile(path, FormatPc2(cache));
}

}  // namespace crease::io
