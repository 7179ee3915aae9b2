#include "server/session_reactor.h"

#include <grpcpp/support/proto_buffer_reader.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"

namespace crease::server {
namespace {

using Lock = std::lock_guard<std::mutex>;

grpc::Status ToGrpc(const absl::Status& status) {
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      std::string(status.message()));
}

// Meshes up to this size (about 1.5 ms a frame here) may run inline.
constexpr int kInlineMaxTriangles = 5000;
// Messages of meshes above this many triangles (times the outputs' work)
// are big: the worker pool runs them in its large lane (ThreadPool::Lane),
// which leaves one worker to the others: 35 Fox meshes, about four times the
// inline limit's 1.5 ms a frame.
constexpr int kLargeMessageTriangles = 20000;

// "ipv4:127.0.0.1:5000" -> "ipv4:127.0.0.1"; "ipv6:[::1]:5000" -> "ipv6:[::1]".
std::string PeerHost(const std::string& peer) {
  const size_t colon = peer.rfind(':');
  const size_t bracket = peer.rfind(']');
  if (colon == std::string::npos ||
      (bracket != std::string::npos && colon < bracket) ||
      peer.find(':') == colon) {
    return peer;  // no port (a unix socket, say)
  }
  return peer.substr(0, colon);
}

// The client's address a front proxy wrote into `header`, when the server
// trusts one (ServerOptions::client_address_header): "header:value".
std::optional<std::string> ProxiedAddress(
    const grpc::CallbackServerContext& context, const std::string& header) {
  if (header.empty()) return std::nullopt;
  const auto& metadata = context.client_metadata();
  const auto it = metadata.find(header);
  if (it == metadata.end()) return std::nullopt;
  // The proxy writes it, but its length is still input: bounded.
  constexpr size_t kMaxAddress = 64;
  return absl::StrCat(
      header, ":",
      absl::string_view(it->second.data(),
                        std::min(it->second.size(), kMaxAddress)));
}

// For the logs and recordings: the proxied address and the connection, or
// the connection's peer.
std::string PeerName(const grpc::CallbackServerContext& context,
                     const std::string& header) {
  const std::optional<std::string> proxied = ProxiedAddress(context, header);
  return proxied ? absl::StrCat(*proxied, " via ", context.peer())
                 : context.peer();
}

// For the per-peer limits: the proxied address, or the peer's host.
std::string ClientHost(const grpc::CallbackServerContext& context,
                       const std::string& header) {
  const std::optional<std::string> proxied = ProxiedAddress(context, header);
  return proxied ? *proxied : PeerHost(context.peer());
}

grpc::Status Unavailable() {
  return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                      "the server is shutting down");
}

}  // namespace

SessionReactor::SessionReactor(ServiceState* state,
                               grpc::CallbackServerContext* context)
    : state_(state),
      context_(context),
      id_(absl::StrFormat("s%d", state->next_session_id++)),
      peer_(PeerName(*context, state->options.client_address_header)),
      peer_host_(ClientHost(*context, state->options.client_address_header)),
      opened_(absl::Now()) {
  last_activity_ = opened_;
  grpc::Status admitted = Admit();
  if (!admitted.ok()) {
    Lock lock(mu_);
    FinishLocked(admitted);
    return;
  }
  StartRead(&read_buffer_);
}

grpc::Status SessionReactor::Admit() {
  absl::StatusOr<std::string> token = state_->tokens.Authenticate(*context_);
  if (!token.ok()) return ToGrpc(token.status());
  token_ = *std::move(token);
  const ServerLimits& limits = state_->options.limits;
  absl::MutexLock state_lock(&state_->mu);
  if (state_->shutting_down) return Unavailable();
  // Looked up, not inserted: a refused peer leaves no entry behind.
  const auto it = state_->pending_by_peer.find(peer_host_);
  const uint32_t from_peer =
      it == state_->pending_by_peer.end() ? 0 : it->second;
  // Full: the oldest stream still waiting makes way (from this peer when its
  // cap is the one hit), so silent streams from a shared address cannot keep
  // a client that does start out; refused only when every waiting stream is
  // new.
  if (from_peer >= limits.max_pending_streams_per_peer &&
      !EvictOldestWaitingLocked(&peer_host_)) {
    return grpc::Status(
        grpc::StatusCode::RESOURCE_EXHAUSTED,
        absl::StrFormat("%d streams from %s are waiting for their start, "
                        "this server's limit per peer "
                        "(max_pending_streams_per_peer)",
                        from_peer, peer_host_));
  }
  if (state_->pending_streams >= limits.max_pending_streams &&
      !EvictOldestWaitingLocked(nullptr)) {
    return grpc::Status(
        grpc::StatusCode::RESOURCE_EXHAUSTED,
        absl::StrFormat("%d streams are waiting for their start, this "
                        "server's limit (max_pending_streams)",
                        limits.max_pending_streams));
  }
  ++state_->pending_by_peer[peer_host_];
  ++state_->pending_streams;
  state_->sessions.insert(this);
  slot_ = Slot::kPending;
  return grpc::Status::OK;
}

