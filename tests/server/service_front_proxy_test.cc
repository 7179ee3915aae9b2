// Behind a front proxy every stream comes from the proxy's address: with
// ServerOptions::client_address_header the per-peer limits key on the
// client address the proxy writes (deploy/front-proxy/nginx.conf), and
// without it the header is ignored (a client cannot claim an address).

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/server/raw_stream.h"
#include "tests/server/service_fixture.h"
#include "wrinkle/core/synthetic_sheet.h"

namespace crease::server {
namespace {

using ::testing::HasSubstr;

constexpr char kHeader[] = "x-crease-client";

// A stream whose Start claims `address` in the header: started, or how it
// was refused.
struct Opened {
  std::unique_ptr<RawStream> stream;
  bool started = false;
  grpc::Status refusal;
};

Opened Open(const RunningServer& running, const std::string& address) {
  io::Animation sheet;
  sheet.mesh = MakeGridSheet(2, 2, 1.0f, 1.0f);
  Opened opened;
  opened.stream = std::make_unique<RawStream>(
      running.target,
      std::vector<std::pair<std::string, std::string>>{{kHeader, address}});
  EXPECT_TRUE(
      opened.stream->Write(StartBytes(StartFor(sheet)), absl::Seconds(10)));
  const auto answer = opened.stream->Read(absl::Seconds(10));
  opened.started = answer.has_value() && answer->has_started();
  if (!opened.started)
    opened.refusal = opened.stream->Finish(absl::Seconds(10));
  return opened;
}

TEST(FrontProxyTest, PerPeerLimitsKeyOnTheProxysHeaderWhenTrusted) {
  ServerOptions options = LoopbackOptions();
  options.limits.max_sessions_per_peer = 1;
  options.client_address_header = kHeader;
  RunningServer running = RunningServer::Start(options);
  const Opened first = Open(running, "203.0.113.5");
  EXPECT_TRUE(first.started);
  const Opened second = Open(running, "203.0.113.5");
  EXPECT_FALSE(second.started);
  EXPECT_EQ(second.refusal.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(
      second.refusal.error_message(),
      HasSubstr("1 sessions from x-crease-client:203.0.113.5 are open"));
  // Another client behind the same proxy keeps its own slot.
  EXPECT_TRUE(Open(running, "198.51.100.7").started);
}

TEST(FrontProxyTest, WithoutTrustTheHeaderIsIgnored) {
  ServerOptions options = LoopbackOptions();
  options.limits.max_sessions_per_peer = 1;
  RunningServer running = RunningServer::Start(options);
  const Opened first = Open(running, "203.0.113.5");
  EXPECT_TRUE(first.started);
  const Opened second = Open(running, "198.51.100.7");
  EXPECT_FALSE(second.started);
  EXPECT_THAT(second.refusal.error_message(), HasSubstr("ipv4:127.0.0.1"));
}

}  // namespace
}  // namespace crease::server
