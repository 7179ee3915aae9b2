#ifndef CREASE_WRINKLE_CORE_DOUBLE2_H_
#define CREASE_WRINKLE_CORE_DOUBLE2_H_

// Two doubles in one SSE register (GCC's and Clang's vector extension; other
// targets get two scalar lanes), and the few functions per-triangle loops
// need on them: with sqrt and exp out of libm's scalar calls, a loop over
// triangles does two at a time.

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace crease {

using Double2 = double __attribute__((vector_size(16)));
using Int64x2 = int64_t __attribute__((vector_size(16)));

inline Double2 Broadcast(double x) { return Double2{x, x}; }

inline Double2 Abs(Double2 x) { return x < 0.0 ? -x : x; }

inline Double2 Max(Double2 a, Double2 b) { return a > b ? a : b; }

inline Double2 Sqrt(Double2 x) {
#if defined(__SSE2__)
  return _mm_sqrt_pd(x);
#else
  return Double2{std::sqrt(x[0]), std::sqrt(x[1])};
#endif
}

// |magnitude| with the sign of `sign`, lane by lane (as std::copysign).
inline Double2 CopySign(Double2 magnitude, Double2 sign) {
  constexpr int64_t kSignBit = static_cast<int64_t>(uint64_t{1} << 63);
  Int64x2 m, s;
  std::memcpy(&m, &magnitude, sizeof(m));
  std::memcpy(&s, &sign, sizeof(s));
  const Int64x2 bits = (m & ~kSignBit) | (s & kSignBit);
  Double2 result;
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}

// e^x in each lane, within 3 ulp of std::exp for x in [-708, 709] (tested
// against it); 0 below (std::exp's subnormals there, under 1e-307, are
// 0 to every caller), clamped to e^709 above. Cody-Waite reduction x = k ln2
// + r, |r| <= ln2 / 2, and e^r by its Taylor series to r^12 (the first term
// left out is under 2e-16 of the sum).
inline Double2 Exp(Double2 x) {
  constexpr double kInvLn2 = 1.4426950408889634;
  // ln 2 in two parts: k * kLn2Hi is exact for |k| < 2^11.
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  // 1.5 * 2^52: adding it rounds to an integer, which then sits in the low
  // bits of the sum.
  constexpr double kRound = 6755399441055744.0;
  const Double2 clamped = x < -708.0  ? Broadcast(-708.0)
                          : x > 709.0 ? Broadcast(709.0)
                                      : x;
  const Double2 shifted = clamped * kInvLn2 + kRound;
  const Double2 k = shifted - kRound;
  const Double2 r = (clamped - k * kLn2Hi) - k * kLn2Lo;
  // Horner, 1/12! down to 1/0!.
  Double2 p = Broadcast(1.0 / 479001600.0);
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  // 2^k from k's bits: the exponent field is k + 1023.
  Int64x2 k_bits, round_bits;
  const Double2 round = Broadcast(kRound);
  std::memcpy(&k_bits, &shifted, sizeof(k_bits));
  std::memcpy(&round_bits, &round, sizeof(round_bits));
  const Int64x2 exponent = (k_bits - round_bits + 1023) << 52;
  Double2 scale;
  std::memcpy(&scale, &exponent, sizeof(scale));
  const Double2 result = p * scale;
  return x < -708.0 ? Broadcast(0.0) : result;
}

}  // namespace crease

#endif  // CREASE_WRINKLE_CORE_DOUBLE2_H_
