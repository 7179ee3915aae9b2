#ifndef CREASE_TESTS_TESTING_BUNDLED_DATA_H_
#define CREASE_TESTS_TESTING_BUNDLED_DATA_H_

// The sample animations bundled in data/ (see data/README.md), for tests and
// benchmarks.

#include <string>
#include <string_view>

#include "tests/testing/bundled_path.h"
#include "wrinkle/io/animation.h"

namespace crease::testing {

// data/NAME.obj and data/NAME.pc2 (NAME like "fox_walk"). If they do not load:
// a non-fatal test failure with the status, and an empty Animation (no frames,
// no triangles).
io::Animation LoadBundled(std::string_view name);

}  // namespace crease::testing

#endif  // CREASE_TESTS_TESTING_BUNDLED_DATA_H_
