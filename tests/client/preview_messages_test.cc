// crease-preview's messages, byte for byte, and its server: files served,
// and over /frames the topology first, the kept frames, then new ones.

#include "client/preview/preview_messages.h"

#include <arpa/inet.h>
#include <civetweb.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "client/preview/preview_server.h"
#include "tests/testing/temp_path.h"

namespace crease::client::preview {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

template <typename T>
std::vector<T> Read(const std::string& message, size_t* at, size_t count) {
  std::vector<T> out(count);
  std::memcpy(out.data(), message.data() + *at, 4 * count);
  *at += 4 * count;
  return out;
}

v1::FrameResult TwoTriangleResult() {
  v1::FrameResult result;
  result.set_labels(std::string("\x01\x03", 2));
  for (float x : {1.2f, 0.7f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 1.0f, 1.1f, 0.f,
                  0.f, 0.f, 0.f, 0.f, 0.f}) {
    result.add_tensors(x);
  }
  v1::Wrinkle* wrinkle = result.add_wrinkles();
  for (float x : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 1.f, 1.f, 0.f}) {
    wrinkle->add_points(x);
  }
  for (float x : {9.f, 9.f, 9.f})
    result.mutable_wrinkled_mesh()->add_positions(x);
  for (float x : {0.f, 0.f, 1.f})
    result.mutable_wrinkled_mesh()->add_normals(x);
  return result;
}

TEST(PreviewMessagesTest, FrameLaysOutEveryArrayInOrder) {
  const std::vector<float> coarse = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  const std::string m = FrameMessage(7, 2.5, coarse, 2, TwoTriangleResult());
  size_t at = 0;
  const std::vector<uint32_t> head = Read<uint32_t>(m, &at, 8);
  EXPECT_EQ(head[0], kFrameMagic);
  EXPECT_EQ(head[1], 7u);
  float latency;
  std::memcpy(&latency, &head[2], 4);
  EXPECT_FLOAT_EQ(latency, 2.5f);
  EXPECT_THAT(std::vector<uint32_t>(head.begin() + 3, head.end()),
              ElementsAre(4, 1, 2, 1, 3));  // V, W, T, K, P
  EXPECT_EQ(Read<float>(m, &at, 12), coarse);
  EXPECT_THAT(Read<float>(m, &at, 3), ElementsAre(9, 9, 9));
  EXPECT_THAT(Read<float>(m, &at, 3), ElementsAre(0, 0, 1));
  EXPECT_THAT(Read<float>(m, &at, 2), ElementsAre(1, 3));  // labels
  // 1 - lambda_min, never below 0.
  EXPECT_THAT(Read<float>(m, &at, 2),
              ElementsAre(::testing::FloatNear(0.3f, 1e-6f), 0));
  EXPECT_THAT(Read<uint32_t>(m, &at, 1), ElementsAre(3));
  EXPECT_THAT(Read<float>(m, &at, 9), ElementsAre(0, 0, 0, 1, 0, 0, 1, 1, 0));
  EXPECT_EQ(at, m.size());
}

TEST(PreviewMessagesTest, MissingOutputsAreZerosOfTheirLength) {
  const std::vector<float> coarse(9, 1.0f);
  const std::string m = FrameMessage(0, 0, coarse, 1, v1::FrameResult());
  // Header, 9 positions, no wrinkled vertices, one label and one
  // compression (zeros), no paths.
  ASSERT_EQ(m.size(), 4u * (8 + 9 + 1 + 1));
  size_t at = 4 * (8 + 9);
  EXPECT_THAT(Read<float>(m, &at, 2), ElementsAre(0, 0));
}

