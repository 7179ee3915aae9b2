#include "tests/testing/bundled_data.h"

#include <string>
#include <string_view>
#include <utility>

#include "gtest/gtest.h"
#include "wrinkle/io/animation.h"

namespace crease::testing {

io::Animation LoadBundled(std::string_view name) {
  const std::string stem = BundledPath(name);
  auto animation = io::ReadAnimation(stem + ".obj", stem + ".pc2");
  EXPECT_TRUE(animation.ok()) << animation.status();
  return animation.ok() ? *std::move(animation) : io::Animation{};
}

}  // namespace crease::testing
