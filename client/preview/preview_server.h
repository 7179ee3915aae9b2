#ifndef CREASE_CLIENT_PREVIEW_PREVIEW_SERVER_H_
#define CREASE_CLIENT_PREVIEW_PREVIEW_SERVER_H_

// crease-preview's web side: civetweb serves the page's files and one
// WebSocket, /frames, that sends each page the topology, the frames kept so
// far (so a page opened late can scrub back) and then each new frame. Each
// page has its own writer thread walking the kept frames, so a page that
// stops reading (a frozen tab) holds up neither the stream nor other pages;
// a page whose write fails is dropped.

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <thread>
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
  // `init` is every page's first message; at most `keep_frames` (>= 1) of
  // the latest frames are kept for pages to scrub. UNAVAILABLE when it
  // cannot listen, NOT_FOUND when web_root has no index.html.
  static absl::StatusOr<std::unique_ptr<PreviewServer>> Start(
      const std::string& web_root, int port, std::string init, int keep_frames);
  ~PreviewServer();
  PreviewServer(const PreviewServer&) = delete;
  PreviewServer& operator=(const PreviewServer&) = delete;

  int port() const { return port_; }
  // Keeps a frame message (dropping the oldest past keep_frames) and wakes
  // every page's writer. Never waits on a page.
  void Publish(std::string frame);
  // Pages connected and still being written to.
  int pages() const;

 private:
  struct Page {
    mg_connection* connection = nullptr;
    int64_t next = 0;      // sequence number of the next frame to send
    bool closing = false;  // the socket closed, or a write failed
    std::thread writer;
  };

  PreviewServer() = default;
  static int OnConnect(const mg_connection* connection, void* self);
  static void OnReady(mg_connection* connection, void* self);
  static void OnClose(const mg_connection* connection, void* self);
  static int OnData(mg_connection* connection, int bits, char* data,
                    size_t length, void* self);
  void Write(Page* page);

  mg_context* context_ = nullptr;
  int port_ = 0;
  std::string init_;
  size_t keep_frames_ = 1;
  mutable absl::Mutex mu_;
  // frames_[i] has sequence number first_sequence_ + i.
  std::deque<std::shared_ptr<const std::string>> frames_ ABSL_GUARDED_BY(mu_);
  int64_t first_sequence_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<std::unique_ptr<Page>> pages_ ABSL_GUARDED_BY(mu_);
};

}  // namespace crease::client::preview

#endif  // CREASE_CLIENT_PREVIEW_PREVIEW_SERVER_H_
