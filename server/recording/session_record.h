#ifndef CREASE_SERVER_RECORDING_SESSION_RECORD_H_
#define CREASE_SERVER_RECORDING_SESSION_RECORD_H_
// A session recorded to a file (docs/operations.md, "Recording and
// replaying sessions"): every message the client sent (the Start and each
// Frame, the bytes as they arrived) with its arrival time, and a digest of
// each answer's deterministic part, so crease-replay can send them again and
// check that the answers are the same.
//
// File: "CREASEREC1\n", then records, each a kind byte, then
//   kind 1 (request): varint microseconds since the stream opened, varint
//                     length, that many bytes of one crease.v1.SessionRequest;
//   kind 2 (answer):  varint frame index, 8 bytes little-endian digest
//                     (AnswerDigest), varint error code (0: none).
// A file cut short (a crash, the size cap) reads up to its last whole record.

#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "crease/v1/crease.pb.h"

namespace crease::server {

// A 64-bit digest (an FNV-style hash of 8-byte words over a deterministic
// serialisation; little-endian machines) of what an
// answer says that does not depend on the machine or the moment: its index,
// error, wrinkles, labels, tensors, wrinkled mesh, vertex fields and
// amplitudes, and the image's and UV maps' format and size. Not the stage
// timings, nor the encoded image and map bytes, which a GPU and llvmpipe draw
// a level apart.
uint64_t AnswerDigest(const v1::FrameResult& result);

// The same digest, computed without copying `result`: its timings and its
// image and map bytes are set aside while the rest is serialised into
// `scratch` (reused from call to call), then put back.
uint64_t AnswerDigestInPlace(v1::FrameResult* result, std::string* scratch);

// An open recording file, closed when the last holder lets go.
struct RecordFile;

// One thread that writes every recording's bytes, so a recorded session's
// thread never waits on the disk (a 1 MiB write every 50 Fox frames put its
// p99 at 5-6 ms). Bounded: past `max_queued_bytes` waiting, Append refuses.
class RecordingSink {
 public:
  explicit RecordingSink(size_t max_queued_bytes = size_t{64} << 20);
  ~RecordingSink();  // writes what is queued, then stops
  RecordingSink(const RecordingSink&) = delete;
  RecordingSink& operator=(const RecordingSink&) = delete;
  // Queues `bytes` for `file`, after what was queued for it; false (nothing
  // queued) when the queue is full.
  bool Append(std::shared_ptr<RecordFile> file, std::string bytes);
  // An empty string with the capacity of one written before, when there is
  // one: records are built in recycled buffers, not a new one a frame.
  std::string TakeBuffer();

 private:
  void Run();
  absl::Mutex mu_;
  std::deque<std::pair<std::shared_ptr<RecordFile>, std::string>> queue_
      ABSL_GUARDED_BY(mu_);
  size_t queued_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<std::string> spare_ ABSL_GUARDED_BY(mu_);  // written, cleared
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  const size_t max_queued_bytes_;
  std::thread thread_;
};

// Appends a session's records to its file: through `sink` when given, else
// on the calling thread through a 1 MiB buffer. Not thread-safe: one
// session's messages are handled one at a time.
class SessionRecordWriter {
 public:
  // Creates (truncates) `path`. Past `max_bytes` the records stop (a last
  // request cut there is not written) and full() says so; so they do when
  // the sink's queue is full (sink_full() then).
  static absl::StatusOr<std::unique_ptr<SessionRecordWriter>> Create(
      const std::string& path, size_t max_bytes, RecordingSink* sink = nullptr);
  ~SessionRecordWriter();  // flushes and closes
  SessionRecordWriter(const SessionRecordWriter&) = delete;
  SessionRecordWriter& operator=(const SessionRecordWriter&) = delete;

  // One SessionRequest's bytes, in the pieces gRPC received them in.
  void AddRequest(int64_t arrival_us,
                  absl::Span<const absl::string_view> bytes);
  void AddAnswer(uint32_t index, uint64_t digest, int32_t error_code);
  bool full() const { return full_; }
  bool sink_full() const { return sink_full_; }
  size_t bytes_written() const { return written_; }
  const std::string& path() const { return path_; }

 private:
  SessionRecordWriter() = default;
  bool Reserve(size_t bytes);  // false (and full) past max_bytes_
  void Put(const void* data, size_t bytes);
  void PutVarint(uint64_t value);
  void EndRecord();  // hands the record to the sink, if any
  std::shared_ptr<RecordFile> file_;
  RecordingSink* sink_ = nullptr;
  std::string record_;  // with a sink: the record being built
  std::string path_;
  size_t max_bytes_ = 0, written_ = 0;
  bool full_ = false, sink_full_ = false;
};

// One record read back.
struct SessionRecordEntry {
  enum class Kind { kRequest, kAnswer } kind = Kind::kRequest;
  int64_t arrival_us = 0;  // requests
  std::string request;     // requests: SessionRequest bytes
  uint32_t index = 0;      // answers
  uint64_t digest = 0;     // answers
  int32_t error_code = 0;  // answers
};

struct SessionRecording {
  std::vector<SessionRecordEntry> entries;
  bool truncated = false;  // a record was cut short (the file's end)
};

// InvalidArgument for a file that is not a recording (wrong header, an
// unknown record kind); NotFound when it cannot be opened.
absl::StatusOr<SessionRecording> ReadSessionRecording(const std::string& path);
// The same from the file's bytes; `name` is for messages.
absl::StatusOr<SessionRecording> ParseSessionRecording(absl::string_view data,
                                                       absl::string_view name);

// Which sessions the server records (ServerOptions::recording).
struct RecordingOptions {
  std::string dir;      // empty: none
  int every = 1;        // every Nth session that starts (1: all)
  std::string peer;     // non-empty: only peers whose address contains it
  std::string session;  // non-empty: only this session id ("s12")
  size_t max_bytes = size_t{256} << 20;  // per file
  // Whether the `number`th session (0-based, in start order) with this peer
  // and id is recorded.
  bool Wants(uint64_t number, absl::string_view peer_address,
             absl::string_view session_id) const;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_RECORDING_SESSION_RECORD_H_
