// One client cannot hurt another: a real server on a loopback port against
// clients that misbehave (never start, never read, send garbage, cancel) or
// simply load it with renders. Each test reproduces one way the server was
// hurt before and holds the fix; docs/operations.md lists the limits.

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "common/file_util.h"
#include "common/sanitizers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/server/raw_stream.h"
#include "tests/server/service_fixture.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/temp_path.h"
#include "wrinkle/core/synthetic_sheet.h"

namespace crease::server {
namespace {

using grpc::health::v1::Health;
using grpc::health::v1::HealthCheckResponse;
using ::testing::HasSubstr;

// Median round trip (send one frame, receive its answer) over `frames`.
double MedianRoundTripMs(client::CreaseClient& client,
                         const io::Animation& animation, int frames,
                         const v1::Start& start) {
  auto session = client.OpenSession(start);
  EXPECT_TRUE(session.ok()) << session.status();
  if (!session.ok()) return 1e9;
  std::vector<double> ms;
  for (int f = 0; f < frames; ++f) {
    const absl::Time start = absl::Now();
    EXPECT_TRUE((*session)->Send(FrameOf(animation, f)).ok());
    auto result = (*session)->Receive();
    EXPECT_TRUE(result.ok() && !result->has_error());
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - start));
  }
  EXPECT_TRUE((*session)->WritesDone().ok());
  EXPECT_TRUE((*session)->Finish().ok());
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}
double MedianRoundTripMs(client::CreaseClient& client,
                         const io::Animation& animation, int frames) {
  return MedianRoundTripMs(client, animation, frames, StartFor(animation));
}

// Image sessions beyond what one render thread keeps up with used to fill the
// render queue, and every worker then waited in it: paths-only frames waited
// behind renders (p50 1.6 ms alone, 157 ms beside 40 sessions asking
// 640x480). Renders are now handed over without waiting; the paths-only
// median beside 24 image sessions stays within 5x of alone, 10 ms or two
// image frames' round trip alone, whichever is largest: the CPU is shared
// with the software renderer, so not equal, and on a slow machine (ASan,
// ctest -j) the scheduler's slices grow with it, while a frame that waited
// in the render queue waits for many renders.
TEST(ServiceReliabilityTest, RendersDoNotHoldUpPathsOnlySessions) {
  ServerOptions options = LoopbackOptions();
  options.worker_threads = 2;
  options.render_threads = 1;
  RunningServer running = RunningServer::Start(options);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  auto client = running.Client();
  const double alone_ms = MedianRoundTripMs(*client, fox, 30);

  v1::Start image_start = StartFor(fox);
  image_start.mutable_outputs()->mutable_image()->set_width(320);
  image_start.mutable_outputs()->mutable_image()->set_height(240);
  const double image_alone_ms =
      MedianRoundTripMs(*client, fox, 10, image_start);
  std::atomic<bool> stop{false};
  std::atomic<int> images{0};
  std::vector<std::thread> loaders;
  for (int s = 0; s < 24; ++s) {
    loaders.emplace_back([&] {
      auto session = client->OpenSession(image_start);
      if (!session.ok()) return;
      for (int f = 0; !stop; ++f) {
        if (!(*session)->Send(FrameOf(fox, f % 60)).ok()) break;
        if (!(*session)->Receive().ok()) break;
        ++images;
      }
      (void)(*session)->WritesDone();
      (void)(*session)->Finish();
    });
  }
  // Until the render queue is full of work. The loaders are joined before
  // any assertion returns: a joinable thread destroyed would abort the run.
  const bool busy =
      WaitFor([&] { return images.load() >= 24; }, absl::Seconds(60));
  const double beside_ms = busy ? MedianRoundTripMs(*client, fox, 30) : 0.0;
  stop = true;
  for (std::thread& t : loaders) t.join();
  ASSERT_TRUE(busy) << "only " << images.load() << " images came back";
  RecordProperty("alone_ms", std::to_string(alone_ms));
  RecordProperty("beside_images_ms", std::to_string(beside_ms));
  RecordProperty("image_alone_ms", std::to_string(image_alone_ms));
  // Measured here: 0.66 ms alone, 0.68 beside; 29.8 beside with the old
  // blocking queue of 16.
  EXPECT_LT(beside_ms, std::max({5 * alone_ms, 10.0, 2 * image_alone_ms}))
      << "alone " << alone_ms << " ms, an image frame alone " << image_alone_ms
      << " ms";
}

