#include "server/recording/session_record.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace crease::server {
namespace {

constexpr absl::string_view kHeader = "CREASEREC1\n";
constexpr uint8_t kRequest = 1, kAnswer = 2;
constexpr size_t kFileBuffer = size_t{1} << 20;

uint64_t Fnv1a(absl::string_view bytes) {
  uint64_t hash = 14695981039346656037ull;
  for (const char c : bytes) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

// Reads a varint at `*at` in `data`; false past the end.
bool ReadVarint(absl::string_view data, size_t* at, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*at >= data.size()) return false;
    const uint8_t byte = static_cast<uint8_t>(data[(*at)++]);
    *value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

}  // namespace

uint64_t AnswerDigest(const v1::FrameResult& result) {
  // The deterministic fields copied one by one (not the whole message and
  // then cleared): the image and map bytes are never copied.
  v1::FrameResult kept;
  kept.set_index(result.index());
  if (result.has_error()) *kept.mutable_error() = result.error();
  *kept.mutable_wrinkles() = result.wrinkles();
  kept.set_labels(result.labels());
  *kept.mutable_tensors() = result.tensors();
  if (result.has_image()) {
    kept.mutable_image()->set_format(result.image().format());
    kept.mutable_image()->set_width(result.image().width());
    kept.mutable_image()->set_height(result.image().height());
  }
  if (result.has_wrinkled_mesh()) {
    *kept.mutable_wrinkled_mesh() = result.wrinkled_mesh();
  }
  if (result.has_vertex_fields()) {
    *kept.mutable_vertex_fields() = result.vertex_fields();
  }
  if (result.has_uv_maps()) {
    kept.mutable_uv_maps()->set_size(result.uv_maps().size());
    kept.mutable_uv_maps()->set_encoding(result.uv_maps().encoding());
    kept.mutable_uv_maps()->set_height_range(result.uv_maps().height_range());
  }
  if (result.has_vertex_amplitudes()) {
    *kept.mutable_vertex_amplitudes() = result.vertex_amplitudes();
  }
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    kept.SerializeToCodedStream(&coded);
  }
  return Fnv1a(bytes);
}

absl::StatusOr<std::unique_ptr<SessionRecordWriter>>
SessionRecordWriter::Create(const std::string& path, size_t max_bytes) {
  std::unique_ptr<SessionRecordWriter> writer(new SessionRecordWriter());
  writer->path_ = path;
  writer->max_bytes_ = max_bytes;
  writer->file_ = std::fopen(path.c_str(), "wb");
  if (writer->file_ == nullptr) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "cannot record to %s: %s", path, std::strerror(errno)));
  }
  writer->buffer_.resize(kFileBuffer);
  std::setvbuf(writer->file_, writer->buffer_.data(), _IOFBF,
               writer->buffer_.size());
  writer->Put(kHeader.data(), kHeader.size());
  return writer;
}

SessionRecordWriter::~SessionRecordWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

bool SessionRecordWriter::Reserve(size_t bytes) {
  if (full_ || written_ + bytes > max_bytes_) {
    full_ = true;
    return false;
  }
  return true;
}

void SessionRecordWriter::Put(const void* data, size_t bytes) {
  std::fwrite(data, 1, bytes, file_);
  written_ += bytes;
}

void SessionRecordWriter::PutVarint(uint64_t value) {
  uint8_t bytes[10];
  int n = 0;
  do {
    bytes[n] = static_cast<uint8_t>(value & 0x7f);
    value >>= 7;
    if (value != 0) bytes[n] |= 0x80;
    ++n;
  } while (value != 0);
  Put(bytes, n);
}

void SessionRecordWriter::AddRequest(int64_t arrival_us,
                                     absl::Span<const absl::string_view> bytes) {
  size_t length = 0;
  for (absl::string_view piece : bytes) length += piece.size();
  if (!Reserve(1 + 10 + 10 + length)) return;
  Put(&kRequest, 1);
  PutVarint(static_cast<uint64_t>(std::max<int64_t>(arrival_us, 0)));
  PutVarint(length);
  for (absl::string_view piece : bytes) Put(piece.data(), piece.size());
}

void SessionRecordWriter::AddAnswer(uint32_t index, uint64_t digest,
                                    int32_t error_code) {
  if (!Reserve(1 + 10 + 8 + 10)) return;
  Put(&kAnswer, 1);
  PutVarint(index);
  uint8_t little[8];
  for (int i = 0; i < 8; ++i) little[i] = static_cast<uint8_t>(digest >> (8 * i));
  Put(little, 8);
  PutVarint(static_cast<uint32_t>(error_code));
}

absl::StatusOr<SessionRecording> ReadSessionRecording(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrFormat("cannot open the recording %s", path));
  }
  const std::string data((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  if (!absl::StartsWith(data, kHeader)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s is not a Crease session recording (no \"CREASEREC1\" header)",
        path));
  }
  SessionRecording recording;
  size_t at = kHeader.size();
  while (at < data.size()) {
    const uint8_t kind = static_cast<uint8_t>(data[at++]);
    SessionRecordEntry entry;
    uint64_t a = 0, b = 0;
    if (kind == kRequest) {
      if (!ReadVarint(data, &at, &a) || !ReadVarint(data, &at, &b) ||
          b > data.size() - at) {
        recording.truncated = true;
        break;
      }
      entry.kind = SessionRecordEntry::Kind::kRequest;
      entry.arrival_us = static_cast<int64_t>(a);
      entry.request.assign(data, at, b);
      at += b;
    } else if (kind == kAnswer) {
      if (!ReadVarint(data, &at, &a) || data.size() - at < 8) {
        recording.truncated = true;
        break;
      }
      entry.kind = SessionRecordEntry::Kind::kAnswer;
      entry.index = static_cast<uint32_t>(a);
      for (int i = 0; i < 8; ++i) {
        entry.digest |= static_cast<uint64_t>(static_cast<uint8_t>(data[at + i]))
                        << (8 * i);
      }
      at += 8;
      if (!ReadVarint(data, &at, &b)) {
        recording.truncated = true;
        break;
      }
      entry.error_code = static_cast<int32_t>(b);
    } else {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: unknown record kind %d at byte %d", path, kind, at - 1));
    }
    recording.entries.push_back(std::move(entry));
  }
  return recording;
}

bool RecordingOptions::Wants(uint64_t number, absl::string_view peer_address,
                             absl::string_view session_id) const {
  if (dir.empty() || every < 1) return false;
  if (!peer.empty() && !absl::StrContains(peer_address, peer)) return false;
  if (!session.empty() && session_id != session) return false;
  return number % static_cast<uint64_t>(every) == 0;
}

}  // namespace crease::server
