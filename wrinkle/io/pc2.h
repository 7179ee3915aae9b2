#ifndef CREASE_WRINKLE_IO_PC2_H_
#define CREASE_WRINKLE_IO_PC2_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace crease::io {

// A "Point Cache 2" vertex animation: every sample holds xyz for every point.
// Layout (little-endian): char[12] "POINTCACHE2\0", int32 version (1), int32
// numPoints, float32 startFrame, float32 sampleRate, int32 numSamples, then
// float32[numSamples][numPoints][3].
struct PointCache {
  int num_points = 0;
  int num_samples = 0;
  float start_frame = 0.0f;
  float sample_rate = 1.0f;      // frames between samples, not fps
  std::vector<float> positions;  // num_samples * num_points * 3

  // Packed xyz of one sample (0 <= sample < num_samples).
  absl::Span<const float> Sample(int sample) const {
    return absl::MakeConstSpan(positions).subspan(
        static_cast<size_t>(sample) * num_points * 3,
        static_cast<size_t>(num_points) * 3);
  }
};

// Parses a PC2 image. InvalidArgument, naming the file and the byte offset, for
// a wrong magic or version, negative or zero counts, a size that is not exactly
// 32 + 12 * numPoints * numSamples (truncated or trailing bytes), or a
// non-finite value. `expected_points` >= 0 also checks numPoints against it
// (the OBJ's vertex count).
absl::StatusOr<PointCache> ParsePc2(std::string_view bytes,
                                    std::string_view name_for_errors,
                                    int expected_points = -1);
absl::StatusOr<PointCache> ReadPc2(const std::string& path,
                                   int expected_points = -1);

std::string FormatPc2(const PointCache& cache);
absl::Status WritePc2(const std::string& path, const PointCache& cache);

}  // namespace crease::io

#endif  // CREASE_WRINKLE_IO_PC2_H_
