#include "server/crease_server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/impl/server_builder_option.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <malloc.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "common/file_util.h"
#include "common/status_macros.h"
#include "crease/v1/crease.grpc.pb.h"
#include "server/request_shape.h"
#include "server/server_version.h"
#include "server/session_reactor.h"
#include "server/session_setup.h"
#include "server/tls_files.h"

namespace crease::server {

// Streams ended in a second that make a flood: once one has passed the
// reaper gives the heap's free pages back (a rapid-reset flood left 440 MB
// resident, 114 MB after a trim).
constexpr int64_t kStreamsBeforeTrim = 256;

namespace {

int Milliseconds(absl::Duration d) {
  return static_cast<int>(std::min<int64_t>(absl::ToInt64Milliseconds(d),
                                            std::numeric_limits<int>::max()));
}

// The HTTP/2 limits gRPC core enforces for us: streams per connection, idle
// and old connections, keepalive both ways, and a memory quota.
void ApplyTransportLimits(const TransportLimits& limits,
                          grpc::ServerBuilder* builder) {
  builder->AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                              limits.max_streams_per_connection);
  builder->AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS,
                              Milliseconds(limits.max_connection_idle));
  if (limits.max_connection_age > absl::ZeroDuration()) {
    builder->AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS,
                                Milliseconds(limits.max_connection_age));
    builder->AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS,
                                Milliseconds(limits.max_connection_age_grace));
  }
  builder->AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS,
                              Milliseconds(limits.keepalive_time));
  builder->AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS,
                              Milliseconds(limits.keepalive_timeout));
  builder->AddChannelArgument(
      GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS,
      Milliseconds(limits.min_client_ping_interval));
  builder->AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, 2);
  if (limits.memory_mb > 0) {
    grpc::ResourceQuota quota("crease-server");
    quota.Resize(static_cast<size_t>(limits.memory_mb) << 20);
    builder->SetResourceQuota(quota);
  }
}

// Server reflection on one builder, or not: linking gRPC's reflection
// library registers its plugin for every server the process builds (a
// static initializer), so it is removed where it is not wanted and added
// where it is missing.
class ReflectionOption final : public grpc::ServerBuilderOption {
 public:
  explicit ReflectionOption(bool on) : on_(on) {}
  void UpdateArguments(grpc::ChannelArguments*) override {}
  void UpdatePlugins(std::vector<std::unique_ptr<grpc::ServerBuilderPlugin>>*
                         plugins) override {
    const auto is_reflection = [](const auto& plugin) {
      return plugin->name() == kReflectionPlugin;
    };
    if (!on_) {
      std::erase_if(*plugins, is_reflection);
    } else if (std::none_of(plugins->begin(), plugins->end(), is_reflection)) {
      plugins->push_back(
          std::make_unique<grpc::reflection::ProtoServerReflectionPlugin>());
    }
  }

 private:
  static constexpr char kReflectionPlugin[] = "proto_server_reflection";
  const bool on_;
};

}  // namespace

// Session is a raw method (bytes in and out, decoded by SessionReactor) so
// that undecodable requests get INVALID_ARGUMENT.
class CreaseService final
    : public v1::Crease::WithRawCallbackMethod_Session<
          v1::Crease::WithCallbackMethod_GetServerInfo<v1::Crease::Service>> {
 public:
  explicit CreaseService(ServiceState* state) : state_(state) {}

  grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* Session(
      grpc::CallbackServerContext* context) override {
    return new SessionReactor(state_, context);
  }

  grpc::ServerUnaryReactor* GetServerInfo(grpc::CallbackServerContext* context,
                                          const v1::GetServerInfoRequest*,
                                          v1::ServerInfo* info) override {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    if (absl::Status auth = state_->tokens.Check(*context); !auth.ok()) {
      reactor->Finish(grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                                   std::string(auth.message())));
      return reactor;
    }
    info->set_version(ServerVersion());
    *info->mutable_limits() = LimitsToProto(state_->options.limits);
    if (state_->render_pool != nullptr) {
      info->set_renderer(state_->render_pool->renderer_name());
      info->set_render_threads(state_->render_pool->threads());
      info->add_image_formats(v1::IMAGE_FORMAT_JPEG);
      info->add_image_formats(v1::IMAGE_FORMAT_PNG);
    }
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }

 private:
  ServiceState* state_;
};