void SessionReactor::FinishLocked(const grpc::Status& status) {
  if (phase_ == Phase::kFinished) return;
  phase_ = Phase::kFinished;
  status_ = status;
  Finish(status);
}

grpc::Status SessionReactor::WriteTimeoutStatus() const {
  return grpc::Status(
      grpc::StatusCode::DEADLINE_EXCEEDED,
      absl::StrFormat(
          "the client took no answer for %s (the write timeout)",
          absl::FormatDuration(state_->options.limits.write_timeout)));
}

void SessionReactor::OnReadDone(bool ok) {
  {
    Lock lock(mu_);
    if (!ok) {
      // The client half-closed (every frame it sent has its answer) or the
      // call is gone (Account tells which).
      FinishLocked(grpc::Status::OK);
      return;
    }
    if (draining_) {
      FinishLocked(Unavailable());
      return;
    }
    if (phase_ == Phase::kFinished) return;  // expired while reading
    phase_ = Phase::kWorking;
    message_received_ = true;
  }
  request_.Clear();
  if (recorder_ != nullptr ||
      (served_ == nullptr && !state_->options.recording.dir.empty())) {
    // Kept for the recording: the slices share gRPC's buffers (no copy).
    request_slices_.clear();
    (void)read_buffer_.Dump(&request_slices_);
    request_arrival_us_ = absl::ToInt64Microseconds(absl::Now() - opened_);
  }
  const size_t bytes = read_buffer_.Length();
  if (absl::Status refused = AdmitRequestBytes(bytes); !refused.ok()) {
    read_buffer_.Clear();
    Lock lock(mu_);
    FinishLocked(ToGrpc(refused));
    return;
  }
  grpc::ProtoBufferReader reader(&read_buffer_);
  const bool decoded = request_.ParseFromZeroCopyStream(&reader);
  read_buffer_.Clear();
  if (!decoded) {
    ReleaseStartDecoding();
    Lock lock(mu_);
    FinishLocked(grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrFormat("request: %d bytes that are no crease.v1."
                        "SessionRequest (not protobuf, or truncated)",
                        bytes)));
    return;
  }
  // When nothing else is being worked on, a small mesh's message runs right
  // here on the gRPC thread that read it: the hop to a worker costs more than
  // the frame on this 2-core VM (paths-only round trip p99 ~3 ms -> <1 ms).
  // Under load the worker pool takes everything, so gRPC threads are not held
  // up. Image frames always go to the pool: their answer is slow anyway.
  ServiceState* const state = state_;
  const size_t triangles =
      served_ != nullptr
          ? served_->work_triangles()
          : std::max<size_t>(request_.start().topology().triangles_size() / 3,
                             request_.start().topology().vertex_count() / 2);
  const bool small = !(served_ != nullptr && served_->renders()) &&
                     triangles <= static_cast<size_t>(kInlineMaxTriangles);
  if (state->messages_in_work.fetch_add(1) == 0 && small) {
    Work();
    state->messages_in_work.fetch_sub(1);
    return;
  }
  // Big meshes' messages go in the large lane: they can never take every
  // worker, so small sessions beside them keep their latency. Within a lane
  // clients (peer hosts) take turns.
  state->workers->Post(
      [this, state] {
        Work();
        state->messages_in_work.fetch_sub(1);
      },
      triangles > static_cast<size_t>(kLargeMessageTriangles)
          ? ThreadPool::Lane::kLarge
          : ThreadPool::Lane::kSmall,
      absl::HashOf(peer_host_));
}