TEST(PreviewMessagesTest, InitNamesBothTopologies) {
  io::TriangleMesh mesh;
  mesh.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  mesh.triangles = {{0, 1, 2}};
  v1::Started started;
  started.set_server_version("1.2.3 \"rc\"\\\n");
  started.mutable_wrinkled_mesh()->set_level(2);
  started.mutable_wrinkled_mesh()->set_vertex_count(6);
  for (uint32_t v : {0u, 3u, 5u}) {
    started.mutable_wrinkled_mesh()->add_triangles(v);
  }
  const std::string init = InitMessage(mesh, started, 40, 24);
  EXPECT_THAT(init, HasSubstr("\"frames\":40,\"fps\":24"));
  EXPECT_THAT(init,
              HasSubstr("\"coarse\":{\"vertices\":3,\"triangles\":[0,1,2]}"));
  EXPECT_THAT(init, HasSubstr("\"wrinkled\":{\"level\":2,\"vertices\":6,"
                              "\"triangles\":[0,3,5]}"));
  // Escaped as JSON, so a quote or a backslash cannot break the page.
  EXPECT_THAT(init,
              HasSubstr("\"server_version\":\"1.2.3 \\\"rc\\\"\\\\\\u000a\""));
}

// What a WebSocket client received, in order.
struct Received {
  absl::Mutex mu;
  std::vector<std::string> messages ABSL_GUARDED_BY(mu);
};

int OnMessage(mg_connection*, int bits, char* data, size_t length, void* user) {
  const int opcode = bits & 0xf;
  if (opcode != MG_WEBSOCKET_OPCODE_TEXT &&
      opcode != MG_WEBSOCKET_OPCODE_BINARY) {
    return 1;
  }
  auto* received = static_cast<Received*>(user);
  absl::MutexLock lock(&received->mu);
  received->messages.emplace_back(data, length);
  return 1;
}

mg_connection* Connect(int port, Received* received) {
  char error[256] = "";
  return mg_connect_websocket_client("127.0.0.1", port, 0, error, sizeof(error),
                                     "/frames", nullptr, &OnMessage, nullptr,
                                     received);
}

bool WaitFor(Received* received, size_t count) {
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (absl::Now() < deadline) {
    {
      absl::MutexLock lock(&received->mu);
      if (received->messages.size() >= count) return true;
    }
    absl::SleepFor(absl::Milliseconds(10));
  }
  return false;
}

