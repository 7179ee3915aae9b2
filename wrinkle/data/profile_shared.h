// The wrinkle cross-section, written once in the subset of C++ and GLSL both
// accept so the CPU (wrinkle/outputs/wrinkle_lookup.cc) and the shaders
// evaluate the same curve. No includes, no std::, float only. The renderer
// embeds this file into its GLSL sources.
//
// A ridge with shoulders (docs/algorithm.md, "Shape"): with t = |x| / w
// (w = half the profile's support) and u = t^2,
//   f = h (1 - u)^2 (1 - 3u)   for t <= 1, else 0,
// peak h at t = 0, C1 everywhere, zero value and slope at t = 1. The ridge
// meets the surface at t = 1/sqrt(3) and the valley beside it (the cloth the
// ridge took from beside it) dips to -32/243 h (-0.132 h) at t = sqrt(5/9).
// The support is sqrt(3) times the fold's width (kSupportPerWidth,
// frame_wrinkles.h), so the ridge spans the fold's width and the valleys lie
// beyond it.

#ifndef CREASE_WRINKLE_DATA_PROFILE_SHARED_H_
#define CREASE_WRINKLE_DATA_PROFILE_SHARED_H_

#ifndef CREASE_SHARED_FN
#ifdef __cplusplus
#define CREASE_SHARED_FN inline
#else
#define CREASE_SHARED_FN
#endif
#endif

CREASE_SHARED_FN float WrinkleProfile(float t, float h) {
  float b = 3.0;
  float u = t * t;
  if (u >= 1.0) return 0.0;
  float v = 1.0 - u;
  return h * v * v * (1.0 - b * u);
}

// d f / d t (multiply by 1 / w for d f / d x), odd in t.
CREASE_SHARED_FN float WrinkleProfileSlope(float t, float h) {
  float b = 3.0;
  float u = t * t;
  if (u >= 1.0) return 0.0;
  float v = 1.0 - u;
  return -2.0 * h * t * v * (2.0 + b * (1.0 - 3.0 * u));
}

// The envelope (1 - u)^2, never negative: it weighs overlapping wrinkles'
// normals.
CREASE_SHARED_FN float WrinkleEnvelope(float t) {
  float u = t * t;
  if (u >= 1.0) return 0.0;
  return (1.0 - u) * (1.0 - u);
}

// |t| clamped to the support (the integrals are constant past it), and v
// with t's sign (they are odd).
CREASE_SHARED_FN float SupportAbs(float t) {
  float a = t < 0.0 ? -t : t;
  return a > 1.0 ? 1.0 : a;
}
CREASE_SHARED_FN float WithSignOf(float t, float v) { return t < 0.0 ? -v : v; }

// Integrals from 0 to t (odd in t, in half-supports) of the unit profile P
// (h = 1), of the envelope, of P^2 and of P'^2: box filtering any of
// them over an interval is a difference of two of these, exactly. With A =
// (1 - u)^2 and B = u (1 - u)^2, P = A - b B; P'^2 = C (16 + 16 b (1 - 3u) +
// 4 b^2 (1 - 3u)^2) with C = u (1 - u)^2, b = 3 (the forms are kept general
// in b so each term reads as its integral).
CREASE_SHARED_FN float WrinkleEnvelopeArea(float t) {
  float a = SupportAbs(t), u = a * a;
  float v = a * (1.0 - u * (2.0 / 3.0) + u * u * 0.2);
  return WithSignOf(t, v);
}
CREASE_SHARED_FN float WrinkleProfileArea(float t) {
  float b = 3.0;
  float a = SupportAbs(t), u = a * a;
  float area_a = a * (1.0 - u * (2.0 / 3.0) + u * u * 0.2);
  float area_b = a * u * (1.0 / 3.0 - u * 0.4 + u * u * (1.0 / 7.0));
  float v = area_a - b * area_b;
  return WithSignOf(t, v);
}
CREASE_SHARED_FN float WrinkleProfileSquareArea(float t) {
  float b = 3.0;
  float a = SupportAbs(t), u = a * a;
  // The integrals of u^k (1 - u)^4, k = 0, 1, 2.
  float aa =
      a *
      (1.0 + u * (-4.0 / 3.0 + u * (1.2 + u * (-4.0 / 7.0 + u * (1.0 / 9.0)))));
  float ab =
      a * u *
      (1.0 / 3.0 +
       u * (-0.8 + u * (6.0 / 7.0 + u * (-4.0 / 9.0 + u * (1.0 / 11.0)))));
  float bb =
      a * u * u *
      (0.2 + u * (-4.0 / 7.0 +
                  u * (2.0 / 3.0 + u * (-4.0 / 11.0 + u * (1.0 / 13.0)))));
  float v = aa - 2.0 * b * ab + b * b * bb;
  return WithSignOf(t, v);
}
CREASE_SHARED_FN float WrinkleSlopeSquareArea(float t) {
  float b = 3.0;
  float a = SupportAbs(t), u = a * a;
  // The integrals of C u^k, k = 0, 1, 2.
  float c0 = a * u * (1.0 / 3.0 + u * (-0.4 + u * (1.0 / 7.0)));
  float c1 = a * u * u * (0.2 + u * (-2.0 / 7.0 + u * (1.0 / 9.0)));
  float c2 = a * u * u * u * (1.0 / 7.0 + u * (-2.0 / 9.0 + u * (1.0 / 11.0)));
  float v = 16.0 * c0 + 16.0 * b * (c0 - 3.0 * c1) +
            4.0 * b * b * (c0 - 6.0 * c1 + 9.0 * c2);
  return WithSignOf(t, v);
}

#endif  // CREASE_WRINKLE_DATA_PROFILE_SHARED_H_