// Streams that never send a Start used to take session slots until the idle
// timeout: 128 of them locked everyone out. They now wait in pending slots
// (capped per peer), are ended after the start timeout, and never keep a
// client that does start from its session.
TEST(ServiceReliabilityTest, StreamsWithoutAStartLockNobodyOut) {
  ServerOptions options = LoopbackOptions();
  options.limits.max_sessions = 2;
  options.limits.max_pending_streams = 16;
  options.limits.max_pending_streams_per_peer = 8;
  // Long enough for everything below to happen before the first silent
  // stream is ended, on a slow machine too.
  options.limits.start_timeout = absl::Seconds(3);
  RunningServer running = RunningServer::Start(options);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  auto client = running.Client();
  std::vector<std::unique_ptr<RawStream>> silent;
  for (int i = 0; i < 6; ++i) {
    silent.push_back(std::make_unique<RawStream>(running.target));
    ASSERT_TRUE(silent.back()->started());
  }
  ASSERT_TRUE(WaitFor([&] { return running.server->active_sessions() == 6; }));
  // A real client still gets both session slots (it is the same peer here,
  // within the per-peer cap of 8 pending).
  auto a = client->OpenSession(StartFor(fox));
  auto b = client->OpenSession(StartFor(fox));
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  // The per-peer cap: 6 silent + 2 more silent = 8 pending; the 9th is
  // refused at once.
  silent.push_back(std::make_unique<RawStream>(running.target));
  silent.push_back(std::make_unique<RawStream>(running.target));
  ASSERT_TRUE(WaitFor([&] { return running.server->active_sessions() == 10; }));
  RawStream ninth(running.target);
  const grpc::Status refused = ninth.Finish(absl::Seconds(5));
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refused.error_message(),
              HasSubstr("max_pending_streams_per_peer"));
  // The silent ones end after the start timeout, saying why.
  const grpc::Status ended = silent.front()->Finish(absl::Seconds(10));
  EXPECT_EQ(ended.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_THAT(ended.error_message(), HasSubstr("start timeout"));
  ASSERT_TRUE(WaitFor([&] { return running.server->active_sessions() == 2; }));
  // The started sessions were not touched.
  ASSERT_TRUE((*a)->Send(FrameOf(fox, 0)).ok());
  EXPECT_TRUE((*a)->Receive().ok());
}

