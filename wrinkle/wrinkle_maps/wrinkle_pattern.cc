#include "wrinkle/wrinkle_maps/wrinkle_pattern.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <numbers>

#include "absl/strings/str_format.h"

namespace crease {
namespace {

// Texel index along one axis after the wrap rule.
int WrapTexel(int i, int size, PatternWrap wrap) {
  if (wrap == PatternWrap::kRepeat) {
    const int r = i % size;
    return r < 0 ? r + size : r;
  }
  return i < 0 ? 0 : (i >= size ? size - 1 : i);
}

}  // namespace

absl::Status ValidatePattern(const WrinklePattern& pattern) {
  if (pattern.width < 1 || pattern.width > kMaxPatternSize ||
      pattern.height < 1 || pattern.height > kMaxPatternSize) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "wrinkle pattern: size %d x %d, expected 1..%d texels per side",
        pattern.width, pattern.height, kMaxPatternSize));
  }
  if (pattern.channels < 1 || pattern.channels > kMaxPatternChannels) {
    return absl::InvalidArgumentError(
        absl::StrFormat("wrinkle pattern: %d channels, expected 1..%d",
                        pattern.channels, kMaxPatternChannels));
  }
  const size_t expected =
      static_cast<size_t>(pattern.width) * pattern.height * pattern.channels;
  if (pattern.samples.size() != expected) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "wrinkle pattern: %d samples, expected %d (%d x %d texels x %d "
        "channels)",
        pattern.samples.size(), expected, pattern.width, pattern.height,
        pattern.channels));
  }
  for (size_t i = 0; i < expected; ++i) {
    const float h = pattern.samples[i];
    if (!std::isfinite(h) || h < -1.0f || h > 1.0f) {
      const size_t texel = i / pattern.channels;
      return absl::InvalidArgumentError(absl::StrFormat(
          "wrinkle pattern: texel (%d, %d) channel %d is %g, expected a "
          "finite height in [-1, 1]",
          texel % pattern.width, texel / pattern.width, i % pattern.channels,
          h));
    }
  }
  return absl::OkStatus();
}

float SamplePattern(const WrinklePattern& pattern, int channel,
                    const Eigen::Vector2f& uv) {
  assert(channel >= 0 && channel < pattern.channels);
  assert(std::abs(uv.x()) <= 1e4f && std::abs(uv.y()) <= 1e4f);
  // Texel centres sit at half-integers: shift so they land on integers.
  const float x = uv.x() * static_cast<float>(pattern.width) - 0.5f;
  const float y = uv.y() * static_cast<float>(pattern.height) - 0.5f;
  const float x_floor = std::floor(x);
  const float y_floor = std::floor(y);
  const float fx = x - x_floor;
  const float fy = y - y_floor;
  const int x0 =
      WrapTexel(static_cast<int>(x_floor), pattern.width, pattern.wrap);
  const int x1 =
      WrapTexel(static_cast<int>(x_floor) + 1, pattern.width, pattern.wrap);
  const int y0 =
      WrapTexel(static_cast<int>(y_floor), pattern.height, pattern.wrap);
  const int y1 =
      WrapTexel(static_cast<int>(y_floor) + 1, pattern.height, pattern.wrap);
  const auto at = [&](int tx, int ty) {
    return pattern.samples[(static_cast<size_t>(ty) * pattern.width + tx) *
                               pattern.channels +
                           channel];
  };
  const float bottom = at(x0, y0) + fx * (at(x1, y0) - at(x0, y0));
  const float top = at(x0, y1) + fx * (at(x1, y1) - at(x0, y1));
  return bottom + fy * (top - bottom);
}

Eigen::Vector2i SinusoidFrequency(double wavelength, int channel) {
  const double angle = std::numbers::pi / 3.0 * channel;
  Eigen::Vector2i f(
      static_cast<int>(std::lround(std::cos(angle) / wavelength)),
      static_cast<int>(std::lround(std::sin(angle) / wavelength)));
  if (f.isZero()) f.x() = 1;  // wavelength near 1 at 120 degrees: one cycle
  return f;
}

namespace {

// One channel's texels, wrapped or clamped as the pattern is, with its
// gradient per UV unit by central differences (a texel is 1 / width of u,
// 1 / height of v).
class ChannelTexels {
 public:
  ChannelTexels(const WrinklePattern& pattern, int channel)
      : pattern_(pattern), channel_(channel) {}

