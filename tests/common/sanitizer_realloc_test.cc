// common/sanitizer_realloc.cc under ASan or TSan: realloc keeps a block while
// it grows within its room and keeps the contents when it moves; under ASan
// any byte past the size asked is still reported.
#include <cstdlib>
#include <cstring>

#include "common/sanitizers.h"
#include "gtest/gtest.h"

namespace {

constexpr size_t kKb = 1024;

volatile char g_sink;

// Through a volatile pointer, so that the compiler cannot see the block's size
// and UBSan's object-size check does not answer before ASan does.
char* Grow(char* block, size_t size) {
  char* volatile grown = static_cast<char*>(std::realloc(block, size));
  return grown;
}

TEST(SanitizerReallocTest, GrowthWithinTheRoomKeepsTheBlockAndItsContents) {
  char* block = static_cast<char*>(std::malloc(100 * kKb));
  ASSERT_NE(block, nullptr);
  std::memset(block, 7, 100 * kKb);
  block = Grow(block, 120 * kKb);  // moves, with room to 150 KB
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(block[100 * kKb - 1], 7);
  std::memset(block + 100 * kKb, 9, 20 * kKb);
  char* same = Grow(block, 150 * kKb);
  EXPECT_EQ(same, block) << "a growth within the room moved the block";
  EXPECT_EQ(same[0], 7);
  EXPECT_EQ(same[120 * kKb - 1], 9);
  same[150 * kKb - 1] = 1;  // the whole size asked is usable
  char* moved = Grow(same, 400 * kKb);
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved[0], 7);
  EXPECT_EQ(moved[110 * kKb], 9);
  EXPECT_EQ(moved[150 * kKb - 1], 1);
  moved[400 * kKb - 1] = 2;
  std::free(moved);
}

#if defined(CREASE_UNDER_ASAN)
TEST(SanitizerReallocDeathTest, UnderAsanABytePastTheSizeAskedIsReported) {
  EXPECT_DEATH(
      {
        char* block = Grow(nullptr, 100 * kKb);
        block = Grow(block, 120 * kKb);  // room to 150 KB
        block = Grow(block, 130 * kKb);  // within it: the same block
        g_sink = block[130 * kKb + 8];
      },
      "AddressSanitizer: use-after-poison");
  EXPECT_DEATH(
      {
        char* block = Grow(nullptr, 100 * kKb);
        block = Grow(block, 120 * kKb);
        block = Grow(block, 70 * kKb);  // shrunk in place
        g_sink = block[100 * kKb];
      },
      "AddressSanitizer: use-after-poison");
}
#endif

}  // namespace
