// crease-load: many Crease sessions from one process, paced at a frame rate,
// with a JSON report of latency percentiles, answered / late / dropped
// frames, errors by status code, bytes and the server's stage means; --ramp
// finds the most sessions whose p99 stays under a target.

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "client/load/load_session.h"
#include "client/load/load_stats.h"
#include "client/mesh_messages.h"
#include "common/file_util.h"
#include "common/flags_usage.h"
#include "common/status_macros.h"
#include "wrinkle/io/animation_input.h"

ABSL_FLAG(std::string, server, "127.0.0.1:50051", "Server address, host:port.");
ABSL_FLAG(int, sessions, 8,
          "Sessions of the main kind (the first step of --ramp).");
ABSL_FLAG(int, paths_sessions, 0,
          "Paths-only sessions streaming beside them (a second kind).");
ABSL_FLAG(double, fps, 60, "Frames per second each session sends.");
ABSL_FLAG(double, duration, 10, "Seconds measured (each step, with --ramp).");
ABSL_FLAG(double, warmup, 1, "Seconds streamed before measuring.");
ABSL_FLAG(
    double, stagger, -1,
    "Sessions open spread over this many seconds (-1: one frame period).");
ABSL_FLAG(std::string, image, "none", "Main kind's images: none, jpeg or png.");
ABSL_FLAG(int, width, 640, "Image width.");
ABSL_FLAG(int, height, 480, "Image height.");
ABSL_FLAG(int, quality, 90, "JPEG quality, 1..100.");
ABSL_FLAG(int, uv_maps_size, 0,
          "Main kind's UV maps, texels per side (0: none).");
ABSL_FLAG(bool, raw_uv_maps, false, "UV maps as raw rows instead of PNG.");
ABSL_FLAG(
    int, window, 2,
    "Frames a session has unanswered at most; a due frame beyond is dropped.");
ABSL_FLAG(int, channels, 0,
          "HTTP/2 connections the sessions spread over (0: min(sessions, 8)).");
ABSL_FLAG(std::string, metrics, "",
          "host:port of the server's /metrics: report its stage means.");
ABSL_FLAG(std::string, report, "", "Write the JSON report here (else stdout).");
ABSL_FLAG(bool, ramp, false,
          "Find the most main-kind sessions whose p99 stays under --p99_ms.");
ABSL_FLAG(double, p99_ms, 50, "--ramp's latency target.");
ABSL_FLAG(int, max_sessions, 512, "--ramp stops here.");
ABSL_FLAG(std::string, token_file, "", "File whose first line is the token.");
ABSL_FLAG(bool, quiet, false, "No progress line.");

