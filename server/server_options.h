#ifndef CREASE_SERVER_SERVER_OPTIONS_H_
#define CREASE_SERVER_SERVER_OPTIONS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "server/recording/session_record.h"

namespace crease::server {

// What one server accepts; reported to clients in Started and ServerInfo.
struct ServerLimits {
  uint32_t max_vertices = 200'000;
  uint32_t max_triangles = 400'000;
  // Sessions that have sent their Start (the slots that frames use): all,
  // and from one peer address (its host, any port; one token's clients
  // behind one NAT count together), so one peer cannot take every slot.
  uint32_t max_sessions = 128;
  uint32_t max_sessions_per_peer = 64;
  // With tokens on: sessions open at once per bearer token (one client's
  // sessions from many addresses).
  uint32_t max_sessions_per_token = 64;
  // Streams opened but still waiting for their Start, at most: all of them,
  // and from one peer address (its host, any port). Beyond either, the
  // oldest such stream that has waited a second ends (RESOURCE_EXHAUSTED) to
  // make way for the new one; with none that old the new stream is refused.
  // Neither takes a session slot.
  uint32_t max_pending_streams = 256;
  uint32_t max_pending_streams_per_peer = 32;
  // A stream that sends no Start this long after it opens is ended
  // (DEADLINE_EXCEEDED); shorter than the idle timeout.
  absl::Duration start_timeout = absl::Seconds(10);
  // An answer the client does not take (read) within this is given up: the
  // stream is cancelled, so a client that never reads cannot hold its slot.
  absl::Duration write_timeout = absl::Seconds(30);
  uint32_t max_message_bytes = 64 << 20;  // either direction
  absl::Duration idle_timeout = absl::Seconds(60);
  uint32_t max_image_size = 4096;  // pixels per side
};

// HTTP/2 connections, as gRPC core enforces them (docs/operations.md,
// "Connections and HTTP/2").
struct TransportLimits {
  // Streams one connection may have open at once (SETTINGS_MAX_CONCURRENT_
  // STREAMS); sessions beyond wait on the client.
  int max_streams_per_connection = 128;
  // A connection with no call open this long is closed (GOAWAY).
  absl::Duration max_connection_idle = absl::Minutes(5);
  // A connection is closed this long after it opened, calls given
  // `max_connection_age_grace` to end; zero: never (sessions are long).
  absl::Duration max_connection_age = absl::ZeroDuration();
  absl::Duration max_connection_age_grace = absl::Seconds(30);
  // The server pings an idle connection this often and drops it when the
  // ping is not answered within the timeout: dead peers are noticed.
  absl::Duration keepalive_time = absl::Minutes(1);
  absl::Duration keepalive_timeout = absl::Seconds(20);
  // Client pings closer than this (without data) count as abuse; two such
  // strikes close the connection.
  absl::Duration min_client_ping_interval = absl::Seconds(10);
  // gRPC core's memory for connections and messages (its resource quota),
  // MiB; 0: unlimited.
  int memory_mb = 1024;
};

struct HealthLimits {
  // Watch streams open at once; more are refused with RESOURCE_EXHAUSTED.
  int max_watches = 64;
  // A Watch stream ends (OK) after this long; the protocol has clients
  // re-watch, so this only bounds what a vanished client holds.
  absl::Duration max_watch = absl::Minutes(5);
};

// Everything the server is configured with; crease-server sets it from flags.
struct ServerOptions {
  // host:port; port 0 picks a free one (CreaseServer::port() tells which).
  std::string address = "127.0.0.1:50051";
  ServerLimits limits;
  // Threads running the sessions' frames (0: one per core).
  int worker_threads = 0;
  // GL threads per GPU, each with its own EGL context, only drawing and
  // reading back (0: no rendering; image requests are then rejected at
  // Start).
  int render_threads = 1;
  // EGL device indices to render on, one queue each ("all": every GPU);
  // empty: the first GPU that works, else software rendering.
  std::vector<int> gpus;
  // Threads encoding JPEG / PNG off the GL threads (0: the cores left, at
  // least 2).
  int encode_threads = 0;
  // Frames each GL thread keeps in flight before waiting for the oldest.
  int frames_in_flight = 16;
  TransportLimits transport;
  // All the server may use, bytes (sessions' estimated costs plus
  // kServerBaseBytes); 0: DefaultMaxMemoryBytes() (80 % of the cgroup's
  // limit or of the machine's memory).
  int64_t max_memory_bytes = 0;
  // Bearer tokens, one per line ('#' starts a comment); empty: no auth.
  std::string tokens_file;
  // PEM files; both set: TLS, else plaintext.
  std::string tls_cert_file;
  std::string tls_key_file;
  // host:port of the Prometheus /metrics endpoint; empty: off.
  std::string metrics_address;
  // grpc.health.v1 Watch streams: how many, how long each.
  HealthLimits health;
  // Server reflection (grpcurl and the like). Off by default: its streams
  // need no token and have no limit or timeout, so one client could hold
  // any number of them open.
  bool reflection = false;
  // Behind a front proxy every stream comes from the proxy's address, so the
  // per-peer limits would be the server's: with this metadata key set (the
  // proxy writing the client's address into it, deploy/front-proxy), its
  // value is the peer for those limits and the logs. Only for a server that
  // nothing but the proxy can reach: a client sending it itself could claim
  // any address. Empty: the transport's peer.
  std::string client_address_header;
  // Sessions recorded for crease-replay (docs/operations.md, "Recording and
  // replaying sessions"); dir empty: none.
  RecordingOptions recording;
  // How long Shutdown lets frames in flight finish before cancelling.
  absl::Duration shutdown_grace = absl::Seconds(10);
  // Receives one line when a session starts and one when its stream ends
  // (status, duration, frames, the first frame error); null: no session log.
  // Called from gRPC and worker threads, one call per line.
  std::function<void(const std::string& line)> session_log;
  // Tests only: called on the thread that handles each frame, before it is
  // handled and with no lock held, so a test can hold a frame in work (a
  // drain held open on purpose rather than by a slow render). That is a
  // worker for frames with images or many triangles, else gRPC's callback
  // thread, which blocking stalls. Null (production): nothing is called.
  std::function<void()> before_frame_for_testing;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_SERVER_OPTIONS_H_
