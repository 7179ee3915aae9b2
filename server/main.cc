// crease-server: the Crease wrinkle service. Runs until SIGINT or SIGTERM, then
// shuts down gracefully (frames in flight get their answers).

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "common/file_util.h"
#include "common/flags_usage.h"
#include "server/crease_server.h"
#include "server/render_pool.h"

ABSL_FLAG(std::string, address, "127.0.0.1:50051",
          "host:port to listen on; port 0 picks a free one");
ABSL_FLAG(std::string, port_file, "",
          "Write the port listened on to this file once serving");
ABSL_FLAG(uint32_t, max_vertices, 200'000, "Most vertices per session mesh");
ABSL_FLAG(uint32_t, max_triangles, 400'000, "Most triangles per session mesh");
ABSL_FLAG(uint32_t, max_sessions, 128, "Most sessions open at once");
ABSL_FLAG(uint32_t, max_sessions_per_peer, 64,
          "Most sessions open at once from one peer host (any port)");
ABSL_FLAG(uint32_t, max_sessions_per_token, 64,
          "With --tokens_file: most sessions open at once per token");
ABSL_FLAG(uint32_t, max_pending_streams, 256,
          "Most streams waiting for their Start at once");
ABSL_FLAG(uint32_t, max_pending_per_peer, 32,
          "Most streams waiting for their Start from one peer host");
ABSL_FLAG(absl::Duration, start_timeout, absl::Seconds(10),
          "End a stream that sends no Start for this long after it opens");
ABSL_FLAG(absl::Duration, write_timeout, absl::Seconds(30),
          "End a stream whose client reads no answer for this long");
ABSL_FLAG(uint32_t, max_message_mb, 64, "Largest message, either way, in MiB");
ABSL_FLAG(absl::Duration, idle_timeout, absl::Seconds(60),
          "End a session that sends nothing for this long");
ABSL_FLAG(uint32_t, max_image_size, 4096, "Largest image side in pixels");
ABSL_FLAG(int, worker_threads, 0, "Session worker threads (0: one per core)");
ABSL_FLAG(int, render_threads, 1,
          "GL threads per GPU, one EGL context each, drawing only (0: no "
          "images)");
ABSL_FLAG(std::string, gpus, "",
          "EGL device indices to render on, comma-separated, one render queue "
          "each, or 'all' (every GPU); empty: the first GPU, else software");
ABSL_FLAG(int, encode_threads, 0,
          "Threads encoding JPEG / PNG off the GL threads (0: the cores left "
          "after the GL threads, at least 2)");
ABSL_FLAG(int, frames_in_flight, 16,
          "Frames each GL thread keeps drawn and travelling before it waits "
          "for the oldest");
ABSL_FLAG(std::string, tokens_file, "",
          "Bearer tokens, one per line; set: every call needs one");
ABSL_FLAG(std::string, tls_cert, "", "PEM certificate chain (with --tls_key)");
ABSL_FLAG(std::string, tls_key, "", "PEM private key (with --tls_cert)");
ABSL_FLAG(std::string, metrics_address, "",
          "host:port for Prometheus /metrics (empty: off)");
ABSL_FLAG(bool, log_sessions, true,
          "Log a line to stderr when a session starts and when it ends");
ABSL_FLAG(bool, reflection, false,
          "Serve gRPC server reflection (for grpcurl). Its streams need no "
          "token and have no limit or timeout: for development, not for a "
          "server clients can reach.");
ABSL_FLAG(std::string, client_address_header, "",
          "Behind a front proxy: the request metadata key (lower case) the "
          "proxy writes the client's address into, used as the peer for the "
          "per-peer limits and logs. Only where nothing but the proxy can "
          "reach the server; empty: the connection's peer.");
ABSL_FLAG(int, max_health_watches, 64,
          "Most grpc.health.v1 Watch streams open at once");
ABSL_FLAG(absl::Duration, max_health_watch, absl::Minutes(5),
          "End a health Watch stream after this long (clients re-watch)");
ABSL_FLAG(int, max_streams_per_connection, 128,
          "HTTP/2 streams one connection may have open at once");
ABSL_FLAG(absl::Duration, max_connection_idle, absl::Minutes(5),
          "Close a connection with no call open for this long");
ABSL_FLAG(absl::Duration, max_connection_age, absl::ZeroDuration(),
          "Close connections this old (calls get 30 s to end); 0: never");
ABSL_FLAG(absl::Duration, keepalive_time, absl::Minutes(1),
          "Ping an idle connection this often; drop it if unanswered in 20 s");
ABSL_FLAG(int64_t, max_memory_mb, 0,
          "All the server may use, MiB: sessions' estimated costs are held "
          "to it at Start (0: 80 % of the cgroup's limit or of the machine)");
ABSL_FLAG(int, grpc_memory_mb, 1024,
          "gRPC core's memory quota for connections and messages, MiB "
          "(0: unlimited)");
ABSL_FLAG(std::string, record_dir, "",
          "Record sessions to this folder, one .crec file each, for "
          "crease-replay (empty: none)");
ABSL_FLAG(int, record_every, 1,
          "With --record_dir: record every Nth session that starts");
ABSL_FLAG(std::string, record_peer, "",
          "With --record_dir: only sessions whose peer address contains this");
ABSL_FLAG(std::string, record_session, "",
          "With --record_dir: only this session id (as the log names it)");
ABSL_FLAG(int64_t, record_max_mb, 256,
          "With --record_dir: stop a session's recording past this many MiB");
ABSL_FLAG(absl::Duration, shutdown_grace, absl::Seconds(10),
          "On SIGTERM, how long frames in flight may take");

namespace {

using crease::server::CreaseServer;
using crease::server::ServerOptions;

// Blocks SIGINT and SIGTERM here and in the threads started from here, so
// that they go to sigwait (WaitForStopSignal), not to whichever thread gRPC
// runs. Returns them.
sigset_t BlockStopSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

// A session log line on stderr, with the time.
void LogSessionLine(const std::string& line) {
  // One fprintf per line: lines from different threads do not interleave.
  std::fprintf(
      stderr, "%s crease-server: %s\n",
      absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(), absl::UTCTimeZone())
          .c_str(),
      line.c_str());
}

absl::StatusOr<ServerOptions> OptionsFromFlags() {
  ServerOptions options;
  options.address = absl::GetFlag(FLAGS_address);
  options.limits.max_vertices = absl::GetFlag(FLAGS_max_vertices);
  options.limits.max_triangles = absl::GetFlag(FLAGS_max_triangles);
  options.limits.max_sessions = absl::GetFlag(FLAGS_max_sessions);
  options.limits.max_sessions_per_peer =
      absl::GetFlag(FLAGS_max_sessions_per_peer);
  options.limits.max_sessions_per_token =
      absl::GetFlag(FLAGS_max_sessions_per_token);
  options.limits.max_pending_streams = absl::GetFlag(FLAGS_max_pending_streams);
  options.limits.max_pending_streams_per_peer =
      absl::GetFlag(FLAGS_max_pending_per_peer);
  options.limits.start_timeout = absl::GetFlag(FLAGS_start_timeout);
  options.limits.write_timeout = absl::GetFlag(FLAGS_write_timeout);
  options.limits.max_message_bytes = absl::GetFlag(FLAGS_max_message_mb) << 20;
  options.limits.idle_timeout = absl::GetFlag(FLAGS_idle_timeout);
  options.limits.max_image_size = absl::GetFlag(FLAGS_max_image_size);
  options.worker_threads = absl::GetFlag(FLAGS_worker_threads);
  options.render_threads = absl::GetFlag(FLAGS_render_threads);
  absl::StatusOr<std::vector<int>> gpus =
      crease::server::ParseGpuList(absl::GetFlag(FLAGS_gpus));
  if (!gpus.ok()) return gpus.status();
  options.gpus = *std::move(gpus);
  options.encode_threads = absl::GetFlag(FLAGS_encode_threads);
  options.frames_in_flight = absl::GetFlag(FLAGS_frames_in_flight);
  options.transport.max_streams_per_connection =
      absl::GetFlag(FLAGS_max_streams_per_connection);
  options.transport.max_connection_idle =
      absl::GetFlag(FLAGS_max_connection_idle);
  options.transport.max_connection_age =
      absl::GetFlag(FLAGS_max_connection_age);
  options.transport.keepalive_time = absl::GetFlag(FLAGS_keepalive_time);
  options.transport.memory_mb = absl::GetFlag(FLAGS_grpc_memory_mb);
  options.max_memory_bytes = absl::GetFlag(FLAGS_max_memory_mb) << 20;
  options.tokens_file = absl::GetFlag(FLAGS_tokens_file);
  options.tls_cert_file = absl::GetFlag(FLAGS_tls_cert);
  options.tls_key_file = absl::GetFlag(FLAGS_tls_key);
  options.metrics_address = absl::GetFlag(FLAGS_metrics_address);
  options.shutdown_grace = absl::GetFlag(FLAGS_shutdown_grace);
  options.health.max_watches = absl::GetFlag(FLAGS_max_health_watches);
  options.reflection = absl::GetFlag(FLAGS_reflection);
  options.client_address_header = absl::GetFlag(FLAGS_client_address_header);
  options.health.max_watch = absl::GetFlag(FLAGS_max_health_watch);
  if (absl::GetFlag(FLAGS_log_sessions)) options.session_log = LogSessionLine;
  options.recording.dir = absl::GetFlag(FLAGS_record_dir);
  options.recording.every = absl::GetFlag(FLAGS_record_every);
  options.recording.peer = absl::GetFlag(FLAGS_record_peer);
  options.recording.session = absl::GetFlag(FLAGS_record_session);
  options.recording.max_bytes = static_cast<size_t>(std::max<int64_t>(
                                    absl::GetFlag(FLAGS_record_max_mb), 0))
                                << 20;
  if (!options.recording.dir.empty()) {
    if (!std::filesystem::is_directory(options.recording.dir)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--record_dir %s: not a folder", options.recording.dir));
    }
    if (absl::GetFlag(FLAGS_record_max_mb) < 1) {
      return absl::InvalidArgumentError(
          absl::StrFormat("--record_max_mb %d: must be at least 1",
                          absl::GetFlag(FLAGS_record_max_mb)));
    }
    if (options.recording.every < 1) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--record_every %d: must be at least 1", options.recording.every));
    }
  }
  return options;
}

// "listening on host:port (renderer)", and the metrics port if any.
void PrintListening(const CreaseServer& server, const std::string& address) {
  const std::string host = address.substr(0, address.rfind(':'));
  std::fprintf(
      stderr, "crease-server: listening on %s:%d (%s; memory budget %d MB)%s\n",
      host.c_str(), server.port(),
      server.renderer_name().empty() ? "no rendering"
                                     : server.renderer_name().c_str(),
      static_cast<int>(server.max_memory_bytes() >> 20),
      server.metrics_port() != 0
          ? absl::StrFormat(", metrics on port %d", server.metrics_port())
                .c_str()
          : "");
  if (!server.renderer_passed_over().empty()) {
    // Why no GPU (or not the first platform) was used, for the operator.
    std::fprintf(stderr, "crease-server: EGL passed over: %s\n",
                 server.renderer_passed_over().c_str());
  }
}

// Writes the port listened on to --port_file, if set.
absl::Status WritePortFile(const CreaseServer& server) {
  const std::string path = absl::GetFlag(FLAGS_port_file);
  if (path.empty()) return absl::OkStatus();
  return crease::files::WriteStringToFile(
      path, absl::StrFormat("%d\n", server.port()));
}

void WaitForStopSignal(const sigset_t& signals) {
  int signal = 0;
  sigwait(&signals, &signal);
  std::fprintf(stderr, "crease-server: %s, shutting down\n",
               signal == SIGINT ? "SIGINT" : "SIGTERM");
}

// Shuts the server down; exits the process if that takes past `grace`.
void ShutDown(CreaseServer& server, absl::Duration grace) {
  // gRPC's shutdown waits for every call to end, a render that was running
  // at the deadline too (it is not interrupted); the process waits for it at
  // most kShutdownSlack past the grace.
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    server.Shutdown();
    stopped = true;
  });
  const absl::Time give_up =
      absl::Now() + grace + crease::server::kShutdownSlack;
  while (!stopped && absl::Now() < give_up)
    absl::SleepFor(absl::Milliseconds(20));
  if (!stopped) {
    std::fprintf(stderr,
                 "crease-server: stopped; a frame still in work past the "
                 "grace was abandoned\n");
    std::fflush(nullptr);
    std::_Exit(0);
  }
  stopper.join();
  std::fprintf(stderr, "crease-server: stopped\n");
}

}  // namespace

int main(int argc, char** argv) {
  crease::SetFlagsUsage(
      "The Crease wrinkle service (gRPC, crease.v1). Example:\n"
      "  crease-server --address 127.0.0.1:50051 --render_threads 1",
      {"server/main.cc"});
  absl::ParseCommandLine(argc, argv);
  const sigset_t signals = BlockStopSignals();
  const absl::StatusOr<ServerOptions> parsed = OptionsFromFlags();
  if (!parsed.ok()) {
    std::fprintf(stderr, "crease-server: %s\n",
                 parsed.status().ToString().c_str());
    return 2;
  }
  const ServerOptions& options = *parsed;
  auto server = CreaseServer::Start(options);
  if (!server.ok()) {
    std::fprintf(stderr, "crease-server: %s\n",
                 server.status().ToString().c_str());
    return 1;
  }
  PrintListening(**server, options.address);
  if (const absl::Status s = WritePortFile(**server); !s.ok()) {
    std::fprintf(stderr, "crease-server: %s\n", s.ToString().c_str());
    return 1;
  }
  WaitForStopSignal(signals);
  ShutDown(**server, options.shutdown_grace);
  return 0;
}