namespace crease::load {
namespace {

struct Kind {
  std::string name;
  LoadAnimation animation;
  int sessions = 0;
};

absl::StatusOr<LoadAnimation> ReadLoadAnimation(bool images) {
  io::AnimationInput input =
      io::AnimationInputFromFlags(absl::GetFlag(FLAGS_fps), 0);
  if (input.obj.empty() && input.gltf.empty()) {
    input.obj = CREASE_BUNDLED_DATA "/fox_walk.obj";
    input.pc2 = CREASE_BUNDLED_DATA "/fox_walk.pc2";
  }
  absl::StatusOr<io::Animation> animation = io::LoadAnimation(input);
  if (!animation.ok()) return animation.status();
  if (animation->num_frames() < 1) {
    return absl::InvalidArgumentError("the animation has no frames");
  }
  LoadAnimation load;
  load.start = client::StartForMesh(animation->mesh);
  // Sent at --fps, the stream is an animation at that rate to the server.
  if (absl::GetFlag(FLAGS_fps) >= 1) {
    load.start.mutable_parameters()->set_frame_rate(absl::GetFlag(FLAGS_fps));
  }
  v1::Outputs* outputs = load.start.mutable_outputs();
  outputs->set_paths(true);
  const std::string image = absl::GetFlag(FLAGS_image);
  if (images && image != "none") {
    if (image != "jpeg" && image != "png") {
      return absl::InvalidArgumentError(
          absl::StrCat("--image '", image, "': none, jpeg or png"));
    }
    v1::ImageRequest* request = outputs->mutable_image();
    request->set_format(image == "png" ? v1::IMAGE_FORMAT_PNG
                                       : v1::IMAGE_FORMAT_JPEG);
    request->set_width(static_cast<uint32_t>(absl::GetFlag(FLAGS_width)));
    request->set_height(static_cast<uint32_t>(absl::GetFlag(FLAGS_height)));
    request->set_jpeg_quality(
        static_cast<uint32_t>(absl::GetFlag(FLAGS_quality)));
  }
  if (images && absl::GetFlag(FLAGS_uv_maps_size) > 0) {
    v1::UvMapRequest* maps = outputs->mutable_uv_maps();
    maps->set_size(static_cast<uint32_t>(absl::GetFlag(FLAGS_uv_maps_size)));
    maps->set_encoding(absl::GetFlag(FLAGS_raw_uv_maps)
                           ? v1::UV_MAP_ENCODING_RAW
                           : v1::UV_MAP_ENCODING_PNG);
  }
  for (int f = 0; f < animation->num_frames(); ++f) {
    load.frames.push_back(
        client::FrameOf(animation->frames.Sample(f), static_cast<uint32_t>(f)));
  }
  return load;
}

std::string KindName() {
  std::string name;
  if (absl::GetFlag(FLAGS_image) != "none") {
    name = absl::StrFormat("%s %dx%d", absl::GetFlag(FLAGS_image),
                           absl::GetFlag(FLAGS_width),
                           absl::GetFlag(FLAGS_height));
  }
  if (absl::GetFlag(FLAGS_uv_maps_size) > 0) {
    absl::StrAppend(&name, name.empty() ? "" : " + ", "uv maps ",
                    absl::GetFlag(FLAGS_uv_maps_size));
  }
  return name.empty() ? "paths" : name;
}

// One run: opens the sessions, streams for warm-up + duration, closes.
struct StepResult {
  int sessions = 0;
  std::vector<std::pair<std::string, LoadStats>> kinds;
  LoadStats pooled;
  std::map<std::string, double> stage_means_ms;
  std::string metrics_error;
};

class LoadRun {
 public:
  LoadRun(std::vector<std::shared_ptr<grpc::Channel>> channels,
          std::string token)
      : token_(std::move(token)) {
    for (auto& channel : channels) {
      stubs_.push_back(v1::Crease::NewStub(channel));
    }
  }

  StepResult Run(const std::vector<Kind>& kinds);

