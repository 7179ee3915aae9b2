#include "server/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/exposer.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <exception>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace crease::server {
namespace {

constexpr int kMetricsThreads = 8;
constexpr int kMetricsRequestTimeoutMs = 2000;

// Seconds: 50 us .. 2.5 s.
prometheus::Histogram::BucketBoundaries StageBuckets() {
  return {5e-5,   1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2,
          2.5e-2, 5e-2, 0.1,    0.25, 0.5,  1.0,    2.5};
}

}  // namespace

ServerMetrics::ServerMetrics()
    : registry_(std::make_shared<prometheus::Registry>()) {}
ServerMetrics::~ServerMetrics() = default;

absl::StatusOr<std::unique_ptr<ServerMetrics>> ServerMetrics::Create(
    const std::string& address) {
  std::unique_ptr<ServerMetrics> m(new ServerMetrics());
  prometheus::Registry& r = *m->registry_;
  m->sessions_active_ = &prometheus::BuildGauge()
                             .Name("crease_sessions_active")
                             .Help("Sessions open now")
                             .Register(r)
                             .Add({});
  m->sessions_total_ = &prometheus::BuildCounter()
                            .Name("crease_sessions_total")
                            .Help("Sessions started")
                            .Register(r)
                            .Add({});
  m->frames_total_ = &prometheus::BuildCounter()
                          .Name("crease_frames_total")
                          .Help("Frames answered, errors included")
                          .Register(r)
                          .Add({});
  m->frame_errors_ = &prometheus::BuildCounter()
                          .Name("crease_frame_errors_total")
                          .Help("Frames answered with an error, by code")
                          .Register(r);
  m->streams_finished_ = &prometheus::BuildCounter()
                              .Name("crease_streams_finished_total")
                              .Help("Session streams ended, by gRPC status")
                              .Register(r);
  m->stage_seconds_ = &prometheus::BuildHistogram()
                           .Name("crease_stage_seconds")
                           .Help("Per-frame latency of each server stage")
                           .Register(r);
  if (!address.empty()) {
    // prometheus-cpp (civetweb) reports a port it cannot bind by throwing.
    try {
      // Threads and a request timeout so that clients holding connections
      // with partial requests cannot block scrapes (civetweb's defaults, 2
      // threads and 30 s, let two such connections hold it for 30 s).
      m->exposer_ =
          std::make_unique<prometheus::Exposer>(std::vector<std::string>{
              "listening_ports", address, "num_threads",
              absl::StrCat(kMetricsThreads), "request_timeout_ms",
              absl::StrCat(kMetricsRequestTimeoutMs)});
    } catch (const std::exception& e) {
      return absl::UnavailableError(absl::StrFormat(
          "metrics: cannot serve on %s: %s", address, e.what()));
    }
    m->exposer_->RegisterCollectable(m->registry_);
  }
  return m;
}

void ServerMetrics::SessionStarted() {
  sessions_active_->Increment();
  sessions_total_->Increment();
}

void ServerMetrics::SessionEnded() { sessions_active_->Decrement(); }

void ServerMetrics::StreamFinished(int code) {
  streams_finished_->Add({{"code", absl::StrFormat("%d", code)}}).Increment();
}

void ServerMetrics::FrameDone(const v1::FrameResult& result, double total_ms) {
  frames_total_->Increment();
  if (result.has_error()) {
    frame_errors_->Add({{"code", absl::StrFormat("%d", result.error().code())}})
        .Increment();
    return;
  }
  const v1::StageTimings& t = result.timings();
  const std::pair<const char*, double> stages[] = {
      {"tensors", t.tensors_ms()},     {"labeling", t.labeling_ms()},
      {"reference", t.reference_ms()}, {"evolve", t.evolve_ms()},
      {"seed", t.seed_ms()},           {"shape", t.shape_ms()},
      {"render_queue", t.queue_ms()},  {"render", t.render_ms()},
      {"encode", t.encode_ms()},       {"frame", total_ms}};
  for (const auto& [stage, ms] : stages) {
    const std::string_view name = stage;
    if (!result.has_image() &&
        (name.starts_with("render") || name == "encode")) {
      continue;
    }
    stage_seconds_->Add({{"stage", stage}}, StageBuckets()).Observe(ms * 1e-3);
  }
}

std::string ServerMetrics::Scrape() const {
  return prometheus::TextSerializer().Serialize(registry_->Collect());
}

int ServerMetrics::port() const {
  if (exposer_ == nullptr) return 0;
  const std::vector<int> ports = exposer_->GetListeningPorts();
  return ports.empty() ? 0 : ports.front();
}

}  // namespace crease::server
