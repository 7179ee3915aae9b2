// Fuzzes reading a session recording (crease-replay's input, a file anyone
// may hand it): ParseSessionRecording either refuses it (InvalidArgument,
// with a message) or reads whole records, every request's bytes within the
// input and an answer's fields as written; a recording rewritten from what
// was read reads back the same.

#include <cstdint>
#include <filesystem>
#include <string>

#include "server/recording/session_record.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace crease::server;
  const absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<SessionRecording> read =
      ParseSessionRecording(bytes, "fuzz input");
  if (!read.ok()) {
    CREASE_FUZZ_CHECK(absl::IsInvalidArgument(read.status()));
    CREASE_FUZZ_CHECK(!read.status().message().empty());
    return 0;
  }
  size_t request_bytes = 0;
  for (const SessionRecordEntry& entry : read->entries) {
    request_bytes += entry.request.size();
    CREASE_FUZZ_CHECK(entry.kind == SessionRecordEntry::Kind::kRequest ||
                      entry.request.empty());
  }
  CREASE_FUZZ_CHECK(request_bytes <= size);
  // Written again (directly, no sink) and read back: the same records.
  const std::string path =
      std::filesystem::temp_directory_path() / "session_record_fuzz.crec";
  {
    auto writer = SessionRecordWriter::Create(path, size_t{1} << 30);
    CREASE_FUZZ_CHECK(writer.ok());
    for (const SessionRecordEntry& entry : read->entries) {
      if (entry.kind == SessionRecordEntry::Kind::kRequest) {
        const absl::string_view piece = entry.request;
        (*writer)->AddRequest(entry.arrival_us, {&piece, 1});
      } else {
        (*writer)->AddAnswer(entry.index, entry.digest, entry.error_code);
      }
    }
  }
  absl::StatusOr<SessionRecording> again = ReadSessionRecording(path);
  CREASE_FUZZ_CHECK(again.ok());
  CREASE_FUZZ_CHECK(!again->truncated);
  CREASE_FUZZ_CHECK(again->entries.size() == read->entries.size());
  for (size_t i = 0; i < read->entries.size(); ++i) {
    const SessionRecordEntry& a = read->entries[i];
    const SessionRecordEntry& b = again->entries[i];
    CREASE_FUZZ_CHECK(a.kind == b.kind && a.request == b.request &&
                      a.index == b.index && a.digest == b.digest);
    if (a.kind == SessionRecordEntry::Kind::kRequest) {
      CREASE_FUZZ_CHECK(a.arrival_us == b.arrival_us);
    } else {
      CREASE_FUZZ_CHECK(a.error_code == b.error_code);
    }
  }
  return 0;
}
