// The reactor's slots (pending, then session; waiting streams making way)
// in the service's counts, what a request may cost before it is decoded,
// and the accounting of a finished stream (metric and log line): kept apart
// from the stream's life in session_reactor.cc.

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "common/status_macros.h"
#include "server/request_shape.h"
#include "server/session_reactor.h"

namespace crease::server {
namespace {

using Lock = std::lock_guard<std::mutex>;

}  // namespace

bool SessionReactor::EvictOldestWaitingLocked(const std::string* peer_host) {
  const absl::Time now = absl::Now();
  std::vector<SessionReactor*> waiting;
  for (SessionReactor* other : state_->sessions) {
    if (other->slot_ == Slot::kPending &&
        now - other->opened_ >= kMinWaitBeforeEviction &&
        (peer_host == nullptr || other->peer_host_ == *peer_host)) {
      waiting.push_back(other);
    }
  }
  std::sort(waiting.begin(), waiting.end(),
            [](const SessionReactor* a, const SessionReactor* b) {
              return a->opened_ < b->opened_;
            });
  for (SessionReactor* victim : waiting) {
    const std::string why = absl::StrFormat(
        "no start after %s while %s; it made way for a newer stream",
        absl::FormatDuration(
            absl::Trunc(now - victim->opened_, absl::Milliseconds(1))),
        peer_host != nullptr
            ? "this peer's waiting streams were at their limit "
              "(max_pending_streams_per_peer)"
            : "the server's waiting streams were at their limit "
              "(max_pending_streams)");
    if (!victim->MakeWayLocked(why)) continue;  // its Start came meanwhile
    --state_->pending_streams;
    if (--state_->pending_by_peer[victim->peer_host_] == 0) {
      state_->pending_by_peer.erase(victim->peer_host_);
    }
    victim->slot_ = Slot::kEvicted;
    return true;
  }
  return false;
}

bool SessionReactor::MakeWayLocked(const std::string& why) {
  Lock lock(mu_);
  if (phase_ != Phase::kReading || message_received_) return false;
  FinishLocked(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, why));
  return true;
}

absl::Status SessionReactor::TakeSessionSlot() {
  absl::MutexLock state_lock(&state_->mu);
  const uint32_t max_sessions = state_->options.limits.max_sessions;
  if (state_->started_sessions >= max_sessions) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "%d sessions are open, this server's limit", max_sessions));
  }
  const uint32_t per_peer = state_->options.limits.max_sessions_per_peer;
  const auto it = state_->started_by_peer.find(peer_host_);
  if (it != state_->started_by_peer.end() && it->second >= per_peer) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "%d sessions from %s are open, this server's limit per peer "
        "(max_sessions_per_peer)",
        it->second, peer_host_));
  }
  if (!token_.empty()) {
    const uint32_t per_token = state_->options.limits.max_sessions_per_token;
    const auto t = state_->started_by_token.find(token_);
    if (t != state_->started_by_token.end() && t->second >= per_token) {
      return absl::ResourceExhaustedError(absl::StrFormat(
          "%d sessions with this token are open, this server's limit per "
          "token (max_sessions_per_token)",
          t->second));
    }
    ++state_->started_by_token[token_];
  }
  ++state_->started_by_peer[peer_host_];
  ++state_->started_sessions;
  --state_->pending_streams;
  if (--state_->pending_by_peer[peer_host_] == 0) {
    state_->pending_by_peer.erase(peer_host_);
  }
  slot_ = Slot::kStarted;
  state_->metrics->SessionStarted();
  return absl::OkStatus();
}

