#ifndef CREASE_CLIENT_PREVIEW_PREVIEW_SERVER_H_
#define CREASE_CLIENT_PREVIEW_PREVIEW_SERVER_H_

// crease-preview's web side: civetweb serves the page's files and one
// WebSocket, /frames, that sends each page the topology, every frame kept so
// far (so a page opened late can scrub back) and then each new frame.

#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

struct mg_context;
struct mg_connection;

namespace crease::client::preview {

class PreviewServer {
 public:
  // Listens on 127.0.0.1:port (0: a free port), serving `web_root`'s files;
  // `init` is every page's first message. UNAVAILABLE when it cannot listen,
  // NOT_FOUND when web_root has no index.html.
  static absl::StatusOr<std::unique_ptr<PreviewServer>> Start(
      const std::string& web_root, int port, std::string init);
  ~PreviewServer();
  PreviewServer(const PreviewServer&) = delete;
  PreviewServer& operator=(const PreviewServer&) = delete;

  int port() const { return port_; }
  // Keeps a frame message and sends it to every page connected.
  void Publish(std::string frame);
  int pages() const;

 private:
  PreviewServer() = default;
  static void OnReady(mg_connection* connection, void* self);
  static void OnClose(const mg_connection* connection, void* self);
  static int OnData(mg_connection* connection, int bits, char* data,
                    size_t length, void* self);

  mg_context* context_ = nullptr;
  int port_ = 0;
  std::string init_;
  mutable absl::Mutex mu_;
  std::vector<std::string> frames_ ABSL_GUARDED_BY(mu_);
  std::vector<mg_connection*> pages_ ABSL_GUARDED_BY(mu_);
};

}  // namespace crease::client::preview

#endif  // CREASE_CLIENT_PREVIEW_PREVIEW_SERVER_H_
