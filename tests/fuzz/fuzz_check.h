#ifndef CREASE_TESTS_FUZZ_FUZZ_CHECK_H_
#define CREASE_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>

// A fuzz target's assertion: stays on in release builds, and aborts so that
// libFuzzer saves the input and the replay test fails.
#define CREASE_FUZZ_CHECK(condition)                                  \
  do {                                                                \
    if (!(condition)) {                                               \
      std::fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, \
                   __LINE__, #condition);                             \
      std::abort();                                                   \
    }                                                                 \
  } while (0)

#endif  // CREASE_TESTS_FUZZ_FUZZ_CHECK_H_
