// The service on loopback: round trip per frame (paths only; paths + a 640x480
// JPEG) for one session sending a frame and waiting for its answer (set: 0
// pants, 1 Fox, 2 drape, 3 skirt), and
// aggregate throughput with 1, 8, 32 and 64 sessions each streaming at 60 fps.
// The server runs in this process on 127.0.0.1 with default options.
//
// Round trips report median and p99 counters (ms) over all iterations;
// throughput benchmarks run one 4-second stream per session and report the
// achieved frames per second per session, p50 / p99 latency (send to answer)
// and frames answered later than one frame period (16.7 ms).

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "benchmark/benchmark.h"
#include "client/crease_client.h"
#include "client/mesh_messages.h"
#include "server/crease_server.h"
#include "tests/testing/bundled_path.h"
#include "wrinkle/io/animation.h"

namespace crease {
namespace {

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p / 100.0 * v.size()))];
}

struct Fixture {
  std::string target;
  io::Animation animation;
  std::vector<v1::Frame> frames;
  v1::Start start;
};

server::CreaseServer& Server() {
  static server::CreaseServer* server = [] {
    server::ServerOptions options;
    options.address = "127.0.0.1:0";
    options.limits.max_sessions = 256;
    return server::CreaseServer::Start(options)->release();
  }();
  return *server;
}

const char* const kSets[] = {"cloth_pants_knee", "fox_walk",
                             "cloth_drape_sphere", "cloth_skirt_walk"};

// A bundled animation as Start + Frames, on the shared server.
Fixture& Shared(int set = 0) {
  static auto* fixtures = new std::map<int, std::unique_ptr<Fixture>>();
  std::unique_ptr<Fixture>& slot = (*fixtures)[set];
  if (slot != nullptr) return *slot;
  slot = std::make_unique<Fixture>();
  Fixture* f = slot.get();
  f->target = "127.0.0.1:" + std::to_string(Server().port());
  const std::string stem = kSets[set];
  f->animation = *io::ReadAnimation(testing::BundledPath(stem + ".obj"),
                                    testing::BundledPath(stem + ".pc2"));
  f->start = client::StartForMesh(f->animation.mesh);
  f->start.mutable_outputs()->set_paths(true);
  for (int i = 0; i < f->animation.num_frames(); ++i) {
    f->frames.push_back(client::FrameOf(f->animation.frames.Sample(i), 0));
  }
  return *f;
}

void BM_RoundTrip(benchmark::State& state) {
  Fixture& f = Shared(static_cast<int>(state.range(1)));
  v1::Start start = f.start;
  if (state.range(0) != 0) {
    start.mutable_outputs()->mutable_image()->set_format(v1::IMAGE_FORMAT_JPEG);
  }
  auto client = *client::CreaseClient::Connect(f.target);
  auto session = *client->OpenSession(start);
  std::vector<double> ms, server_ms;
  uint32_t index = 0;
  for (auto _ : state) {
    v1::Frame frame = f.frames[index % f.frames.size()];
    frame.set_index(index++);
    const int64_t t0 = absl::GetCurrentTimeNanos();
    (void)session->Send(frame);
    auto result = session->Receive();
    ms.push_back((absl::GetCurrentTimeNanos() - t0) * 1e-6);
    if (!result.ok() || result->has_error()) {
      state.SkipWithError("frame failed");
      break;
    }
    const v1::StageTimings& t = result->timings();
    server_ms.push_back(t.tensors_ms() + t.labeling_ms() + t.reference_ms() +
                        t.evolve_ms() + t.seed_ms() + t.shape_ms() +
                        t.render_ms() + t.encode_ms() + t.queue_ms());
  }
  (void)session->Finish();
  state.counters["p50_ms"] = Percentile(ms, 50);
  state.counters["p99_ms"] = Percentile(ms, 99);
  // The Session's (and renderer's) own time, from the results' timings.
  state.counters["work_p50_ms"] = Percentile(server_ms, 50);
  state.counters["work_p99_ms"] = Percentile(server_ms, 99);
  state.counters["triangles"] =
      static_cast<double>(f.animation.mesh.triangles.size());
}
BENCHMARK(BM_RoundTrip)
    ->ArgNames({"jpeg", "set"})
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({0, 2})
    ->Args({0, 3})
    ->Args({1, 0})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

void BM_Throughput60Fps(benchmark::State& state) {
  Fixture& f = Shared();
  const int sessions = static_cast<int>(state.range(0));
  const absl::Duration period = absl::Seconds(1) / 60;
  const int frames_each = 240;  // 4 s
  for (auto _ : state) {
    std::vector<std::vector<double>> latencies(sessions);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    const absl::Time begin = absl::Now() + absl::Milliseconds(200);
    for (int s = 0; s < sessions; ++s) {
      threads.emplace_back([&, s] {
        auto client = *client::CreaseClient::Connect(f.target);
        auto session = client->OpenSession(f.start);
        if (!session.ok()) {
          ++failures;
          return;
        }
        std::vector<int64_t> sent(frames_each);
        // Stagger the sessions over one period.
        const absl::Time start = begin + period * s / sessions;
        std::thread sender([&] {
          for (int i = 0; i < frames_each; ++i) {
            absl::SleepFor(start + period * i - absl::Now());
            v1::Frame frame = f.frames[i % f.frames.size()];
            frame.set_index(i);
            sent[i] = absl::GetCurrentTimeNanos();
            if (!(*session)->Send(frame).ok()) return;
          }
          (void)(*session)->WritesDone();
        });
        for (int i = 0; i < frames_each; ++i) {
          auto result = (*session)->Receive();
          if (!result.ok() || result->has_error()) {
            ++failures;
            break;
          }
          latencies[s].push_back(
              (absl::GetCurrentTimeNanos() - sent[result->index()]) * 1e-6);
        }
        sender.join();
        if (!(*session)->Finish().ok()) ++failures;
      });
    }
    for (std::thread& t : threads) t.join();
    const double seconds = absl::ToDoubleSeconds(absl::Now() - begin);
    std::vector<double> all;
    int answered = 0, late = 0;
    for (const auto& l : latencies) {
      answered += static_cast<int>(l.size());
      for (double ms : l) late += ms > 1000.0 / 60;
      all.insert(all.end(), l.begin(), l.end());
    }
    state.counters["p50_ms"] = Percentile(all, 50);
    state.counters["p99_ms"] = Percentile(all, 99);
    state.counters["fps_per_session"] =
        static_cast<double>(answered) / sessions / seconds;
    state.counters["unanswered"] = sessions * frames_each - answered;
    state.counters["late_frames"] = late;
    state.counters["failures"] = failures.load();
  }
}
BENCHMARK(BM_Throughput60Fps)
    ->ArgName("sessions")
    ->Arg(1)
    ->Arg(8)
    ->Arg(32)
    ->Arg(64)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

}  // namespace
}  // namespace crease

BENCHMARK_MAIN();
