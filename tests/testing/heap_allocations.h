#ifndef CREASE_TESTS_TESTING_HEAP_ALLOCATIONS_H_
#define CREASE_TESTS_TESTING_HEAP_ALLOCATIONS_H_

// The number of heap allocations (operator new) this process has made, for
// tests that check a per-frame path makes none. Linking crease_heap_count
// replaces the global operator new and delete of the whole test binary.

namespace crease::testing {

long HeapAllocations();

}  // namespace crease::testing

#endif  // CREASE_TESTS_TESTING_HEAP_ALLOCATIONS_H_
