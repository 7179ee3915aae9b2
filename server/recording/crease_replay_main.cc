// crease-replay: sends recorded sessions (crease-server --record_dir) to a
// server again, at their recorded pace or as fast as it answers, and checks
// every answer against the recorded one (docs/operations.md, "Recording and
// replaying sessions"). Exit status 0 when every recording's answers are the
// same, 1 when some differ, 2 when a recording or the server could not be
// used (a usage error, a file that is no recording, a refused Start, a
// stream the server ended).

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "common/flags_usage.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "server/crease_server.h"
#include "server/recording/session_record.h"
#include "server/recording/session_replay.h"

ABSL_FLAG(std::string, server, "",
          "host:port of the server to replay against (plaintext); empty: a "
          "server started in this process on a loopback port, with its "
          "default options");
ABSL_FLAG(std::string, pace, "fast",
          "recorded: send each frame at its recorded arrival time; fast: as "
          "fast as the server answers");
ABSL_FLAG(int, max_in_flight, 8, "With --pace fast: frames sent ahead");
ABSL_FLAG(std::string, token, "", "Bearer token to send (empty: none)");
ABSL_FLAG(bool, quiet, false, "No progress line");

namespace {

using crease::server::ReplayOptions;
using crease::server::ReplayReport;

enum class Outcome { kIdentical, kDifferent, kUnusable };

// One recording replayed; prints its summary line.
Outcome ReplayOne(const std::string& path,
                  const std::shared_ptr<grpc::Channel>& channel,
                  const ReplayOptions& options) {
  auto recording = crease::server::ReadSessionRecording(path);
  if (!recording.ok()) {
    std::fprintf(stderr, "crease-replay: %s\n",
                 std::string(recording.status().message()).c_str());
    return Outcome::kUnusable;
  }
  absl::StatusOr<ReplayReport> report =
      crease::server::ReplaySession(*recording, channel, options);
  if (!absl::GetFlag(FLAGS_quiet)) std::fprintf(stderr, "\n");
  if (!report.ok()) {
    std::fprintf(stderr, "crease-replay: %s: %s\n", path.c_str(),
                 report.status().ToString().c_str());
    return Outcome::kUnusable;
  }
  std::printf(
      "%s: %d frames, %d answered, %d the same, %d different, %d unchecked%s "
      "in %.2f s: %s\n",
      path.c_str(), report->frames, report->answered, report->matching,
      report->differing, report->unchecked,
      recording->truncated ? " (the recording was cut short)" : "",
      report->seconds, report->identical() ? "identical" : "NOT identical");
  for (const std::string& line : report->differences) {
    std::printf("  %s\n", line.c_str());
  }
  return report->identical() ? Outcome::kIdentical : Outcome::kDifferent;
}

}  // namespace

int main(int argc, char** argv) {
  crease::SetFlagsUsage(
      "Replays sessions recorded by crease-server --record_dir and checks "
      "each answer against the recording. Example:\n"
      "  crease-replay --server 127.0.0.1:50051 recordings/*.crec",
      {"server/recording/crease_replay_main.cc"});
  const std::vector<char*> files = absl::ParseCommandLine(argc, argv);
  if (files.size() < 2) {
    std::fprintf(stderr,
                 "crease-replay: name at least one recording (.crec)\n");
    return 2;
  }
  const std::string pace = absl::GetFlag(FLAGS_pace);
  if (pace != "fast" && pace != "recorded") {
    std::fprintf(stderr, "crease-replay: --pace %s: fast or recorded\n",
                 pace.c_str());
    return 2;
  }
  ReplayOptions options;
  options.recorded_pace = pace == "recorded";
  options.max_in_flight = absl::GetFlag(FLAGS_max_in_flight);
  options.token = absl::GetFlag(FLAGS_token);
  if (!absl::GetFlag(FLAGS_quiet)) {
    options.progress = [](int answered, int frames) {
      if (answered % 10 == 0 || answered == frames) {
        std::fprintf(stderr, "\rcrease-replay: %d / %d frames answered",
                     answered, frames);
      }
    };
  }
  std::string address = absl::GetFlag(FLAGS_server);
  std::unique_ptr<crease::server::CreaseServer> local;
  if (address.empty()) {
    crease::server::ServerOptions server_options;
    server_options.address = "127.0.0.1:0";
    auto started = crease::server::CreaseServer::Start(server_options);
    if (!started.ok()) {
      std::fprintf(stderr, "crease-replay: the in-process server: %s\n",
                   started.status().ToString().c_str());
      return 2;
    }
    local = *std::move(started);
    address = absl::StrFormat("127.0.0.1:%d", local->port());
  }
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(-1);
  arguments.SetMaxSendMessageSize(-1);
  const auto channel = grpc::CreateCustomChannel(
      address, grpc::InsecureChannelCredentials(), arguments);
  bool different = false, unusable = false;
  for (size_t i = 1; i < files.size(); ++i) {
    const Outcome outcome = ReplayOne(files[i], channel, options);
    different |= outcome == Outcome::kDifferent;
    unusable |= outcome == Outcome::kUnusable;
  }
  if (local != nullptr) local->Shutdown();
  return unusable ? 2 : (different ? 1 : 0);
}
