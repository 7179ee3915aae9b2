#ifndef CREASE_SERVER_METRICS_H_
#define CREASE_SERVER_METRICS_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "crease/v1/crease.pb.h"

namespace prometheus {
class Counter;
class Exposer;
template <typename T>
class Family;
class Gauge;
class Histogram;
class Registry;
}  // namespace prometheus

namespace crease::server {

// The server's Prometheus metrics: per-stage latency histograms, sessions,
// frames and errors. Served on /metrics when given an address.
class ServerMetrics {
 public:
  // `address` (host:port) empty: collected but not served.
  static absl::StatusOr<std::unique_ptr<ServerMetrics>> Create(
      const std::string& address);
  ~ServerMetrics();

  void SessionStarted();
  void SessionEnded();
  // A stream ended with this gRPC status code (0 = OK).
  void StreamFinished(int code);
  // One frame answered: its stage timings, or an error.
  void FrameDone(const v1::FrameResult& result, double total_ms);
  // Text exposition of everything, as /metrics serves it.
  std::string Scrape() const;
  // The /metrics port when served, else 0.
  int port() const;

 private:
  ServerMetrics();
  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  prometheus::Gauge* sessions_active_ = nullptr;
  prometheus::Counter* sessions_total_ = nullptr;
  prometheus::Counter* frames_total_ = nullptr;
  prometheus::Family<prometheus::Counter>* frame_errors_ = nullptr;
  prometheus::Family<prometheus::Counter>* streams_finished_ = nullptr;
  prometheus::Family<prometheus::Histogram>* stage_seconds_ = nullptr;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_METRICS_H_
