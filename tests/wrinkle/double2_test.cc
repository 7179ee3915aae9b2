#include "wrinkle/core/double2.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace crease {
namespace {

double UlpsApart(double a, double b) {
  return std::abs(a - b) /
         (std::nextafter(b, std::numeric_limits<double>::infinity()) - b);
}

// Exp against std::exp: within 3 ulp over the whole normal range (the
// reduction's edges and large |x| included), 0 below it and for -inf.
TEST(Double2Test, ExpIsStdExpWithinThreeUlp) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> wide(-708.0, 709.0), near(-3.0, 3.0);
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double a = wide(rng), b = near(rng);
    const Double2 e = Exp(Double2{a, b});
    worst = std::max(
        {worst, UlpsApart(e[0], std::exp(a)), UlpsApart(e[1], std::exp(b))});
  }
  EXPECT_LE(worst, 3.0);
  for (double x : {0.0, 1.0, -1.0, 0.5 * std::log(2.0), -0.5 * std::log(2.0)}) {
    EXPECT_LE(UlpsApart(Exp(Broadcast(x))[0], std::exp(x)), 3.0) << x;
  }
  EXPECT_EQ(Exp(Broadcast(0.0))[0], 1.0);
  const Double2 below =
      Exp(Double2{-750.0, -std::numeric_limits<double>::infinity()});
  EXPECT_EQ(below[0], 0.0);
  EXPECT_EQ(below[1], 0.0);
  EXPECT_TRUE(std::isfinite(Exp(Broadcast(800.0))[0]));
}

TEST(Double2Test, AbsAndMaxAreLaneByLane) {
  const Double2 a = {-2.0, 3.0}, b = {1.0, 5.0};
  EXPECT_EQ(Abs(a)[0], 2.0);
  EXPECT_EQ(Abs(a)[1], 3.0);
  EXPECT_EQ(Max(a, b)[0], 1.0);
  EXPECT_EQ(Max(a, b)[1], 5.0);
}

}  // namespace
}  // namespace crease
