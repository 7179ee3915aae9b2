#ifndef CREASE_TESTS_SERVER_RAW_STREAM_H_
#define CREASE_TESTS_SERVER_RAW_STREAM_H_

// Tools for the reliability and soak tests: a Session stream spoken in raw
// bytes, a poll with a timeout, this process's resident memory.

#include <grpcpp/create_channel.h>
#include <grpcpp/generic/generic_stub.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "crease/v1/crease.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "gtest/gtest.h"

namespace crease::server {

inline bool WaitFor(const std::function<bool()>& condition,
                    absl::Duration timeout = absl::Seconds(10)) {
  const absl::Time deadline = absl::Now() + timeout;
  while (absl::Now() < deadline) {
    if (condition()) return true;
    absl::SleepFor(absl::Milliseconds(10));
  }
  return condition();
}

// A Session stream spoken in raw bytes over gRPC's generic async API: it can
// send what no well-behaved client would (nothing, garbage) and never read.
class RawStream {
 public:
  explicit RawStream(
      const std::string& target,
      const std::vector<std::pair<std::string, std::string>>& metadata = {})
      : channel_(
            grpc::CreateChannel(target, grpc::InsecureChannelCredentials())),
        stub_(channel_) {
    for (const auto& [key, value] : metadata) context_.AddMetadata(key, value);
    call_ = stub_.PrepareCall(&context_, "/crease.v1.Crease/Session", &queue_);
    call_->StartCall(Tag(1));
    started_ = Next(1, absl::Seconds(5));
  }
  ~RawStream() {
    context_.TryCancel();
    queue_.Shutdown();
    void* tag;
    bool ok;
    while (queue_.Next(&tag, &ok)) {
    }
  }
  bool started() const { return started_; }

  // Whether the bytes were taken by the transport within `timeout`.
  bool Write(const std::string& bytes, absl::Duration timeout) {
    grpc::Slice slice(bytes);
    grpc::ByteBuffer buffer(&slice, 1);
    call_->Write(buffer, Tag(++next_tag_));
    return Next(next_tag_, timeout);
  }

  // The next answer, decoded; nullopt if none came within `timeout` (or the
  // call ended).
  std::optional<v1::SessionResponse> Read(absl::Duration timeout) {
    grpc::ByteBuffer answer;
    call_->Read(&answer, Tag(++next_tag_));
    if (!Next(next_tag_, timeout)) return std::nullopt;
    std::vector<grpc::Slice> slices;
    if (!answer.Dump(&slices).ok()) return std::nullopt;
    std::string bytes;
    for (const grpc::Slice& s : slices) {
      bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
    }
    v1::SessionResponse response;
    if (!response.ParseFromString(bytes)) return std::nullopt;
    return response;
  }

  // The status the server ended the call with; DEADLINE_EXCEEDED (client
  // side) if it has not within `timeout`.
  grpc::Status Finish(absl::Duration timeout) {
    // The status comes after every answer has been read.
    const absl::Time deadline = absl::Now() + timeout;
    while (true) {
      grpc::ByteBuffer answer;
      call_->Read(&answer, Tag(++next_tag_));
      if (!Next(next_tag_, deadline - absl::Now())) break;
    }
    grpc::Status status;
    call_->Finish(&status, Tag(++next_tag_));
    if (!Next(next_tag_, deadline - absl::Now(), /*need_ok=*/false)) {
      return grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "test timeout");
    }
    return status;
  }

 private:
  static void* Tag(intptr_t i) { return reinterpret_cast<void*>(i); }
  bool Next(intptr_t want, absl::Duration timeout, bool need_ok = true) {
    const auto deadline = absl::ToChronoTime(absl::Now() + timeout);
    void* tag = nullptr;
    bool ok = false;
    while (queue_.AsyncNext(&tag, &ok, deadline) ==
           grpc::CompletionQueue::GOT_EVENT) {
      if (tag == Tag(want)) return ok || !need_ok;
    }
    return false;
  }

  std::shared_ptr<grpc::Channel> channel_;
  grpc::GenericStub stub_;
  grpc::ClientContext context_;
  grpc::CompletionQueue queue_;
  std::unique_ptr<grpc::GenericClientAsyncReaderWriter> call_;
  intptr_t next_tag_ = 1;
  bool started_ = false;
};

inline std::string Serialized(const v1::SessionRequest& request) {
  std::string bytes;
  EXPECT_TRUE(request.SerializeToString(&bytes));
  return bytes;
}

inline std::string StartBytes(const v1::Start& start) {
  v1::SessionRequest request;
  *request.mutable_start() = start;
  return Serialized(request);
}

inline std::string FrameBytes(const v1::Frame& frame) {
  v1::SessionRequest request;
  *request.mutable_frame() = frame;
  return Serialized(request);
}

// One grpc.health.v1 Watch stream (whole server).
struct HealthWatch {
  explicit HealthWatch(grpc::health::v1::Health::Stub& stub)
      : reader(stub.Watch(&context, grpc::health::v1::HealthCheckRequest())) {}
  // The next status; nullopt when the stream has ended.
  std::optional<grpc::health::v1::HealthCheckResponse::ServingStatus> Next() {
    grpc::health::v1::HealthCheckResponse response;
    if (!reader->Read(&response)) return std::nullopt;
    return response.status();
  }
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReader<grpc::health::v1::HealthCheckResponse>>
      reader;
};

// Resident memory of this process (the server runs in it), in MB.
inline double ResidentMb() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(getpagesize()) /
         (1 << 20);
}

// The peak resident memory of this process (VmHWM), in MB; 0 when unknown.
inline double PeakResidentMb() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024;
  }
  return 0;
}

}  // namespace crease::server

#endif  // CREASE_TESTS_SERVER_RAW_STREAM_H_
