// The service under load and at its edges: concurrent sessions, disconnects,
// idle timeouts, shutdown, limits, auth, TLS, health.

#include <grpcpp/generic/generic_stub.h>

#include <atomic>
#include <cstdlib>
#include <future>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "common/file_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/server/service_fixture.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "tests/testing/temp_path.h"
#include "wrinkle/sca2015/session.h"

namespace crease::server {
namespace {

using ::testing::HasSubstr;

// Waits up to 10 s for the server to have `sessions` open.
bool WaitForSessions(CreaseServer& server, int sessions) {
  for (int i = 0; i < 1000; ++i) {
    if (server.active_sessions() == sessions) return true;
    absl::SleepFor(absl::Milliseconds(10));
  }
  return false;
}

// 16 sessions at once, on two animations, each equal to the same Session run
// in-process: sessions do not leak into each other.
TEST(ServiceLifecycleTest, ConcurrentSessionsEqualInProcessSessions) {
  RunningServer running = RunningServer::Start(LoopbackOptions());
  const io::Animation fox = testing::LoadBundled("fox_walk");
  const io::Animation pants = testing::LoadBundled("cloth_pants_knee");
  constexpr int kSessions = 16, kFrames = 30;
  // Expected wrinkle ids and first point x per frame, per animation.
  auto expected = [&](const io::Animation& a) {
    std::vector<std::vector<std::pair<uint32_t, float>>> frames;
    const auto session =
        testing::RunSessionTo(a, kFrames - 1, {}, [&](int, const Session& s) {
          auto& out = frames.emplace_back();
          for (size_t w = 0; w < s.tracker().wrinkles().size(); ++w) {
            out.push_back(
                {s.tracker().wrinkles()[w].id,
                 static_cast<float>(
                     s.tracker().shapes()[w].refined[0].position.x())});
          }
        });
    EXPECT_NE(session, nullptr);
    return frames;
  };
  const auto fox_expected = expected(fox), pants_expected = expected(pants);
  std::vector<std::thread> threads;
  std::vector<int> mismatches(kSessions, -1);
  for (int s = 0; s < kSessions; ++s) {
    threads.emplace_back([&, s] {
      const io::Animation& a = s % 2 == 0 ? fox : pants;
      const auto& want = s % 2 == 0 ? fox_expected : pants_expected;
      auto client = running.Client();
      auto session = client->OpenSession(StartFor(a));
      if (!session.ok()) return;
      std::thread sender([&] {
        for (int f = 0; f < kFrames; ++f) {
          if (!(*session)->Send(FrameOf(a, f)).ok()) return;
        }
        (void)(*session)->WritesDone();
      });
      int bad = 0;
      for (int f = 0; f < kFrames; ++f) {
        auto result = (*session)->Receive();
        if (!result.ok() || result->has_error() ||
            result->index() != static_cast<uint32_t>(f) ||
            result->wrinkles_size() != static_cast<int>(want[f].size())) {
          ++bad;
          continue;
        }
        for (int w = 0; w < result->wrinkles_size(); ++w) {
          bad += result->wrinkles(w).id() != want[f][w].first ||
                 result->wrinkles(w).points(0) != want[f][w].second;
        }
      }
      sender.join();
      if ((*session)->Finish().ok()) mismatches[s] = bad;
    });
  }
  for (std::thread& t : threads) t.join();
  for (int s = 0; s < kSessions; ++s) EXPECT_EQ(mismatches[s], 0) << s;
  EXPECT_TRUE(WaitForSessions(*running.server, 0));
}

TEST(ServiceLifecycleTest, AClientThatDisconnectsMidFrameFreesItsSession) {
  RunningServer running = RunningServer::Start(LoopbackOptions());
  const io::Animation fox = testing::LoadBundled("fox_walk");
  {
    auto session = running.Client()->OpenSession(StartFor(fox));
    ASSERT_TRUE(session.ok());
    EXPECT_EQ(running.server->active_sessions(), 1);
    for (int f = 0; f < 4; ++f)
      ASSERT_TRUE((*session)->Send(FrameOf(fox, f)).ok());
    (*session)->Cancel();  // with frames in flight
  }
  EXPECT_TRUE(WaitForSessions(*running.server, 0));
  // Dropping the stream object without Finish frees it as well.
  {
    auto session = running.Client()->OpenSession(StartFor(fox));
    ASSERT_TRUE(session.ok());
    ASSERT_TRUE((*session)->Send(FrameOf(fox, 0)).ok());
  }
  EXPECT_TRUE(WaitForSessions(*running.server, 0));
}

// The client keeps at most max_frames_in_flight frames unanswered: a Send
// beyond that waits for a Receive.
TEST(ServiceLifecycleTest, ClientSendBlocksAtItsWindow) {
  RunningServer running = RunningServer::Start(LoopbackOptions());
  const io::Animation fox = testing::LoadBundled("fox_walk");
  client::ClientOptions options;
  options.max_frames_in_flight = 2;
  auto session = running.Client(options)->OpenSession(StartFor(fox));
  ASSERT_TRUE(session.ok());
  ASSERT_TRUE((*session)->Send(FrameOf(fox, 0)).ok());
  ASSERT_TRUE((*session)->Send(FrameOf(fox, 1)).ok());
  std::atomic<bool> third_sent{false};
  std::thread sender([&] {
    EXPECT_TRUE((*session)->Send(FrameOf(fox, 2)).ok());
    third_sent = true;
  });
  absl::SleepFor(absl::Milliseconds(200));
  EXPECT_FALSE(third_sent.load());  // both earlier frames are unanswered
  auto first = (*session)->Receive();
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->index(), 0u);
  sender.join();
  EXPECT_TRUE(third_sent.load());
  for (uint32_t index : {1u, 2u}) {
    auto result = (*session)->Receive();
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->index(), index);
  }
  EXPECT_TRUE((*session)->Finish().ok());
}

