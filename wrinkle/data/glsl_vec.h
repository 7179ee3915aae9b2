#ifndef CREASE_WRINKLE_DATA_GLSL_VEC_H_
#define CREASE_WRINKLE_DATA_GLSL_VEC_H_

// The few GLSL vector types and built-ins that the *_shared.h headers use, for
// C++, so a function written once in the C++/GLSL subset compiles in both:
// float vectors with GLSL's arithmetic, dot, length, max, mix. Only what the
// shared code needs; not a general vector library.

#include <cmath>

namespace crease::glsl {

struct vec3 {
  float x = 0, y = 0, z = 0;
  constexpr vec3() = default;
  constexpr vec3(float x_in, float y_in, float z_in)
      : x(x_in), y(y_in), z(z_in) {}
  constexpr explicit vec3(float s) : x(s), y(s), z(s) {}
};

constexpr vec3 operator+(vec3 a, vec3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
constexpr vec3 operator-(vec3 a, vec3 b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
constexpr vec3 operator-(vec3 a) { return {-a.x, -a.y, -a.z}; }
constexpr vec3 operator*(float s, vec3 a) {
  return {s * a.x, s * a.y, s * a.z};
}
constexpr vec3 operator*(vec3 a, float s) { return s * a; }
constexpr vec3 operator/(vec3 a, float s) {
  return {a.x / s, a.y / s, a.z / s};
}
constexpr vec3& operator+=(vec3& a, vec3 b) { return a = a + b; }
constexpr vec3& operator-=(vec3& a, vec3 b) { return a = a - b; }

constexpr float dot(vec3 a, vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline float length(vec3 a) { return std::sqrt(dot(a, a)); }
constexpr float max(float a, float b) { return a < b ? b : a; }
constexpr float min(float a, float b) { return b < a ? b : a; }
// GLSL's definition: x (1 - a) + y a.
constexpr float mix(float x, float y, float a) {
  return x * (1.0f - a) + y * a;
}
constexpr vec3 mix(vec3 x, vec3 y, float a) { return x * (1.0f - a) + y * a; }

}  // namespace crease::glsl

#endif  // CREASE_WRINKLE_DATA_GLSL_VEC_H_
