#include "wrinkle/cli/analysis_report.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace crease::cli {
namespace {

using ::testing::HasSubstr;

AnalysisReport ThreeFrames() {
  AnalysisReport report;
  report.obj_path = "a \"quoted\".obj";
  report.pc2_path = "a.pc2";
  for (int i = 0; i < 4; ++i) {
    FrameReport f;
    f.frame = i;
    f.flicker = 0.1 * i;
    f.argmin_flicker = 0.2 * i;
    f.max_compression = 1.0 + i;
    f.timings.tensors_ms = i;
    f.timings.labeling_ms = 2 * i;
    f.timings.reference_ms = 0.5;
    report.frames.push_back(f);
  }
  return report;
}

TEST(AnalysisReportTest, SummarySkipsInitialisationFrames) {
  const ReportSummary s = Summarize(ThreeFrames());
  // Flicker from frame 2 on: (0.2 + 0.3) / 2 and (0.4 + 0.6) / 2.
  EXPECT_DOUBLE_EQ(s.mean_flicker, 0.25);
  EXPECT_DOUBLE_EQ(s.mean_argmin_flicker, 0.5);
  EXPECT_DOUBLE_EQ(s.peak_compression, 4.0);
  // Timings from frame 1 on: tensors {1, 2, 3}, totals {3.5, 6.5, 9.5}.
  EXPECT_DOUBLE_EQ(s.median_tensors_ms, 2.0);
  EXPECT_DOUBLE_EQ(s.median_total_ms, 6.5);
}

// Parsed back: the path with its quotes, every frame, the summary's numbers.
TEST(AnalysisReportTest, JsonEscapesPathsAndListsEveryFrame) {
  const nlohmann::json json =
      nlohmann::json::parse(FormatReportJson(ThreeFrames()));
  EXPECT_EQ(json["obj"], "a \"quoted\".obj");
  ASSERT_EQ(json["frames"].size(), 4u);  // frame 0 and the three after
  EXPECT_EQ(json["frames"][3]["frame"], 3);
  EXPECT_DOUBLE_EQ(json["summary"]["mean_flicker"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(json["summary"]["median_total_ms"].get<double>(), 6.5);
}

TEST(AnalysisReportTest, JsonAndTableCarryTheSharpestTurn) {
  AnalysisReport report = ThreeFrames();
  report.wrinkle_stats.median_sharpest_turn = 37.25;
  const nlohmann::json json = nlohmann::json::parse(FormatReportJson(report));
  EXPECT_DOUBLE_EQ(json["summary"]["median_sharpest_turn"].get<double>(),
                   37.25);
  EXPECT_THAT(FormatReportTable(report), HasSubstr("sharpest turn 37 deg"));
}

// The table's columns are what their header names: a frame with 7 wrinkles,
// 2 born and 1 died prints them under "wrinkles", "born" and "died", each
// number ending where its header word ends.
TEST(AnalysisReportTest, TableColumnsAreWhatTheHeaderNames) {
  AnalysisReport report = ThreeFrames();
  report.frames[2].wrinkles = 7;
  report.frames[2].births = 2;
  report.frames[2].deaths = 1;
  const std::string table = FormatReportTable(report);
  const size_t header_at = table.find("frame  compress");
  ASSERT_NE(header_at, std::string::npos);
  const std::string header =
      table.substr(header_at, table.find('\n', header_at) - header_at);
  const size_t row_at = table.find("\n    2 ", header_at) + 1;
  const std::string row =
      table.substr(row_at, table.find('\n', row_at) - row_at);
  for (const auto& [word, value] :
       {std::pair<std::string, char>{"wrinkles", '7'},
        {"born", '2'},
        {"died", '1'}}) {
    const size_t end = header.find(" " + word + " ") + word.size();
    ASSERT_LT(end, row.size()) << word;
    EXPECT_EQ(row[end], value) << word << "\n" << header << "\n" << row;
  }
}

// Two triangles, four frames, frame-major. Offline flips one triangle
// between frames 1 and 2 and none after; online flips at 2 and 3.
TEST(AnalysisReportTest, OfflineComparisonCountsFlickerAndAgreement) {
  constexpr Label C = Label::kCompress, R = Label::kRest;
  const std::vector<Label> offline = {R, R, R, C, C, C, C, C};
  const std::vector<Label> online = {R, R, R, C, R, C, C, C};
  AnalysisReport report;
  CompareOffline(online, offline, 2, &report.offline);
  EXPECT_TRUE(report.offline.run);
  // Frames 2 and 3 against their previous: 1 of 2, then 0 of 2.
  EXPECT_DOUBLE_EQ(report.offline.mean_flicker, 0.25);
  EXPECT_DOUBLE_EQ(report.offline.agreement, 7.0 / 8.0);
  report.offline.energy = 12.5;
  const nlohmann::json json = nlohmann::json::parse(FormatReportJson(report));
  EXPECT_DOUBLE_EQ(json["offline"]["agreement"].get<double>(), 0.875);
  EXPECT_THAT(FormatReportTable(report), HasSubstr("87.5% of triangle-frames"));
  // Without --offline the report says nothing of it.
  EXPECT_FALSE(nlohmann::json::parse(FormatReportJson(AnalysisReport()))
                   .contains("offline"));
}

}  // namespace
}  // namespace crease::cli
