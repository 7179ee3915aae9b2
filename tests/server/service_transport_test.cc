// The server's HTTP/2 connections probed as an attacker would, frame by
// frame: the limits gRPC core enforces for it (streams per connection, idle
// connections) and the metrics endpoint under partial requests. The
// rapid-reset flood is in service_soak_test.cc (its figures depend on how
// much CPU the machine has to spare).

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "client/load/load_stats.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/server/raw_http2.h"
#include "tests/server/raw_stream.h"
#include "tests/server/service_fixture.h"
#include "tests/testing/bundled_data.h"

namespace crease::server {
namespace {

using ::testing::HasSubstr;

// The server's first SETTINGS frame tells every client how many streams
// one connection may open.
TEST(ServiceTransportTest, SettingsCapStreamsPerConnection) {
  ServerOptions options = LoopbackOptions();
  options.transport.max_streams_per_connection = 7;
  RunningServer running = RunningServer::Start(options);
  RawHttp2Connection connection(running.server->port());
  ASSERT_TRUE(connection.connected());
  std::optional<uint32_t> max_streams;
  for (int i = 0; i < 10 && !max_streams; ++i) {
    std::optional<Http2Frame> frame = connection.Read(absl::Seconds(5));
    ASSERT_TRUE(frame.has_value());
    if (frame->type != kHttp2Settings || (frame->flags & 0x1)) continue;
    for (size_t at = 0; at + 6 <= frame->payload.size(); at += 6) {
      const auto byte = [&](size_t k) {
        return static_cast<uint8_t>(frame->payload[at + k]);
      };
      if (((byte(0) << 8) | byte(1)) == 0x3) {  // MAX_CONCURRENT_STREAMS
        max_streams =
            (byte(2) << 24) | (byte(3) << 16) | (byte(4) << 8) | byte(5);
      }
    }
  }
  ASSERT_TRUE(max_streams.has_value());
  EXPECT_EQ(*max_streams, 7u);
}

// Connections that only say the preface and then nothing (4,000 of them used
// to be kept forever) are closed once idle, with a GOAWAY.
TEST(ServiceTransportTest, IdleConnectionsAreClosed) {
  ServerOptions options = LoopbackOptions();
  options.transport.max_connection_idle = absl::Milliseconds(500);
  RunningServer running = RunningServer::Start(options);
  std::vector<std::unique_ptr<RawHttp2Connection>> idle;
  for (int i = 0; i < 20; ++i) {
    idle.push_back(
        std::make_unique<RawHttp2Connection>(running.server->port()));
    ASSERT_TRUE(idle.back()->connected());
  }
  int closed = 0, goaways = 0;
  for (auto& connection : idle) {
    bool goaway = false;
    closed += connection->ClosedWithin(absl::Seconds(5), &goaway);
    goaways += goaway;
  }
  EXPECT_EQ(closed, 20);
  EXPECT_EQ(goaways, 20);
  // The control: with the default idle limit the same connection stays.
  RunningServer patient = RunningServer::Start(LoopbackOptions());
  RawHttp2Connection kept(patient.server->port());
  bool goaway = false;
  EXPECT_FALSE(kept.ClosedWithin(absl::Milliseconds(1500), &goaway));
}

// Connections holding partial HTTP requests (slowloris) cannot block the
// metrics: the endpoint has threads to spare and drops a request that has
// not arrived within two seconds (two such connections used to hold every
// scrape for 30 s).
TEST(ServiceTransportTest, PartialRequestsDoNotBlockMetrics) {
  ServerOptions options = LoopbackOptions();
  options.metrics_address = "127.0.0.1:0";
  RunningServer running = RunningServer::Start(options);
  const int port = running.server->metrics_port();
  std::vector<int> held;
  for (int i = 0; i < 12; ++i) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(
        connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
    const std::string partial = "GET /metrics HTTP/1.1\r\nHost: x\r\n";
    ASSERT_GT(send(fd, partial.data(), partial.size(), MSG_NOSIGNAL), 0);
    held.push_back(fd);
  }
  const absl::Time start = absl::Now();
  // The scrape may wait for the two-second drop; what it must not do is wait
  // the old 30 s. The bounds leave room for a slow machine.
  const absl::StatusOr<std::string> page =
      load::FetchMetrics(absl::StrCat("127.0.0.1:", port), 10000);
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  for (int fd : held) close(fd);
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_THAT(*page, HasSubstr("crease_sessions_active"));
  EXPECT_LT(seconds, 8.0);
}

}  // namespace
}  // namespace crease::server
