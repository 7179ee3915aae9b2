#ifndef CREASE_COMMON_STOPWATCH_H_
#define CREASE_COMMON_STOPWATCH_H_

#include <chrono>

namespace crease {

// Wall time of a stage, for the per-frame timings.
class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  // Milliseconds since construction or the last Lap(), and restarts.
  double Lap() {
    const auto now = std::chrono::steady_clock::now();
    const double ms =
        std::chrono::duration<double, std::milli>(now - start_).count();
    start_ = now;
    return ms;
  }
  // Milliseconds since construction or the last Lap(), without restarting
  // (safe to read from several threads).
  double Elapsed() const {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace crease

#endif  // CREASE_COMMON_STOPWATCH_H_