TEST(ServiceLifecycleTest, IdleSessionsTimeOut) {
  ServerOptions options = LoopbackOptions();
  options.limits.idle_timeout = absl::Milliseconds(300);
  RunningServer running = RunningServer::Start(options);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  auto session = running.Client()->OpenSession(StartFor(fox));
  ASSERT_TRUE(session.ok());
  const absl::Status status = (*session)->Receive().status();
  EXPECT_TRUE(absl::IsDeadlineExceeded(status)) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("idle timeout"));
  EXPECT_TRUE(WaitForSessions(*running.server, 0));
}

TEST(ServiceLifecycleTest, SessionsOverTheLimitAreRefused) {
  ServerOptions options = LoopbackOptions();
  options.limits.max_sessions = 2;
  RunningServer running = RunningServer::Start(options);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  auto client = running.Client();
  auto a = client->OpenSession(StartFor(fox));
  auto b = client->OpenSession(StartFor(fox));
  ASSERT_TRUE(a.ok() && b.ok());
  auto c = client->OpenSession(StartFor(fox));
  EXPECT_TRUE(absl::IsResourceExhausted(c.status())) << c.status();
  ASSERT_TRUE((*a)->Finish().ok());
  ASSERT_TRUE(WaitForSessions(*running.server, 1));
  EXPECT_TRUE(client->OpenSession(StartFor(fox)).ok());
}

TEST(ServiceLifecycleTest, MessagesOverTheSizeLimitAreRefused) {
  ServerOptions options = LoopbackOptions();
  options.limits.max_message_bytes = 4096;
  RunningServer running = RunningServer::Start(options);
  const io::Animation pants =
      testing::LoadBundled("cloth_pants_knee");  // ~20 KB start
  auto session = running.Client()->OpenSession(StartFor(pants));
  EXPECT_TRUE(absl::IsResourceExhausted(session.status())) << session.status();
}

