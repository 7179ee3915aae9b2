// A session's recording for crease-replay (docs/operations.md, "Recording
// and replaying sessions"): the SessionReactor's part, kept apart from the
// stream's life in session_reactor.cc.

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "server/session_reactor.h"

namespace crease::server {

void SessionReactor::MaybeStartRecording() {
  const RecordingOptions& recording = state_->options.recording;
  const uint64_t number = state_->sessions_started.fetch_add(1);
  if (!recording.Wants(number, peer_, id_)) {
    request_slices_.clear();
    return;
  }
  const std::string path = absl::StrFormat(
      "%s/%s-%s.crec", recording.dir,
      absl::FormatTime("%Y%m%d-%H%M%S", opened_, absl::UTCTimeZone()), id_);
  absl::StatusOr<std::unique_ptr<SessionRecordWriter>> writer =
      SessionRecordWriter::Create(path, recording.max_bytes,
                                  state_->recording_sink.get());
  if (!writer.ok()) {
    Log(absl::StrCat("not recorded: ", writer.status().message()));
    request_slices_.clear();
    return;
  }
  recorder_ = *std::move(writer);
  Log(absl::StrCat("recording to ", path));
  RecordRequest();  // the Start
}

void SessionReactor::RecordRequest() {
  request_pieces_.clear();
  for (const grpc::Slice& slice : request_slices_) {
    request_pieces_.emplace_back(reinterpret_cast<const char*>(slice.begin()),
                                 slice.size());
  }
  recorder_->AddRequest(request_arrival_us_, request_pieces_);
  request_slices_.clear();
  LogIfRecordingStopped();
}

void SessionReactor::LogIfRecordingStopped() {
  if (!recorder_->full() || recording_stop_logged_) return;
  recording_stop_logged_ = true;
  Log(absl::StrFormat("recording stopped at %d bytes (%s): %s",
                      recorder_->bytes_written(), recorder_->path(),
                      recorder_->sink_full()
                          ? "the disk fell 64 MiB behind the recorded sessions"
                          : "its size cap (--record_max_mb)"));
}

}  // namespace crease::server
