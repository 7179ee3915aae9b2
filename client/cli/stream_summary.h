#ifndef CREASE_CLIENT_CLI_STREAM_SUMMARY_H_
#define CREASE_CLIENT_CLI_STREAM_SUMMARY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "crease/v1/crease.pb.h"

namespace crease::client {

// What crease-client reports about one streamed animation.
struct StreamSummary {
  std::string session_id;
  // Started.server_version and Started.parameters_hash.
  std::string server_version, parameters_hash;
  int frames = 0;  // answered, errors included
  int frame_errors = 0;
  int64_t wrinkles_total = 0;  // summed over frames
  int wrinkles_max = 0;
  // The largest FrameResult.input_noise: how much the streamed mesh jitters
  // (above 0.01 the server allows for it; docs/algorithm.md, "Noisy input").
  double input_noise_max = 0;
  std::vector<double> latencies_ms;  // send to result, per frame
  int64_t bytes_sent = 0;
  int64_t bytes_received = 0;
  double wall_seconds = 0;
  std::vector<int> contact_sheet_frames;
  // Per contact sheet column after the plain one, per row: the fraction of
  // the subject's pixels that column changes by more than 12 levels against
  // the plain image (WriteContactSheet).
  std::vector<std::vector<double>> contact_sheet_visible_change;

  void Add(const v1::FrameResult& result, double latency_ms);
  // Wrinkles per answered frame (errors left out), and frames per second of
  // wall time.
  double WrinklesMean() const;
  double FramesPerSecond() const;
  // Nearest-rank percentile (p in [0, 100]) of the latencies; 0 when empty.
  double LatencyPercentile(double p) const;
};

// One line of wrinkles.jsonl: {"frame":i,"wrinkles":[{"id":..,"age":..,
// "points":[[x,y,z],..],"widths":[..],"heights":[..]},..]}.
void AppendWrinklesJsonLine(const v1::FrameResult& result, std::string* out);

std::string SummaryJson(const StreamSummary& summary);
std::string SummaryTable(const StreamSummary& summary);
// "\r[=====>    ] 40/120 frames, p50 0.8 ms" on stderr.
void PrintProgress(const StreamSummary& summary, int total_frames);

}  // namespace crease::client

#endif  // CREASE_CLIENT_CLI_STREAM_SUMMARY_H_
