#include "server/recording/session_replay.h"

#include <atomic>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "crease/v1/crease.grpc.pb.h"

namespace crease::server {
namespace {

constexpr size_t kMaxDifferences = 10;

struct Recorded {
  uint64_t digest = 0;
  int32_t error_code = 0;
};

}  // namespace

absl::StatusOr<ReplayReport> ReplaySession(
    const SessionRecording& recording,
    const std::shared_ptr<grpc::Channel>& channel,
    const ReplayOptions& options) {
  std::vector<const SessionRecordEntry*> requests;
  absl::flat_hash_map<uint32_t, Recorded> answers;
  for (const SessionRecordEntry& entry : recording.entries) {
    if (entry.kind == SessionRecordEntry::Kind::kRequest) {
      requests.push_back(&entry);
    } else {
      answers[entry.index] = {entry.digest, entry.error_code};
    }
  }
  v1::SessionRequest start;
  if (requests.empty() || !start.ParseFromString(requests.front()->request) ||
      !start.has_start()) {
    return absl::InvalidArgumentError(
        "the recording does not begin with a session's Start");
  }
  auto stub = v1::Crease::NewStub(channel);
  grpc::ClientContext context;
  if (!options.token.empty()) {
    context.AddMetadata("authorization", "Bearer " + options.token);
  }
  auto stream = stub->Session(&context);
  const absl::Time began = absl::Now();
  v1::SessionResponse response;
  if (!stream->Write(start) || !stream->Read(&response) ||
      !response.has_started()) {
    const grpc::Status status = stream->Finish();
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                        absl::StrCat("the server refused the recorded Start: ",
                                     status.error_message()));
  }
  ReplayReport report;
  report.frames = static_cast<int>(requests.size()) - 1;
  absl::Mutex mu;
  int in_flight = 0;         // guarded by mu
  bool reader_done = false;  // guarded by mu: the stream has ended
  // Answers, read while the frames are sent.
  std::thread reader([&] {
    v1::SessionResponse answer;
    while (stream->Read(&answer)) {
      if (!answer.has_frame_result()) continue;
      const v1::FrameResult& result = answer.frame_result();
      const uint64_t digest = AnswerDigest(result);
      absl::MutexLock lock(&mu);
      --in_flight;
      ++report.answered;
      const auto it = answers.find(result.index());
      if (it == answers.end()) {
        ++report.unchecked;
      } else if (it->second.digest == digest &&
                 it->second.error_code == result.error().code()) {
        ++report.matching;
      } else {
        ++report.differing;
        if (report.differences.size() < kMaxDifferences) {
          report.differences.push_back(absl::StrFormat(
              "frame %d: answer digest %016x, error %d; recorded %016x, "
              "error %d",
              result.index(), digest, result.error().code(), it->second.digest,
              it->second.error_code));
        }
      }
      if (options.progress) options.progress(report.answered, report.frames);
    }
    // Ended (or broken): a sender waiting for room must stop waiting.
    absl::MutexLock lock(&mu);
    reader_done = true;
  });
  const int64_t first_us = requests.size() > 1 ? requests[1]->arrival_us : 0;
  v1::SessionRequest frame;
  bool sent_all = true;
  for (size_t i = 1; i < requests.size(); ++i) {
    if (!frame.ParseFromString(requests[i]->request)) {
      sent_all = false;
      break;
    }
    if (options.recorded_pace) {
      absl::SleepFor(began +
                     absl::Microseconds(requests[i]->arrival_us - first_us) -
                     absl::Now());
    } else {
      const int limit = std::max(options.max_in_flight, 1);
      auto room = [&]() { return in_flight < limit || reader_done; };
      absl::MutexLock lock(&mu);
      mu.Await(absl::Condition(&room));
      if (reader_done) {
        sent_all = false;
        break;
      }
    }
    {
      absl::MutexLock lock(&mu);
      ++in_flight;
    }
    if (!stream->Write(frame)) {
      sent_all = false;
      break;
    }
  }
  stream->WritesDone();
  reader.join();
  const grpc::Status status = stream->Finish();
  report.seconds = absl::ToDoubleSeconds(absl::Now() - began);
  if (!status.ok()) {
    return absl::Status(
        static_cast<absl::StatusCode>(status.error_code()),
        absl::StrCat("the replayed stream ended: ", status.error_message()));
  }
  if (!sent_all) {
    return absl::InvalidArgumentError(
        "a recorded frame could not be parsed or sent");
  }
  return report;
}

}  // namespace crease::server
