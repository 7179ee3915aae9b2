#ifndef CREASE_TESTS_TESTING_BUNDLED_PATH_H_
#define CREASE_TESTS_TESTING_BUNDLED_PATH_H_

// Where the sample animations bundled in data/ are (see data/README.md), for
// tests and benchmarks. No GoogleTest: the benchmarks link it too.

#include <string>
#include <string_view>

namespace crease::testing {

// The path of `file` in data/: BundledPath("fox_walk.obj").
std::string BundledPath(std::string_view file);

}  // namespace crease::testing

#endif  // CREASE_TESTS_TESTING_BUNDLED_PATH_H_
