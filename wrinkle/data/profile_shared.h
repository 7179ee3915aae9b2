// The wrinkle cross-section, written once in the subset of C++ and GLSL both
// accept so the CPU (wrinkle/sca2015/shape.cc) and the shaders evaluate the
// same curve. No includes, no std::, float only. The renderer embeds this file
// into its GLSL sources.
//
// A uniform quadratic B-spline bump (Gillette 2015, §6.1): support |x| <= w (w
// = half the wrinkle width), peak h at x = 0, C1 everywhere, zero value and
// slope at |x| = w. With t = |x| / w:  f = h (1 - 3 t^2) for t <= 1/3,  f = 1.5
// h (1 - t)^2 for t <= 1.

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
  float a = t < 0.0 ? -t : t;
  if (a >= 1.0) return 0.0;
  if (a <= 1.0 / 3.0) return h * (1.0 - 3.0 * a * a);
  return 1.5 * h * (1.0 - a) * (1.0 - a);
}

// d f / d t (multiply by 1 / w for d f / d x), odd in t.
CREASE_SHARED_FN float WrinkleProfileSlope(float t, float h) {
  float a = t < 0.0 ? -t : t;
  float s = t < 0.0 ? -1.0 : 1.0;
  if (a >= 1.0) return 0.0;
  if (a <= 1.0 / 3.0) return s * (-6.0 * h * a);
  return s * (-3.0 * h * (1.0 - a));
}

#endif  // CREASE_WRINKLE_DATA_PROFILE_SHARED_H_