void SessionReactor::Work() {
  work_timer_ = Stopwatch();
  // A Start's own reservation ends here: HandleStart reserves the session's.
  ReleaseStartDecoding();
  response_.Clear();
  if (abandoned_) {
    // Cancelled while waiting for a worker: nobody wants the answer.
    Lock lock(mu_);
    FinishLocked(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
  } else if (served_ == nullptr) {
    HandleStart();
  } else if (request_.has_frame()) {
    if (state_->options.before_frame_for_testing) {
      state_->options.before_frame_for_testing();
    }
    HandleFrame();
  } else {
    Lock lock(mu_);
    FinishLocked(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                              request_.has_start()
                                  ? "start: sent twice; a session has one start"
                                  : "request: neither start nor frame"));
  }
  // Nothing here: the answer may already be written and the reactor gone.
}

void SessionReactor::HandleStart() {
  if (!request_.has_start()) {
    Lock lock(mu_);
    FinishLocked(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                              "start: the first message must be a start"));
    return;
  }
  // Validated before a session slot is taken (an invalid Start never holds
  // one), welded after (the costly part, only for a session that has one).
  absl::StatusOr<SessionSetup> setup = ValidateStart(
      request_.start(), state_->options.limits, state_->render_pool != nullptr);
  if (setup.ok()) {
    // The session's estimated memory is reserved before its slot, and both
    // are given back when it ends.
    const SessionCost cost = EstimateSessionCost(*setup);
    if (absl::Status budget = state_->memory->Reserve(cost); !budget.ok()) {
      setup = budget;
    } else if (absl::Status slot = TakeSessionSlot(); !slot.ok()) {
      state_->memory->Release(cost.bytes);
      setup = slot;
    } else {
      reserved_bytes_ = cost.bytes;
    }
  }
  absl::StatusOr<std::unique_ptr<ServedSession>> served =
      setup.ok()
          ? ServedSession::Create(*std::move(setup))
          : absl::StatusOr<std::unique_ptr<ServedSession>>(setup.status());
  if (!served.ok()) {
    Lock lock(mu_);
    FinishLocked(ToGrpc(served.status()));
    return;
  }
  served_ = *std::move(served);
  if (state_->options.session_log) LogStarted();
  if (!state_->options.recording.dir.empty()) MaybeStartRecording();
  served_->FillStarted(id_, state_->options.limits,
                       response_.mutable_started());
  Write();
}

void SessionReactor::LogStarted() const {
  const SessionSetup& setup = served_->setup();
  std::string outputs;
  for (const auto& [wanted, name] :
       {std::pair{setup.outputs.paths(), "paths"},
        std::pair{setup.outputs.labels(), "labels"},
        std::pair{setup.outputs.tensors(), "tensors"},
        std::pair{setup.outputs.vertex_fields(), "vertex_fields"}}) {
    if (wanted) absl::StrAppend(&outputs, " ", name);
  }
  if (setup.outputs.wrinkled_mesh().level() > 0) {
    absl::StrAppendFormat(&outputs, " wrinkled_mesh level %d",
                          setup.outputs.wrinkled_mesh().level());
  }
  if (setup.image) {
    absl::StrAppendFormat(
        &outputs, " %s %dx%d",
        setup.encoding == ImageEncoding::kPng ? "png" : "jpeg",
        setup.render_options.width, setup.render_options.height);
  }
  Log(absl::StrFormat("started: %d vertices, %d triangles; outputs:%s",
                      setup.vertex_count, setup.triangles.size(),
                      outputs.empty() ? " none" : outputs));
}

