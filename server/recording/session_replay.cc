#include "server/recording/session_replay.h"

#include <algorithm>
#include <thread>
#include <utility>
#include <vector>

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

// A recording's requests in order (the Start first), and its answers by frame
// index.
struct RecordingParts {
  std::vector<const SessionRecordEntry*> requests;
  absl::flat_hash_map<uint32_t, Recorded> answers;
};

RecordingParts SplitRecording(const SessionRecording& recording) {
  RecordingParts parts;
  for (const SessionRecordEntry& entry : recording.entries) {
    if (entry.kind == SessionRecordEntry::Kind::kRequest) {
      parts.requests.push_back(&entry);
    } else {
      parts.answers[entry.index] = {entry.digest, entry.error_code};
    }
  }
  return parts;
}

// What the answer reader and the frame sender share while a replay runs: the
// report, the frames in flight, and whether the stream has ended.
class ReplayTally {
 public:
  ReplayTally(const absl::flat_hash_map<uint32_t, Recorded>& answers,
              int frames, const ReplayOptions& options)
      : answers_(answers), options_(options) {
    report_.frames = frames;
  }

  // Checks one answer against the recorded one.
  void Add(const v1::FrameResult& result) {
    const uint64_t digest = AnswerDigest(result);
    absl::MutexLock lock(&mu_);
    --in_flight_;
    ++report_.answered;
    const auto it = answers_.find(result.index());
    if (it == answers_.end()) {
      ++report_.unchecked;
    } else if (it->second.digest == digest &&
               it->second.error_code == result.error().code()) {
      ++report_.matching;
    } else {
      ++report_.differing;
      if (report_.differences.size() < kMaxDifferences) {
        report_.differences.push_back(absl::StrFormat(
            "frame %d: answer digest %016x, error %d; recorded %016x, "
            "error %d",
            result.index(), digest, result.error().code(), it->second.digest,
            it->second.error_code));
      }
    }
    if (options_.progress) options_.progress(report_.answered, report_.frames);
  }

  // The stream has ended (or broken): a sender waiting for room stops.
  void EndOfAnswers() {
    absl::MutexLock lock(&mu_);
    reader_done_ = true;
  }

  // Waits until fewer than `limit` frames are in flight; false if the stream
  // ended first.
  bool AwaitRoom(int limit) {
    auto room = [&]() { return in_flight_ < limit || reader_done_; };
    absl::MutexLock lock(&mu_);
    mu_.Await(absl::Condition(&room));
    return !reader_done_;
  }

  void Sent() {
    absl::MutexLock lock(&mu_);
    ++in_flight_;
  }

  // Once the reader has joined.
  ReplayReport TakeReport() {
    absl::MutexLock lock(&mu_);
    return std::move(report_);
  }

 private:
  const absl::flat_hash_map<uint32_t, Recorded>& answers_;
  const ReplayOptions& options_;
  absl::Mutex mu_;
  ReplayReport report_ ABSL_GUARDED_BY(mu_);
  int in_flight_ ABSL_GUARDED_BY(mu_) = 0;
  bool reader_done_ ABSL_GUARDED_BY(mu_) = false;
};

using ReplayStream =
    grpc::ClientReaderWriter<v1::SessionRequest, v1::SessionResponse>;

// Sends the recorded frames after the Start, at their recorded pace or as
// fast as the answers make room; false if one could not be parsed or sent,
// or the stream ended first.
bool SendFrames(const std::vector<const SessionRecordEntry*>& requests,
                absl::Time began, const ReplayOptions& options,
                ReplayStream& stream, ReplayTally& tally) {
  const int64_t first_us = requests.size() > 1 ? requests[1]->arrival_us : 0;
  v1::SessionRequest frame;
  for (size_t i = 1; i < requests.size(); ++i) {
    if (!frame.ParseFromString(requests[i]->request)) return false;
    if (options.recorded_pace) {
      absl::SleepFor(began +
                     absl::Microseconds(requests[i]->arrival_us - first_us) -
                     absl::Now());
    } else if (!tally.AwaitRoom(std::max(options.max_in_flight, 1))) {
      return false;
    }
    tally.Sent();
    if (!stream.Write(frame)) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<ReplayReport> ReplaySession(
    const SessionRecording& recording,
    const std::shared_ptr<grpc::Channel>& channel,
    const ReplayOptions& options) {
  const RecordingParts parts = SplitRecording(recording);
  v1::SessionRequest start;
  if (parts.requests.empty() ||
      !start.ParseFromString(parts.requests.front()->request) ||
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
  ReplayTally tally(parts.answers, static_cast<int>(parts.requests.size()) - 1,
                    options);
  // Answers are read while the frames are sent.
  std::thread reader([&] {
    v1::SessionResponse answer;
    while (stream->Read(&answer)) {
      if (answer.has_frame_result()) tally.Add(answer.frame_result());
    }
    tally.EndOfAnswers();
  });
  const bool sent_all =
      SendFrames(parts.requests, began, options, *stream, tally);
  stream->WritesDone();
  reader.join();
  const grpc::Status status = stream->Finish();
  ReplayReport report = tally.TakeReport();
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
