#include "server/recording/session_record.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace crease::server {
namespace {

constexpr absl::string_view kHeader = "CREASEREC1\n";
constexpr uint8_t kRequest = 1, kAnswer = 2;
constexpr size_t kFileBuffer = size_t{1} << 20;
// Written records' buffers kept for reuse (RecordingSink::TakeBuffer).
constexpr size_t kSpareBuffers = 64;
constexpr size_t kMaxSpareBytes = size_t{1} << 20;

// FNV-1a over 8-byte little-endian words (the tail zero-padded), then the
// length: a Fox answer's 16 KB take 2,000 dependent multiplies, not the
// 16,000 of byte-wise FNV, on the recorded session's own thread.
uint64_t WordHash(absl::string_view bytes) {
  uint64_t hash = 14695981039346656037ull;
  size_t at = 0;
  for (; at + 8 <= bytes.size(); at += 8) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + at, 8);
    hash = (hash ^ word) * 1099511628211ull;
    hash ^= hash >> 29;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, bytes.data() + at, bytes.size() - at);
  hash = (hash ^ tail) * 1099511628211ull;
  return (hash ^ bytes.size()) * 1099511628211ull;
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

uint64_t AnswerDigestInPlace(v1::FrameResult* result, std::string* scratch) {
  // Set aside (swapped, not copied), serialised without, put back.
  v1::StageTimings* timings =
      result->has_timings() ? result->release_timings() : nullptr;
  std::string image, normal_map, height_map;
  if (result->has_image()) result->mutable_image()->mutable_data()->swap(image);
  if (result->has_uv_maps()) {
    result->mutable_uv_maps()->mutable_normal_map()->swap(normal_map);
    result->mutable_uv_maps()->mutable_height_map()->swap(height_map);
  }
  scratch->clear();
  {
    google::protobuf::io::StringOutputStream stream(scratch);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    result->SerializeToCodedStream(&coded);
  }
  if (timings != nullptr) result->set_allocated_timings(timings);
  if (result->has_image()) result->mutable_image()->mutable_data()->swap(image);
  if (result->has_uv_maps()) {
    result->mutable_uv_maps()->mutable_normal_map()->swap(normal_map);
    result->mutable_uv_maps()->mutable_height_map()->swap(height_map);
  }
  return WordHash(*scratch);
}

uint64_t AnswerDigest(const v1::FrameResult& result) {
  v1::FrameResult copy = result;
  std::string scratch;
  return AnswerDigestInPlace(&copy, &scratch);
}

struct RecordFile {
  std::FILE* file = nullptr;
  std::vector<char> buffer;  // setvbuf's
  ~RecordFile() {
    if (file != nullptr) std::fclose(file);
  }
};

RecordingSink::RecordingSink(size_t max_queued_bytes)
    : max_queued_bytes_(max_queued_bytes), thread_([this] { Run(); }) {}

RecordingSink::~RecordingSink() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  thread_.join();
}

std::string RecordingSink::TakeBuffer() {
  absl::MutexLock lock(&mu_);
  if (spare_.empty()) return std::string();
  std::string buffer = std::move(spare_.back());
  spare_.pop_back();
  return buffer;
}

bool RecordingSink::Append(std::shared_ptr<RecordFile> file,
                           std::string bytes) {
  absl::MutexLock lock(&mu_);
  // One record is taken whatever its size when nothing waits (a Start near
  // the message limit); past the cap otherwise, the disk is behind.
  if (!queue_.empty() && queued_bytes_ + bytes.size() > max_queued_bytes_) {
    return false;
  }
  queued_bytes_ += bytes.size();
  queue_.emplace_back(std::move(file), std::move(bytes));
  return true;
}

void RecordingSink::Run() {
  auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return stopping_ || !queue_.empty();
  };
  while (true) {
    std::pair<std::shared_ptr<RecordFile>, std::string> item;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(&ready));
      if (queue_.empty()) return;  // stopping, all written
      item = std::move(queue_.front());
      queue_.pop_front();
      queued_bytes_ -= item.second.size();
    }
    std::fwrite(item.second.data(), 1, item.second.size(), item.first->file);
    item.second.clear();
    // Kept for reuse unless a big message grew it: a spare never holds more
    // than a frame's worth for the server's lifetime.
    if (item.second.capacity() > kMaxSpareBytes) continue;
    absl::MutexLock lock(&mu_);
    if (spare_.size() < kSpareBuffers) spare_.push_back(std::move(item.second));
  }
}