// Silent streams from a client's own address (a NAT, a shared node) cannot
// keep it out: with the per-peer waiting slots full, the oldest stream that
// has waited a second ends (RESOURCE_EXHAUSTED, saying why) and the client's
// stream takes its slot.
TEST(ServiceReliabilityTest, TheOldestSilentStreamMakesWayForANewOne) {
  ServerOptions options = LoopbackOptions();
  options.limits.max_pending_streams_per_peer = 4;
  options.limits.start_timeout = absl::Seconds(30);
  RunningServer running = RunningServer::Start(options);
  std::vector<std::unique_ptr<RawStream>> silent;
  for (int i = 0; i < 4; ++i) {
    silent.push_back(std::make_unique<RawStream>(running.target));
    ASSERT_TRUE(silent.back()->started());
    // Registered before the next opens: the first is the oldest.
    ASSERT_TRUE(
        WaitFor([&] { return running.server->active_sessions() == i + 1; }));
  }
  absl::SleepFor(absl::Milliseconds(1100));  // all past the minimum wait
  const io::Animation fox = testing::LoadBundled("fox_walk");
  auto client = running.Client();
  auto session = client->OpenSession(StartFor(fox));
  ASSERT_TRUE(session.ok()) << session.status();
  ASSERT_TRUE((*session)->Send(FrameOf(fox, 0)).ok());
  EXPECT_TRUE((*session)->Receive().ok());
  // The oldest made way; once started, the session holds no waiting slot.
  const grpc::Status first = silent[0]->Finish(absl::Seconds(5));
  EXPECT_EQ(first.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(first.error_message(), HasSubstr("made way for a newer stream"));
  EXPECT_THAT(first.error_message(), HasSubstr("max_pending_streams_per_peer"));
  ASSERT_TRUE(WaitFor([&] { return running.server->active_sessions() == 4; }));
  // New silent streams: the first fills the peer's slots again, each of the
  // next three makes the oldest old one give way, in order; then every
  // waiting stream is under a second old and the next is refused.
  std::vector<std::unique_ptr<RawStream>> burst;
  for (int i = 0; i < 4; ++i) {
    burst.push_back(std::make_unique<RawStream>(running.target));
    ASSERT_TRUE(burst.back()->started());
  }
  for (int i = 1; i < 4; ++i) {
    const grpc::Status ended = silent[i]->Finish(absl::Seconds(5));
    EXPECT_EQ(ended.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << i;
    EXPECT_THAT(ended.error_message(),
                HasSubstr("made way for a newer stream"));
  }
  RawStream refused(running.target);
  const grpc::Status status = refused.Finish(absl::Seconds(5));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(), HasSubstr("are waiting for their start"));
}

// One peer cannot take every session slot.
TEST(ServiceReliabilityTest, SessionsPerPeerAreCapped) {
  ServerOptions options = LoopbackOptions();
  options.limits.max_sessions = 8;
  options.limits.max_sessions_per_peer = 2;
  RunningServer running = RunningServer::Start(options);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  auto client = running.Client();
  auto a = client->OpenSession(StartFor(fox));
  auto b = client->OpenSession(StartFor(fox));
  ASSERT_TRUE(a.ok() && b.ok());
  auto c = client->OpenSession(StartFor(fox));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(c.status().message(), HasSubstr("max_sessions_per_peer"));
  EXPECT_THAT(c.status().message(),
              HasSubstr("2 sessions from ipv4:127.0.0.1 are open"));
  // A slot given back is the peer's again.
  (*a)->Cancel();
  a->reset();
  ASSERT_TRUE(WaitFor([&] { return running.server->active_sessions() == 1; }));
  auto d = client->OpenSession(StartFor(fox));
  EXPECT_TRUE(d.ok()) << d.status();
}

// Big meshes' frames cannot starve a small session: with two workers, two
// sessions of 80,000-triangle sheets streaming back to back keep at most one
// worker (the large lane), and the small session's frames take the other.
// They used to queue behind the big frames (p50 1.3 -> 52 ms, about a big
// frame's time). The bound is the small session's own time alone or a quarter
// of a big frame's, whichever is larger: a frame that waited for a big one
// takes most of a big frame's time, while a shared, busy machine (ctest -j,
// two cores) delays both phases by scheduler slices of a few ms, which alone
// made the bound of 3x the time alone fail now and then.
TEST(ServiceReliabilityTest, BigFramesDoNotStarveSmallSessions) {
  ServerOptions options = LoopbackOptions();
  options.worker_threads = 2;
  RunningServer running = RunningServer::Start(options);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  auto client = running.Client();
  auto small = client->OpenSession(StartFor(fox));
  ASSERT_TRUE(small.ok()) << small.status();
  (void)SequentialP99(**small, fox, 0, 20);  // warm
  const double alone = SequentialP99(**small, fox, 20, 100);

  io::Animation sheet;
  sheet.mesh = MakeGridSheet(200, 200, 1.0f, 1.0f);  // 80,000 triangles
  std::vector<float> positions;
  AnimateSheet(sheet.mesh, 0, 40, 0.3f, &positions);
  std::atomic<bool> stop{false};
  std::atomic<int> big_frames{0};
  std::vector<std::thread> big;
  std::vector<double> big_ms[2];  // each thread's own round trips
  for (int s = 0; s < 2; ++s) {
    big.emplace_back([&, s] {
      auto big_client = running.Client();
      auto session = big_client->OpenSession(StartFor(sheet));
      ASSERT_TRUE(session.ok()) << session.status();
      std::vector<float> frame;
      for (uint32_t f = 0; !stop.load(); ++f) {
        AnimateSheet(sheet.mesh, static_cast<int>(f), 40, 0.3f, &frame);
        const absl::Time sent = absl::Now();
        if (!(*session)->Send(client::FrameOf(frame, f)).ok() ||
            !(*session)->Receive().ok()) {
          break;
        }
        big_ms[s].push_back(absl::ToDoubleMilliseconds(absl::Now() - sent));
        ++big_frames;
      }
    });
  }
  // A minute: under TSan an 80,000-triangle frame takes seconds. On failure
  // the big sessions are stopped first (a joinable thread left would abort).
  if (!WaitFor([&] { return big_frames.load() >= 2; }, absl::Seconds(60))) {
    stop = true;
    for (std::thread& t : big) t.join();
    FAIL() << "the big sessions answered " << big_frames.load()
           << " frames in 60 s";
  }
  const double beside =
      SequentialP99(**small, fox, 120, 300, absl::Milliseconds(1500));
  // Five big frames for their median (a slow build may not have them yet).
  WaitFor([&] { return big_frames.load() >= 5; }, absl::Seconds(60));
  stop = true;
  for (std::thread& t : big) t.join();
  std::vector<double> all_big = big_ms[0];
  all_big.insert(all_big.end(), big_ms[1].begin(), big_ms[1].end());
  ASSERT_GT(all_big.size(), 4u);
  std::nth_element(all_big.begin(), all_big.begin() + all_big.size() / 2,
                   all_big.end());
  const double big_median = all_big[all_big.size() / 2];
  std::fprintf(stderr,
               "small p99 alone %.2f ms, beside big frames %.2f ms (%d big "
               "frames, median %.1f ms)\n",
               alone, beside, big_frames.load(), big_median);
  EXPECT_LE(beside, std::max(3 * std::max(alone, 1.0), big_median / 4));
}

// Bytes that are no SessionRequest used to end the stream with OK and no
// message (gRPC reports a failed decode like a half-close).
TEST(ServiceReliabilityTest, UndecodableBytesEndTheStreamInvalid) {
  RunningServer running = RunningServer::Start(LoopbackOptions());
  const io::Animation fox = testing::LoadBundled("fox_walk");
  const std::string start = StartBytes(StartFor(fox));
  for (const std::string& bytes : {std::string("\xff\xff\xff\xff\xff\xff", 6),
                                   start.substr(0, start.size() / 2)}) {
    RawStream stream(running.target);
    ASSERT_TRUE(stream.Write(bytes, absl::Seconds(5)));
    const grpc::Status status = stream.Finish(absl::Seconds(5));
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(),
                HasSubstr("no crease.v1.SessionRequest"));
  }
  // After a good Start, garbage ends the session the same way.
  RawStream stream(running.target);
  ASSERT_TRUE(stream.Write(start, absl::Seconds(5)));
  ASSERT_TRUE(
      stream.Write(std::string("\x0a\xff\xff\xff", 4), absl::Seconds(5)));
  EXPECT_EQ(stream.Finish(absl::Seconds(5)).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

// Cancelled streams used to be logged "ended OK" and counted OK.
TEST(ServiceReliabilityTest, CancelledStreamsAreCountedCancelled) {
  absl::Mutex mu;
  std::vector<std::string> lines;
  ServerOptions options = LoopbackOptions();
  options.session_log = [&](const std::string& line) {
    absl::MutexLock lock(&mu);
    lines.push_back(line);
  };
  RunningServer running = RunningServer::Start(options);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  auto client = running.Client();
  constexpr int kCancelled = 20;
  for (int i = 0; i < kCancelled; ++i) {
    auto session = client->OpenSession(StartFor(fox));
    ASSERT_TRUE(session.ok());
    ASSERT_TRUE((*session)->Send(FrameOf(fox, 0)).ok());
    if (i % 2 == 0) {
      ASSERT_TRUE((*session)->Receive().ok());
    }
    (*session)->Cancel();
  }
  ASSERT_TRUE(WaitFor([&] { return running.server->active_sessions() == 0; }));
  const std::string metrics = running.server->metrics().Scrape();
  // Codes are numbers: 0 OK, 1 CANCELLED.
  EXPECT_THAT(
      metrics,
      ::testing::Not(HasSubstr("crease_streams_finished_total{code=\"0\"}")));
  EXPECT_THAT(metrics,
              HasSubstr("crease_streams_finished_total{code=\"1\"} 20"));
  absl::MutexLock lock(&mu);
  int ended_cancelled = 0;
  for (const std::string& line : lines) {
    EXPECT_THAT(line, ::testing::Not(HasSubstr("ended OK")));
    ended_cancelled += line.find("ended CANCELLED") != std::string::npos;
  }
  EXPECT_EQ(ended_cancelled, kCancelled);
}

// A client that never reads its answers used to hold its slot forever (the
// idle timeout only watched what it sends). Answers it leaves untaken for the
// write timeout end its stream.
TEST(ServiceReliabilityTest, AClientThatNeverReadsIsCut) {
  absl::Mutex mu;
  std::vector<std::string> lines;
  ServerOptions options = LoopbackOptions();
  options.limits.write_timeout = absl::Milliseconds(500);
  options.session_log = [&](const std::string& line) {
    absl::MutexLock lock(&mu);
    lines.push_back(line);
  };
  RunningServer running = RunningServer::Start(options);
  // Large answers (a tensor per triangle), so the transport's window fills.
  const io::Animation cesium = testing::LoadBundled("cesiumman_walk");
  v1::Start start = StartFor(cesium);
  start.mutable_outputs()->set_tensors(true);
  start.mutable_outputs()->set_labels(true);
  RawStream stream(running.target);
  ASSERT_TRUE(stream.Write(StartBytes(start), absl::Seconds(5)));
  // Writes stop being taken once the server stops reading (it reads the next
  // frame only after its answer to this one is taken).
  const absl::Time give_up = absl::Now() + absl::Seconds(20);
  for (int f = 0; absl::Now() < give_up; ++f) {
    if (!stream.Write(FrameBytes(client::FrameOf(cesium.frames.Sample(f % 60),
                                                 static_cast<uint32_t>(f))),
                      absl::Seconds(2))) {
      break;
    }
  }
  ASSERT_TRUE(WaitFor([&] { return running.server->active_sessions() == 0; }));
  absl::MutexLock lock(&mu);
  EXPECT_THAT(lines, ::testing::Contains(HasSubstr(
                         "ended DEADLINE_EXCEEDED \"the client took no "
                         "answer for 500ms (the write timeout)\"")));
}

// Shutdown used to render every queued frame of calls it had cancelled
// (35.7 s against a 5 s grace). Queued renders of cancelled calls are now
// skipped, and Shutdown returns within the grace plus one render and its
// slack.
TEST(ServiceReliabilityTest, ShutdownKeepsToItsGrace) {
  ServerOptions options = LoopbackOptions();
  options.render_threads = 1;
  options.shutdown_grace = absl::Seconds(1);
  RunningServer running = RunningServer::Start(options);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  v1::Start start = StartFor(fox);
  start.mutable_outputs()->mutable_image()->set_width(1600);
  start.mutable_outputs()->mutable_image()->set_height(1200);
  start.mutable_outputs()->mutable_image()->set_format(v1::IMAGE_FORMAT_PNG);
  auto client = running.Client();
  constexpr int kSessions = 12;
  std::vector<std::unique_ptr<client::SessionStream>> sessions;
  for (int s = 0; s < kSessions; ++s) {
    auto session = client->OpenSession(start);
    ASSERT_TRUE(session.ok()) << session.status();
    ASSERT_TRUE((*session)->Send(FrameOf(fox, 0)).ok());
    sessions.push_back(*std::move(session));
  }
  // Most sessions' frames are queued or rendering: one thread renders them
  // in turn, a few hundred ms each here (all 12 when opening sessions is
  // quicker than a render; on a slow machine the first may be answered
  // before the last is sent).
  ASSERT_TRUE(WaitFor(
      [&] { return running.server->working_sessions() >= kSessions / 2; }));
  const absl::Time start_time = absl::Now();
  running.server->Shutdown();
  const absl::Duration took = absl::Now() - start_time;
  RecordProperty("shutdown_ms",
                 std::to_string(absl::ToInt64Milliseconds(took)));
  EXPECT_LT(took, absl::Seconds(4)) << "grace 1 s";
  for (auto& session : sessions) session->Cancel();
}

// Health Watch streams used to be unlimited and never to end (20 000 of them
// kept +360 MB). They are capped, and each ends after max_watch (clients
// re-watch, as the protocol says).
TEST(ServiceReliabilityTest, HealthWatchesAreCappedAndEnd) {
  ServerOptions options = LoopbackOptions();
  options.health.max_watches = 3;
  // Long enough that the fourth is refused while the three are open, on a
  // slow machine too; the loop below waits for their end anyway.
  options.health.max_watch = absl::Seconds(3);
  RunningServer running = RunningServer::Start(options);
  auto channel =
      grpc::CreateChannel(running.target, grpc::InsecureChannelCredentials());
  auto stub = Health::NewStub(channel);
  std::vector<std::unique_ptr<HealthWatch>> watches;
  for (int i = 0; i < 3; ++i) {
    watches.push_back(std::make_unique<HealthWatch>(*stub));
    EXPECT_EQ(watches.back()->Next(), HealthCheckResponse::SERVING);
  }
  EXPECT_EQ(running.server->health_watches(), 3);
  HealthWatch fourth(*stub);
  EXPECT_EQ(fourth.Next(), std::nullopt);
  const grpc::Status refused = fourth.reader->Finish();
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refused.error_message(), HasSubstr("health watches"));
  for (auto& watch : watches) {
    EXPECT_EQ(watch->Next(), std::nullopt);  // ended by the server
    EXPECT_TRUE(watch->reader->Finish().ok());
  }
  EXPECT_TRUE(WaitFor([&] { return running.server->health_watches() == 0; }));
}

// A watch on a name this server does not serve says so and keeps saying so
// (it used to be told SERVING or NOT_SERVING when the server's status
// changed); at shutdown every watch ends.
TEST(ServiceReliabilityTest, AWatchOnAnUnknownNameStaysUnknown) {
  RunningServer running = RunningServer::Start(LoopbackOptions());
  auto channel =
      grpc::CreateChannel(running.target, grpc::InsecureChannelCredentials());
  auto stub = Health::NewStub(channel);
  grpc::ClientContext context;
  grpc::health::v1::HealthCheckRequest request;
  request.set_service("no.such.Service");
  auto reader = stub->Watch(&context, request);
  HealthCheckResponse response;
  ASSERT_TRUE(reader->Read(&response));
  EXPECT_EQ(response.status(), HealthCheckResponse::SERVICE_UNKNOWN);
  HealthWatch known(*stub);
  ASSERT_EQ(known.Next(), HealthCheckResponse::SERVING);
  running.server->Shutdown();
  EXPECT_EQ(known.Next(), HealthCheckResponse::NOT_SERVING);
  EXPECT_EQ(known.Next(), std::nullopt);
  EXPECT_FALSE(reader->Read(&response)) << response.status();
  EXPECT_EQ(running.server->health_watches(), 0);
}

// During the drain the server still takes connections: a new health check
// sees NOT_SERVING (it used to find the port closed), and a watcher is told.
// The frame is held in work by a hook until both have looked, so the drain
// cannot end early (a slow render used to hold it, and sometimes did not).
TEST(ServiceReliabilityTest, DrainingShowsNotServing) {
  absl::Notification frame_in_work;
  absl::Notification release_frame;
  ServerOptions options = LoopbackOptions();
  options.before_frame_for_testing = [&] {
    if (!frame_in_work.HasBeenNotified()) frame_in_work.Notify();
    release_frame.WaitForNotification();
  };
  RunningServer running = RunningServer::Start(options);
  // Destroyed in reverse: the frame is released, then the stopper joined,
  // then the server stopped, on every way out of the test.
  std::jthread stopper;
  absl::Cleanup release = [&] {
    if (!release_frame.HasBeenNotified()) release_frame.Notify();
  };
  auto channel =
      grpc::CreateChannel(running.target, grpc::InsecureChannelCredentials());
  auto stub = Health::NewStub(channel);
  HealthWatch watch(*stub);
  ASSERT_EQ(watch.Next(), HealthCheckResponse::SERVING);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  v1::Start start = StartFor(fox);
  // An image, so the frame goes to a worker rather than the gRPC thread.
  start.mutable_outputs()->mutable_image()->set_width(64);
  start.mutable_outputs()->mutable_image()->set_height(64);
  auto client = running.Client();
  auto session = client->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  ASSERT_TRUE((*session)->Send(FrameOf(fox, 0)).ok());
  ASSERT_TRUE(frame_in_work.WaitForNotificationWithTimeout(absl::Seconds(60)));
  stopper = std::jthread([&] { running.server->Shutdown(); });
  EXPECT_EQ(watch.Next(), HealthCheckResponse::NOT_SERVING);
  auto late_client = running.Client();
  const absl::StatusOr<bool> serving = late_client->IsServing();
  release_frame.Notify();
  ASSERT_TRUE(serving.ok()) << serving.status();
  EXPECT_FALSE(*serving);
  // The frame in work is still answered.
  auto result = (*session)->Receive();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->has_image());
}

