#ifndef CREASE_CLIENT_LOAD_LOAD_STATS_H_
#define CREASE_CLIENT_LOAD_LOAD_STATS_H_

// What crease-load counts for a kind of session, and how it reports it:
// latency percentiles, answered / late / dropped frames, errors by status
// code, bytes; the server's per-stage means from two /metrics scrapes.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace crease::load {

struct LoadStats {
  std::vector<double> latencies_ms;  // one per answered frame
  int64_t sent = 0;
  int64_t answered = 0;
  int64_t late = 0;          // answered more than one period after it was due
  int64_t dropped = 0;       // due but not sent: the session's window was full
  int64_t frame_errors = 0;  // FrameResult.error
  std::map<std::string, int> errors;  // streams or Starts that failed, by code
  int64_t bytes_sent = 0, bytes_received = 0;
  // Answered frames that carried an encoded image, and those images' bytes.
  int64_t images = 0, image_bytes = 0;
  int sessions = 0, sessions_started = 0;

  void Merge(const LoadStats& other);
};

// The q-quantile (0..1) of `values` by nearest rank; 0 when empty.
double Percentile(std::vector<double> values, double q);

// Per-stage sums and counts of crease_stage_seconds from a Prometheus text
// page.
struct StageSums {
  std::map<std::string, double> sum_seconds;
  std::map<std::string, double> count;
};
StageSums ParseStageSums(const std::string& page);
// Mean milliseconds per stage between two scrapes (stages with new counts).
std::map<std::string, double> StageMeansMs(const StageSums& before,
                                           const StageSums& after);
// GET http://`address`/metrics (host:port), with a timeout; the body.
absl::StatusOr<std::string> FetchMetrics(const std::string& address,
                                         int timeout_ms = 3000);

// A JSON object with the figures of `stats` over `seconds` of sending at
// `fps` per session.
std::string StatsJson(const LoadStats& stats, double seconds, double fps);

}  // namespace crease::load

#endif  // CREASE_CLIENT_LOAD_LOAD_STATS_H_
