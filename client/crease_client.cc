#include "client/crease_client.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/security/credentials.h>

#include <future>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"

namespace crease::client {
namespace {

absl::Status FromGrpc(const grpc::Status& status) {
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                      status.error_message());
}

}  // namespace

absl::StatusOr<std::unique_ptr<CreaseClient>> CreaseClient::Connect(
    const std::string& target, const ClientOptions& options) {
  if (target.empty()) return absl::InvalidArgumentError("empty server address");
  std::unique_ptr<CreaseClient> client(new CreaseClient());
  client->options_ = options;
  std::shared_ptr<grpc::ChannelCredentials> credentials =
      grpc::InsecureChannelCredentials();
  if (!options.tls_root_certificates.empty()) {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = options.tls_root_certificates;
    credentials = grpc::SslCredentials(ssl);
  }
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(options.max_message_bytes);
  arguments.SetMaxSendMessageSize(options.max_message_bytes);
  client->channel_ = grpc::CreateCustomChannel(target, credentials, arguments);
  client->stub_ = v1::Crease::NewStub(client->channel_);
  return client;
}

absl::StatusOr<v1::ServerInfo> CreaseClient::GetServerInfo(
    absl::Duration timeout) {
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + timeout));
  if (!options_.token.empty()) {
    context.AddMetadata("authorization", "Bearer " + options_.token);
  }
  v1::ServerInfo info;
  const grpc::Status status =
      stub_->GetServerInfo(&context, v1::GetServerInfoRequest(), &info);
  if (!status.ok()) return FromGrpc(status);
  return info;
}

absl::StatusOr<bool> CreaseClient::IsServing(absl::Duration timeout) {
  // The generic stub sends the bytes of a HealthCheckRequest (empty: the whole
  // server), so the client needs no generated code for grpc.health.v1.
  grpc::GenericStub stub(channel_);
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + timeout));
  grpc::Slice empty(std::string{});
  grpc::ByteBuffer request(&empty, 1), response;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&context, "/grpc.health.v1.Health/Check", grpc::StubOptions(),
                 &request, &response,
                 [&done](grpc::Status s) { done.set_value(std::move(s)); });
  const grpc::Status status = done.get_future().get();
  if (!status.ok()) return FromGrpc(status);
  std::vector<grpc::Slice> slices;
  if (!response.Dump(&slices).ok()) {
    return absl::InternalError("unreadable health response");
  }
  std::string bytes;
  for (const grpc::Slice& slice : slices) {
    bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  }
  // HealthCheckResponse{status = 1 (enum)}: SERVING (1) is the bytes 08 01;
  // UNKNOWN (0) is empty, NOT_SERVING (2) is 08 02.
  return bytes == std::string("\x08\x01", 2);
}

absl::StatusOr<std::unique_ptr<SessionStream>> CreaseClient::OpenSession(
    const v1::Start& start) {
  std::unique_ptr<SessionStream> session(new SessionStream());
  session->window_ = std::max(options_.max_frames_in_flight, 1);
  session->context_ = std::make_unique<grpc::ClientContext>();
  if (!options_.token.empty()) {
    session->context_->AddMetadata("authorization", "Bearer " + options_.token);
  }
  session->stream_ = stub_->Session(session->context_.get());
  v1::SessionRequest request;
  *request.mutable_start() = start;
  v1::SessionResponse response;
  if (!session->stream_->Write(request) || !session->stream_->Read(&response)) {
    return session->FinishOnce();
  }
  if (!response.has_started()) {
    session->Cancel();
    return absl::InternalError("server answered the start without Started");
  }
  session->started_ = response.started();
  return session;
}

SessionStream::~SessionStream() {
  bool finished;
  {
    absl::MutexLock lock(&finish_mu_);
    finished = finished_;
  }
  if (!finished) {
    Cancel();
    (void)FinishOnce();
  }
}

absl::Status SessionStream::FinishOnce() {
  absl::MutexLock lock(&finish_mu_);
  if (!finished_) {
    finished_ = true;
    final_status_ = FromGrpc(stream_->Finish());
  }
  return final_status_;
}

absl::Status SessionStream::Send(const v1::Frame& frame) {
  {
    absl::MutexLock lock(&mu_);
    if (writes_done_) {
      return absl::FailedPreconditionError("Send after WritesDone");
    }
    mu_.Await(absl::Condition(
        +[](SessionStream* s) ABSL_EXCLUSIVE_LOCKS_REQUIRED(s->mu_) {
          return s->in_flight_ < s->window_ || s->broken_;
        },
        this));
    if (broken_) return absl::UnavailableError("the session stream ended");
    ++in_flight_;
  }
  v1::SessionRequest request;
  *request.mutable_frame() = frame;
  const int64_t size = static_cast<int64_t>(request.ByteSizeLong());
  if (!stream_->Write(request)) {
    absl::MutexLock lock(&mu_);
    broken_ = true;
    return absl::UnavailableError(
        "the session stream ended; Receive or Finish tells why");
  }
  absl::MutexLock lock(&mu_);
  bytes_sent_ += size;
  return absl::OkStatus();
}

absl::StatusOr<v1::FrameResult> SessionStream::Receive() {
  {
    absl::MutexLock lock(&mu_);
    if (writes_done_ && in_flight_ == 0) {
      return absl::OutOfRangeError("every frame sent has its result");
    }
  }
  v1::SessionResponse response;
  if (!stream_->Read(&response)) {
    {
      absl::MutexLock lock(&mu_);
      broken_ = true;
    }
    const absl::Status status = FinishOnce();
    return status.ok() ? absl::OutOfRangeError("the session ended") : status;
  }
  if (!response.has_frame_result()) {
    return absl::InternalError("expected a frame result");
  }
  absl::MutexLock lock(&mu_);
  --in_flight_;
  bytes_received_ += static_cast<int64_t>(response.ByteSizeLong());
  return std::move(*response.mutable_frame_result());
}

absl::Status SessionStream::WritesDone() {
  {
    absl::MutexLock lock(&mu_);
    if (writes_done_) return absl::OkStatus();
    writes_done_ = true;
  }
  if (!stream_->WritesDone()) {
    return absl::UnavailableError("the session stream ended");
  }
  return absl::OkStatus();
}

absl::Status SessionStream::Finish() {
  // One lock over the check, WritesDone and Finish: a Receive that ends the
  // stream meanwhile must not leave WritesDone to follow its Finish.
  absl::MutexLock lock(&finish_mu_);
  if (!finished_) {
    (void)WritesDone();
    finished_ = true;
    final_status_ = FromGrpc(stream_->Finish());
  }
  return final_status_;
}

void SessionStream::Cancel() { context_->TryCancel(); }

int64_t SessionStream::bytes_sent() const {
  absl::MutexLock lock(&mu_);
  return bytes_sent_;
}

int64_t SessionStream::bytes_received() const {
  absl::MutexLock lock(&mu_);
  return bytes_received_;
}

}  // namespace crease::client