TEST(PreviewServerTest, PagesGetTheTopologyTheKeptFramesThenNewOnes) {
  const std::filesystem::path root =
      std::filesystem::path(testing::TempPath("preview_root"));
  std::filesystem::create_directories(root);
  std::ofstream(root / "index.html") << "<!doctype html><p>page</p>";
  mg_init_library(0);
  absl::StatusOr<std::unique_ptr<PreviewServer>> server =
      PreviewServer::Start(root.string(), 0, "{\"init\":1}", 2);
  ASSERT_TRUE(server.ok()) << server.status();
  // The page's files, over plain HTTP.
  char error[256] = "";
  mg_connection* http =
      mg_download("127.0.0.1", (*server)->port(), 0, error, sizeof(error),
                  "GET /index.html HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
  ASSERT_NE(http, nullptr) << error;
  std::string body(256, '\0');
  body.resize(std::max(mg_read(http, body.data(), body.size()), 0));
  mg_close_connection(http);
  EXPECT_EQ(body, "<!doctype html><p>page</p>");
  (*server)->Publish("frame-0");
  Received early;
  mg_connection* first = Connect((*server)->port(), &early);
  ASSERT_NE(first, nullptr);
  ASSERT_TRUE(WaitFor(&early, 2));
  (*server)->Publish("frame-1");
  ASSERT_TRUE(WaitFor(&early, 3));
  {
    absl::MutexLock lock(&early.mu);
    EXPECT_THAT(early.messages,
                ElementsAre("{\"init\":1}", "frame-0", "frame-1"));
  }
  Received late;  // opened after both: gets both, to scrub back
  mg_connection* second = Connect((*server)->port(), &late);
  ASSERT_NE(second, nullptr);
  ASSERT_TRUE(WaitFor(&late, 3));
  {
    absl::MutexLock lock(&late.mu);
    EXPECT_THAT(late.messages,
                ElementsAre("{\"init\":1}", "frame-0", "frame-1"));
  }
  EXPECT_EQ((*server)->pages(), 2);
  // Two frames are kept: a page opened after a third gets the last two.
  (*server)->Publish("frame-2");
  Received later;
  mg_connection* third = Connect((*server)->port(), &later);
  ASSERT_NE(third, nullptr);
  ASSERT_TRUE(WaitFor(&later, 3));
  {
    absl::MutexLock lock(&later.mu);
    EXPECT_THAT(later.messages,
                ElementsAre("{\"init\":1}", "frame-1", "frame-2"));
  }
  mg_close_connection(first);
  mg_close_connection(second);
  mg_close_connection(third);
}

// A raw WebSocket handshake on a socket of our own (which then reads
// nothing unless told): the server's status line.
struct RawPage {
  int fd = -1;
  std::string status;
  ~RawPage() {
    if (fd >= 0) close(fd);
  }
};
std::unique_ptr<RawPage> Handshake(int port, const std::string& origin) {
  auto page = std::make_unique<RawPage>();
  page->fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  // A small receive buffer, so a page that reads nothing fills up soon.
  const int small = 4096;
  setsockopt(page->fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
  if (connect(page->fd, reinterpret_cast<sockaddr*>(&address),
              sizeof(address)) != 0) {
    return page;
  }
  const std::string request = absl::StrCat(
      "GET /frames HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      "Sec-WebSocket-Version: 13\r\n",
      origin.empty() ? "" : "Origin: " + origin + "\r\n", "\r\n");
  if (send(page->fd, request.data(), request.size(), 0) < 0) return page;
  char line[64] = "";
  const ssize_t got = recv(page->fd, line, sizeof(line) - 1, 0);
  page->status = std::string(line, std::max<ssize_t>(got, 0));
  page->status = page->status.substr(0, page->status.find('\r'));
  return page;
}

std::unique_ptr<PreviewServer> StartInTemp(const std::string& name, int keep) {
  const std::filesystem::path root =
      std::filesystem::path(testing::TempPath(name));
  std::filesystem::create_directories(root);
  std::ofstream(root / "index.html") << "<!doctype html>";
  absl::StatusOr<std::unique_ptr<PreviewServer>> server =
      PreviewServer::Start(root.string(), 0, "{}", keep);
  EXPECT_TRUE(server.ok()) << server.status();
  return server.ok() ? *std::move(server) : nullptr;
}

TEST(PreviewServerTest, OnlyItsOwnPageOrNoBrowserMayRead) {
  std::unique_ptr<PreviewServer> server = StartInTemp("preview_origin", 1);
  ASSERT_NE(server, nullptr);
  const int port = server->port();
  EXPECT_THAT(Handshake(port, "")->status, HasSubstr("101"));
  EXPECT_THAT(Handshake(port, absl::StrCat("http://127.0.0.1:", port))->status,
              HasSubstr("101"));
  EXPECT_THAT(Handshake(port, absl::StrCat("http://localhost:", port))->status,
              HasSubstr("101"));
  EXPECT_THAT(Handshake(port, "http://evil.example")->status,
              ::testing::Not(HasSubstr("101")));
}

TEST(PreviewServerTest, APageThatReadsNothingHoldsUpNoOne) {
  std::unique_ptr<PreviewServer> server = StartInTemp("preview_stall", 64);
  ASSERT_NE(server, nullptr);
  std::unique_ptr<RawPage> stalled = Handshake(server->port(), "");
  ASSERT_THAT(stalled->status, HasSubstr("101"));
  Received reader;
  mg_connection* reading = Connect(server->port(), &reader);
  ASSERT_NE(reading, nullptr);
  // 32 MB the stalled page never reads: publishing does not wait for it,
  // and the page that reads gets every frame.
  const absl::Time begin = absl::Now();
  for (int f = 0; f < 32; ++f) {
    server->Publish(std::string(1 << 20, static_cast<char>('a' + f % 26)));
  }
  EXPECT_LT(absl::Now() - begin, absl::Seconds(1));
  EXPECT_TRUE(WaitFor(&reader, 33));
  mg_close_connection(reading);
}

TEST(PreviewServerTest, RefusesARootWithoutItsPage) {
  absl::StatusOr<std::unique_ptr<PreviewServer>> server =
      PreviewServer::Start(testing::TempPath("no_such_root"), 0, "{}", 1);
  EXPECT_EQ(server.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace crease::client::preview
