#include "client/preview/preview_server.h"

#include <civetweb.h>

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"

namespace crease::client::preview {
namespace {

void Send(mg_connection* connection, int opcode, const std::string& message) {
  mg_websocket_write(connection, opcode, message.data(), message.size());
}

}  // namespace

absl::StatusOr<std::unique_ptr<PreviewServer>> PreviewServer::Start(
    const std::string& web_root, int port, std::string init) {
  if (!std::filesystem::exists(std::filesystem::path(web_root) /
                               "index.html")) {
    return absl::NotFoundError(
        absl::StrCat("no index.html in --web_root ", web_root));
  }
  std::unique_ptr<PreviewServer> server(new PreviewServer);
  server->init_ = std::move(init);
  const std::string ports = absl::StrCat("127.0.0.1:", port);
  const char* options[] = {
      "listening_ports", ports.c_str(), "document_root", web_root.c_str(),
      "num_threads",     "4",           nullptr};
  mg_callbacks callbacks{};
  // civetweb prints its own errors; Start reports the failure below.
  callbacks.log_message = [](const mg_connection*, const char*) { return 1; };
  server->context_ = mg_start(&callbacks, nullptr, options);
  if (server->context_ == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", ports, " (in use?)"));
  }
  mg_server_port bound[1] = {};
  if (mg_get_server_ports(server->context_, 1, bound) < 1) {
    return absl::UnavailableError("civetweb reports no listening port");
  }
  server->port_ = bound[0].port;
  mg_set_websocket_handler(server->context_, "/frames", nullptr,
                           &PreviewServer::OnReady, &PreviewServer::OnData,
                           &PreviewServer::OnClose, server.get());
  return server;
}

PreviewServer::~PreviewServer() {
  if (context_ != nullptr) mg_stop(context_);
}

void PreviewServer::OnReady(mg_connection* connection, void* self) {
  auto* server = static_cast<PreviewServer*>(self);
  absl::MutexLock lock(&server->mu_);
  // Under the lock, so no frame published meanwhile is missed or repeated.
  Send(connection, MG_WEBSOCKET_OPCODE_TEXT, server->init_);
  for (const std::string& frame : server->frames_) {
    Send(connection, MG_WEBSOCKET_OPCODE_BINARY, frame);
  }
  server->pages_.push_back(connection);
}

void PreviewServer::OnClose(const mg_connection* connection, void* self) {
  auto* server = static_cast<PreviewServer*>(self);
  absl::MutexLock lock(&server->mu_);
  std::erase(server->pages_, connection);
}

int PreviewServer::OnData(mg_connection*, int, char*, size_t, void*) {
  return 1;  // The page sends nothing the server needs; keep the socket.
}

void PreviewServer::Publish(std::string frame) {
  absl::MutexLock lock(&mu_);
  for (mg_connection* page : pages_) {
    Send(page, MG_WEBSOCKET_OPCODE_BINARY, frame);
  }
  frames_.push_back(std::move(frame));
}

int PreviewServer::pages() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(pages_.size());
}

}  // namespace crease::client::preview
