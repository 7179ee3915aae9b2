// realloc with geometric growth for the ASan + UBSan build, linked into every
// executable of it (CMakeLists.txt, CREASE_SANITIZE).
//
// Why: llvmpipe's tessellation grows its output array with one realloc per
// patch. ASan's realloc always allocates anew and copies, and a block over
// 128 KB is a fresh mmap each time, so a draw of a few thousand patches made
// ~48,000 mmaps and copied quadratically: a test drawing the knee took 43 s
// under ASan against 1.2 s without it (docs/benchmarks.md, "Compile time of
// the presets"). glibc grows such blocks in place or with mremap.
//
// How: a block that grows past 64 KB gets 1.5 times what was asked, and later
// growth within that room returns the same block. ASan still sees every byte
// past the size asked as out of bounds: the room is poisoned, and unpoisoned
// only as far as each realloc asks. Only this executable's symbol is replaced
// (ASan's realloc is weak, in GCC's libasan and in clang's runtime alike);
// malloc, calloc and free stay ASan's.
#include <sanitizer/allocator_interface.h>
#include <sanitizer/asan_interface.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

// GCC says __SANITIZE_ADDRESS__; clang 14 answers __has_feature instead.
#if defined(__SANITIZE_ADDRESS__)
#define CREASE_ASAN_REALLOC_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CREASE_ASAN_REALLOC_BUILD 1
#endif
#endif
#if !defined(CREASE_ASAN_REALLOC_BUILD)
#error "asan_realloc.cc is for -fsanitize=address builds only"
#endif

extern "C" void* __interceptor_realloc(void* block, size_t size);

namespace {

// Below this a block lives in ASan's size classes, where growth is cheap.
constexpr size_t kGeometricFrom = 64 * 1024;

// Marks [size, capacity) of a block out of bounds and [0, size) in bounds.
void LimitTo(void* block, size_t size, size_t capacity) {
  auto* bytes = static_cast<uint8_t*>(block);
  __asan_unpoison_memory_region(bytes, size);
  __asan_poison_memory_region(bytes + size, capacity - size);
}

}  // namespace

extern "C" void* realloc(void* block, size_t size) {
  if (block == nullptr || size < kGeometricFrom) {
    // A fresh block, a free (size 0) or a small one: ASan's own, which also
    // clears any room an earlier growth poisoned (it copies what was asked).
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
