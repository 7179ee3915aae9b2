#ifndef CREASE_WRINKLE_WRINKLE_MAPS_WRINKLE_PATTERN_H_
#define CREASE_WRINKLE_WRINKLE_MAPS_WRINKLE_PATTERN_H_

// The fixed wrinkle heightmap of Volino & Magnenat-Thalmann 1999 (up to three
// patterns, one per channel), whose amplitude AmplitudeModel modulates. A
// plain struct so the server can fill it from a PNG and the renderer upload
// it as a texture; docs/algorithm.md, "Amplitude-modulated wrinkle maps".

#include <Eigen/Core>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace crease {

// What a UV outside [0, 1) reads.
enum class PatternWrap {
  kRepeat,       // the tile repeats (GL_REPEAT): the default
  kClampToEdge,  // the edge texels extend (GL_CLAMP_TO_EDGE)
};

// Heights h_c(uv) in [-1, 1], `channels` (1..3) interleaved per texel, rows
// of `width` texels: samples[(y * width + x) * channels + c]. Texel (x, y) is
// centred at uv = ((x + 0.5) / width, (y + 0.5) / height), so row 0 is v = 0,
// the bottom (OpenGL's first row; a PNG's first row is its top). Filtered
// bilinearly between texel centres, as GL_LINEAR does.
struct WrinklePattern {
  int width = 0;
  int height = 0;
  int channels = 0;
  std::vector<float> samples;
  PatternWrap wrap = PatternWrap::kRepeat;
};

inline constexpr int kMaxPatternChannels = 3;
// Per side; 4096^2 x 3 floats is 192 MiB, more than any wrinkle map needs.
inline constexpr int kMaxPatternSize = 4096;

// OK when 1 <= width, height <= kMaxPatternSize, 1 <= channels <= 3,
// samples.size() == width * height * channels and every sample is finite and
// in [-1, 1]; otherwise InvalidArgument naming the field and the numbers.
absl::Status ValidatePattern(const WrinklePattern& pattern);

// h_c(uv), bilinear with the pattern's wrap rule. Preconditions (checked in
// debug builds): a valid pattern, 0 <= channel < channels, |u|, |v| <= 1e4
// (texel indices stay within int).
float SamplePattern(const WrinklePattern& pattern, int channel,
                    const Eigen::Vector2f& uv);

// The procedural default: channel c is sin(2 pi (f_c . uv)), crests running
// across the direction at angle 60 c degrees from +u. Each frequency f_c is
// rounded to whole cycles per UV unit so the tile repeats without a seam;
// the actual angle and wavelength are within a few per cent of the asked
// ones for wavelengths <= 1/8 (SinusoidFrequency gives them).
struct SinusoidPatternParams {
  double wavelength = 1.0 / 16.0;  // in UV units, (0, 1]
  int resolution = 256;            // texels per side, 4..kMaxPatternSize
  int channels = 3;                // 1..3: the first `channels` angles
};

// InvalidArgument for a wavelength outside (0, 1], a resolution outside
// 4..kMaxPatternSize, fewer than 4 texels per wavelength, or channels outside
// 1..3.
// Channel `channel`'s wavelength in UV units, 2π sqrt(Var h / E|∇h|²) over
// the tile (∇ in UV units, central differences with the pattern's wrap):
// 1 / |f| for a sinusoid of f cycles per UV unit, and the wavelength of the
// sinusoid with the same RMS slope for any other pattern. 0 for a flat
// channel. Requires a valid pattern.
double PatternWavelength(const WrinklePattern& pattern, int channel);

// Channel `channel`'s structure tensor E[∇h ∇hᵀ] over the tile (∇ in UV
// units, central differences as PatternWavelength): which way its crests
// run. For a sinusoid of frequency f it is (2π)² f fᵀ / 2; for isotropic
// noise a multiple of the identity. Requires a valid pattern.
Eigen::Matrix2d PatternStructureTensor(const WrinklePattern& pattern,
                                       int channel);

absl::StatusOr<WrinklePattern> MakeSinusoidPattern(
    const SinusoidPatternParams& params);

// Whole cycles per UV unit along u and v of channel c's sinusoid: the
// direction at 60 c degrees scaled by 1 / wavelength, rounded (never both 0).
Eigen::Vector2i SinusoidFrequency(double wavelength, int channel);

}  // namespace crease

#endif  // CREASE_WRINKLE_WRINKLE_MAPS_WRINKLE_PATTERN_H_
