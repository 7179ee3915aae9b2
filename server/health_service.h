#ifndef CREASE_SERVER_HEALTH_SERVICE_H_
#define CREASE_SERVER_HEALTH_SERVICE_H_

#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "server/server_options.h"

namespace crease::server {

// grpc.health.v1.Health for the whole server ("") and crease.v1.Crease, with
// no token asked. Ours rather than gRPC's built-in service, which lets any
// number of Watch streams stay open for ever (20 000 of them: +360 MB).
class HealthService final : public grpc::health::v1::Health::CallbackService {
 public:
  explicit HealthService(HealthLimits limits) : limits_(limits) {}
  ~HealthService() override;

  // Every watcher is told at once.
  void SetServing(bool serving);
  // From the server's reaper: ends watches older than max_watch.
  void ExpireWatches(absl::Time now);
  // Before the server shuts down: ends every watch once its last status is
  // taken, and refuses new ones (they would hold the shutdown to its
  // deadline).
  void EndWatches();
  int watches();

  grpc::ServerUnaryReactor* Check(
      grpc::CallbackServerContext* context,
      const grpc::health::v1::HealthCheckRequest* request,
      grpc::health::v1::HealthCheckResponse* response) override;
  grpc::ServerWriteReactor<grpc::health::v1::HealthCheckResponse>* Watch(
      grpc::CallbackServerContext* context,
      const grpc::health::v1::HealthCheckRequest* request) override;

 private:
  class WatchReactor;
  using Status = grpc::health::v1::HealthCheckResponse::ServingStatus;
  Status StatusOf(const std::string& service) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const HealthLimits limits_;
  absl::Mutex mu_;
  bool serving_ ABSL_GUARDED_BY(mu_) = false;
  bool closing_ ABSL_GUARDED_BY(mu_) = false;  // EndWatches called: no new ones
  absl::flat_hash_set<WatchReactor*> watches_ ABSL_GUARDED_BY(mu_);
};

}  // namespace crease::server

#endif  // CREASE_SERVER_HEALTH_SERVICE_H_
