#include "tests/testing/heap_allocations.h"

#include <atomic>
#include <cstdlib>
#include <new>

// GCC 12 cannot see that the replaced new and delete below pair malloc with
// free.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace crease::testing {

long HeapAllocations() { return g_allocations.load(std::memory_order_relaxed); }

}  // namespace crease::testing