// A certificate with another certificate's key used to give only "cannot
// listen"; the files are now checked first and the error says which.
TEST(ServiceReliabilityTest, AMismatchedTlsKeyIsNamed) {
  for (const char* name : {"a", "b"}) {
    const std::string command = absl::StrFormat(
        "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost "
        "-keyout %s -out %s 2>/dev/null",
        testing::TempPath(absl::StrCat(name, "_key.pem")),
        testing::TempPath(absl::StrCat(name, "_cert.pem")));
    if (std::system(command.c_str()) != 0) GTEST_SKIP() << "no openssl";
  }
  ServerOptions options = LoopbackOptions();
  options.tls_cert_file = testing::TempPath("a_cert.pem");
  options.tls_key_file = testing::TempPath("b_key.pem");
  absl::StatusOr<std::unique_ptr<CreaseServer>> server =
      CreaseServer::Start(options);
  ASSERT_FALSE(server.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(server.status())) << server.status();
  EXPECT_THAT(std::string(server.status().message()),
              HasSubstr("does not match the certificate"));
  options.tls_key_file = options.tls_cert_file;  // no key in it
  server = CreaseServer::Start(options);
  ASSERT_FALSE(server.ok());
  EXPECT_THAT(std::string(server.status().message()),
              HasSubstr("no PEM private key"));
}

