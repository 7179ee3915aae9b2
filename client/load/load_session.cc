#include "client/load/load_session.h"

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace crease::load {
namespace {

std::string CodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::UNKNOWN:
      return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    default:
      return absl::StrCat("CODE_", static_cast<int>(code));
  }
}

}  // namespace

LoadSession::LoadSession(v1::Crease::Stub* stub, const LoadAnimation* animation,
                         double fps, int window, const std::string& token)
    : animation_(animation),
      period_(absl::Seconds(1.0 / fps)),
      window_(window) {
  if (!token.empty()) {
    context_.AddMetadata("authorization", absl::StrCat("Bearer ", token));
  }
  stub->async()->Session(&context_, this);
  absl::MutexLock lock(&mu_);
  stats_.sessions = 1;
}

void LoadSession::Open() {
  v1::SessionRequest request;
  *request.mutable_start() = animation_->start;
  {
    absl::MutexLock lock(&mu_);
    opened_ = true;
    WriteLocked(std::move(request));
  }
  StartRead(&response_);
  // The pacing thread starts writes from outside gRPC's reactions: a hold
  // keeps the call (and OnDone) from ending under it until Close.
  AddHold();
  StartCall();
}

void LoadSession::WriteLocked(v1::SessionRequest request) {
  stats_.bytes_sent += static_cast<int64_t>(request.ByteSizeLong());
  writing_ = std::move(request);
  write_busy_ = true;
  StartWrite(&writing_);
}

void LoadSession::Tick(absl::Time due) {
  absl::MutexLock lock(&mu_);
  if (!started_ || closing_ || done_) return;
  if (write_busy_ || static_cast<int>(in_flight_.size()) >= window_) {
    ++stats_.dropped;
    return;
  }
  const uint32_t index = next_index_++;
  v1::SessionRequest request;
  *request.mutable_frame() =
      animation_->frames[index % animation_->frames.size()];
  request.mutable_frame()->set_index(index);
  in_flight_.push_back({index, due});
  ++stats_.sent;
  WriteLocked(std::move(request));
}

void LoadSession::Close() {
  bool release = false;
  {
    absl::MutexLock lock(&mu_);
    closing_ = true;
    if (!write_busy_ && !writes_done_sent_ && !done_) {
      writes_done_sent_ = true;
      StartWritesDone();
    }
    release = opened_ && !hold_released_;
    hold_released_ = true;
    if (!opened_) done_ = true;  // never started: no call to wait for
  }
  if (release) RemoveHold();  // OnDone may run from here on
}

void LoadSession::OnWriteDone(bool ok) {
  absl::MutexLock lock(&mu_);
  write_busy_ = false;
  if (ok && closing_ && !writes_done_sent_) {
    writes_done_sent_ = true;
    StartWritesDone();
  }
}

void LoadSession::OnWritesDoneDone(bool) {}

void LoadSession::OnReadDone(bool ok) {
  if (!ok) return;  // the stream is ending: OnDone follows
  const absl::Time now = absl::Now();
  {
    absl::MutexLock lock(&mu_);
    stats_.bytes_received += static_cast<int64_t>(response_.ByteSizeLong());
    if (response_.has_started()) {
      started_ = true;
      ++stats_.sessions_started;
    } else if (response_.has_frame_result()) {
      const v1::FrameResult& result = response_.frame_result();
      while (!in_flight_.empty() && in_flight_.front().index < result.index()) {
        in_flight_.pop_front();  // cannot happen: answers come in order
      }
      if (!in_flight_.empty() && in_flight_.front().index == result.index()) {
        const double ms =
            absl::ToDoubleMilliseconds(now - in_flight_.front().due);
        in_flight_.pop_front();
        if (result.index() >= first_counted_) {
          ++stats_.answered;
          if (!result.image().data().empty()) {
            ++stats_.images;
            stats_.image_bytes +=
                static_cast<int64_t>(result.image().data().size());
          }
          stats_.latencies_ms.push_back(ms);
          if (ms > absl::ToDoubleMilliseconds(period_)) ++stats_.late;
        }
      }
      if (result.has_error()) ++stats_.frame_errors;
    }
  }
  StartRead(&response_);
}

void LoadSession::OnDone(const grpc::Status& status) {
  absl::MutexLock lock(&mu_);
  done_ = true;
  // Ours: CANCELLED after Cancel at the end of a run is not the server's.
  if (!status.ok() &&
      !(closing_ && status.error_code() == grpc::StatusCode::CANCELLED)) {
    ++stats_.errors[CodeName(status.error_code())];
  }
}

bool LoadSession::WaitDone(absl::Time deadline) {
  absl::MutexLock lock(&mu_);
  return mu_.AwaitWithDeadline(absl::Condition(&done_), deadline);
}

bool LoadSession::started() const {
  absl::MutexLock lock(&mu_);
  return started_;
}

bool LoadSession::done() const {
  absl::MutexLock lock(&mu_);
  return done_;
}

LoadStats LoadSession::Snapshot() const {
  absl::MutexLock lock(&mu_);
  return stats_;
}

void LoadSession::ResetStats() {
  absl::MutexLock lock(&mu_);
  LoadStats kept;
  kept.sessions = 1;
  kept.sessions_started = stats_.sessions_started;
  kept.errors = std::move(stats_.errors);  // a refusal counts whenever
  stats_ = std::move(kept);
  first_counted_ = next_index_;
}

}  // namespace crease::load
