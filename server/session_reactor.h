#ifndef CREASE_SERVER_SESSION_REACTOR_H_
#define CREASE_SERVER_SESSION_REACTOR_H_

#include <grpcpp/support/byte_buffer.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "absl/time/time.h"
#include "common/stopwatch.h"
#include "crease/v1/crease.grpc.pb.h"
#include "server/render_pool.h"
#include "server/served_session.h"
#include "server/service_state.h"

namespace crease::server {

// One Session stream (docs/architecture.md, "One frame end to end"). Strictly
// one thing at a time: read a message, work on it on the worker pool (and a
// render thread), write the answer, read the next. So results come in order,
// the Session is touched by one thread at a time, and gRPC's flow control holds
// back a client that sends faster than its frames are processed. Messages cross
// as raw bytes, decoded and encoded here, so that bytes that are no
// SessionRequest end the stream with INVALID_ARGUMENT (gRPC would report them
// like a half-close).
//
// Slots: an open stream holds a pending slot (ServerLimits::
// max_pending_streams, per peer host too) until its Start is accepted, then a
// session slot (max_sessions); OnDone frees whichever it holds.
class SessionReactor
    : public grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
 public:
  SessionReactor(ServiceState* state, grpc::CallbackServerContext* context);

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

  // From the server, every 200 ms: ends the stream if it has waited for its
  // Start longer than the start timeout or for any message longer than the
  // idle timeout, and cancels it if its client has not taken an answer for
  // the write timeout (`now` given).
  void ExpireIfIdle(absl::Time now);
  // From the server's shutdown: finish now if waiting for a message, else
  // right after the answer in progress.
  void Drain();
  // Whether a message is being worked on (its answer not yet being written).
  bool working();

 private:
  enum class Phase { kReading, kWorking, kWriting, kFinished };
  // A stream waiting for its Start is ended for a newer one (pending slots
  // full) only after this long: a client that does start needs a moment.
  static constexpr absl::Duration kMinWaitBeforeEviction = absl::Seconds(1);
  // kEvicted: a pending stream that made way for a newer one (its counts
  // already given back; only the registry entry is left).
  enum class Slot { kNone, kPending, kStarted, kEvicted };
  // Takes a pending slot for a new stream; the refusal if none is free.
  grpc::Status Admit();
  // With the pending slots full: ends the oldest stream still waiting for its
  // Start (from `peer_host` when not null) that has waited at least
  // kMinWaitBeforeEviction, and gives its slot to the caller; false if there
  // is none.
  bool EvictOldestWaitingLocked(const std::string* peer_host)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_->mu);
  // Ends this stream for a newer one if it is still waiting for its Start.
  bool MakeWayLocked(const std::string& why);
  // Trades the pending slot for a session slot; RESOURCE_EXHAUSTED if none.
  absl::Status TakeSessionSlot();
  // Frees the slot held and records how the stream ended (OnDone).
  void ReleaseSlot();
  // Before a message is decoded (docs/operations.md, "Memory"): a frame no
  // larger than the session's vertices need, the wire format within
  // RequestCaps, and a Start's decoded size reserved in the memory budget
  // until it is worked on (ReleaseStartDecoding). The refusal, else OK.
  absl::Status AdmitRequestBytes(size_t bytes);
  void ReleaseStartDecoding();
  void Account();
  grpc::Status WriteTimeoutStatus() const;
  void Work();
  void HandleStart();
  void HandleFrame();
  void LogStarted() const;
  void Write();
  // With recording on: opens this session's file if the options choose it
  // (after its Start is accepted), and adds the message being worked on.
  void MaybeStartRecording();
  void RecordRequest();
  void LogIfRecordingStopped();  // once, when the recording has stopped
  // With mu_ held. Ends the stream once; nothing may touch the reactor after
  // the caller releases mu_ (OnDone may delete it).
  void FinishLocked(const grpc::Status& status);
  void Log(const std::string& line) const;

  ServiceState* const state_;
  grpc::CallbackServerContext* const context_;
  const std::string id_;
  const std::string peer_;
  const std::string peer_host_;  // the peer without its port
  const absl::Time opened_;
  Slot slot_ = Slot::kNone;  // guarded by state_->mu
  // The caller's bearer token (empty: tokens are off), for the per-token
  // session quota.
  std::string token_;
  // The memory budget reserved for this session (given back with its slot).
  int64_t reserved_bytes_ = 0;
  // Reserved for a Start while it is decoded and waits for its work.
  std::atomic<int64_t> start_decoding_bytes_{0};
  // Set once nobody wants this stream's images (cancelled, or past the
  // write timeout): its queued render is skipped.
  std::atomic<bool> abandoned_{false};

  // A std::mutex (pthreads): OnDone locks it once more before deleting, so
  // the last holder's unlock has returned; POSIX makes that safe.
  std::mutex mu_;
  Phase phase_ = Phase::kReading;  // guarded by mu_, like the three below
  bool cancelled_ = false;
  bool draining_ = false;
  bool message_received_ = false;  // any; the first must be the Start
  bool write_timed_out_ = false;
  grpc::Status status_;  // what the stream ended with (FinishLocked)
  absl::Time last_activity_;
  absl::Time write_started_;
  int64_t frames_answered_ = 0;  // with mu_, for the session log
  int64_t frame_errors_ = 0;
  std::string first_frame_error_;

  // Touched only by the one thread working on the current message.
  grpc::ByteBuffer read_buffer_, write_buffer_;
  v1::SessionRequest request_;
  v1::SessionResponse response_;
  Stopwatch work_timer_;                   // since the message's work began
  std::unique_ptr<ServedSession> served_;  // once the Start is accepted
  // Recording (RecordingOptions): the message's bytes as gRPC received them
  // (kept only while the session may be or is recorded) and when.
  std::vector<grpc::Slice> request_slices_;
  std::vector<absl::string_view> request_pieces_;  // their bytes
  int64_t request_arrival_us_ = 0;
  std::unique_ptr<SessionRecordWriter> recorder_;  // null: not recorded
  std::string digest_scratch_;                     // AnswerDigestInPlace's
  bool recording_stop_logged_ = false;             // LogIfRecordingStopped's
};

}  // namespace crease::server

#endif  // CREASE_SERVER_SESSION_REACTOR_H_