absl::StatusOr<std::unique_ptr<SessionRecordWriter>>
SessionRecordWriter::Create(const std::string& path, size_t max_bytes,
                            RecordingSink* sink) {
  std::unique_ptr<SessionRecordWriter> writer(new SessionRecordWriter());
  writer->path_ = path;
  writer->max_bytes_ = max_bytes;
  writer->sink_ = sink;
  writer->file_ = std::make_shared<RecordFile>();
  RecordFile& file = *writer->file_;
  file.file = std::fopen(path.c_str(), "wb");
  if (file.file == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrFormat("cannot record to %s: %s", path, std::strerror(errno)));
  }
  file.buffer.resize(kFileBuffer);
  std::setvbuf(file.file, file.buffer.data(), _IOFBF, file.buffer.size());
  writer->Put(kHeader.data(), kHeader.size());
  writer->EndRecord();
  return writer;
}

SessionRecordWriter::~SessionRecordWriter() = default;

void SessionRecordWriter::EndRecord() {
  if (sink_ == nullptr || record_.empty()) return;
  if (!sink_->Append(file_, std::move(record_))) {
    sink_full_ = full_ = true;
  }
  record_.clear();
}

bool SessionRecordWriter::Reserve(size_t bytes) {
  if (full_ || written_ + bytes > max_bytes_) {
    full_ = true;
    return false;
  }
  return true;
}

void SessionRecordWriter::Put(const void* data, size_t bytes) {
  if (sink_ != nullptr) {
    record_.append(static_cast<const char*>(data), bytes);
  } else {
    std::fwrite(data, 1, bytes, file_->file);
  }
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

void SessionRecordWriter::AddRequest(
    int64_t arrival_us, absl::Span<const absl::string_view> bytes) {
  size_t length = 0;
  for (absl::string_view piece : bytes) length += piece.size();
  if (!Reserve(1 + 10 + 10 + length)) return;
  if (sink_ != nullptr) {
    record_ = sink_->TakeBuffer();
    record_.reserve(1 + 10 + 10 + length);
  }
  Put(&kRequest, 1);
  PutVarint(static_cast<uint64_t>(std::max<int64_t>(arrival_us, 0)));
  PutVarint(length);
  for (absl::string_view piece : bytes) Put(piece.data(), piece.size());
  EndRecord();
}

void SessionRecordWriter::AddAnswer(uint32_t index, uint64_t digest,
                                    int32_t error_code) {
  if (!Reserve(1 + 10 + 8 + 10)) return;
  Put(&kAnswer, 1);
  PutVarint(index);
  uint8_t little[8];
  for (int i = 0; i < 8; ++i)
    little[i] = static_cast<uint8_t>(digest >> (8 * i));
  Put(little, 8);
  PutVarint(static_cast<uint32_t>(error_code));
  EndRecord();
}

absl::StatusOr<SessionRecording> ReadSessionRecording(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrFormat("cannot open the recording %s", path));
  }
  const std::string data((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  return ParseSessionRecording(data, path);
}

absl::StatusOr<SessionRecording> ParseSessionRecording(absl::string_view data,
                                                       absl::string_view path) {
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
      entry.arrival_us = static_cast<int64_t>(
          std::min<uint64_t>(a, std::numeric_limits<int64_t>::max()));
      entry.request.assign(data.data() + at, b);
      at += b;
    } else if (kind == kAnswer) {
      if (!ReadVarint(data, &at, &a) || data.size() - at < 8) {
        recording.truncated = true;
        break;
      }
      entry.kind = SessionRecordEntry::Kind::kAnswer;
      entry.index = static_cast<uint32_t>(a);
      for (int i = 0; i < 8; ++i) {
        entry.digest |=
            static_cast<uint64_t>(static_cast<uint8_t>(data[at + i]))
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