// Every failed token check used to write a log line: a flood of bad calls
// became a flood of lines. Now at most one a second, counting the rest.
TEST(ServiceReliabilityTest, RefusedTokensAreLoggedOnceASecond) {
  const std::string tokens = testing::TempPath("flood_tokens.txt");
  ASSERT_TRUE(files::WriteStringToFile(tokens, "secret\n").ok());
  absl::Mutex mu;
  std::vector<std::string> lines;
  ServerOptions options = LoopbackOptions();
  options.tokens_file = tokens;
  options.session_log = [&](const std::string& line) {
    absl::MutexLock lock(&mu);
    lines.push_back(line);
  };
  RunningServer running = RunningServer::Start(options);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  client::ClientOptions wrong;
  wrong.token = "wrong";
  auto client = running.Client(wrong);
  const absl::Time start = absl::Now();
  for (int i = 0; i < 200; ++i) {
    EXPECT_TRUE(
        absl::IsUnauthenticated(client->OpenSession(StartFor(fox)).status()));
  }
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  absl::MutexLock lock(&mu);
  EXPECT_GE(lines.size(), 1u);
  EXPECT_LE(static_cast<double>(lines.size()), seconds + 2) << seconds << " s";
  EXPECT_THAT(lines.front(), HasSubstr("refused UNAUTHENTICATED"));
}

