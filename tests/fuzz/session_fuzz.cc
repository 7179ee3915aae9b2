// Fuzzes a whole Session on small animated sheets (fuzzed_sheet.h). Each
// frame of finite positions must be accepted, and after it the outputs must
// satisfy CheckSessionOutputs.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "tests/fuzz/fuzz_input.h"
#include "tests/fuzz/fuzzed_sheet.h"
#include "tests/fuzz/session_invariants.h"
#include "wrinkle/sca2015/session.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace crease;
  fuzz::FuzzInput in(data, size);
  fuzz::FuzzedAnimation animation = fuzz::StartFuzzedAnimation(in);
  if (animation.session == nullptr) return 0;
  Session& session = *animation.session;
  std::vector<float> positions;
  size_t most_wrinkles = 0;
  for (int f = 0; f < animation.frames; ++f) {
    fuzz::MakeFrame(in, animation.sheet, positions);
    CREASE_FUZZ_CHECK(session.ProcessFrame(positions).ok());
    fuzz::CheckSessionOutputs(session);
    most_wrinkles =
        std::max(most_wrinkles, session.tracker().wrinkles().size());
  }
  // What the corpus reaches, for whoever curates it.
  if (std::getenv("CREASE_FUZZ_VERBOSE") != nullptr) {
    std::fprintf(stderr, "%d triangles, %d frames, up to %zu wrinkles\n",
                 session.num_triangles(), animation.frames, most_wrinkles);
  }
  return 0;
}
