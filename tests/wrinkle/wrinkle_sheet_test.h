#ifndef CREASE_TESTS_WRINKLE_WRINKLE_SHEET_TEST_H_
#define CREASE_TESTS_WRINKLE_WRINKLE_SHEET_TEST_H_

// Shared scenes for the wrinkle tests: a 1 x 1 sheet in the XZ plane, squeezed.

#include <Eigen/Core>
#include <cmath>
#include <vector>

#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::testing {

// x' = R(theta) diag(scale, 1) R(theta)^T x in the XZ plane, for x < split only
// (the rest is carried along rigidly, so it stays uncompressed). split >= 1:
// everywhere.
inline void SqueezeSheet(const io::TriangleMesh& sheet, double scale,
                         double theta, double split, std::vector<float>* out) {
  out->resize(sheet.positions.size());
  const double c = std::cos(theta), s = std::sin(theta);
  auto squeeze = [&](double x, double z, double* rx, double* rz) {
    const double u = c * x + s * z, v = -s * x + c * z;  // R^T
    const double su = scale * u;
    *rx = c * su - s * v;
    *rz = s * su + c * v;
  };
  for (int i = 0; i < sheet.num_vertices(); ++i) {
    const double x = sheet.positions[3 * i], z = sheet.positions[3 * i + 2];
    double rx, rz;
    if (x <= split) {
      squeeze(x, z, &rx, &rz);
    } else {
      double sx, sz;
      squeeze(split, z, &sx, &sz);
      rx = sx + (x - split);
      rz = sz;
    }
    (*out)[3 * i] = static_cast<float>(rx);
    (*out)[3 * i + 1] = 0.0f;
    (*out)[3 * i + 2] = static_cast<float>(rz);
  }
}

// The rest sheet, then the sheet squeezed to kSqueeze in one frame (the labels
// say Compress) and held still for `hold` more frames, so wrinkles are seeded
// on a still surface and their spacing is not squeezed afterwards.
inline constexpr double kSqueeze = 0.59;
inline std::vector<std::vector<float>> SqueezeThenHold(
    const io::TriangleMesh& sheet, double split, int hold) {
  std::vector<std::vector<float>> frames(2 + hold);
  SqueezeSheet(sheet, 1.0, 0.0, split, &frames[0]);
  for (int k = 1; k < 2 + hold; ++k)
    SqueezeSheet(sheet, kSqueeze, 0.0, split, &frames[k]);
  return frames;
}

}  // namespace crease::testing

#endif  // CREASE_TESTS_WRINKLE_WRINKLE_SHEET_TEST_H_
