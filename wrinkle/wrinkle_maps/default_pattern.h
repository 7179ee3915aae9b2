#ifndef CREASE_WRINKLE_WRINKLE_MAPS_DEFAULT_PATTERN_H_
#define CREASE_WRINKLE_WRINKLE_MAPS_DEFAULT_PATTERN_H_

// The wrinkle-map model's default pattern for a given mesh: the sinusoids of
// MakeSinusoidPattern at a wavelength chosen so the folds have the same size
// on the surface whatever the mesh's units and UV layout
// (docs/algorithm.md, "The default wavelength"). A fixed wavelength in UV
// units could not: the Fox's atlas packs the body so that 1/16 UV is 7 % of
// its diagonal on the surface, one crest per coarse edge, and the
// per-vertex amplitudes drew blotches, not folds.

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "wrinkle/io/triangle_mesh.h"
#include "wrinkle/wrinkle_maps/wrinkle_pattern.h"

namespace crease {

// The default pattern's wavelength on the surface, as a share of the
// bounding-box diagonal: about the spacing of SCA 2015's fold families (two
// fold widths; folds are 1-2 % of the diagonal wide at the default L_min).
inline constexpr double kDefaultWavelengthDiagonalShare = 0.03;
// The range a wavelength in UV units may take (the protocol's).
inline constexpr double kMinPatternWavelength = 1.0 / 256.0;
inline constexpr double kMaxPatternWavelength = 1.0;
// The longest default: up to 1/8 the sinusoids keep their angles and
// wavelengths within a few per cent (whole cycles per tile); a mesh whose UVs
// tile several times over it would ask for more.
inline constexpr double kMaxDefaultWavelength = 1.0 / 8.0;
// Where the mesh gives no scale (every edge degenerate in UV or in space).
inline constexpr double kFallbackPatternWavelength = 1.0 / 16.0;
// Texels per side of a default pattern at most: 1,024 is what the renderer
// holds (renderer::kMaxPatternMapSize), and still 4 texels a wavelength at
// kMinPatternWavelength.
inline constexpr int kMaxDefaultPatternSize = 1024;

// The wavelength in UV units that is kDefaultWavelengthDiagonalShare of the
// bounding-box diagonal of `positions` (xyz per vertex) on the surface,
// converted by the median over the triangles' edges of world length / UV
// length (`corner_uvs`: u v per corner, 6 floats per triangle; edges shorter
// than 1e-12 in UV or in space are left out), clamped to
// [kMinPatternWavelength, kMaxDefaultWavelength]; kFallbackPatternWavelength
// when no edge counts. Scaling the mesh leaves it unchanged; scaling the UVs
// scales it. InvalidArgument for sizes that do not match, an index out of
// range, or a non-finite position or UV.
absl::StatusOr<double> DefaultPatternWavelength(
    absl::Span<const io::Triangle> triangles, absl::Span<const float> positions,
    absl::Span<const float> corner_uvs);

// The default pattern's texels a wavelength, at least: enough that central
// differences read its slope within 5 % (sin x / x, x = 2π / 12) and bilinear
// filtering draws a smooth crest; more only costs a software rasteriser
// (llvmpipe drew the Fox's bump-mapped frame in 16.7, 19.1 and 25.8 ms with
// 256², 512² and 1,024² tiles).
inline constexpr double kDefaultTexelsPerWavelength = 12.0;

// Texels per side of the default pattern at `wavelength` (UV units, clamped
// to the range above): at least kDefaultTexelsPerWavelength a wavelength, a
// power of two in 64..kMaxDefaultPatternSize (so the tile repeats on whole
// texels).
int DefaultPatternSize(double wavelength);

// The default sinusoids at `wavelength`, DefaultPatternSize texels a side.
// InvalidArgument outside [kMinPatternWavelength, kMaxPatternWavelength].
absl::StatusOr<WrinklePattern> MakeDefaultPattern(double wavelength);

}  // namespace crease

#endif  // CREASE_WRINKLE_WRINKLE_MAPS_DEFAULT_PATTERN_H_
