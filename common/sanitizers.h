#ifndef CREASE_COMMON_SANITIZERS_H_
#define CREASE_COMMON_SANITIZERS_H_

// CREASE_UNDER_ASAN and CREASE_UNDER_TSAN: whether this file is compiled with
// AddressSanitizer or ThreadSanitizer. GCC says so with __SANITIZE_ADDRESS__
// and __SANITIZE_THREAD__; clang 14 (the asan and fuzz presets) defines
// neither and answers __has_feature instead, so a test that asked GCC's
// macros alone ran its resident-memory checks under clang's ASan and failed.
#if defined(__SANITIZE_ADDRESS__)
#define CREASE_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CREASE_UNDER_ASAN 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define CREASE_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CREASE_UNDER_TSAN 1
#endif
#endif

#endif  // CREASE_COMMON_SANITIZERS_H_
