#ifndef CREASE_TESTS_SERVER_RAW_HTTP2_H_
#define CREASE_TESTS_SERVER_RAW_HTTP2_H_

// HTTP/2 spoken frame by frame on a plain TCP socket, for the tests that
// probe the server as an attacker would (idle connections, rapid reset): no
// HTTP/2 library, only what those probes send and read.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <optional>
#include <string>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace crease::server {

struct Http2Frame {
  uint8_t type = 0;
  uint8_t flags = 0;
  uint32_t stream = 0;
  std::string payload;
};

inline constexpr uint8_t kHttp2Headers = 0x1;
inline constexpr uint8_t kHttp2RstStream = 0x3;
inline constexpr uint8_t kHttp2Settings = 0x4;
inline constexpr uint8_t kHttp2GoAway = 0x7;

class RawHttp2Connection {
 public:
  // Connects to 127.0.0.1:`port` and sends the client preface and an empty
  // SETTINGS frame.
  explicit RawHttp2Connection(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = fd_ >= 0 && connect(fd_, reinterpret_cast<sockaddr*>(&address),
                                     sizeof(address)) == 0;
    if (connected_) {
      connected_ = Send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") &&
                   SendFrame(kHttp2Settings, 0, 0, "");
    }
  }
  ~RawHttp2Connection() {
    if (fd_ >= 0) close(fd_);
  }
  RawHttp2Connection(const RawHttp2Connection&) = delete;
  RawHttp2Connection& operator=(const RawHttp2Connection&) = delete;

  bool connected() const { return connected_; }

  bool Send(const std::string& bytes) {
    size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t n =
          send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<size_t>(n);
    }
    return true;
  }

  static std::string Frame(uint8_t type, uint8_t flags, uint32_t stream,
                           const std::string& payload) {
    std::string f(9, '\0');
    const uint32_t length = static_cast<uint32_t>(payload.size());
    f[0] = static_cast<char>(length >> 16);
    f[1] = static_cast<char>(length >> 8);
    f[2] = static_cast<char>(length);
    f[3] = static_cast<char>(type);
    f[4] = static_cast<char>(flags);
    for (int k = 0; k < 4; ++k) {
      f[5 + k] = static_cast<char>((stream >> (24 - 8 * k)) & 0xff);
    }
    return f + payload;
  }
  bool SendFrame(uint8_t type, uint8_t flags, uint32_t stream,
                 const std::string& payload) {
    return Send(Frame(type, flags, stream, payload));
  }

  // A HEADERS frame opening a crease.v1 Session call on `stream` (HPACK
  // literals without indexing or Huffman), END_HEADERS set.
  static std::string SessionHeaders(uint32_t stream) {
    std::string block;
    auto literal = [&block](const std::string& name, const std::string& value) {
      block += '\0';
      block += static_cast<char>(name.size());
      block += name;
      block += static_cast<char>(value.size());
      block += value;
    };
    literal(":method", "POST");
    literal(":scheme", "http");
    literal(":path", "/crease.v1.Crease/Session");
    literal(":authority", "localhost");
    literal("content-type", "application/grpc");
    literal("te", "trailers");
    return Frame(kHttp2Headers, 0x4, stream, block);
  }
  // RST_STREAM with CANCEL.
  static std::string Reset(uint32_t stream) {
    return Frame(kHttp2RstStream, 0, stream, std::string("\0\0\0\x08", 4));
  }

  // The next frame, or nothing when the connection closed or `timeout`
  // passed first.
  std::optional<Http2Frame> Read(absl::Duration timeout) {
    const absl::Time deadline = absl::Now() + timeout;
    std::string header;
    if (!ReadExactly(9, deadline, &header)) return std::nullopt;
    Http2Frame frame;
    const uint32_t length = (static_cast<uint8_t>(header[0]) << 16) |
                            (static_cast<uint8_t>(header[1]) << 8) |
                            static_cast<uint8_t>(header[2]);
    frame.type = static_cast<uint8_t>(header[3]);
    frame.flags = static_cast<uint8_t>(header[4]);
    for (int k = 0; k < 4; ++k) {
      frame.stream = (frame.stream << 8) | static_cast<uint8_t>(header[5 + k]);
    }
    frame.stream &= 0x7fffffff;
    if (!ReadExactly(length, deadline, &frame.payload)) return std::nullopt;
    return frame;
  }

  // Whether the peer closed the connection (EOF or reset) before `timeout`;
  // frames that came meanwhile are dropped, a GOAWAY among them noted.
  bool ClosedWithin(absl::Duration timeout, bool* saw_goaway) {
    const absl::Time deadline = absl::Now() + timeout;
    while (absl::Now() < deadline) {
      std::optional<Http2Frame> frame = Read(deadline - absl::Now());
      if (!frame) return closed_;
      if (frame->type == kHttp2GoAway) *saw_goaway = true;
      // A well-behaved idle client acknowledges the server's settings.
      if (frame->type == kHttp2Settings && !(frame->flags & 0x1)) {
        SendFrame(kHttp2Settings, 0x1, 0, "");
      }
    }
    return false;
  }

 private:
  bool ReadExactly(size_t n, absl::Time deadline, std::string* out) {
    out->clear();
    while (out->size() < n) {
      const int64_t left = absl::ToInt64Milliseconds(deadline - absl::Now());
      pollfd p{fd_, POLLIN, 0};
      if (left <= 0 || poll(&p, 1, static_cast<int>(left)) <= 0) return false;
      char buffer[4096];
      const ssize_t got =
          recv(fd_, buffer, std::min(sizeof(buffer), n - out->size()), 0);
      if (got <= 0) {
        closed_ = true;
        return false;
      }
      out->append(buffer, static_cast<size_t>(got));
    }
    return true;
  }

  int fd_ = -1;
  bool connected_ = false;
  bool closed_ = false;
};

}  // namespace crease::server

#endif  // CREASE_TESTS_SERVER_RAW_HTTP2_H_
