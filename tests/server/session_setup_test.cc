// ValidateStart on its own (no server): what it keeps of a Start's UVs.

#include "server/session_setup.h"

#include <cstdint>
#include <limits>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace crease::server {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

// Two triangles of a unit quad, UVs per corner with a seam (vertices 0 and 2
// have other UVs in the second triangle).
v1::Start QuadStart() {
  v1::Start start;
  v1::Topology* topology = start.mutable_topology();
  topology->set_vertex_count(4);
  for (uint32_t v : {0, 1, 2, 0, 2, 3}) topology->add_triangles(v);
  for (float x : {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}) {
    topology->add_rest_positions(x);
  }
  for (float uv : {0.0f, 0.0f, 0.5f, 0.0f, 0.5f, 1.0f,  //
                   0.6f, 0.1f, 1.0f, 0.9f, 0.6f, 0.9f}) {
    topology->add_corner_uvs(uv);
  }
  return start;
}

TEST(SessionSetupTest, KeepsCornerUvsAsSent) {
  const v1::Start start = QuadStart();
  const auto setup = ValidateStart(start, ServerLimits(), false);
  ASSERT_TRUE(setup.ok()) << setup.status();
  EXPECT_THAT(setup->corner_uvs,
              ElementsAreArray(start.topology().corner_uvs()));
}

TEST(SessionSetupTest, NoCornerUvsIsValidAndKeepsNone) {
  v1::Start start = QuadStart();
  start.mutable_topology()->clear_corner_uvs();
  const auto setup = ValidateStart(start, ServerLimits(), false);
  ASSERT_TRUE(setup.ok()) << setup.status();
  EXPECT_TRUE(setup->corner_uvs.empty());
}

TEST(SessionSetupTest, CornerUvsOfTheWrongCountNameBothCounts) {
  v1::Start start = QuadStart();
  start.mutable_topology()->mutable_corner_uvs()->RemoveLast();
  const auto setup = ValidateStart(start, ServerLimits(), false);
  EXPECT_TRUE(absl::IsInvalidArgument(setup.status()));
  EXPECT_THAT(setup.status().message(),
              HasSubstr("start.topology.corner_uvs: 11 floats, need 2 x 6 "
                        "triangle corners = 12"));
}

TEST(SessionSetupTest, NonFiniteCornerUvNamesItsTriangleAndCorner) {
  struct Case {
    int index;
    float value;
    const char* message;
  };
  const float inf = std::numeric_limits<float>::infinity();
  for (const Case& c : {Case{0, inf, "triangle 0 corner 0 is not finite"},
                        Case{3, -inf, "triangle 0 corner 1 is not finite"},
                        Case{11, std::numeric_limits<float>::quiet_NaN(),
                             "triangle 1 corner 2 is not finite"}}) {
    v1::Start start = QuadStart();
    start.mutable_topology()->set_corner_uvs(c.index, c.value);
    const auto setup = ValidateStart(start, ServerLimits(), false);
    EXPECT_TRUE(absl::IsInvalidArgument(setup.status())) << c.index;
    EXPECT_THAT(
        setup.status().message(),
        HasSubstr(std::string("start.topology.corner_uvs: ") + c.message));
  }
}

}  // namespace
}  // namespace crease::server
