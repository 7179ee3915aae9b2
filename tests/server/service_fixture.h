#ifndef CREASE_TESTS_SERVER_SERVICE_FIXTURE_H_
#define CREASE_TESTS_SERVER_SERVICE_FIXTURE_H_

// A real crease server on a loopback port and real clients, for the service
// tests (which load animations with testing::LoadBundled).

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "client/crease_client.h"
#include "client/mesh_messages.h"
#include "gtest/gtest.h"
#include "server/crease_server.h"
#include "wrinkle/io/animation.h"

namespace crease::server {

// A Start for `animation` (rest positions from its OBJ) asking for paths.
inline v1::Start StartFor(const io::Animation& animation) {
  v1::Start start = client::StartForMesh(animation.mesh);
  start.mutable_outputs()->set_paths(true);
  return start;
}

inline v1::Frame FrameOf(const io::Animation& animation, int index) {
  return client::FrameOf(animation.frames.Sample(index),
                         static_cast<uint32_t>(index));
}

// Planar UVs (rest x, y scaled into [0, 1]) per triangle corner: any valid
// UVs do where a test needs some.
inline std::vector<float> PlanarUvs(const io::TriangleMesh& mesh) {
  float lo[2] = {1e30f, 1e30f}, hi[2] = {-1e30f, -1e30f};
  for (int v = 0; v < mesh.num_vertices(); ++v) {
    for (int k = 0; k < 2; ++k) {
      lo[k] = std::min(lo[k], mesh.positions[3 * v + k]);
      hi[k] = std::max(hi[k], mesh.positions[3 * v + k]);
    }
  }
  std::vector<float> uvs;
  for (const io::Triangle& t : mesh.triangles) {
    for (int32_t v : t) {
      for (int k = 0; k < 2; ++k) {
        uvs.push_back((mesh.positions[3 * v + k] - lo[k]) / (hi[k] - lo[k]));
      }
    }
  }
  return uvs;
}

// The p99 of `count` frames of `session` sent one after another (and more
// until `at_least` has passed), in ms.
inline double SequentialP99(client::SessionStream& session,
                            const io::Animation& anim, int first, int count,
                            absl::Duration at_least = absl::ZeroDuration()) {
  std::vector<double> ms;
  const absl::Time until = absl::Now() + at_least;
  for (int f = first; f < first + count || absl::Now() < until; ++f) {
    const absl::Time sent = absl::Now();
    if (!session.Send(FrameOf(anim, f % anim.num_frames())).ok() ||
        !session.Receive().ok()) {
      return 1e9;
    }
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - sent));
  }
  std::sort(ms.begin(), ms.end());
  return ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
}

inline ServerOptions LoopbackOptions() {
  ServerOptions options;
  options.address = "127.0.0.1:0";
  options.worker_threads = 2;
  options.render_threads = 1;
  options.shutdown_grace = absl::Seconds(5);
  return options;
}

struct RunningServer {
  std::unique_ptr<CreaseServer> server;
  std::string target;

  static RunningServer Start(const ServerOptions& options) {
    RunningServer running;
    auto server = CreaseServer::Start(options);
    EXPECT_TRUE(server.ok()) << server.status();
    if (!server.ok()) return running;
    running.server = *std::move(server);
    running.target = "127.0.0.1:" + std::to_string(running.server->port());
    return running;
  }

  std::unique_ptr<client::CreaseClient> Client(
      const client::ClientOptions& options = {}) const {
    auto client = client::CreaseClient::Connect(target, options);
    EXPECT_TRUE(client.ok()) << client.status();
    return client.ok() ? *std::move(client) : nullptr;
  }
};

}  // namespace crease::server

#endif  // CREASE_TESTS_SERVER_SERVICE_FIXTURE_H_
