// crease-preview: streams an animation to a Crease server and shows the
// answers live in a browser: the plain and the wrinkled animation side by
// side, labels or compression over the plain one, the wrinkle paths as lines,
// play/pause, scrubbing, latency and fps (README.md, "crease-preview").

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "client/cli/credentials.h"
#include "client/cli/mesh_output.h"
#include "client/crease_client.h"
#include "client/mesh_messages.h"
#include "client/preview/preview_messages.h"
#include "client/preview/preview_server.h"
#include "common/flags_usage.h"
#include "common/status_macros.h"
#include "wrinkle/io/animation_input.h"

ABSL_FLAG(std::string, server, "127.0.0.1:50051", "Server address, host:port.");
ABSL_FLAG(int, port, 8080, "The page's port on 127.0.0.1 (0: any free one).");
ABSL_FLAG(std::string, web_root, CREASE_PREVIEW_WEB,
          "The page's files (index.html, preview.js, vendor/three).");
ABSL_FLAG(int, frames, 0,
          "Frames to send per pass (0: all; for glTF input, frames sampled, "
          "0: one clip length).");
ABSL_FLAG(double, fps, 0,
          "Pace of sending, frames per second (0: 30). "
          "For glTF input also the sampling rate.");
ABSL_FLAG(int, passes, 1,
          "Times to stream the animation into the one session (0: until "
          "stopped).");
ABSL_FLAG(int, level, 6,
          "Wrinkled mesh level, 1..8 (segments per coarse edge): the right "
          "column draws it, so it needs triangles narrower than a wrinkle (6 "
          "puts two edges across the median wrinkle of the bundled knee and "
          "Fox; crease-preview warns when the level is too coarse).");
ABSL_FLAG(double, serve_seconds, -1,
          "After streaming, keep serving the page this long (-1: until "
          "stopped with Ctrl-C).");
ABSL_FLAG(std::string, token_file, "", "File whose first line is the token.");
ABSL_FLAG(std::string, tls_ca, "", "PEM root certificates: use TLS.");