  double At(int x, int y) const {
    const int w = pattern_.width, h = pattern_.height;
    const bool repeat = pattern_.wrap == PatternWrap::kRepeat;
    x = repeat ? (x + w) % w : std::clamp(x, 0, w - 1);
    y = repeat ? (y + h) % h : std::clamp(y, 0, h - 1);
    return static_cast<double>(
        pattern_.samples[(static_cast<size_t>(y) * w + x) * pattern_.channels +
                         channel_]);
  }
  Eigen::Vector2d Gradient(int x, int y) const {
    return {0.5 * (At(x + 1, y) - At(x - 1, y)) * pattern_.width,
            0.5 * (At(x, y + 1) - At(x, y - 1)) * pattern_.height};
  }

 private:
  const WrinklePattern& pattern_;
  const int channel_;
};

}  // namespace

double PatternWavelength(const WrinklePattern& pattern, int channel) {
  const ChannelTexels texels(pattern, channel);
  double sum = 0, sum_squares = 0, gradient_squares = 0;
  for (int y = 0; y < pattern.height; ++y) {
    for (int x = 0; x < pattern.width; ++x) {
      const double value = texels.At(x, y);
      sum += value;
      sum_squares += value * value;
      gradient_squares += texels.Gradient(x, y).squaredNorm();
    }
  }
  const double n = static_cast<double>(pattern.width) * pattern.height;
  const double variance = sum_squares / n - (sum / n) * (sum / n);
  if (gradient_squares <= 0.0 || variance <= 0.0) return 0.0;
  return 2.0 * std::numbers::pi * std::sqrt(variance / (gradient_squares / n));
}

Eigen::Matrix2d PatternStructureTensor(const WrinklePattern& pattern,
                                       int channel) {
  const ChannelTexels texels(pattern, channel);
  Eigen::Matrix2d sum = Eigen::Matrix2d::Zero();
  for (int y = 0; y < pattern.height; ++y) {
    for (int x = 0; x < pattern.width; ++x) {
      const Eigen::Vector2d gradient = texels.Gradient(x, y);
      sum += gradient * gradient.transpose();
    }
  }
  return sum / (static_cast<double>(pattern.width) * pattern.height);
}

absl::StatusOr<WrinklePattern> MakeSinusoidPattern(
    const SinusoidPatternParams& params) {
  if (!(params.wavelength > 0.0 && params.wavelength <= 1.0)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "sinusoid pattern: wavelength %g UV units, expected (0, 1]",
        params.wavelength));
  }
  if (params.resolution < 4 || params.resolution > kMaxPatternSize) {
    return absl::InvalidArgumentError(
        absl::StrFormat("sinusoid pattern: resolution %d, expected 4..%d",
                        params.resolution, kMaxPatternSize));
  }
  if (params.wavelength * params.resolution < 4.0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "sinusoid pattern: wavelength %g at resolution %d is %g texels, "
        "expected at least 4",
        params.wavelength, params.resolution,
        params.wavelength * params.resolution));
  }
  if (params.channels < 1 || params.channels > kMaxPatternChannels) {
    return absl::InvalidArgumentError(
        absl::StrFormat("sinusoid pattern: %d channels, expected 1..%d",
                        params.channels, kMaxPatternChannels));
  }
  WrinklePattern pattern;
  pattern.width = pattern.height = params.resolution;
  pattern.channels = params.channels;
  pattern.samples.resize(static_cast<size_t>(params.resolution) *
                         params.resolution * params.channels);
  const double texel = 1.0 / params.resolution;
  size_t i = 0;
  for (int y = 0; y < params.resolution; ++y) {
    for (int x = 0; x < params.resolution; ++x) {
      const double u = (x + 0.5) * texel;
      const double v = (y + 0.5) * texel;
      for (int c = 0; c < params.channels; ++c) {
        const Eigen::Vector2i f = SinusoidFrequency(params.wavelength, c);
        pattern.samples[i++] = static_cast<float>(
            std::sin(2.0 * std::numbers::pi * (f.x() * u + f.y() * v)));
      }
    }
  }
  return pattern;
}

}  // namespace crease
