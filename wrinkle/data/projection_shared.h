// Gillette's smooth projection onto a wrinkle path (thesis Eq. 7.1-7.3),
// written once in the subset of C++ and GLSL both accept, like
// profile_shared.h: the renderer embeds it into its GLSL, the tests check it in
// C++.
//
// Euclidean closest-point projection onto a polyline jumps at the medial axis
// (seams in the offset). Instead the cell of segment v_i v_{i+1} is bounded by
// the bisector planes at its ends (normals s_i at v_i, s_{i+1} at v_{i+1}: the
// mean of the neighbouring segment directions), and p projects along the linear
// blend of the two normals: find alpha with
//   (v_i + alpha z0 - p) . ((1 - alpha) s_i + alpha s_{i+1}) = 0,  z0 = v_{i+1}
//   - v_i,
// i.e. a alpha^2 + b alpha + c = 0 with z1 = v_i - p and
//   a = z0.(s_{i+1} - s_i),  b = z0.s_i + z1.(s_{i+1} - s_i),  c = z1.s_i.
// p lies in the cell when the left side changes sign over [0, 1]; on a bisector
// both neighbouring segments give the shared vertex, so the projection is
// continuous across cells.

#ifndef CREASE_WRINKLE_DATA_PROJECTION_SHARED_H_
#define CREASE_WRINKLE_DATA_PROJECTION_SHARED_H_

#ifdef __cplusplus
#include <cmath>
#define CREASE_SQRT(x) std::sqrt(x)
#ifndef CREASE_SHARED_FN
#define CREASE_SHARED_FN inline
#endif
#else
#define CREASE_SQRT(x) sqrt(x)
#ifndef CREASE_SHARED_FN
#define CREASE_SHARED_FN
#endif
#endif

// The alpha in [0, 1] where a alpha^2 + b alpha + c = 0, or -1 when the
// polynomial has the same (non-zero) sign at both ends: p is outside the cell.
CREASE_SHARED_FN float VoronoiAlpha(float a, float b, float c) {
  float g1 = a + b + c;
  if (c == 0.0) return 0.0;
  if (g1 == 0.0) return 1.0;
  if ((c > 0.0) == (g1 > 0.0)) return -1.0;
  float abs_a = a < 0.0 ? -a : a;
  float abs_b = b < 0.0 ? -b : b;
  float abs_c = c < 0.0 ? -c : c;
  float alpha = 0.0;
  if (abs_a <= 1e-6 * (abs_b + abs_c)) {
    // Parallel bisectors: plain orthogonal projection. b != 0 here since the
    // sign changes over [0, 1].
    alpha = -c / b;
  } else {
    float disc = b * b - 4.0 * a * c;
    if (disc < 0.0) disc = 0.0;
    // Stable quadratic roots q / a and c / q.
    float q = -0.5 * (b + (b < 0.0 ? -1.0 : 1.0) * CREASE_SQRT(disc));
    float r0 = q / a;
    float r1 = q != 0.0 ? c / q : r0;
    // Exactly one root lies in [0, 1] (the sign changes once); rounding may put
    // it a hair outside, so take the one nearer the interval.
    float out0 = r0 < 0.0 ? -r0 : (r0 > 1.0 ? r0 - 1.0 : 0.0);
    float out1 = r1 < 0.0 ? -r1 : (r1 > 1.0 ? r1 - 1.0 : 0.0);
    alpha = out0 <= out1 ? r0 : r1;
  }
  return alpha < 0.0 ? 0.0 : (alpha > 1.0 ? 1.0 : alpha);
}

#endif  // CREASE_WRINKLE_DATA_PROJECTION_SHARED_H_
