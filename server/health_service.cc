#include "server/health_service.h"

#include <mutex>
#include <optional>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"

namespace crease::server {

using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

// One Watch stream: writes the status when it opens and whenever it changes,
// one write at a time (the latest status wins if several changes come during
// a write).
class HealthService::WatchReactor final
    : public grpc::ServerWriteReactor<HealthCheckResponse> {
 public:
  WatchReactor(HealthService* service, grpc::CallbackServerContext* context,
               std::string name)
      : service_(service), context_(context), name_(std::move(name)) {}

  // With service->mu_ held.
  void Notify(Status status) {
    std::lock_guard<std::mutex> lock(mu_);
    if (finished_) return;
    if (writing_) {
      next_ = status;
      return;
    }
    if (!written_ || status != last_) WriteLocked(status);  // changes only
  }

  // With service->mu_ held. Ends the stream OK once the write in flight (if
  // any) is taken; `cancel` (a watch past its age, whose client may never
  // read) cancels the call instead of waiting.
  void End(bool cancel) {
    std::lock_guard<std::mutex> lock(mu_);
    if (finished_) return;
    if (!writing_) {
      FinishLocked(grpc::Status::OK);
    } else if (cancel) {
      cancelled_ = true;
      context_->TryCancel();
    } else {
      end_after_write_ = true;
    }
  }

  const std::string& name() const { return name_; }
  absl::Time opened() const { return opened_; }

  // Registers with the service (or refuses) and writes the first status.
  void Open() {
    absl::MutexLock service_lock(&service_->mu_);
    if (service_->closing_) {
      std::lock_guard<std::mutex> lock(mu_);
      FinishLocked(grpc::Status(grpc::StatusCode::UNAVAILABLE,
                                "the server is shutting down"));
      return;
    }
    if (static_cast<int>(service_->watches_.size()) >=
        service_->limits_.max_watches) {
      std::lock_guard<std::mutex> lock(mu_);
      FinishLocked(grpc::Status(
          grpc::StatusCode::RESOURCE_EXHAUSTED,
          absl::StrFormat("%d health watches are open, this server's limit",
                          service_->limits_.max_watches)));
      return;
    }
    service_->watches_.insert(this);
    registered_ = true;
    Notify(service_->StatusOf(name_));
  }

  void OnWriteDone(bool ok) override {
    std::lock_guard<std::mutex> lock(mu_);
    writing_ = false;
    // OnCancel and a write that completed anyway can come in either order:
    // whichever runs second finishes.
    if (!ok || cancelled_) {
      FinishLocked(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
      return;
    }
    if (next_ && *next_ != last_) {
      WriteLocked(*next_);
      next_.reset();
      return;
    }
    next_.reset();
    if (end_after_write_) FinishLocked(grpc::Status::OK);
  }

  void OnCancel() override {
    std::lock_guard<std::mutex> lock(mu_);
    cancelled_ = true;
    if (!writing_) {
      FinishLocked(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
    }
    // else OnWriteDone finishes.
  }

  void OnDone() override {
    if (registered_) {
      absl::MutexLock service_lock(&service_->mu_);
      service_->watches_.erase(this);
    }
    { std::lock_guard<std::mutex> lock(mu_); }
    delete this;
  }

 private:
  void WriteLocked(Status status) {
    written_ = true;
    last_ = status;
    response_.set_status(status);
    writing_ = true;
    StartWrite(&response_);
  }
  void FinishLocked(const grpc::Status& status) {
    if (finished_) return;
    finished_ = true;
    Finish(status);
  }

  HealthService* const service_;
  grpc::CallbackServerContext* const context_;
  const std::string name_;
  const absl::Time opened_ = absl::Now();
  bool registered_ = false;  // set before any callback can run
  std::mutex mu_;
  bool writing_ = false;  // guarded by mu_, like the three below
  bool finished_ = false;
  bool cancelled_ = false;
  bool written_ = false;  // a status was sent (the first always is)
  bool end_after_write_ = false;
  Status last_ = HealthCheckResponse::UNKNOWN;
  std::optional<Status> next_;
  HealthCheckResponse response_;
};

HealthService::~HealthService() = default;

HealthService::Status HealthService::StatusOf(
    const std::string& service) const {
  if (!service.empty() && service != "crease.v1.Crease") {
    return HealthCheckResponse::SERVICE_UNKNOWN;
  }
  return serving_ ? HealthCheckResponse::SERVING
                  : HealthCheckResponse::NOT_SERVING;
}

void HealthService::SetServing(bool serving) {
  absl::MutexLock lock(&mu_);
  serving_ = serving;
  for (WatchReactor* watch : watches_) watch->Notify(StatusOf(watch->name()));
}

void HealthService::ExpireWatches(absl::Time now) {
  absl::MutexLock lock(&mu_);
  for (WatchReactor* watch : watches_) {
    if (now - watch->opened() > limits_.max_watch) watch->End(/*cancel=*/true);
  }
}

void HealthService::EndWatches() {
  absl::MutexLock lock(&mu_);
  closing_ = true;
  // Gracefully: each watcher gets its last status (NOT_SERVING) first; the
  // server's shutdown deadline cancels whatever is still unread.
  for (WatchReactor* watch : watches_) watch->End(/*cancel=*/false);
}

int HealthService::watches() {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(watches_.size());
}

grpc::ServerUnaryReactor* HealthService::Check(
    grpc::CallbackServerContext* context, const HealthCheckRequest* request,
    HealthCheckResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  Status status;
  {
    absl::MutexLock lock(&mu_);
    status = StatusOf(request->service());
  }
  if (status == HealthCheckResponse::SERVICE_UNKNOWN) {
    reactor->Finish(grpc::Status(
        grpc::StatusCode::NOT_FOUND,
        absl::StrFormat("no service \"%s\" here", request->service())));
  } else {
    response->set_status(status);
    reactor->Finish(grpc::Status::OK);
  }
  return reactor;
}

grpc::ServerWriteReactor<HealthCheckResponse>* HealthService::Watch(
    grpc::CallbackServerContext* context, const HealthCheckRequest* request) {
  auto* watch = new WatchReactor(this, context, request->service());
  watch->Open();
  return watch;
}

}  // namespace crease::server
