#ifndef CREASE_CLIENT_CREASE_CLIENT_H_
#define CREASE_CLIENT_CREASE_CLIENT_H_

// The thin client of the Crease service: open a session, send frames, receive
// results in order, with a bounded number of frames in flight. Links gRPC, the
// generated crease.v1 code and crease_io (mesh messages); no maxflow, no GL.

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "crease/v1/crease.grpc.pb.h"

namespace crease::client {

struct ClientOptions {
  // Sent as "authorization: Bearer <token>" when not empty.
  std::string token;
  // PEM root certificates; set: TLS, else plaintext.
  std::string tls_root_certificates;
  // Largest message either way.
  int max_message_bytes = 64 << 20;
  // Frames sent but not yet answered, at most: Send blocks beyond this.
  int max_frames_in_flight = 8;
};

// One open session. Send from one thread and Receive from another (or
// alternate on one thread, keeping max_frames_in_flight in mind).
class SessionStream {
 public:
  ~SessionStream();
  const v1::Started& started() const { return started_; }

  // Sends one frame; blocks while max_frames_in_flight frames are unanswered.
  // FailedPrecondition after WritesDone; the stream's status once it broke.
  absl::Status Send(const v1::Frame& frame);
  // The next result, in order. OutOfRange once every sent frame is answered
  // and WritesDone was called; the stream's status if it ended early.
  absl::StatusOr<v1::FrameResult> Receive();
  // No more frames. Receive still returns the outstanding results.
  absl::Status WritesDone();
  // After the last Receive: the stream's final status (also when Receive
  // already returned it).
  absl::Status Finish();
  // Abandons the session (the server frees it).
  void Cancel();
  // Bytes of frames sent and results received so far (serialized sizes).
  int64_t bytes_sent() const;
  int64_t bytes_received() const;

 private:
  friend class CreaseClient;
  SessionStream() = default;

  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<
      grpc::ClientReaderWriter<v1::SessionRequest, v1::SessionResponse>>
      stream_;
  v1::Started started_;
  int window_ = 8;
  mutable absl::Mutex mu_;
  int in_flight_ ABSL_GUARDED_BY(mu_) = 0;
  bool writes_done_ ABSL_GUARDED_BY(mu_) = false;
  bool broken_ ABSL_GUARDED_BY(mu_) = false;
  // Finishes the gRPC stream once, whichever of Receive, Finish and the
  // destructor gets there first, and keeps its status.
  absl::Status FinishOnce();
  absl::Mutex finish_mu_;
  bool finished_ ABSL_GUARDED_BY(finish_mu_) = false;
  absl::Status final_status_ ABSL_GUARDED_BY(finish_mu_);
  int64_t bytes_sent_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t bytes_received_ ABSL_GUARDED_BY(mu_) = 0;
};

class CreaseClient {
 public:
  // `target` as gRPC takes it, e.g. "127.0.0.1:50051" or "dns:///host:port".
  static absl::StatusOr<std::unique_ptr<CreaseClient>> Connect(
      const std::string& target, const ClientOptions& options = {});

  absl::StatusOr<v1::ServerInfo> GetServerInfo(
      absl::Duration timeout = absl::Seconds(10));
  // grpc.health.v1 Check of the whole server (needs no token): true when
  // SERVING, false when NOT_SERVING (shutting down) or UNKNOWN; an error when
  // the server cannot be reached in `timeout`.
  absl::StatusOr<bool> IsServing(absl::Duration timeout = absl::Seconds(5));
  // Sends `start` and waits for Started: the server's error (e.g.
  // INVALID_ARGUMENT naming the field) if it refuses.
  absl::StatusOr<std::unique_ptr<SessionStream>> OpenSession(
      const v1::Start& start);

 private:
  CreaseClient() = default;
  ClientOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Crease::Stub> stub_;
};

}  // namespace crease::client

#endif  // CREASE_CLIENT_CREASE_CLIENT_H_
