#ifndef CREASE_SERVER_CREASE_SERVER_H_
#define CREASE_SERVER_CREASE_SERVER_H_

#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "server/health_service.h"
#include "server/server_options.h"
#include "server/service_state.h"

namespace grpc {
class Server;
}

namespace crease::server {

// How long Shutdown waits, past the grace, for cancelled sessions to let go
// of a worker or a render thread (a frame already rendering is not stopped);
// the process waits as long past --shutdown_grace before it exits.
inline constexpr absl::Duration kShutdownSlack = absl::Seconds(2);

class CreaseService;

// The Crease gRPC server: the crease.v1 service, grpc.health.v1, server
// reflection and (optionally) Prometheus metrics, running until Shutdown.
class CreaseServer {
 public:
  // Listening when it returns. Errors name what failed (tokens file, TLS
  // files, EGL contexts, the address, the metrics address).
  static absl::StatusOr<std::unique_ptr<CreaseServer>> Start(
      const ServerOptions& options);
  // Shuts down (gracefully) if not done yet.
  ~CreaseServer();

  int port() const { return port_; }
  int metrics_port() const { return state_->metrics->port(); }
  // Sessions open now.
  int active_sessions();
  // Of those, sessions working on a message now (a frame being processed or
  // rendered).
  int working_sessions();
  const ServerMetrics& metrics() const { return *state_->metrics; }
  const std::string& renderer_name() const;
  // The memory budget (--max_memory_mb, or its default) and what open
  // sessions have reserved of it, bytes.
  int64_t max_memory_bytes() const;
  int64_t reserved_memory_bytes() const;
  // Why EGL passed over what it tried before the renderer's platform (empty:
  // nothing, or no rendering).
  const std::string& renderer_passed_over() const;
  // grpc.health.v1 Watch streams open now.
  int health_watches() { return health_->watches(); }

  // Graceful: health turns NOT_SERVING, new sessions are refused with
  // UNAVAILABLE, sessions waiting for a frame end with UNAVAILABLE, frames in
  // flight get their answers first, and the server still takes connections
  // meanwhile (so a new health check sees NOT_SERVING, not a closed port);
  // after `shutdown_grace` the rest are cancelled (queued renders skipped).
  // Returns when every call has ended: a frame already rendering at the
  // deadline is not interrupted, so crease-server itself stops waiting for it
  // 2 s past the grace.
  void Shutdown();

 private:
  CreaseServer() = default;
  void ReapIdleSessions();

  std::unique_ptr<ServiceState> state_;
  std::unique_ptr<CreaseService> service_;
  std::unique_ptr<HealthService> health_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  std::thread reaper_;
  absl::Mutex reaper_mu_;
  bool reaper_stop_ ABSL_GUARDED_BY(reaper_mu_) = false;
  bool shut_down_ = false;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_CREASE_SERVER_H_
