#include "client/cli/stream_summary.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace crease::client {
namespace {

TEST(StreamSummaryTest, PercentilesAreNearestRank) {
  StreamSummary s;
  v1::FrameResult ok;
  for (int i = 1; i <= 100; ++i) s.Add(ok, i);
  EXPECT_EQ(s.LatencyPercentile(50), 50);
  EXPECT_EQ(s.LatencyPercentile(99), 99);
  EXPECT_EQ(s.LatencyPercentile(100), 100);
  EXPECT_EQ(s.LatencyPercentile(0), 1);
  EXPECT_EQ(StreamSummary().LatencyPercentile(50), 0);
}

TEST(StreamSummaryTest, CountsWrinklesAndErrors) {
  StreamSummary s;
  v1::FrameResult two;
  two.add_wrinkles();
  two.add_wrinkles();
  v1::FrameResult error;
  error.mutable_error()->set_code(3);
  s.Add(two, 1);
  s.Add(error, 2);
  EXPECT_EQ(s.frames, 2);
  EXPECT_EQ(s.frame_errors, 1);
  EXPECT_EQ(s.wrinkles_max, 2);
  EXPECT_THAT(SummaryJson(s), ::testing::HasSubstr("\"wrinkles_mean\":2.000"));
}

// The largest input noise the server read is kept and reported; the table
// says so only above the server's 1 % floor.
TEST(StreamSummaryTest, ReportsTheInputNoise) {
  StreamSummary s;
  v1::FrameResult result;
  result.set_input_noise(0.004f);
  s.Add(result, 1);
  EXPECT_THAT(SummaryTable(s), ::testing::Not(::testing::HasSubstr("noise")));
  result.set_input_noise(0.031f);
  s.Add(result, 1);
  result.set_input_noise(0.02f);
  s.Add(result, 1);
  EXPECT_FLOAT_EQ(s.input_noise_max, 0.031f);
  EXPECT_THAT(SummaryJson(s),
              ::testing::HasSubstr("\"input_noise_max\":0.0310"));
  EXPECT_THAT(SummaryTable(s),
              ::testing::HasSubstr("input noise: up to 3.1 % of an edge"));
}

TEST(StreamSummaryTest, NamesTheServerVersionAndParametersHash) {
  StreamSummary s;
  s.session_id = "s-1";
  s.server_version = "0.1.0";
  s.parameters_hash = "0123456789abcdef";
  EXPECT_THAT(SummaryJson(s),
              ::testing::HasSubstr("\"server_version\":\"0.1.0\","
                                   "\"parameters_hash\":\"0123456789abcdef\""));
  EXPECT_THAT(SummaryTable(s),
              ::testing::HasSubstr(
                  "session s-1 (server 0.1.0, parameters 0123456789abcdef)"));
}

TEST(StreamSummaryTest, WrinkleLineHasPointsWidthsAndHeights) {
  v1::FrameResult result;
  result.set_index(7);
  v1::Wrinkle* w = result.add_wrinkles();
  w->set_id(3);
  w->set_age(2);
  for (float v : {0.f, 1.f, 2.f, 3.f, 4.f, 5.f}) w->add_points(v);
  w->add_widths(0.5f);
  w->add_widths(0.25f);
  w->add_heights(0.1f);
  w->add_heights(0.f);
  std::string line;
  AppendWrinklesJsonLine(result, &line);
  EXPECT_EQ(
      line,
      "{\"frame\":7,\"wrinkles\":[{\"id\":3,\"age\":2,\"points\":[[0,1,2],"
      "[3,4,5]],\"widths\":[0.5,0.25],\"heights\":[0.1,0]}]}\n");
}

}  // namespace
}  // namespace crease::client