void SessionReactor::HandleFrame() {
  if (recorder_ != nullptr) RecordRequest();
  v1::FrameResult* result = response_.mutable_frame_result();
  if (!served_->AnswerFrame(request_.frame(), result)) {
    Write();
    return;
  }
  state_->render_pool->Submit(
      served_->MakeRenderJob(&abandoned_), [this](RenderOutcome outcome) {
        if (abandoned_) {
          // Cancelled (or timed out writing): no answer to write or count.
          Lock lock(mu_);
          FinishLocked(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
          return;
        }
        served_->AddRenderings(std::move(outcome),
                               response_.mutable_frame_result());
        Write();
      });
  // Nothing after Submit: the render thread owns the reactor now.
}

void SessionReactor::Write() {
  if (response_.has_frame_result()) {
    state_->metrics->FrameDone(response_.frame_result(), work_timer_.Lap());
    if (recorder_ != nullptr && !recorder_->full()) {
      const v1::FrameResult& result = response_.frame_result();
      recorder_->AddAnswer(result.index(),
                           AnswerDigestInPlace(response_.mutable_frame_result(),
                                               &digest_scratch_),
                           result.error().code());
      LogIfRecordingStopped();
    }
  }
  Lock lock(mu_);
  if (cancelled_) {
    FinishLocked(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
    return;
  }
  if (response_.has_frame_result()) {
    ++frames_answered_;
    if (response_.frame_result().has_error()) {
      if (frame_errors_++ == 0) {
        const v1::FrameError& error = response_.frame_result().error();
        first_frame_error_ = absl::StrFormat(
            "frame %d: %s \"%s\"", response_.frame_result().index(),
            absl::StatusCodeToString(
                static_cast<absl::StatusCode>(error.code())),
            error.message());
      }
    }
  }
  bool own_buffer = false;
  if (grpc::Status encoded =
          grpc::SerializationTraits<v1::SessionResponse>::Serialize(
              response_, &write_buffer_, &own_buffer);
      !encoded.ok()) {
    FinishLocked(grpc::Status(
        grpc::StatusCode::INTERNAL,
        absl::StrCat("cannot encode the answer: ", encoded.error_message())));
    return;
  }
  phase_ = Phase::kWriting;
  write_started_ = absl::Now();
  StartWrite(&write_buffer_);
}

void SessionReactor::OnWriteDone(bool ok) {
  Lock lock(mu_);
  write_buffer_.Clear();
  if (!ok) {
    FinishLocked(write_timed_out_ ? WriteTimeoutStatus()
                                  : grpc::Status(grpc::StatusCode::CANCELLED,
                                                 "the client went away"));
    return;
  }
  if (draining_) {
    FinishLocked(Unavailable());
    return;
  }
  phase_ = Phase::kReading;
  last_activity_ = absl::Now();
  StartRead(&read_buffer_);
}

void SessionReactor::OnCancel() {
  abandoned_ = true;
  Lock lock(mu_);
  cancelled_ = true;
}

void SessionReactor::ExpireIfIdle(absl::Time now) {
  Lock lock(mu_);
  const ServerLimits& limits = state_->options.limits;
  if (phase_ == Phase::kReading && !message_received_ &&
      now - opened_ > limits.start_timeout) {
    FinishLocked(grpc::Status(
        grpc::StatusCode::DEADLINE_EXCEEDED,
        absl::StrFormat("no start within %s of opening (the start timeout)",
                        absl::FormatDuration(limits.start_timeout))));
  } else if (phase_ == Phase::kReading &&
             now - last_activity_ > limits.idle_timeout) {
    FinishLocked(grpc::Status(
        grpc::StatusCode::DEADLINE_EXCEEDED,
        absl::StrFormat("no message for %s (the idle timeout)",
                        absl::FormatDuration(limits.idle_timeout))));
  } else if (phase_ == Phase::kWriting && !write_timed_out_ &&
             now - write_started_ > limits.write_timeout) {
    // A write cannot be withdrawn; cancelling the call ends it (OnWriteDone
    // then sees !ok and finishes with the reason).
    write_timed_out_ = true;
    abandoned_ = true;
    context_->TryCancel();
  }
}

void SessionReactor::Drain() {
  Lock lock(mu_);
  draining_ = true;
  if (phase_ == Phase::kReading) FinishLocked(Unavailable());
}

bool SessionReactor::working() {
  Lock lock(mu_);
  return phase_ == Phase::kWorking;
}

void SessionReactor::OnDone() {
  { Lock lock(mu_); }  // whoever finished the stream has let go
  // Recorded before the slot is freed, so whoever sees the slot free (the
  // tests, an operator) also sees how the stream ended.
  Account();
  ReleaseStartDecoding();
  ReleaseSlot();
  delete this;
}

}  // namespace crease::server
