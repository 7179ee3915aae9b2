#include "wrinkle/wrinkle_maps/default_pattern.h"

#include <Eigen/Core>
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace crease {
namespace {

absl::Status CheckSizes(absl::Span<const io::Triangle> triangles,
                        absl::Span<const float> positions,
                        absl::Span<const float> corner_uvs) {
  if (positions.size() % 3 != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "default pattern: %d position floats, not xyz per vertex",
        positions.size()));
  }
  if (corner_uvs.size() != 6 * triangles.size()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "default pattern: %d corner UV floats for %d triangles, need %d",
        corner_uvs.size(), triangles.size(), 6 * triangles.size()));
  }
  const int64_t vertices = static_cast<int64_t>(positions.size() / 3);
  for (size_t t = 0; t < triangles.size(); ++t) {
    for (int32_t v : triangles[t]) {
      if (v < 0 || v >= vertices) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "default pattern: triangle %d names vertex %d of %d", t, v,
            vertices));
      }
    }
  }
  for (size_t i = 0; i < positions.size(); ++i) {
    if (!std::isfinite(positions[i])) {
      return absl::InvalidArgumentError(
          absl::StrFormat("default pattern: vertex %d is not finite", i / 3));
    }
  }
  for (size_t i = 0; i < corner_uvs.size(); ++i) {
    if (!std::isfinite(corner_uvs[i])) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "default pattern: triangle %d's corner UV is not finite", i / 6));
    }
  }
  return absl::OkStatus();
}

double BoundingDiagonal(absl::Span<const float> positions) {
  if (positions.empty()) return 0.0;
  Eigen::Vector3d low =
      Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
  Eigen::Vector3d high = -low;
  for (size_t i = 0; i < positions.size(); i += 3) {
    const Eigen::Vector3d p(positions[i], positions[i + 1], positions[i + 2]);
    low = low.cwiseMin(p);
    high = high.cwiseMax(p);
  }
  return (high - low).norm();
}

}  // namespace

absl::StatusOr<double> DefaultPatternWavelength(
    absl::Span<const io::Triangle> triangles, absl::Span<const float> positions,
    absl::Span<const float> corner_uvs) {
  if (absl::Status s = CheckSizes(triangles, positions, corner_uvs); !s.ok()) {
    return s;
  }
  // World length per UV unit, per triangle side: an edge shared by two
  // triangles counts twice, which a median does not mind.
  std::vector<double> world_per_uv;
  world_per_uv.reserve(3 * triangles.size());
  for (size_t t = 0; t < triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const int a = triangles[t][k], b = triangles[t][(k + 1) % 3];
      const Eigen::Vector3d pa(positions[3 * a], positions[3 * a + 1],
                               positions[3 * a + 2]);
      const Eigen::Vector3d pb(positions[3 * b], positions[3 * b + 1],
                               positions[3 * b + 2]);
      const size_t i = 6 * t + 2 * k, j = 6 * t + 2 * ((k + 1) % 3);
      const double uv =
          std::hypot(double{corner_uvs[j]} - corner_uvs[i],
                     double{corner_uvs[j + 1]} - corner_uvs[i + 1]);
      const double world = (pb - pa).norm();
      if (uv > 1e-12 && world > 1e-12) world_per_uv.push_back(world / uv);
    }
  }
  const double diagonal = BoundingDiagonal(positions);
  if (world_per_uv.empty() || !(diagonal > 0.0)) {
    return kFallbackPatternWavelength;
  }
  const auto middle = world_per_uv.begin() + world_per_uv.size() / 2;
  std::nth_element(world_per_uv.begin(), middle, world_per_uv.end());
  const double wavelength =
      kDefaultWavelengthDiagonalShare * diagonal / *middle;
  return std::clamp(wavelength, kMinPatternWavelength, kMaxDefaultWavelength);
}

absl::StatusOr<WrinklePattern> MakeDefaultPattern(double wavelength) {
  if (!(wavelength >= kMinPatternWavelength &&
        wavelength <= kMaxPatternWavelength)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "default pattern: wavelength %g is outside [1/256, 1]", wavelength));
  }
  SinusoidPatternParams params;
  params.wavelength = wavelength;
  params.resolution = DefaultPatternSize(wavelength);
  return MakeSinusoidPattern(params);
}

int DefaultPatternSize(double wavelength) {
  if (!(wavelength >= kMinPatternWavelength)) {  // NaN too
    wavelength = kMinPatternWavelength;
  }
  wavelength = std::min(wavelength, kMaxPatternWavelength);
  const auto wanted = static_cast<unsigned>(
      std::ceil(kDefaultTexelsPerWavelength / wavelength));
  return std::clamp(static_cast<int>(std::bit_ceil(wanted)), 64,
                    kMaxDefaultPatternSize);
}

}  // namespace crease
