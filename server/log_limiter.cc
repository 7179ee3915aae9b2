#include "server/log_limiter.h"

#include <vector>

#include "absl/strings/str_format.h"

namespace crease::server {

void LogLimiter::Log(const std::string& cause, const std::string& line,
                     const Sink& sink, absl::Time now) {
  int64_t held_back = 0;
  {
    absl::MutexLock lock(&mu_);
    Cause& c = causes_[cause];
    if (now - c.last_line < interval_) {
      ++c.held_back;
      return;
    }
    c.last_line = now;
    held_back = c.held_back;
    c.held_back = 0;
  }
  sink(held_back == 0
           ? line
           : absl::StrFormat("%s (and %d more like it held back since the "
                             "last such line)",
                             line, held_back));
}

void LogLimiter::Flush(const Sink& sink, absl::Time now) {
  std::vector<std::string> lines;
  {
    absl::MutexLock lock(&mu_);
    for (auto& [cause, c] : causes_) {
      if (c.held_back == 0 || now - c.last_line < interval_) continue;
      lines.push_back(absl::StrFormat(
          "%d more streams %s since the last such line", c.held_back, cause));
      c.held_back = 0;
      c.last_line = now;
    }
  }
  for (const std::string& line : lines) sink(line);
}

}  // namespace crease::server
