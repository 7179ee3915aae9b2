#ifndef CREASE_TESTS_FUZZ_FUZZ_INPUT_H_
#define CREASE_TESTS_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>

namespace crease::fuzz {

// Reads a fuzzer's bytes front to back; past the end every read is 0, so any
// input, even an empty one, decodes to a valid test case.
class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t Byte() { return next_ < size_ ? data_[next_++] : 0; }
  // In [0, n).
  int Below(int n) { return Byte() % n; }
  bool exhausted() const { return next_ >= size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t next_ = 0;
};

}  // namespace crease::fuzz

#endif  // CREASE_TESTS_FUZZ_FUZZ_INPUT_H_
