#ifndef CREASE_SERVER_SERVICE_STATE_H_
#define CREASE_SERVER_SERVICE_STATE_H_

#include <atomic>
#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "server/auth.h"
#include "server/log_limiter.h"
#include "server/memory_budget.h"
#include "server/metrics.h"
#include "server/render_pool.h"
#include "server/server_options.h"
#include "server/thread_pool.h"

namespace crease::server {

class SessionReactor;

// What every session of one server shares: options, threads, metrics, the
// registry of open sessions (for the idle timeout and shutdown).
struct ServiceState {
  ServerOptions options;
  TokenSet tokens;
  std::unique_ptr<ThreadPool> workers;
  std::unique_ptr<RenderPool> render_pool;  // null: no rendering
  std::unique_ptr<ServerMetrics> metrics;
  std::unique_ptr<MemoryBudget> memory;  // sessions' estimated costs
  std::atomic<uint64_t> next_session_id{1};
  // Sessions started so far: which to record (RecordingOptions::every).
  std::atomic<uint64_t> sessions_started{0};
  // Writes the recorded sessions' files (null: recording off).
  std::unique_ptr<RecordingSink> recording_sink;
  // Messages being worked on (CPU part), all sessions: decides whether a small
  // frame may run on the gRPC thread that read it.
  std::atomic<int> messages_in_work{0};
  // Streams that ended before a start are logged at most once a second per
  // status code (SessionReactor::Account); the reaper says the rest.
  LogLimiter stream_log;
  // Streams ended since the heap was last trimmed (the reaper trims it
  // after floods: malloc keeps freed pages otherwise).
  std::atomic<int64_t> streams_since_trim{0};
  // Requests of kLargeRequestBytes or more since the last trim: the reaper
  // trims after any, so a burst of large messages leaves no resident heap.
  std::atomic<int64_t> large_requests_since_trim{0};

  absl::Mutex mu;
  // Every open stream, started or not (for the timeouts and shutdown).
  absl::flat_hash_set<SessionReactor*> sessions ABSL_GUARDED_BY(mu);
  // Streams waiting for their Start: all, and per peer host.
  uint32_t pending_streams ABSL_GUARDED_BY(mu) = 0;
  absl::flat_hash_map<std::string, uint32_t> pending_by_peer
      ABSL_GUARDED_BY(mu);
  // Streams whose Start was accepted: the session slots in use, all and per
  // peer host.
  uint32_t started_sessions ABSL_GUARDED_BY(mu) = 0;
  absl::flat_hash_map<std::string, uint32_t> started_by_peer
      ABSL_GUARDED_BY(mu);
  // With tokens on: the session slots in use per token.
  absl::flat_hash_map<std::string, uint32_t> started_by_token
      ABSL_GUARDED_BY(mu);
  bool shutting_down ABSL_GUARDED_BY(mu) = false;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_SERVICE_STATE_H_