// One 4096x4096 image used to raise the server's memory from 88 to 700 MB
// per render thread, kept until a smaller render came. Framebuffers over
// 1080p are now freed after their frame. (Not under ASan: its quarantine
// keeps freed memory resident on purpose.)
TEST(ServiceReliabilityTest, ALargeImageDoesNotKeepItsMemory) {
#if defined(CREASE_UNDER_ASAN) || defined(CREASE_UNDER_TSAN)
  GTEST_SKIP() << "RSS is meaningless under ASan or TSan (shadow memory)";
#endif
  RunningServer running = RunningServer::Start(LoopbackOptions());
  const io::Animation fox = testing::LoadBundled("fox_walk");
  auto client = running.Client();
  auto render = [&](int side) {
    v1::Start start = StartFor(fox);
    start.mutable_outputs()->mutable_image()->set_width(side);
    start.mutable_outputs()->mutable_image()->set_height(side);
    auto session = client->OpenSession(start);
    ASSERT_TRUE(session.ok()) << session.status();
    ASSERT_TRUE((*session)->Send(FrameOf(fox, 0)).ok());
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok() && result->has_image()) << result.status();
    ASSERT_TRUE((*session)->WritesDone().ok());
    ASSERT_TRUE((*session)->Finish().ok());
  };
  render(480);  // the renderer warmed up at an ordinary size
  const double before = ResidentMb();
  render(4096);
  // The render thread frees after it has handed over the answer.
  double after = ResidentMb();
  WaitFor([&] { return (after = ResidentMb()) - before < 120.0; },
          absl::Seconds(3));
  RecordProperty("rss_before_mb", std::to_string(before));
  RecordProperty("rss_after_mb", std::to_string(after));
  EXPECT_LT(after - before, 120.0) << before << " MB -> " << after << " MB";
}

}  // namespace
}  // namespace crease::server
