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
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "crease/v1/crease.pb.h"

namespace crease::server {

// A 64-bit digest (FNV-1a over a deterministic serialisation) of what an
// answer says that does not depend on the machine or the moment: its index,
// error, wrinkles, labels, tensors, wrinkled mesh, vertex fields and
// amplitudes, and the image's and UV maps' format and size. Not the stage
// timings, nor the encoded image and map bytes, which a GPU and llvmpipe draw
// a level apart.
uint64_t AnswerDigest(const v1::FrameResult& result);

// Appends a session's records to its file, through a 1 MiB buffer. Not
// thread-safe: one session's messages are handled one at a time.
class SessionRecordWriter {
 public:
  // Creates (truncates) `path`. Past `max_bytes` the records stop (a last
  // request cut there is not written) and full() says so.
  static absl::StatusOr<std::unique_ptr<SessionRecordWriter>> Create(
      const std::string& path, size_t max_bytes);
  ~SessionRecordWriter();  // flushes and closes
  SessionRecordWriter(const SessionRecordWriter&) = delete;
  SessionRecordWriter& operator=(const SessionRecordWriter&) = delete;

  // One SessionRequest's bytes, in the pieces gRPC received them in.
  void AddRequest(int64_t arrival_us, absl::Span<const absl::string_view> bytes);
  void AddAnswer(uint32_t index, uint64_t digest, int32_t error_code);
  bool full() const { return full_; }
  size_t bytes_written() const { return written_; }
  const std::string& path() const { return path_; }

 private:
  SessionRecordWriter() = default;
  bool Reserve(size_t bytes);  // false (and full) past max_bytes_
  void Put(const void* data, size_t bytes);
  void PutVarint(uint64_t value);
  std::FILE* file_ = nullptr;
  std::string path_;
  size_t max_bytes_ = 0, written_ = 0;
  bool full_ = false;
  std::vector<char> buffer_;  // setvbuf's
};

// One record read back.
struct SessionRecordEntry {
  enum class Kind { kRequest, kAnswer } kind = Kind::kRequest;
  int64_t arrival_us = 0;    // requests
  std::string request;       // requests: SessionRequest bytes
  uint32_t index = 0;        // answers
  uint64_t digest = 0;       // answers
  int32_t error_code = 0;    // answers
};

struct SessionRecording {
  std::vector<SessionRecordEntry> entries;
  bool truncated = false;  // a record was cut short (the file's end)
};

// InvalidArgument for a file that is not a recording (wrong header, an
// unknown record kind); NotFound when it cannot be opened.
absl::StatusOr<SessionRecording> ReadSessionRecording(const std::string& path);

// Which sessions the server records (ServerOptions::recording).
struct RecordingOptions {
  std::string dir;        // empty: none
  int every = 1;          // every Nth session that starts (1: all)
  std::string peer;       // non-empty: only peers whose address contains it
  std::string session;    // non-empty: only this session id ("s12")
  size_t max_bytes = size_t{256} << 20;  // per file
  // Whether the `number`th session (0-based, in start order) with this peer
  // and id is recorded.
  bool Wants(uint64_t number, absl::string_view peer_address,
             absl::string_view session_id) const;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_RECORDING_SESSION_RECORD_H_