absl::StatusOr<std::unique_ptr<CreaseServer>> CreaseServer::Start(
    const ServerOptions& options) {
  std::unique_ptr<CreaseServer> server(new CreaseServer());
  server->state_ = std::make_unique<ServiceState>();
  ServiceState& state = *server->state_;
  state.options = options;
  if (!options.tokens_file.empty()) {
    CREASE_ASSIGN_OR_RETURN(TokenSet tokens,
                            TokenSet::FromFile(options.tokens_file));
    state.tokens = std::move(tokens);
  }
  std::shared_ptr<grpc::ServerCredentials> credentials =
      grpc::InsecureServerCredentials();
  if (!options.tls_cert_file.empty() || !options.tls_key_file.empty()) {
    if (options.tls_cert_file.empty() || options.tls_key_file.empty()) {
      return absl::InvalidArgumentError(
          "TLS needs both a certificate and a key file");
    }
    CREASE_ASSIGN_OR_RETURN(
        TlsPair tls, ReadTlsPair(options.tls_cert_file, options.tls_key_file));
    grpc::SslServerCredentialsOptions ssl;
    ssl.pem_key_cert_pairs.push_back({tls.private_key, tls.certificate_chain});
    credentials = grpc::SslServerCredentials(ssl);
  }
  CREASE_ASSIGN_OR_RETURN(std::unique_ptr<ServerMetrics> metrics,
                          ServerMetrics::Create(options.metrics_address));
  state.metrics = std::move(metrics);
  if (options.render_threads > 0) {
    RenderPoolOptions render;
    render.gpus = options.gpus;
    render.threads_per_gpu = options.render_threads;
    render.encode_threads = options.encode_threads;
    render.frames_in_flight = options.frames_in_flight;
    CREASE_ASSIGN_OR_RETURN(std::unique_ptr<RenderPool> pool,
                            RenderPool::Create(render));
    state.render_pool = std::move(pool);
  }
  const int workers =
      options.worker_threads > 0
          ? options.worker_threads
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  state.workers = std::make_unique<ThreadPool>(workers);
  if (!options.recording.dir.empty()) {
    state.recording_sink = std::make_unique<RecordingSink>();
  }
  state.memory = std::make_unique<MemoryBudget>(options.max_memory_bytes > 0
                                                    ? options.max_memory_bytes
                                                    : DefaultMaxMemoryBytes());

  server->service_ = std::make_unique<CreaseService>(&state);
  server->health_ = std::make_unique<HealthService>(options.health);
  grpc::ServerBuilder builder;
  // Reflection's streams need no token and have no limit or timeout: only
  // when asked for (a development server), on this server alone.
  builder.SetOption(std::make_unique<ReflectionOption>(options.reflection));
  // gRPC sets SO_REUSEPORT by default: a second server on a busy port would
  // start and silently share it. Fail instead.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.AddListeningPort(options.address, credentials, &server->port_);
  ApplyTransportLimits(options.transport, &builder);
  // No request needs more than the largest Start or frame the limits allow
  // (23 MiB at the defaults).
  builder.SetMaxReceiveMessageSize(static_cast<int>(std::min<int64_t>(
      options.limits.max_message_bytes,
      std::max(MaxStartRequestBytes(options.limits),
               MaxFrameRequestBytes(options.limits.max_vertices)))));
  builder.SetMaxSendMessageSize(
      static_cast<int>(options.limits.max_message_bytes));
  builder.RegisterService(server->service_.get());
  builder.RegisterService(server->health_.get());
  server->server_ = builder.BuildAndStart();
  if (server->server_ == nullptr || server->port_ == 0) {
    return absl::UnavailableError(absl::StrFormat(
        "cannot listen on %s (in use, or not an address of this host)",
        options.address));
  }
  server->health_->SetServing(true);
  server->reaper_ = std::thread([s = server.get()] { s->ReapIdleSessions(); });
  return server;
}