// Shutdown answers the frames in flight, ends the sessions with UNAVAILABLE
// and refuses new ones.
TEST(ServiceLifecycleTest, GracefulShutdownFinishesFramesInFlight) {
  RunningServer running = RunningServer::Start(LoopbackOptions());
  const io::Animation pants = testing::LoadBundled("cloth_pants_knee");
  v1::Start start = StartFor(pants);
  start.mutable_outputs()->mutable_image()->set_width(1920);
  start.mutable_outputs()->mutable_image()->set_height(1080);
  start.mutable_outputs()->mutable_image()->set_format(v1::IMAGE_FORMAT_PNG);
  auto client = running.Client();
  auto session = client->OpenSession(start);
  ASSERT_TRUE(session.ok());
  for (int f = 0; f < 6; ++f)
    ASSERT_TRUE((*session)->Send(FrameOf(pants, f)).ok());
  auto first = (*session)->Receive();
  ASSERT_TRUE(first.ok() && !first->has_error());
  // The server starts on frame 1 once it has written frame 0's answer; a
  // 1080p PNG takes long to render and encode. Shut down while it works.
  const absl::Time deadline = absl::Now() + absl::Seconds(30);
  bool working = false;
  while (!(working = running.server->working_sessions() > 0) &&
         absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(1));
  }
  ASSERT_TRUE(working);
  std::thread stopper([&] { running.server->Shutdown(); });
  int answered = 1;
  absl::Status end;
  while (true) {
    auto result = (*session)->Receive();
    if (!result.ok()) {
      end = result.status();
      break;
    }
    EXPECT_FALSE(result->has_error()) << result->error().message();
    EXPECT_TRUE(result->has_image());
    ++answered;
  }
  stopper.join();
  // The frame being worked on when Shutdown came was answered, not dropped.
  EXPECT_GE(answered, 2);
  EXPECT_TRUE(absl::IsUnavailable(end)) << end;
  EXPECT_EQ(running.server->active_sessions(), 0);
  EXPECT_FALSE(client->OpenSession(start).ok());
}

// One token's sessions are capped wherever they come from; another token's
// are not held by them.
TEST(ServiceLifecycleTest, SessionsPerTokenAreCapped) {
  const std::string tokens = testing::TempPath("tokens_quota.txt");
  ASSERT_TRUE(files::WriteStringToFile(tokens, "alpha\nbeta\n").ok());
  ServerOptions options = LoopbackOptions();
  options.tokens_file = tokens;
  options.limits.max_sessions_per_token = 2;
  RunningServer running = RunningServer::Start(options);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  client::ClientOptions alpha, beta;
  alpha.token = "alpha";
  beta.token = "beta";
  auto alpha_client = running.Client(alpha);
  auto a1 = alpha_client->OpenSession(StartFor(fox));
  auto a2 = running.Client(alpha)->OpenSession(StartFor(fox));
  ASSERT_TRUE(a1.ok() && a2.ok());
  auto a3 = alpha_client->OpenSession(StartFor(fox));
  ASSERT_FALSE(a3.ok());
  EXPECT_EQ(a3.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(a3.status().message()),
              HasSubstr("2 sessions with this token are open"));
  EXPECT_THAT(std::string(a3.status().message()),
              HasSubstr("max_sessions_per_token"));
  auto b1 = running.Client(beta)->OpenSession(StartFor(fox));
  EXPECT_TRUE(b1.ok()) << b1.status();
  // A slot given back is the token's again.
  (*a1)->Cancel();
  a1->reset();
  ASSERT_TRUE(WaitForSessions(*running.server, 2));
  EXPECT_TRUE(alpha_client->OpenSession(StartFor(fox)).ok());
}