namespace crease::client::preview {
namespace {

volatile std::sig_atomic_t stop_requested = 0;

absl::StatusOr<std::unique_ptr<CreaseClient>> Connect() {
  ClientOptions options;
  options.max_frames_in_flight = 1;
  CREASE_RETURN_IF_ERROR(ReadCredentials(
      absl::GetFlag(FLAGS_token_file), absl::GetFlag(FLAGS_tls_ca), &options));
  return CreaseClient::Connect(absl::GetFlag(FLAGS_server), options);
}

// Streams `frames` frames, `passes` times (0: until stopped), one in flight
// so each frame's latency is its own, paced at `fps`; publishes each answer.
absl::Status Stream(const io::Animation& animation, int frames, double fps,
                    SessionStream& session, PreviewServer& server) {
  const int passes = absl::GetFlag(FLAGS_passes);
  const absl::Time begin = absl::Now();
  MeshLevelCheck mesh_level;
  uint32_t index = 0;
  for (int pass = 0; passes == 0 || pass < passes; ++pass) {
    for (int f = 0; f < frames && !stop_requested; ++f, ++index) {
      absl::SleepFor(begin + absl::Seconds(index / fps) - absl::Now());
      const absl::Span<const float> positions = animation.frames.Sample(f);
      const absl::Time sent = absl::Now();
      CREASE_RETURN_IF_ERROR(session.Send(FrameOf(positions, index)));
      CREASE_ASSIGN_OR_RETURN(v1::FrameResult result, session.Receive());
      const double latency = absl::ToDoubleMilliseconds(absl::Now() - sent);
      if (result.has_error()) {
        std::fprintf(stderr, "\nframe %u refused: %s\n", index,
                     result.error().message().c_str());
        continue;
      }
      if (pass == 0) mesh_level.Add(session.started(), result);
      server.Publish(FrameMessage(
          index, latency, positions,
          static_cast<int>(animation.mesh.triangles.size()), result));
      std::fprintf(stderr, "\rpass %d, frame %d/%d, %.1f ms, %d page(s)   ",
                   pass + 1, f + 1, frames, latency, server.pages());
    }
    if (pass == 0) {
      if (const std::string warning = mesh_level.Warning("--level");
          !warning.empty()) {
        std::fprintf(stderr, "\ncrease-preview: warning: %s\n",
                     warning.c_str());
      }
    }
    if (stop_requested) break;
  }
  std::fprintf(stderr, "\n");
  CREASE_RETURN_IF_ERROR(session.WritesDone());
  return session.Finish();
}

absl::Status Run() {
  const io::AnimationInput input = io::AnimationInputFromFlags(
      absl::GetFlag(FLAGS_fps), absl::GetFlag(FLAGS_frames));
  CREASE_RETURN_IF_ERROR(io::CheckAnimationInput(input));
  const int level = absl::GetFlag(FLAGS_level);
  if (level < 1 || level > 8) {
    return absl::InvalidArgumentError("--level must be 1..8");
  }
  CREASE_ASSIGN_OR_RETURN(io::Animation animation, io::LoadAnimation(input));
  int frames = animation.num_frames();
  if (absl::GetFlag(FLAGS_frames) > 0) {
    frames = std::min(frames, absl::GetFlag(FLAGS_frames));
  }
  double fps = absl::GetFlag(FLAGS_fps);
  if (!(fps > 0)) fps = 30;
  CREASE_ASSIGN_OR_RETURN(std::unique_ptr<CreaseClient> client, Connect());
  v1::Start start = StartForMesh(animation.mesh);
  v1::Outputs* outputs = start.mutable_outputs();
  outputs->set_paths(true);
  outputs->set_labels(true);
  outputs->set_tensors(true);
  outputs->mutable_wrinkled_mesh()->set_level(static_cast<uint32_t>(level));
  CREASE_ASSIGN_OR_RETURN(std::unique_ptr<SessionStream> session,
                          client->OpenSession(start));
  CREASE_ASSIGN_OR_RETURN(
      std::unique_ptr<PreviewServer> server,
      PreviewServer::Start(
          absl::GetFlag(FLAGS_web_root), absl::GetFlag(FLAGS_port),
          InitMessage(animation.mesh, session->started(), frames, fps),
          /*keep_frames=*/frames));
  std::printf("Preview at http://127.0.0.1:%d/ (%d frames at %.0f fps)\n",
              server->port(), frames, fps);
  std::fflush(stdout);
  CREASE_RETURN_IF_ERROR(Stream(animation, frames, fps, *session, *server));
  const double serve = absl::GetFlag(FLAGS_serve_seconds);
  std::printf("Streamed; serving the page %s\n",
              serve < 0 ? "until Ctrl-C" : "a while longer");
  std::fflush(stdout);
  const absl::Time until = absl::Now() + absl::Seconds(std::max(serve, 0.0));
  while (!stop_requested && (serve < 0 || absl::Now() < until)) {
    absl::SleepFor(absl::Milliseconds(100));
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace crease::client::preview

int main(int argc, char** argv) {
  crease::SetFlagsUsage(
      "Streams an OBJ + PC2 or glTF animation to a Crease server and shows "
      "it live in a browser. Example:\n"
      "  crease-preview --server 127.0.0.1:50051 --obj "
      "data/cloth_pants_knee.obj --pc2 data/cloth_pants_knee.pc2 --port 8080\n"
      "then open http://127.0.0.1:8080/",
      {"client/preview/", "wrinkle/io/animation_input.cc"});
  absl::ParseCommandLine(argc, argv);
  std::signal(SIGINT, [](int) { crease::client::preview::stop_requested = 1; });
  std::signal(SIGTERM,
              [](int) { crease::client::preview::stop_requested = 1; });
  const absl::Status status = crease::client::preview::Run();
  if (!status.ok()) {
    std::fprintf(stderr, "crease-preview: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
