#include "client/preview/preview_server.h"

#include <civetweb.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "absl/strings/str_cat.h"

namespace crease::client::preview {

absl::StatusOr<std::unique_ptr<PreviewServer>> PreviewServer::Start(
    const std::string& web_root, int port, std::string init, int keep_frames) {
  if (!std::filesystem::exists(std::filesystem::path(web_root) /
                               "index.html")) {
    return absl::NotFoundError(
        absl::StrCat("no index.html in --web_root ", web_root));
  }
  std::unique_ptr<PreviewServer> server(new PreviewServer);
  server->init_ = std::move(init);
  server->keep_frames_ = static_cast<size_t>(std::max(keep_frames, 1));
  const std::string ports = absl::StrCat("127.0.0.1:", port);
  // Each open page holds a civetweb worker for its socket (and one thread
  // of ours writes to it): room for a few dozen tabs. A write to a page that
  // stopped reading gives up after 10 s, and the page is dropped.
  const char* options[] = {"listening_ports",    ports.c_str(), "document_root",
                           web_root.c_str(),     "num_threads", "32",
                           "request_timeout_ms", "10000",       nullptr};
  mg_callbacks callbacks{};
  callbacks.log_message = [](const mg_connection*, const char* message) {
    std::fprintf(stderr, "crease-preview: civetweb: %s\n", message);
    return 1;
  };
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
  mg_set_websocket_handler(server->context_, "/frames",
                           &PreviewServer::OnConnect, &PreviewServer::OnReady,
                           &PreviewServer::OnData, &PreviewServer::OnClose,
                           server.get());
  return server;
}

PreviewServer::~PreviewServer() {
  // Closes every socket (OnClose joins each page's writer), then the rest.
  if (context_ != nullptr) mg_stop(context_);
}

int PreviewServer::OnConnect(const mg_connection* connection, void* self) {
  // Only the page this server serves (or a client that is no browser, with
  // no Origin) may read the stream: another site open in the same browser
  // may not.
  const auto* server = static_cast<PreviewServer*>(self);
  const char* origin = mg_get_header(connection, "Origin");
  if (origin == nullptr) return 0;
  const std::string o(origin);
  return o == absl::StrCat("http://127.0.0.1:", server->port_) ||
                 o == absl::StrCat("http://localhost:", server->port_)
             ? 0
             : 1;
}

void PreviewServer::OnReady(mg_connection* connection, void* self) {
  auto* server = static_cast<PreviewServer*>(self);
  absl::MutexLock lock(&server->mu_);
  auto page = std::make_unique<Page>();
  page->connection = connection;
  page->next = server->first_sequence_;
  Page* raw = page.get();
  server->pages_.push_back(std::move(page));
  raw->writer = std::thread([server, raw] { server->Write(raw); });
}

void PreviewServer::OnClose(const mg_connection* connection, void* self) {
  auto* server = static_cast<PreviewServer*>(self);
  std::unique_ptr<Page> page;
  {
    absl::MutexLock lock(&server->mu_);
    auto it = std::find_if(
        server->pages_.begin(), server->pages_.end(),
        [&](const auto& p) { return p->connection == connection; });
    if (it == server->pages_.end()) return;
    (*it)->closing = true;
    page = std::move(*it);
    server->pages_.erase(it);
  }
  // Before civetweb reuses the connection: its writer is done with it.
  if (page->writer.joinable()) page->writer.join();
}

int PreviewServer::OnData(mg_connection*, int, char*, size_t, void*) {
  return 1;  // The page sends nothing the server needs; keep the socket.
}

void PreviewServer::Write(Page* page) {
  if (mg_websocket_write(page->connection, MG_WEBSOCKET_OPCODE_TEXT,
                         init_.data(), init_.size()) <= 0) {
    absl::MutexLock lock(&mu_);
    page->closing = true;
    return;
  }
  while (true) {
    std::shared_ptr<const std::string> frame;
    {
      absl::MutexLock lock(&mu_);
      const auto ready = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return page->closing ||
               page->next <
                   first_sequence_ + static_cast<int64_t>(frames_.size());
      };
      mu_.Await(absl::Condition(&ready));
      if (page->closing) return;
      // A page that fell behind the kept frames skips to the oldest kept.
      page->next = std::max(page->next, first_sequence_);
      frame = frames_[page->next - first_sequence_];
      ++page->next;
    }
    // Outside the lock: a slow page holds up only itself.
    if (mg_websocket_write(page->connection, MG_WEBSOCKET_OPCODE_BINARY,
                           frame->data(), frame->size()) <= 0) {
      absl::MutexLock lock(&mu_);
      page->closing = true;
      return;
    }
  }
}

void PreviewServer::Publish(std::string frame) {
  absl::MutexLock lock(&mu_);
  frames_.push_back(std::make_shared<const std::string>(std::move(frame)));
  while (frames_.size() > keep_frames_) {
    frames_.pop_front();
    ++first_sequence_;
  }
}

int PreviewServer::pages() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(std::count_if(
      pages_.begin(), pages_.end(), [](const auto& p) { return !p->closing; }));
}

}  // namespace crease::client::preview