TEST(ServiceLifecycleTest, TokensAreRequiredWhenConfigured) {
  const std::string tokens = testing::TempPath("tokens.txt");
  ASSERT_TRUE(files::WriteStringToFile(
                  tokens, "# service tokens\nsecret-1\n\nsecret-2\n")
                  .ok());
  ServerOptions options = LoopbackOptions();
  options.tokens_file = tokens;
  RunningServer running = RunningServer::Start(options);
  const io::Animation fox = testing::LoadBundled("fox_walk");
  for (const char* token : {"", "wrong"}) {
    client::ClientOptions client_options;
    client_options.token = token;
    auto client = running.Client(client_options);
    auto session = client->OpenSession(StartFor(fox));
    EXPECT_TRUE(absl::IsUnauthenticated(session.status())) << token;
    EXPECT_TRUE(absl::IsUnauthenticated(client->GetServerInfo().status()));
  }
  client::ClientOptions good;
  good.token = "secret-2";
  EXPECT_TRUE(running.Client(good)->OpenSession(StartFor(fox)).ok());
  EXPECT_TRUE(running.Client(good)->GetServerInfo().ok());

  // An address that cannot be bound is an error, not a crash.
  ServerOptions taken = LoopbackOptions();
  taken.address = "127.0.0.1:" + std::to_string(running.server->port());
  const auto second = CreaseServer::Start(taken);
  EXPECT_FALSE(second.ok());

  ServerOptions missing = LoopbackOptions();
  missing.tokens_file = testing::TempPath("no_such_tokens.txt");
  EXPECT_FALSE(CreaseServer::Start(missing).ok());
}

TEST(ServiceLifecycleTest, TlsWithASelfSignedCertificate) {
  const std::string key = testing::TempPath("key.pem");
  const std::string cert = testing::TempPath("cert.pem");
  const std::string command =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost "
      "-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout " +
      key + " -out " + cert + " 2>/dev/null";
  if (std::system(command.c_str()) != 0) GTEST_SKIP() << "no openssl";
  ServerOptions options = LoopbackOptions();
  options.tls_cert_file = cert;
  options.tls_key_file = key;
  RunningServer running = RunningServer::Start(options);
  client::ClientOptions tls;
  tls.tls_root_certificates = *files::ReadFileToString(cert);
  auto info = running.Client(tls)->GetServerInfo(absl::Seconds(5));
  EXPECT_TRUE(info.ok()) << info.status();
  // Plaintext against a TLS server fails.
  auto plain = running.Client()->GetServerInfo(absl::Seconds(2));
  EXPECT_FALSE(plain.ok());
}

// The session log: who started what, how and when each stream ended, with
// the first frame error; refused sessions too.
TEST(ServiceLifecycleTest, SessionLogSaysWhatStartedAndHowItEnded) {
  absl::Mutex mu;
  std::vector<std::string> lines;
  ServerOptions options = LoopbackOptions();
  options.limits.max_sessions = 1;
  options.session_log = [&](const std::string& line) {
    absl::MutexLock lock(&mu);
    lines.push_back(line);
  };
  RunningServer running = RunningServer::Start(options);
  const io::Animation pants = testing::LoadBundled("cloth_pants_knee");
  auto client = running.Client();
  auto session = client->OpenSession(StartFor(pants));
  ASSERT_TRUE(session.ok()) << session.status();
  EXPECT_TRUE(
      absl::IsResourceExhausted(client->OpenSession(StartFor(pants)).status()));
  for (int f = 0; f < 3; ++f) {
    ASSERT_TRUE((*session)->Send(FrameOf(pants, f)).ok());
    ASSERT_TRUE((*session)->Receive().ok());
  }
  v1::Frame short_frame = FrameOf(pants, 3);
  short_frame.mutable_positions()->RemoveLast();
  ASSERT_TRUE((*session)->Send(short_frame).ok());
  const absl::StatusOr<v1::FrameResult> error = (*session)->Receive();
  ASSERT_TRUE(error.ok() && error->has_error());
  ASSERT_TRUE((*session)->WritesDone().ok());
  ASSERT_TRUE((*session)->Finish().ok());
  ASSERT_TRUE(WaitForSessions(*running.server, 0));

  absl::MutexLock lock(&mu);
  EXPECT_THAT(
      lines,
      ::testing::UnorderedElementsAre(
          ::testing::MatchesRegex("session s1 from ipv4:127.0.0.1:[0-9]+ "
                                  "started: 414 vertices, 792 triangles; "
                                  "outputs: paths"),
          ::testing::MatchesRegex(
              "session s2 from ipv4:127.0.0.1:[0-9]+ ended "
              "RESOURCE_EXHAUSTED before a start \"1 sessions are open, this "
              "server's limit\""),
          ::testing::MatchesRegex(
              "session s1 from ipv4:127.0.0.1:[0-9]+ ended OK after [0-9.]+ "
              "s: 4 frames answered, 1 with errors \\(first: frame 3: "
              "INVALID_ARGUMENT \".+\"\\)")));
}

