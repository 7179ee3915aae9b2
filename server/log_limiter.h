#ifndef CREASE_SERVER_LOG_LIMITER_H_
#define CREASE_SERVER_LOG_LIMITER_H_

// Log lines for floods: at most one line a second per cause; the lines held
// back are counted and said in the next line of that cause, or by Flush, so
// a flood of refused or reset streams becomes a few lines with counts.

#include <cstdint>
#include <functional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace crease::server {

class LogLimiter {
 public:
  using Sink = std::function<void(const std::string&)>;
  explicit LogLimiter(absl::Duration interval = absl::Seconds(1))
      : interval_(interval) {}

  // Writes `line` to `sink` unless a line of `cause` went out less than the
  // interval ago; then counts it. A line that goes out says how many were
  // held back since the last.
  void Log(const std::string& cause, const std::string& line, const Sink& sink,
           absl::Time now);
  // Says, per cause, how many lines were held back and not yet said (one
  // line each), once the interval since that cause's last line has passed.
  void Flush(const Sink& sink, absl::Time now);

 private:
  struct Cause {
    absl::Time last_line = absl::InfinitePast();
    int64_t held_back = 0;
  };
  const absl::Duration interval_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Cause> causes_ ABSL_GUARDED_BY(mu_);
};

}  // namespace crease::server

#endif  // CREASE_SERVER_LOG_LIMITER_H_