absl::Status SessionReactor::AdmitRequestBytes(size_t bytes) {
  if (bytes >= kLargeRequestBytes) {
    state_->large_requests_since_trim.fetch_add(1, std::memory_order_relaxed);
  }
  if (served_ != nullptr) {
    const uint32_t vertices = served_->setup().vertex_count;
    const int64_t most = MaxFrameRequestBytes(vertices);
    if (static_cast<int64_t>(bytes) > most) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "frame: %d bytes, more than a frame of %d vertices takes (%d)", bytes,
          vertices, most));
    }
  }
  CREASE_RETURN_IF_ERROR(CheckRequestShape(read_buffer_, RequestCaps{}));
  if (served_ == nullptr) {
    // Decoded, a Start takes up to 4 bytes per byte (a 1-byte index becomes
    // a uint32), beside the bytes themselves.
    const SessionCost cost = {
        .bytes = kStartBytesHeldPerByte * static_cast<int64_t>(bytes),
        .what = absl::StrFormat("a start of %d bytes being decoded", bytes)};
    CREASE_RETURN_IF_ERROR(state_->memory->Reserve(cost));
    start_decoding_bytes_.store(cost.bytes);
  }
  return absl::OkStatus();
}

void SessionReactor::ReleaseStartDecoding() {
  if (const int64_t bytes = start_decoding_bytes_.exchange(0); bytes > 0) {
    state_->memory->Release(bytes);
  }
}

void SessionReactor::ReleaseSlot() {
  absl::MutexLock state_lock(&state_->mu);
  if (slot_ == Slot::kNone) return;
  state_->sessions.erase(this);
  if (slot_ == Slot::kStarted) {
    state_->memory->Release(reserved_bytes_);
    --state_->started_sessions;
    if (--state_->started_by_peer[peer_host_] == 0) {
      state_->started_by_peer.erase(peer_host_);
    }
    if (!token_.empty() && --state_->started_by_token[token_] == 0) {
      state_->started_by_token.erase(token_);
    }
    state_->metrics->SessionEnded();
  } else if (slot_ == Slot::kPending) {
    --state_->pending_streams;
    if (--state_->pending_by_peer[peer_host_] == 0) {
      state_->pending_by_peer.erase(peer_host_);
    }
  }
  slot_ = Slot::kNone;
}

void SessionReactor::Account() {
  grpc::Status status = status_;
  // The reaper cancelled the call for its write timeout; the write may have
  // completed just before, so the stream can have ended otherwise since.
  if (write_timed_out_) status = WriteTimeoutStatus();
  // A client that cancels (or vanishes) ends the reads as a half-close does;
  // only the call knows which it was.
  if (status.ok() && context_->IsCancelled()) {
    status = grpc::Status(grpc::StatusCode::CANCELLED,
                          "cancelled before the server's answer");
  }
  state_->metrics->StreamFinished(status.error_code());
  state_->streams_since_trim.fetch_add(1, std::memory_order_relaxed);
  if (!state_->options.session_log) return;
  const std::string code = absl::StatusCodeToString(
      static_cast<absl::StatusCode>(status.error_code()));
  if (served_ == nullptr) {
    // Streams that never started (refused tokens, refused or evicted
    // streams, resets): at most one line a second per code, with how many
    // more; a flood of bad calls must not become a flood of log lines.
    const std::string cause = absl::StrFormat("ended %s before a start", code);
    state_->stream_log.Log(
        cause,
        absl::StrFormat("session %s from %s %s \"%s\"", id_, peer_,
                        status.error_code() == grpc::StatusCode::UNAUTHENTICATED
                            ? "refused UNAUTHENTICATED"
                            : cause,
                        status.error_message()),
        state_->options.session_log, absl::Now());
    return;
  }
  Log(absl::StrFormat(
      "ended %s%s after %.1f s: %d frames answered, %d with errors%s", code,
      status.ok() ? "" : absl::StrCat(" \"", status.error_message(), "\""),
      absl::ToDoubleSeconds(absl::Now() - opened_), frames_answered_,
      frame_errors_,
      first_frame_error_.empty()
          ? ""
          : absl::StrCat(" (first: ", first_frame_error_, ")")));
}

void SessionReactor::Log(const std::string& line) const {
  if (state_->options.session_log) {
    state_->options.session_log(
        absl::StrFormat("session %s from %s %s", id_, peer_, line));
  }
}

}  // namespace crease::server