// grpc.health.v1 as container health checks use it (crease-client --health,
// CreaseClient::IsServing reading the response bytes): SERVING with no token
// even where tokens are required; after shutdown, an error.
TEST(ServiceLifecycleTest, ClientHealthCheckNeedsNoToken) {
  const std::string tokens = testing::TempPath("health_tokens.txt");
  ASSERT_TRUE(files::WriteStringToFile(tokens, "secret\n").ok());
  ServerOptions options = LoopbackOptions();
  options.tokens_file = tokens;
  RunningServer running = RunningServer::Start(options);
  auto client = running.Client();
  const absl::StatusOr<bool> serving = client->IsServing();
  ASSERT_TRUE(serving.ok()) << serving.status();
  EXPECT_TRUE(*serving);
  running.server->Shutdown();
  EXPECT_FALSE(client->IsServing(absl::Seconds(2)).ok());
}

// Asks `target` for its services over server reflection: a
// ServerReflectionRequest with list_services set (field 7, bytes 3a 00) over
// the generic async API. The call's status and the answer's bytes.
std::pair<grpc::Status, std::string> ListServices(const std::string& target) {
  auto channel =
      grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
  grpc::GenericStub stub(channel);
  grpc::CompletionQueue queue;
  grpc::ClientContext context;
  auto call = stub.PrepareCall(
      &context,
      "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo", &queue);
  void* tag = nullptr;
  bool ok = false;
  auto step = [&](int expected) {
    EXPECT_TRUE(queue.Next(&tag, &ok));
    EXPECT_EQ(tag, reinterpret_cast<void*>(expected));
    return ok;
  };
  call->StartCall(reinterpret_cast<void*>(1));
  step(1);
  grpc::Slice list_services(std::string("\x3a\x00", 2));
  grpc::ByteBuffer request(&list_services, 1), response;
  call->Write(request, reinterpret_cast<void*>(2));
  step(2);
  call->Read(&response, reinterpret_cast<void*>(3));
  const bool answered = step(3);
  call->WritesDone(reinterpret_cast<void*>(4));
  step(4);
  grpc::Status status;
  call->Finish(&status, reinterpret_cast<void*>(5));
  step(5);
  std::string bytes;
  std::vector<grpc::Slice> slices;
  if (answered && response.Dump(&slices).ok()) {
    for (const grpc::Slice& s : slices) {
      bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
    }
  }
  queue.Shutdown();
  while (queue.Next(&tag, &ok)) {
  }
  return {status, bytes};
}

// Server reflection is off unless asked for (its streams need no token and
// have no limit: one client held 140,800 of them open, 2.1 GB); on, it lists
// the crease service and health.
TEST(ServiceLifecycleTest, ReflectionIsOffUnlessAskedForThenListsTheService) {
  {
    RunningServer running = RunningServer::Start(LoopbackOptions());
    const auto [status, bytes] = ListServices(running.target);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED)
        << status.error_message();
    EXPECT_TRUE(bytes.empty());
  }
  ServerOptions options = LoopbackOptions();
  options.reflection = true;
  RunningServer running = RunningServer::Start(options);
  const auto [status, bytes] = ListServices(running.target);
  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_THAT(bytes, HasSubstr("crease.v1.Crease"));
  EXPECT_THAT(bytes, HasSubstr("grpc.health.v1.Health"));
  // A server built after it in the same process has none again.
  RunningServer later = RunningServer::Start(LoopbackOptions());
  EXPECT_EQ(ListServices(later.target).first.error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
}

}  // namespace
}  // namespace crease::server
