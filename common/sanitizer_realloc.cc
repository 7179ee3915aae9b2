// realloc with geometric growth for the ASan + UBSan and the TSan builds,
// linked into every executable of them (CMakeLists.txt).
//
// Why: llvmpipe's tessellation grows its output array with one realloc per
// patch. A sanitizer's realloc always allocates anew and copies, and a block
// over 128 KB is a fresh mmap each time, so a draw of a few thousand patches
// made ~48,000 mmaps and copied quadratically: a test drawing the knee took
// 43 s under ASan and 88 s under TSan against 0.7 s without either
// (docs/benchmarks.md, "Compile time of the presets"). glibc grows such blocks
// in place or with mremap.
//
// How: a block that grows past 64 KB gets 1.5 times what was asked, and later
// growth within that room returns the same block. Under ASan every byte past
// the size asked stays out of bounds: the room is poisoned, and unpoisoned
// only as far as each realloc asks (an access there reads as
// use-after-poison). Only this executable's symbol is replaced (the
// sanitizers' realloc is weak, in GCC's runtimes and in clang's alike);
// malloc, calloc and free stay the sanitizer's.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/sanitizers.h"
#if defined(CREASE_UNDER_ASAN)
#include <sanitizer/asan_interface.h>
#elif !defined(CREASE_UNDER_TSAN)
#error "sanitizer_realloc.cc is for -fsanitize=address or =thread builds only"
#endif

// Both runtimes export these (GCC 12 ships no header for the second).
extern "C" void* __interceptor_realloc(void* block, size_t size);
extern "C" size_t __sanitizer_get_allocated_size(const volatile void* block);

namespace {

// Below this a block lives in the sanitizer's size classes, where growth is
// cheap.
constexpr size_t kGeometricFrom = 64 * 1024;

// Under ASan, marks [size, capacity) of a block out of bounds and [0, size)
// in bounds. TSan checks no bounds.
void LimitTo([[maybe_unused]] void* block, [[maybe_unused]] size_t size,
             [[maybe_unused]] size_t capacity) {
#if defined(CREASE_UNDER_ASAN)
  auto* bytes = static_cast<uint8_t*>(block);
  __asan_unpoison_memory_region(bytes, size);
  __asan_poison_memory_region(bytes + size, capacity - size);
#endif
}

}  // namespace

// Not instrumented by TSan: glibc calls realloc while a thread starts, before
// TSan has set the thread up, and an instrumented function's entry hook
// crashed there.
extern "C" __attribute__((no_sanitize("thread"))) void* realloc(void* block,
                                                                size_t size) {
  if (block == nullptr || size < kGeometricFrom) {
    // A fresh block, a free (size 0) or a small one: the sanitizer's own,
    // which also drops any room an earlier growth left (it copies what was
    // asked into a block of that size).
    return __interceptor_realloc(block, size);
  }
  const size_t capacity = __sanitizer_get_allocated_size(block);
  if (size <= capacity) {
    LimitTo(block, size, capacity);
    return block;
  }
  const size_t grown = std::max(size, capacity + capacity / 2);
  void* moved = __interceptor_realloc(block, grown);
  if (moved != nullptr) LimitTo(moved, size, grown);
  return moved;
}