 private:
  void Pace(absl::Time start, absl::Time end, double fps, double stagger,
            absl::Time measure_from);
  std::string token_;
  std::vector<std::unique_ptr<v1::Crease::Stub>> stubs_;
  std::vector<std::unique_ptr<LoadSession>> sessions_;
  std::vector<int> kind_of_;
};

void LoadRun::Pace(absl::Time start, absl::Time end, double fps, double stagger,
                   absl::Time measure_from) {
  const absl::Duration period = absl::Seconds(1.0 / fps);
  const int n = static_cast<int>(sessions_.size());
  // Session i opens at start + i * stagger / n and sends every period from
  // when its Started came back (its first tick after that).
  std::vector<absl::Time> next(n);
  std::vector<bool> opened(n, false);
  for (int i = 0; i < n; ++i) {
    next[i] = start + absl::Seconds(stagger * i / std::max(n, 1));
  }
  bool reset = false;
  absl::Time progress = start + absl::Seconds(1);
  while (true) {
    const absl::Time now = absl::Now();
    if (now >= end) break;
    if (!reset && now >= measure_from) {
      for (auto& s : sessions_) s->ResetStats();
      reset = true;
    }
    absl::Time soonest = end;
    for (int i = 0; i < n; ++i) {
      if (next[i] <= now) {
        if (!opened[i]) {
          sessions_[i]->Open();
          opened[i] = true;
        } else {
          sessions_[i]->Tick(next[i]);
        }
        next[i] += period;
        // A pacing thread that fell behind skips ahead, not in a burst.
        if (next[i] < now) next[i] = now + period;
      }
      soonest = std::min(soonest, next[i]);
    }
    if (now >= progress) {
      if (!absl::GetFlag(FLAGS_quiet)) {
        LoadStats all;
        for (auto& s : sessions_) all.Merge(s->Snapshot());
        std::fprintf(stderr,
                     "\r%5.1f s  sessions %d/%d  answered %lld  p50 %.1f ms  "
                     "p99 %.1f ms  dropped %lld  errors %d   ",
                     absl::ToDoubleSeconds(now - start), all.sessions_started,
                     n, static_cast<long long>(all.answered),
                     Percentile(all.latencies_ms, 0.5),
                     Percentile(all.latencies_ms, 0.99),
                     static_cast<long long>(all.dropped),
                     static_cast<int>(all.errors.size()));
      }
      // Advanced with --quiet too: a progress time left in the past made
      // the sleep below zero, and this pacing loop spun a whole core.
      progress += absl::Seconds(1);
    }
    absl::SleepFor(std::max(absl::ZeroDuration(),
                            std::min(soonest, progress) - absl::Now()));
  }
  if (!absl::GetFlag(FLAGS_quiet)) std::fprintf(stderr, "\n");
}

StepResult LoadRun::Run(const std::vector<Kind>& kinds) {
  const double fps = absl::GetFlag(FLAGS_fps);
  sessions_.clear();
  kind_of_.clear();
  for (size_t k = 0; k < kinds.size(); ++k) {
    for (int i = 0; i < kinds[k].sessions; ++i) {
      auto* stub = stubs_[sessions_.size() % stubs_.size()].get();
      sessions_.push_back(std::make_unique<LoadSession>(
          stub, &kinds[k].animation, fps, absl::GetFlag(FLAGS_window), token_));
      kind_of_.push_back(static_cast<int>(k));
    }
  }
  // Interleave the kinds' opening order.
  const double stagger = absl::GetFlag(FLAGS_stagger) >= 0
                             ? absl::GetFlag(FLAGS_stagger)
                             : 1.0 / fps;
  const double warmup = absl::GetFlag(FLAGS_warmup) + stagger;
  const std::string metrics = absl::GetFlag(FLAGS_metrics);
  const absl::Time start = absl::Now();
  const absl::Time measure_from = start + absl::Seconds(warmup);
  StepResult result;
  result.sessions = static_cast<int>(sessions_.size());
  StageSums before;
  std::thread scrape;
  if (!metrics.empty()) {
    // Scraped when the measured window opens, off the pacing thread.
    scrape = std::thread([&] {
      absl::SleepFor(measure_from - absl::Now());
      absl::StatusOr<std::string> page = FetchMetrics(metrics);
      if (page.ok()) {
        before = ParseStageSums(*page);
      } else {
        result.metrics_error = std::string(page.status().message());
      }
    });
  }
  const absl::Time end =
      measure_from + absl::Seconds(absl::GetFlag(FLAGS_duration));
  Pace(start, end, fps, stagger, measure_from);
  std::vector<LoadStats> by_session;
  for (auto& s : sessions_) by_session.push_back(s->Snapshot());
  if (scrape.joinable()) scrape.join();
  if (!metrics.empty() && result.metrics_error.empty()) {
    absl::StatusOr<std::string> page = FetchMetrics(metrics);
    if (page.ok()) {
      result.stage_means_ms = StageMeansMs(before, ParseStageSums(*page));
    } else {
      result.metrics_error = std::string(page.status().message());
    }
  }
  for (auto& s : sessions_) s->Close();
  const absl::Time give_up = absl::Now() + absl::Seconds(10);
  for (auto& s : sessions_) {
    if (!s->WaitDone(give_up)) s->Cancel();
  }
  for (auto& s : sessions_) s->WaitDone(absl::InfiniteFuture());
  // Stream errors (refusals included) count even when they came late.
  for (size_t i = 0; i < sessions_.size(); ++i) {
    by_session[i].errors = sessions_[i]->Snapshot().errors;
  }
  result.kinds.resize(kinds.size());
  for (size_t k = 0; k < kinds.size(); ++k)
    result.kinds[k].first = kinds[k].name;
  for (size_t i = 0; i < by_session.size(); ++i) {
    result.kinds[kind_of_[i]].second.Merge(by_session[i]);
    result.pooled.Merge(by_session[i]);
  }
  sessions_.clear();
  return result;
}

std::string StepJson(const StepResult& step) {
  const double seconds = absl::GetFlag(FLAGS_duration);
  const double fps = absl::GetFlag(FLAGS_fps);
  std::vector<std::string> kinds, means;
  for (const auto& [name, stats] : step.kinds) {
    kinds.push_back(
        absl::StrFormat("\"%s\": %s", name, StatsJson(stats, seconds, fps)));
  }
  for (const auto& [stage, ms] : step.stage_means_ms) {
    means.push_back(absl::StrFormat("\"%s\": %.3f", stage, ms));
  }
  return absl::StrFormat(
      "{\"sessions\": %d, \"kinds\": {%s}, \"pooled\": %s, "
      "\"server_stage_means_ms\": {%s}%s}",
      step.sessions, absl::StrJoin(kinds, ", "),
      StatsJson(step.pooled, seconds, fps), absl::StrJoin(means, ", "),
      step.metrics_error.empty()
          ? ""
          : absl::StrFormat(", \"metrics_error\": \"%s\"", step.metrics_error));
}

// A step meets the target when every session started, nothing failed, 95 %
// of the due frames were answered and the main kind's p99 is under target.
bool MeetsTarget(const StepResult& step) {
  const LoadStats& main = step.kinds.front().second;
  const double expected =
      absl::GetFlag(FLAGS_fps) * absl::GetFlag(FLAGS_duration) * main.sessions;
  return step.pooled.errors.empty() && step.pooled.frame_errors == 0 &&
         main.sessions_started == main.sessions &&
         main.answered >= 0.95 * expected &&
         Percentile(main.latencies_ms, 0.99) <= absl::GetFlag(FLAGS_p99_ms);
}

// The session kinds to run: the main one (--image etc.) and, with
// --paths_sessions, paths-only sessions beside it.
absl::StatusOr<std::vector<Kind>> KindsFromFlags() {
  std::vector<Kind> kinds(1);
  kinds[0].name = KindName();
  CREASE_ASSIGN_OR_RETURN(kinds[0].animation, ReadLoadAnimation(true));
  kinds[0].sessions = absl::GetFlag(FLAGS_sessions);
  if (absl::GetFlag(FLAGS_paths_sessions) > 0) {
    CREASE_ASSIGN_OR_RETURN(LoadAnimation paths, ReadLoadAnimation(false));
    kinds.push_back({kinds[0].name == "paths" ? "paths (beside)" : "paths",
                     std::move(paths), absl::GetFlag(FLAGS_paths_sessions)});
  }
  return kinds;
}

// --channels connections (default: one per session, at most 8), each its own.
std::vector<std::shared_ptr<grpc::Channel>> ChannelsFromFlags(
    int total_sessions) {
  const int channel_count = absl::GetFlag(FLAGS_channels) > 0
                                ? absl::GetFlag(FLAGS_channels)
                                : std::min(std::max(total_sessions, 1), 8);
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  for (int c = 0; c < channel_count; ++c) {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(64 << 20);
    args.SetMaxSendMessageSize(64 << 20);
    args.SetInt("crease.load.channel", c);  // its own connection
    channels.push_back(grpc::CreateCustomChannel(
        absl::GetFlag(FLAGS_server), grpc::InsecureChannelCredentials(), args));
  }
  return channels;
}

// --ramp: doubles the main kind's sessions while the target holds, then
// halves the gap between the last good and the first bad step. The report's
// tail after its config: the target, the most sessions meeting it, and
// every step.
std::string Ramp(LoadRun& run, std::vector<Kind>& kinds) {
  std::vector<std::string> steps;
  int good = 0, bad = absl::GetFlag(FLAGS_max_sessions) + 1;
  int n = kinds[0].sessions;
  while (n > good && n < bad) {
    kinds[0].sessions = n;
    const StepResult step = run.Run(kinds);
    const bool ok = MeetsTarget(step);
    std::fprintf(stderr, "ramp: %d sessions %s (p99 %.1f ms)\n", n,
                 ok ? "meet the target" : "miss it",
                 Percentile(step.kinds[0].second.latencies_ms, 0.99));
    steps.push_back(StepJson(step));
    if (ok) {
      good = n;
    } else {
      bad = n;
    }
    n = bad > absl::GetFlag(FLAGS_max_sessions) ? std::min(2 * n, bad - 1)
                                                : (good + bad) / 2;
    if (bad - good <= std::max(1, good / 16)) break;
  }
  return absl::StrCat(
      absl::StrFormat(
          ", \"p99_target_ms\": %.1f, \"max_sessions_meeting_target\": %d, ",
          absl::GetFlag(FLAGS_p99_ms), good),
      "\"steps\": [", absl::StrJoin(steps, ", "), "]");
}

absl::Status Main() {
  const double fps = absl::GetFlag(FLAGS_fps);
  if (fps <= 0 || fps > 1000) {
    return absl::InvalidArgumentError("--fps must be in (0, 1000]");
  }
  if (absl::GetFlag(FLAGS_sessions) < 1 || absl::GetFlag(FLAGS_window) < 1 ||
      absl::GetFlag(FLAGS_duration) <= 0) {
    return absl::InvalidArgumentError(
        "--sessions and --window must be >= 1, --duration > 0");
  }
  CREASE_ASSIGN_OR_RETURN(std::vector<Kind> kinds, KindsFromFlags());
  std::string token;
  if (const std::string file = absl::GetFlag(FLAGS_token_file); !file.empty()) {
    CREASE_ASSIGN_OR_RETURN(const std::string text,
                            files::ReadFileToString(file));
    token = text.substr(0, text.find('\n'));
  }
  const std::vector<std::shared_ptr<grpc::Channel>> channels =
      ChannelsFromFlags(kinds[0].sessions +
                        absl::GetFlag(FLAGS_paths_sessions));
  LoadRun run(channels, token);
  const std::string config = absl::StrFormat(
      "\"server\": \"%s\", \"fps\": %.2f, \"duration_s\": %.1f, "
      "\"window\": %d, \"channels\": %d",
      absl::GetFlag(FLAGS_server), fps, absl::GetFlag(FLAGS_duration),
      absl::GetFlag(FLAGS_window), channels.size());
  const std::string json =
      absl::GetFlag(FLAGS_ramp)
          ? absl::StrCat("{", config, Ramp(run, kinds), "}\n")
          : absl::StrCat("{", config,
                         ", \"result\": ", StepJson(run.Run(kinds)), "}\n");
  if (const std::string path = absl::GetFlag(FLAGS_report); !path.empty()) {
    return files::WriteStringToFile(path, json);
  }
  std::fputs(json.c_str(), stdout);
  return absl::OkStatus();
}

}  // namespace
}  // namespace crease::load

int main(int argc, char** argv) {
  crease::SetFlagsUsage(
      "Streams many sessions from one process and reports latency. Example:\n"
      "  crease-load --server 127.0.0.1:50051 --sessions 16 --fps 60 "
      "--image jpeg --duration 10",
      {"client/load/crease_load_main.cc", "wrinkle/io/animation_input.cc"});
  absl::ParseCommandLine(argc, argv);
  if (const absl::Status s = crease::load::Main(); !s.ok()) {
    std::fprintf(stderr, "crease-load: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}
