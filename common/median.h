#ifndef CREASE_COMMON_MEDIAN_H_
#define CREASE_COMMON_MEDIAN_H_

// The one median of reports, statistics and benchmarks.

#include <algorithm>
#include <vector>

namespace crease {

// The median of `values`: the middle one, or the mean of the two middle ones
// for an even count; 0 for none. Takes a copy, so the caller's order is
// kept; O(n).
template <typename T>
double Median(std::vector<T> values) {
  if (values.empty()) return 0;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  const double upper = static_cast<double>(values[mid]);
  if (values.size() % 2 == 1) return upper;
  return 0.5 * (upper + static_cast<double>(*std::max_element(
                            values.begin(), values.begin() + mid)));
}

}  // namespace crease

#endif  // CREASE_COMMON_MEDIAN_H_
