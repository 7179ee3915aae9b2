#ifndef CREASE_SERVER_RECORDING_SESSION_REPLAY_H_
#define CREASE_SERVER_RECORDING_SESSION_REPLAY_H_
// Sends a recorded session (session_record.h) to a server again and checks
// each answer against the recorded one's digest: sessions are deterministic,
// so the same server code gives the same answers.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "grpcpp/channel.h"
#include "server/recording/session_record.h"

namespace crease::server {

struct ReplayOptions {
  // Frames sent at their recorded arrival times (relative to the first), or
  // as fast as the server answers them.
  bool recorded_pace = false;
  // As fast as possible: frames sent ahead of their answers, at most.
  int max_in_flight = 8;
  // Bearer token sent with the call; empty: none.
  std::string token;
  // Called after each answer with answers so far and frames in all.
  std::function<void(int answered, int frames)> progress;
};

struct ReplayReport {
  int frames = 0;    // frame requests in the recording
  int answered = 0;  // answers received
  int matching = 0;  // with the recorded digest and error code
  int differing = 0;
  int unchecked = 0;  // answers with no recorded digest (a cut recording)
  // The first differences, one line each (at most 10).
  std::vector<std::string> differences;
  double seconds = 0;  // from the Start to the last answer
  bool identical() const {
    return differing == 0 && answered == frames && frames > 0;
  }
};

// Replays `recording` on `channel`. Errors: a recording without a Start,
// a Start the server refuses, or a stream that ends early (its status).
absl::StatusOr<ReplayReport> ReplaySession(
    const SessionRecording& recording,
    const std::shared_ptr<grpc::Channel>& channel,
    const ReplayOptions& options = {});

}  // namespace crease::server

#endif  // CREASE_SERVER_RECORDING_SESSION_REPLAY_H_
