#include "client/load/load_stats.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"

namespace crease::load {

void LoadStats::Merge(const LoadStats& other) {
  latencies_ms.insert(latencies_ms.end(), other.latencies_ms.begin(),
                      other.latencies_ms.end());
  sent += other.sent;
  answered += other.answered;
  late += other.late;
  dropped += other.dropped;
  frame_errors += other.frame_errors;
  for (const auto& [code, n] : other.errors) errors[code] += n;
  bytes_sent += other.bytes_sent;
  bytes_received += other.bytes_received;
  images += other.images;
  image_bytes += other.image_bytes;
  sessions += other.sessions;
  sessions_started += other.sessions_started;
}

double Percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  const size_t rank = static_cast<size_t>(
      std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size())));
  const size_t index = rank == 0 ? 0 : rank - 1;
  std::nth_element(values.begin(), values.begin() + index, values.end());
  return values[index];
}

StageSums ParseStageSums(const std::string& page) {
  StageSums sums;
  for (absl::string_view line : absl::StrSplit(page, '\n')) {
    const bool is_sum = absl::StartsWith(line, "crease_stage_seconds_sum{");
    const bool is_count = absl::StartsWith(line, "crease_stage_seconds_count{");
    if (!is_sum && !is_count) continue;
    const size_t open = line.find("stage=\"");
    const size_t close = line.find('"', open + 7);
    const size_t space = line.rfind(' ');
    if (open == absl::string_view::npos || close == absl::string_view::npos ||
        space == absl::string_view::npos) {
      continue;
    }
    const std::string stage(line.substr(open + 7, close - open - 7));
    double value = 0;
    if (!absl::SimpleAtod(line.substr(space + 1), &value)) continue;
    (is_sum ? sums.sum_seconds : sums.count)[stage] += value;
  }
  return sums;
}

std::map<std::string, double> StageMeansMs(const StageSums& before,
                                           const StageSums& after) {
  std::map<std::string, double> means;
  for (const auto& [stage, count] : after.count) {
    const auto old_count = before.count.find(stage);
    const double frames =
        count - (old_count == before.count.end() ? 0 : old_count->second);
    if (frames <= 0) continue;
    const auto old_sum = before.sum_seconds.find(stage);
    const auto new_sum = after.sum_seconds.find(stage);
    if (new_sum == after.sum_seconds.end()) continue;
    const double seconds =
        new_sum->second -
        (old_sum == before.sum_seconds.end() ? 0 : old_sum->second);
    means[stage] = 1000.0 * seconds / frames;
  }
  return means;
}

absl::StatusOr<std::string> FetchMetrics(const std::string& address,
                                         int timeout_ms) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("--metrics '", address, "': expected host:port"));
  }
  const std::string host = address.substr(0, colon);
  const std::string port = address.substr(colon + 1);
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 ||
      found == nullptr) {
    return absl::UnavailableError(absl::StrCat("cannot resolve ", address));
  }
  const int fd = socket(found->ai_family, SOCK_STREAM, 0);
  const bool connected =
      fd >= 0 && connect(fd, found->ai_addr, found->ai_addrlen) == 0;
  freeaddrinfo(found);
  if (!connected) {
    if (fd >= 0) close(fd);
    return absl::UnavailableError(absl::StrCat("cannot connect to ", address));
  }
  const std::string request = absl::StrCat(
      "GET /metrics HTTP/1.0\r\nHost: ", host, "\r\nConnection: close\r\n\r\n");
  std::string response;
  bool ok = send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(request.size());
  const absl::Time give_up = absl::Now() + absl::Milliseconds(timeout_ms);
  while (ok) {
    pollfd p{fd, POLLIN, 0};
    const int left =
        static_cast<int>(absl::ToInt64Milliseconds(give_up - absl::Now()));
    if (left <= 0 || poll(&p, 1, left) <= 0) {
      ok = false;
      break;
    }
    char buffer[16384];
    const ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
    if (n < 0) ok = false;
    if (n <= 0) break;
    response.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  const size_t body = response.find("\r\n\r\n");
  if (!ok || body == std::string::npos) {
    return absl::UnavailableError(
        absl::StrCat("no answer from http://", address, "/metrics"));
  }
  return response.substr(body + 4);
}

std::string StatsJson(const LoadStats& stats, double seconds, double fps) {
  const std::vector<double>& l = stats.latencies_ms;
  std::vector<std::string> errors;
  for (const auto& [code, n] : stats.errors) {
    errors.push_back(absl::StrFormat("\"%s\": %d", code, n));
  }
  const double expected = fps * seconds * stats.sessions_started;
  return absl::StrFormat(
      "{\"sessions\": %d, \"sessions_started\": %d, \"frames_sent\": %d, "
      "\"frames_answered\": %d, \"frames_expected\": %.0f, "
      "\"answered_fps_per_session\": %.2f, \"late\": %d, \"dropped\": %d, "
      "\"frame_errors\": %d, \"errors\": {%s}, \"latency_ms\": {\"p50\": %.3f, "
      "\"p90\": %.3f, \"p99\": %.3f, \"max\": %.3f}, \"bytes_sent\": %d, "
      "\"bytes_received\": %d, \"images\": %d, \"image_bytes\": %d}",
      stats.sessions, stats.sessions_started, stats.sent, stats.answered,
      expected,
      stats.sessions_started > 0 && seconds > 0
          ? stats.answered / seconds / stats.sessions_started
          : 0.0,
      stats.late, stats.dropped, stats.frame_errors,
      absl::StrJoin(errors, ", "), Percentile(l, 0.5), Percentile(l, 0.9),
      Percentile(l, 0.99), Percentile(l, 1.0), stats.bytes_sent,
      stats.bytes_received, stats.images, stats.image_bytes);
}

}  // namespace crease::load
