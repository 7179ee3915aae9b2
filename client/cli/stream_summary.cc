#include "client/cli/stream_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace crease::client {

void StreamSummary::Add(const v1::FrameResult& result, double latency_ms) {
  ++frames;
  latencies_ms.push_back(latency_ms);
  if (result.has_error()) {
    ++frame_errors;
    return;
  }
  wrinkles_total += result.wrinkles_size();
  wrinkles_max = std::max(wrinkles_max, result.wrinkles_size());
  input_noise_max =
      std::max(input_noise_max, static_cast<double>(result.input_noise()));
}

double StreamSummary::WrinklesMean() const {
  const int ok_frames = frames - frame_errors;
  return ok_frames > 0 ? static_cast<double>(wrinkles_total) / ok_frames : 0.0;
}

double StreamSummary::FramesPerSecond() const {
  return wall_seconds > 0 ? frames / wall_seconds : 0.0;
}

double StreamSummary::LatencyPercentile(double p) const {
  if (latencies_ms.empty()) return 0;
  std::vector<double> sorted = latencies_ms;
  std::sort(sorted.begin(), sorted.end());
  const double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
  const size_t index = static_cast<size_t>(
      std::clamp(rank - 1, 0.0, static_cast<double>(sorted.size() - 1)));
  return sorted[index];
}

void AppendWrinklesJsonLine(const v1::FrameResult& result, std::string* out) {
  absl::StrAppendFormat(out, "{\"frame\":%d,\"wrinkles\":[", result.index());
  for (int w = 0; w < result.wrinkles_size(); ++w) {
    const v1::Wrinkle& wrinkle = result.wrinkles(w);
    absl::StrAppendFormat(out, "%s{\"id\":%d,\"age\":%d,\"points\":[",
                          w > 0 ? "," : "", wrinkle.id(), wrinkle.age());
    for (int i = 0; i + 2 < wrinkle.points_size(); i += 3) {
      absl::StrAppendFormat(out, "%s[%.6g,%.6g,%.6g]", i > 0 ? "," : "",
                            wrinkle.points(i), wrinkle.points(i + 1),
                            wrinkle.points(i + 2));
    }
    auto list = [](const auto& values) {
      return absl::StrJoin(values, ",", [](std::string* o, float v) {
        absl::StrAppendFormat(o, "%.6g", v);
      });
    };
    absl::StrAppend(out, "],\"widths\":[", list(wrinkle.widths()),
                    "],\"heights\":[", list(wrinkle.heights()), "]}");
  }
  absl::StrAppend(out, "]}\n");
}

std::string SummaryJson(const StreamSummary& s) {
  return absl::StrFormat(
      "{\"session_id\":\"%s\",\"server_version\":\"%s\","
      "\"parameters_hash\":\"%s\",\"frames\":%d,\"frame_errors\":%d,"
      "\"wrinkles_mean\":%.3f,\"wrinkles_max\":%d,\"input_noise_max\":%.4f,"
      "\"latency_ms\":{\"p50\":%.4f,\"p99\":%.4f,\"max\":%.4f},"
      "\"bytes_sent\":%d,\"bytes_received\":%d,\"wall_seconds\":%.4f,"
      "\"frames_per_second\":%.3f,\"contact_sheet_frames\":[%s],"
      "\"contact_sheet_visible_change\":[%s]}\n",
      s.session_id, s.server_version, s.parameters_hash, s.frames,
      s.frame_errors, s.WrinklesMean(), s.wrinkles_max, s.input_noise_max,
      s.LatencyPercentile(50), s.LatencyPercentile(99),
      s.LatencyPercentile(100), s.bytes_sent, s.bytes_received, s.wall_seconds,
      s.FramesPerSecond(), absl::StrJoin(s.contact_sheet_frames, ","),
      absl::StrJoin(s.contact_sheet_visible_change, ",",
                    [](std::string* o, const std::vector<double>& column) {
                      absl::StrAppend(
                          o, "[",
                          absl::StrJoin(column, ",",
                                        [](std::string* p, double v) {
                                          absl::StrAppendFormat(p, "%.4f", v);
                                        }),
                          "]");
                    }));
}

std::string SummaryTable(const StreamSummary& s) {
  // Only when there is something to say: a clean stream reads about 0.
  const std::string noise =
      s.input_noise_max > 0.01
          ? absl::StrFormat(
                "  input noise: up to %.1f %% of an edge a frame (the server "
                "allows for jitter above 1 %%; fewer small folds)\n",
                100 * s.input_noise_max)
          : "";
  return absl::StrCat(
      absl::StrFormat(
          "session %s (server %s, parameters %s): %d frames (%d errors) in "
          "%.2f s (%.1f fps)\n"
          "  wrinkles per frame: mean %.1f, max %d\n"
          "  round trip: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n"
          "  sent %.2f MB, received %.2f MB\n",
          s.session_id, s.server_version, s.parameters_hash, s.frames,
          s.frame_errors, s.wall_seconds, s.FramesPerSecond(), s.WrinklesMean(),
          s.wrinkles_max, s.LatencyPercentile(50), s.LatencyPercentile(99),
          s.LatencyPercentile(100), s.bytes_sent / 1e6, s.bytes_received / 1e6),
      noise);
}

void PrintProgress(const StreamSummary& s, int total_frames) {
  constexpr int kWidth = 30;
  const int filled = total_frames > 0 ? kWidth * s.frames / total_frames : 0;
  std::string bar(kWidth, ' ');
  for (int i = 0; i < filled; ++i) bar[i] = '=';
  if (filled < kWidth) bar[filled] = '>';
  std::fprintf(stderr, "\r[%s] %d/%d frames, p50 %.2f ms", bar.c_str(),
               s.frames, total_frames, s.LatencyPercentile(50));
}

}  // namespace crease::client
