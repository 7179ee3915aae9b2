#ifndef CREASE_TESTS_TESTING_TEMP_PATH_H_
#define CREASE_TESTS_TESTING_TEMP_PATH_H_

#include <string>
#include <string_view>

namespace crease::testing {

// A path under ::testing::TempDir() that no other test process shares. ctest
// runs every test case in a process of its own, many at once; two cases that
// write one fixed name (a parameterised test's instances, or the same test in
// two build trees) delete or overwrite each other's files. The process id in
// the name keeps them apart. The path is in a folder of the process's own
// (TempDir()/crease_<pid>_XXXXXX, made here by mkdtemp on the first call) and
// removed when the process exits normally; `name` may be a file or a folder
// the caller makes.
std::string TempPath(std::string_view name);

}  // namespace crease::testing

#endif  // CREASE_TESTS_TESTING_TEMP_PATH_H_
