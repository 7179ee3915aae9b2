#ifndef CREASE_CLIENT_LOAD_LOAD_SESSION_H_
#define CREASE_CLIENT_LOAD_LOAD_SESSION_H_

// One session of crease-load: a gRPC callback reactor (no thread of its own),
// so one process holds hundreds of sessions. The load's pacing thread calls
// Tick when a frame is due; answers are timed from when their frame was due
// (open loop: a slow server shows as latency and dropped frames, not as a
// slower client).

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "client/load/load_stats.h"
#include "crease/v1/crease.grpc.pb.h"

namespace crease::load {

// The frames every session streams (looped), shared read-only.
struct LoadAnimation {
  v1::Start start;
  std::vector<v1::Frame> frames;  // index fields are rewritten per session
};

class LoadSession
    : public grpc::ClientBidiReactor<v1::SessionRequest, v1::SessionResponse> {
 public:
  // `window`: frames sent and not answered, at most; a due frame beyond it
  // is dropped. `token`: bearer token or empty.
  LoadSession(v1::Crease::Stub* stub, const LoadAnimation* animation,
              double fps, int window, const std::string& token);
  // Sends the Start. Call once.
  void Open();
  // The pacing thread: sends the frame due at `due` (or counts it dropped).
  void Tick(absl::Time due);
  // No more frames: half-closes once the last write is done, and lets the
  // call end (Open holds it open for the pacing thread's writes). Call once
  // before WaitDone.
  void Close();
  // Gives up on the stream (after Close, when the server does not end it).
  void Cancel() { context_.TryCancel(); }
  // Blocks until the stream has ended or `deadline`; true when it ended.
  bool WaitDone(absl::Time deadline);
  bool started() const;
  bool done() const;
  // A copy of what was counted so far.
  LoadStats Snapshot() const;
  // Counts from now on only (the warm-up is left out).
  void ResetStats();

  void OnWriteDone(bool ok) override;
  void OnReadDone(bool ok) override;
  void OnWritesDoneDone(bool ok) override;
  void OnDone(const grpc::Status& status) override;

 private:
  void WriteLocked(v1::SessionRequest request)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  grpc::ClientContext context_;
  const LoadAnimation* const animation_;
  const absl::Duration period_;
  const int window_;
  mutable absl::Mutex mu_;
  v1::SessionRequest writing_ ABSL_GUARDED_BY(mu_);
  bool write_busy_ ABSL_GUARDED_BY(mu_) = false;
  bool closing_ ABSL_GUARDED_BY(mu_) = false;
  bool writes_done_sent_ ABSL_GUARDED_BY(mu_) = false;
  bool started_ ABSL_GUARDED_BY(mu_) = false;
  bool opened_ ABSL_GUARDED_BY(mu_) = false;         // Open ran: a hold is on
  bool hold_released_ ABSL_GUARDED_BY(mu_) = false;  // Close removed it
  bool done_ ABSL_GUARDED_BY(mu_) = false;
  uint32_t next_index_ ABSL_GUARDED_BY(mu_) = 0;
  // Answers to frames sent before ResetStats are not counted.
  uint32_t first_counted_ ABSL_GUARDED_BY(mu_) = 0;
  struct InFlight {
    uint32_t index;
    absl::Time due;
  };
  std::deque<InFlight> in_flight_ ABSL_GUARDED_BY(mu_);
  LoadStats stats_ ABSL_GUARDED_BY(mu_);
  v1::SessionResponse response_;  // the read under way
};

}  // namespace crease::load

#endif  // CREASE_CLIENT_LOAD_LOAD_SESSION_H_
