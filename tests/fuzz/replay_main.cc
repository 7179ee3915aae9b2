// Runs a fuzz target over saved inputs, without libFuzzer: a build that has
// no fuzzing engine (GCC: the test preset) replays the checked-in corpus and
// every crash ever found, as a regression test.
//
//   <target> FILE_OR_DIRECTORY...
//
// Fails when a path holds no input, so a missing corpus cannot pass silently.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

int RunFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: cannot open\n", path.c_str());
    return 1;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  // A heap copy of exactly the input's size, so ASan sees reads past its end.
  std::vector<uint8_t> input(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(input.data(), input.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
    return 2;
  }
  int total = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path root(argv[i]);
    std::vector<std::filesystem::path> files;
    std::error_code error;
    if (std::filesystem::is_directory(root, error)) {
      for (const auto& entry :
           std::filesystem::recursive_directory_iterator(root)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(root);
    }
    if (files.empty()) {
      std::fprintf(stderr, "%s: no inputs\n", root.c_str());
      return 1;
    }
    for (const auto& file : files) {
      if (RunFile(file) != 0) return 1;
      ++total;
    }
  }
  std::printf("%d inputs ran without a crash\n", total);
  return 0;
}
