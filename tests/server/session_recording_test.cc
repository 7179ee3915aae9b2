// Recording sessions (crease-server --record_dir) and replaying them
// (crease-replay): the chosen sessions' files hold what the client sent and
// a digest of each answer, and replaying them against a fresh server gives
// the same answers; a changed answer is found.

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/synchronization/mutex.h"
#include "gmock/gmock.h"
#include "grpcpp/create_channel.h"
#include "gtest/gtest.h"
#include "server/recording/session_record.h"
#include "server/recording/session_replay.h"
#include "tests/server/service_fixture.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/temp_path.h"

namespace crease::server {
namespace {

using ::testing::HasSubstr;

std::string FreshFolder(const std::string& name) {
  const std::string dir = testing::TempPath(
      name + "_" +
      ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Streams `frames` frames of the Fox (paths, labels and tensors) in one
// session of `server`.
void StreamFox(const RunningServer& server, const io::Animation& fox,
               int frames) {
  v1::Start start = StartFor(fox);
  start.mutable_outputs()->set_labels(true);
  start.mutable_outputs()->set_tensors(true);
  auto session = server.Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  for (int f = 0; f < frames; ++f) {
    ASSERT_TRUE((*session)->Send(FrameOf(fox, f)).ok());
    ASSERT_TRUE((*session)->Receive().ok());
  }
  ASSERT_TRUE((*session)->WritesDone().ok());
  (void)(*session)->Receive();
  EXPECT_TRUE((*session)->Finish().ok());
}

// One Fox session of `frames` frames recorded by a server of its own,
// stopped before the file is read (its sink has then written every record).
SessionRecording RecordOneFoxSession(const io::Animation& fox, int frames) {
  ServerOptions options = LoopbackOptions();
  options.recording.dir = FreshFolder("recordings");
  {
    RunningServer recording = RunningServer::Start(options);
    StreamFox(recording, fox, frames);
  }
  const std::vector<std::string> files = FilesIn(options.recording.dir);
  EXPECT_EQ(files.size(), 1u);
  if (files.size() != 1) return {};
  auto recorded = ReadSessionRecording(files[0]);
  EXPECT_TRUE(recorded.ok()) << recorded.status();
  return recorded.ok() ? *std::move(recorded) : SessionRecording{};
}

std::shared_ptr<grpc::Channel> ChannelTo(const RunningServer& server) {
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(-1);
  return grpc::CreateCustomChannel(
      server.target, grpc::InsecureChannelCredentials(), arguments);
}

TEST(SessionRecordingTest, ChosenSessionsReplayIdenticallyOnAFreshServer) {
  const io::Animation fox = testing::LoadBundled("fox_walk");
  ServerOptions options = LoopbackOptions();
  options.recording.dir = FreshFolder("recordings");
  options.recording.every = 2;  // sessions 0 and 2 of three
  {
    RunningServer recording = RunningServer::Start(options);
    for (int s = 0; s < 3; ++s) StreamFox(recording, fox, 24);
  }
  const std::vector<std::string> files = FilesIn(options.recording.dir);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_THAT(files[0], HasSubstr("-s1.crec"));
  EXPECT_THAT(files[1], HasSubstr("-s3.crec"));
  RunningServer fresh = RunningServer::Start(LoopbackOptions());
  for (const std::string& file : files) {
    auto recorded = ReadSessionRecording(file);
    ASSERT_TRUE(recorded.ok()) << recorded.status();
    EXPECT_FALSE(recorded->truncated);
    // The Start, 24 frames and their 24 answers, arrival times in order.
    ASSERT_EQ(recorded->entries.size(), 1u + 2u * 24u);
    int64_t last_us = -1;
    for (const SessionRecordEntry& entry : recorded->entries) {
      if (entry.kind != SessionRecordEntry::Kind::kRequest) continue;
      EXPECT_GE(entry.arrival_us, last_us);
      last_us = entry.arrival_us;
    }
    auto report = ReplaySession(*recorded, ChannelTo(fresh));
    ASSERT_TRUE(report.ok()) << report.status();
    EXPECT_TRUE(report->identical());
    EXPECT_EQ(report->matching, 24);
    EXPECT_EQ(report->differing, 0);
  }
}

TEST(SessionRecordingTest, AChangedAnswerIsFound) {
  const io::Animation fox = testing::LoadBundled("fox_walk");
  SessionRecording recorded = RecordOneFoxSession(fox, 12);
  ASSERT_FALSE(recorded.entries.empty());
  RunningServer running = RunningServer::Start(LoopbackOptions());
  // Frame 7's answer recorded otherwise: as if the server had changed.
  for (SessionRecordEntry& entry : recorded.entries) {
    if (entry.kind == SessionRecordEntry::Kind::kAnswer && entry.index == 7) {
      entry.digest ^= 1;
    }
  }
  auto report = ReplaySession(recorded, ChannelTo(running));
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_FALSE(report->identical());
  EXPECT_EQ(report->differing, 1);
  EXPECT_EQ(report->matching, 11);
  ASSERT_EQ(report->differences.size(), 1u);
  EXPECT_THAT(report->differences[0], HasSubstr("frame 7:"));
}

TEST(SessionRecordingTest, OnlyThePeerOrSessionAskedForIsRecorded) {
  const io::Animation fox = testing::LoadBundled("fox_walk");
  ServerOptions options = LoopbackOptions();
  options.recording.dir = FreshFolder("recordings");
  options.recording.peer = "10.1.2.3";  // not the loopback client
  {
    RunningServer running = RunningServer::Start(options);
    StreamFox(running, fox, 3);
  }
  EXPECT_TRUE(FilesIn(options.recording.dir).empty());
  options.recording.peer = "127.0.0.1";
  options.recording.session = "s2";
  {
    RunningServer running = RunningServer::Start(options);
    for (int s = 0; s < 3; ++s) StreamFox(running, fox, 3);
  }
  const std::vector<std::string> files = FilesIn(options.recording.dir);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_THAT(files[0], HasSubstr("-s2.crec"));
}

// Past its cap a recording stops at a whole record; the replay checks the
// answers it has and counts the rest unchecked.
TEST(SessionRecordingTest, ARecordingStopsAtItsCap) {
  const io::Animation fox = testing::LoadBundled("fox_walk");
  ServerOptions options = LoopbackOptions();
  options.recording.dir = FreshFolder("recordings");
  options.recording.max_bytes = 100'000;  // the Start and a few frames
  absl::Mutex log_mu;
  std::vector<std::string> log;
  options.session_log = [&](const std::string& line) {
    absl::MutexLock lock(&log_mu);
    log.push_back(line);
  };
  {
    RunningServer recording = RunningServer::Start(options);
    StreamFox(recording, fox, 12);
  }
  RunningServer running = RunningServer::Start(LoopbackOptions());
  {
    absl::MutexLock lock(&log_mu);
    int stopped = 0;
    for (const std::string& line : log) {
      stopped += absl::StrContains(line, "recording stopped at") &&
                 absl::StrContains(line, "its size cap");
    }
    EXPECT_EQ(stopped, 1);
  }
  const std::vector<std::string> files = FilesIn(options.recording.dir);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_LE(std::filesystem::file_size(files[0]), 100'000u);
  auto recorded = ReadSessionRecording(files[0]);
  ASSERT_TRUE(recorded.ok()) << recorded.status();
  EXPECT_FALSE(recorded->truncated);
  int frames = 0, answers = 0;
  for (const SessionRecordEntry& entry : recorded->entries) {
    frames += entry.kind == SessionRecordEntry::Kind::kRequest;
    answers += entry.kind == SessionRecordEntry::Kind::kAnswer;
  }
  --frames;  // the Start
  EXPECT_GT(frames, 0);
  EXPECT_LT(frames, 12);
  auto report = ReplaySession(*recorded, ChannelTo(running));
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->frames, frames);
  EXPECT_EQ(report->matching + report->unchecked, frames);
  EXPECT_EQ(report->matching, std::min(frames, answers));
}

// A stream the server ends while frames are in flight (here: a second Start
// in the recording) ends the replay with the server's status; it does not
// wait for answers that will not come.
TEST(SessionRecordingTest, AStreamTheServerEndsEndsTheReplay) {
  const io::Animation fox = testing::LoadBundled("fox_walk");
  SessionRecording recorded = RecordOneFoxSession(fox, 6);
  ASSERT_FALSE(recorded.entries.empty());
  RunningServer running = RunningServer::Start(LoopbackOptions());
  const SessionRecordEntry start = recorded.entries.front();
  recorded.entries.insert(recorded.entries.begin() + 3, start);
  ReplayOptions one_ahead;
  one_ahead.max_in_flight = 1;
  auto report = ReplaySession(recorded, ChannelTo(running), one_ahead);
  EXPECT_EQ(report.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(report.status().message(), HasSubstr("sent twice"));
}

TEST(SessionRecordingTest, AFileCutShortReadsToItsLastWholeRecord) {
  const std::string dir = FreshFolder("recordings");
  const std::string path = dir + "/cut.crec";
  {
    auto writer = SessionRecordWriter::Create(path, 1 << 20);
    ASSERT_TRUE(writer.ok()) << writer.status();
    const std::vector<absl::string_view> pieces = {"abc", "defg"};
    (*writer)->AddRequest(5, pieces);
    (*writer)->AddAnswer(3, 0x0123456789abcdefull, 0);
    (*writer)->AddRequest(9, pieces);
  }
  auto whole = ReadSessionRecording(path);
  ASSERT_TRUE(whole.ok()) << whole.status();
  ASSERT_EQ(whole->entries.size(), 3u);
  EXPECT_EQ(whole->entries[0].request, "abcdefg");
  EXPECT_EQ(whole->entries[0].arrival_us, 5);
  EXPECT_EQ(whole->entries[1].index, 3u);
  EXPECT_EQ(whole->entries[1].digest, 0x0123456789abcdefull);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 2);
  auto cut = ReadSessionRecording(path);
  ASSERT_TRUE(cut.ok()) << cut.status();
  EXPECT_TRUE(cut->truncated);
  EXPECT_EQ(cut->entries.size(), 2u);
  std::ofstream(dir + "/other.crec") << "not a recording";
  EXPECT_EQ(ReadSessionRecording(dir + "/other.crec").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadSessionRecording(dir + "/missing.crec").status().code(),
            absl::StatusCode::kNotFound);
}

// The digest keeps what any server running this code answers alike, not the
// moment's timings nor the encoded pixels (a GPU and llvmpipe differ there).
TEST(SessionRecordingTest, AnswerDigestIgnoresTimingsAndPixels) {
  v1::FrameResult result;
  result.set_index(4);
  v1::Wrinkle* wrinkle = result.add_wrinkles();
  wrinkle->set_id(2);
  wrinkle->add_points(0.5f);
  result.set_labels("\x01\x02");
  result.mutable_image()->set_width(64);
  result.mutable_image()->set_data("pixels");
  result.mutable_timings()->set_render_ms(1.5);
  const uint64_t digest = AnswerDigest(result);
  v1::FrameResult other = result;
  other.mutable_timings()->set_render_ms(9.0);
  other.mutable_image()->set_data("other pixels");
  EXPECT_EQ(AnswerDigest(other), digest);
  other.mutable_wrinkles(0)->set_points(0, 0.25f);
  EXPECT_NE(AnswerDigest(other), digest);
  other = result;
  other.mutable_image()->set_width(65);
  EXPECT_NE(AnswerDigest(other), digest);
  other = result;
  other.set_index(5);
  EXPECT_NE(AnswerDigest(other), digest);
}

}  // namespace
}  // namespace crease::server
