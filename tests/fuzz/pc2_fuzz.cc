// Fuzzes the PC2 parser. Whatever it accepts must write back to the same
// bytes: a valid PC2 has exactly one encoding (header, then the floats).

#include <cstdint>
#include <string_view>

#include "tests/fuzz/fuzz_check.h"
#include "wrinkle/io/pc2.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const absl::StatusOr<crease::io::PointCache> cache =
      crease::io::ParsePc2(bytes, "fuzz.pc2");
  if (!cache.ok()) {
    CREASE_FUZZ_CHECK(absl::IsInvalidArgument(cache.status()));
    return 0;
  }
  CREASE_FUZZ_CHECK(cache->num_points > 0 && cache->num_samples > 0);
  CREASE_FUZZ_CHECK(crease::io::FormatPc2(*cache) == bytes);
  return 0;
}