void CreaseServer::ReapIdleSessions() {
  absl::MutexLock lock(&reaper_mu_);
  absl::Time last_housekeeping = absl::Now();
  bool flood = false;  // the last second ended many streams
  while (!reaper_mu_.AwaitWithTimeout(absl::Condition(&reaper_stop_),
                                      absl::Milliseconds(200))) {
    const absl::Time now = absl::Now();
    health_->ExpireWatches(now);
    {
      absl::MutexLock state_lock(&state_->mu);
      for (SessionReactor* session : state_->sessions) {
        session->ExpireIfIdle(now);
      }
    }
    if (now - last_housekeeping >= absl::Seconds(1)) {
      last_housekeeping = now;
      if (state_->options.session_log) {
        state_->stream_log.Flush(state_->options.session_log, now);
      }
      // After a flood of streams (resets, refusals, many short sessions)
      // malloc keeps the freed pages: give them back once it has passed.
      // So does a large request, once its stream has moved on.
      const bool large = state_->large_requests_since_trim.exchange(0) > 0;
      if (state_->streams_since_trim.exchange(0) >= kStreamsBeforeTrim) {
        flood = true;
      } else if (flood || large) {
        flood = false;
        malloc_trim(0);
      }
    }
  }
}

int CreaseServer::active_sessions() {
  absl::MutexLock lock(&state_->mu);
  return static_cast<int>(state_->sessions.size());
}

int CreaseServer::working_sessions() {
  absl::MutexLock lock(&state_->mu);
  int working = 0;
  for (SessionReactor* session : state_->sessions)
    working += session->working();
  return working;
}

const std::string& CreaseServer::renderer_name() const {
  static const std::string kNone;
  return state_->render_pool ? state_->render_pool->renderer_name() : kNone;
}

int64_t CreaseServer::max_memory_bytes() const {
  return state_->memory->max_bytes();
}

int64_t CreaseServer::reserved_memory_bytes() const {
  return state_->memory->reserved();
}

const std::string& CreaseServer::renderer_passed_over() const {
  static const std::string kNone;
  return state_->render_pool ? state_->render_pool->passed_over() : kNone;
}

void CreaseServer::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  health_->SetServing(false);
  const absl::Time deadline = absl::Now() + state_->options.shutdown_grace;
  auto all_ended = +[](ServiceState* s) ABSL_EXCLUSIVE_LOCKS_REQUIRED(s->mu) {
    return s->sessions.empty();
  };
  {
    // Still listening: new sessions get UNAVAILABLE, health NOT_SERVING, while
    // the sessions in work answer their frame and end.
    absl::MutexLock lock(&state_->mu);
    state_->shutting_down = true;
    for (SessionReactor* session : state_->sessions) session->Drain();
    state_->mu.AwaitWithDeadline(absl::Condition(all_ended, state_.get()),
                                 deadline);
  }
  health_->EndWatches();
  server_->Shutdown(absl::ToChronoTime(deadline));
  {
    // Cancelled sessions may still be finishing a frame on a worker or a
    // render thread (their queued renders are skipped): a little longer, not
    // unbounded.
    absl::MutexLock lock(&state_->mu);
    state_->mu.AwaitWithDeadline(
        absl::Condition(all_ended, state_.get()),
        std::max(deadline, absl::Now()) + kShutdownSlack);
  }
  {
    absl::MutexLock lock(&reaper_mu_);
    reaper_stop_ = true;
  }
  if (reaper_.joinable()) reaper_.join();
  server_->Wait();
}

CreaseServer::~CreaseServer() {
  if (server_ != nullptr) Shutdown();
  server_.reset();
  service_.reset();
  if (state_ != nullptr) {
    state_->workers.reset();
    state_->render_pool.reset();
  }
}

}  // namespace crease::server
