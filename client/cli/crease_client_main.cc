// crease-client: streams an animation (OBJ + PC2, or glTF 2.0) to a Crease
// server, frame by frame, and writes what comes back: wrinkle paths (JSON
// Lines), images, a contact sheet (plain | wrinkled) and a summary with
// round-trip latencies.

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "client/cli/contact_sheet_output.h"
#include "client/cli/credentials.h"
#include "client/cli/gltf_export.h"
#include "client/cli/mesh_output.h"
#include "client/cli/model_flags.h"
#include "client/cli/session_streaming.h"
#include "client/cli/stream_summary.h"
#include "client/cli/video_output.h"
#include "client/crease_client.h"
#include "client/mesh_messages.h"
#include "common/file_util.h"
#include "common/flags_usage.h"
#include "common/median.h"
#include "common/status_macros.h"
#include "image/camera.h"
#include "image/close_up.h"
#include "image/image_compare.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/io/animation_input.h"
#include "wrinkle/io/planar_uvs.h"

ABSL_FLAG(std::string, server, "127.0.0.1:50051", "Server address, host:port.");
ABSL_FLAG(std::string, out, "", "Output directory (created if missing).");
ABSL_FLAG(int, frames, 0,
          "Send at most this many frames (0: all; with --gltf, sample this "
          "many, 0: one clip length).");
ABSL_FLAG(double, fps, 0,
          "Send at this rate (0: as fast as the server goes); with --gltf "
          "also the sampling rate (0: 30). The animation's frame rate the "
          "server's per-frame rules act at (Parameters.frame_rate): "
          "--frame_rate, else this, else 30.");
ABSL_FLAG(double, frame_rate, 0,
          "The animation's frames a second, when it is not --fps (a file "
          "sent as fast as the server goes); 0: --fps, else 30.");
ABSL_FLAG(bool, paths, true, "Ask for wrinkle paths (wrinkles.jsonl).");
ABSL_FLAG(std::string, image, "none", "Ask for images: none, jpeg or png.");
ABSL_FLAG(int, width, 480, "Image width.");
ABSL_FLAG(int, height, 360, "Image height.");
ABSL_FLAG(int, quality, 90, "JPEG quality, 1..100.");
ABSL_FLAG(double, azimuth, 0,
          "Turn the camera (framed on the first frame) around the vertical "
          "axis by this many degrees (180: from behind).");
ABSL_FLAG(bool, close_up, false,
          "With images: frame the camera on where the animation compresses "
          "most (the vertices of its most shortened tenth of edges over the "
          "frames sent), turned by --azimuth, instead of the whole mesh; the "
          "camera follows that region frame by frame at one zoom.");
ABSL_FLAG(std::string, video, "",
          "With images: also write the received frames as an H.264 MP4 to "
          "this path (by the ffmpeg program); with --contact_sheet, the plain "
          "and wrinkled frames side by side.");
ABSL_FLAG(double, video_fps, 0, "The video's frame rate (0: --fps, else 30).");
ABSL_FLAG(bool, contact_sheet, false,
          "With images: also stream the plain mesh in a second session and "
          "write contact_sheet.png (rows of plain | wrinkled; with "
          "--compare_models plain | SCA 2015 | wrinkle maps | buckling).");
ABSL_FLAG(int, sheet_rows, 6, "Frames on the contact sheet.");
ABSL_FLAG(bool, planar_uvs, false,
          "A mesh without UVs gets planar ones (its rest pose on its two "
          "longest bounding-box axes): enough for the wrinkle maps' repeating "
          "pattern, e.g. --compare_models on data/cloth_pants_knee.");
ABSL_FLAG(double, min_width, 0, "L_min in model units (0: server default).");
ABSL_FLAG(int, fade_frames, -1,
          "Frames wrinkles fade in and out over (0: they pop; -1: server "
          "default).");
ABSL_FLAG(int, window, 8, "Frames in flight at most.");
ABSL_FLAG(std::string, token_file, "", "File whose first line is the token.");
ABSL_FLAG(std::string, tls_ca, "", "PEM root certificates: use TLS.");
ABSL_FLAG(std::string, json, "",
          "Write the summary as JSON here ('-': stdout).");
ABSL_FLAG(bool, quiet, false, "No progress bar or summary table.");
ABSL_FLAG(bool, health, false,
          "Only ask the server whether it is SERVING (grpc.health.v1, no "
          "token needed): exit 0 if it is, 1 if not. For container health "
          "checks.");

namespace crease::client {
namespace {

absl::StatusOr<std::unique_ptr<CreaseClient>> ConnectFromFlags() {
  ClientOptions options;
  options.max_frames_in_flight = std::max(1, absl::GetFlag(FLAGS_window));
  CREASE_RETURN_IF_ERROR(ReadCredentials(
      absl::GetFlag(FLAGS_token_file), absl::GetFlag(FLAGS_tls_ca), &options));
  return CreaseClient::Connect(absl::GetFlag(FLAGS_server), options);
}

// --health: prints SERVING or NOT_SERVING; an unreachable server is an error.
absl::Status CheckHealth() {
  CREASE_ASSIGN_OR_RETURN(std::unique_ptr<CreaseClient> client,
                          ConnectFromFlags());
  CREASE_ASSIGN_OR_RETURN(bool serving, client->IsServing());
  std::printf("%s: %s\n", absl::GetFlag(FLAGS_server).c_str(),
              serving ? "SERVING" : "NOT_SERVING");
  if (!serving) return absl::UnavailableError("the server is not serving");
  return absl::OkStatus();
}

// The animation's frames, at most --frames of them.
int FramesToSend(const io::Animation& animation) {
  int num_frames = animation.num_frames();
  if (absl::GetFlag(FLAGS_frames) > 0) {
    num_frames = std::min(num_frames, absl::GetFlag(FLAGS_frames));
  }
  return num_frames;
}

// The Start the flags ask for: parameters, outputs, and the camera turned by
// --azimuth.
v1::Start StartFromFlags(const io::Animation& animation,
                         const std::string& image,
                         const std::vector<image::Camera>& close_up) {
  v1::Start start = StartForMesh(animation.mesh);
  start.mutable_parameters()->set_min_width(absl::GetFlag(FLAGS_min_width));
  const double frame_rate = absl::GetFlag(FLAGS_frame_rate) > 0
                                ? absl::GetFlag(FLAGS_frame_rate)
                                : absl::GetFlag(FLAGS_fps);
  if (frame_rate > 0) start.mutable_parameters()->set_frame_rate(frame_rate);
  if (absl::GetFlag(FLAGS_fade_frames) >= 0) {
    start.mutable_parameters()->set_fade_frames(
        static_cast<uint32_t>(absl::GetFlag(FLAGS_fade_frames)));
  }
  start.mutable_outputs()->set_paths(absl::GetFlag(FLAGS_paths));
  RequestMeshOutputs(&start);
  if (image != "none") {
    v1::ImageRequest* request = start.mutable_outputs()->mutable_image();
    request->set_format(image == "png" ? v1::IMAGE_FORMAT_PNG
                                       : v1::IMAGE_FORMAT_JPEG);
    request->set_width(static_cast<uint32_t>(absl::GetFlag(FLAGS_width)));
    request->set_height(static_cast<uint32_t>(absl::GetFlag(FLAGS_height)));
    request->set_jpeg_quality(static_cast<uint32_t>(
        std::clamp(absl::GetFlag(FLAGS_quality), 1, 100)));
    const float aspect = static_cast<float>(absl::GetFlag(FLAGS_width)) /
                         absl::GetFlag(FLAGS_height);
    const float azimuth = static_cast<float>(absl::GetFlag(FLAGS_azimuth));
    if (!close_up.empty()) {
      // The first frame's; each frame then brings its own (SendFrames).
      *request->mutable_camera() = ProtoCamera(close_up.front());
    } else if (azimuth != 0 || absl::GetFlag(FLAGS_close_up)) {
      // Framed on the first frame as the server frames, then turned.
      *request->mutable_camera() = ProtoCamera(
          image::AutoFrame(animation.frames.Sample(0), aspect, azimuth));
    }
  }
  return start;
}

// What the flags ask this run for, checked.
struct RunRequest {
  std::string out;
  std::string image;  // none, jpeg or png
  bool want_sheet = false;
  std::string video;  // --video: empty, none
};

absl::StatusOr<RunRequest> RequestFromFlags() {
  RunRequest request;
  request.out = absl::GetFlag(FLAGS_out);
  request.image = absl::GetFlag(FLAGS_image);
  if (request.out.empty()) {
    return absl::InvalidArgumentError("--out is required");
  }
  if (request.image != "none" && request.image != "jpeg" &&
      request.image != "png") {
    return absl::InvalidArgumentError("--image must be none, jpeg or png");
  }
  const bool want_images = request.image != "none";
  request.want_sheet = want_images && absl::GetFlag(FLAGS_contact_sheet);
  request.video = absl::GetFlag(FLAGS_video);
  if (!request.video.empty() && !want_images) {
    return absl::InvalidArgumentError("--video needs --image jpeg or png");
  }
  if (absl::GetFlag(FLAGS_video_fps) < 0) {
    return absl::InvalidArgumentError("--video_fps must be >= 0");
  }
  return request;
}

absl::Status CreateOutputDirectory(const std::string& out) {
  std::error_code error;
  std::filesystem::create_directories(out, error);
  if (error) {
    return absl::UnavailableError(
        absl::StrFormat("%s: %s", out, error.message()));
  }
  return absl::OkStatus();
}

// Writes the summary as JSON (to --json, or out/summary.json) and, unless
// --quiet, as a table on stderr.
absl::Status WriteSummary(const StreamSummary& summary,
                          const std::string& out) {
  const std::string json = SummaryJson(summary);
  if (const std::string path = absl::GetFlag(FLAGS_json); path == "-") {
    std::fputs(json.c_str(), stdout);
  } else {
    const std::string target = path.empty() ? out + "/summary.json" : path;
    CREASE_RETURN_IF_ERROR(files::WriteStringToFile(target, json));
  }
  if (!absl::GetFlag(FLAGS_quiet)) {
    std::fputs(SummaryTable(summary).c_str(), stderr);
    std::fprintf(stderr, "wrote %s/\n", out.c_str());
  }
  return absl::OkStatus();
}

// Writes wrinkles.jsonl, the contact sheet and the summary.
absl::Status WriteOutputs(const RunRequest& request,
                          const std::vector<int>& sheet_frames,
                          size_t wrinkled_column, Received* received) {
  if (absl::GetFlag(FLAGS_paths)) {
    CREASE_RETURN_IF_ERROR(files::WriteStringToFile(
        request.out + "/wrinkles.jsonl", received->jsonl));
  }
  if (request.want_sheet) {
    // plain | SCA 2015 | wrinkle maps | buckling.
    std::vector<std::vector<std::string>> columns =
        std::move(received->column_images);
    columns.insert(columns.begin() + static_cast<std::ptrdiff_t>(std::min(
                                         wrinkled_column, columns.size())),
                   std::move(received->wrinkled_images));
    CREASE_ASSIGN_OR_RETURN(
        received->summary.contact_sheet_visible_change,
        WriteContactSheet(columns, request.image == "png", request.out));
    received->summary.contact_sheet_frames = sheet_frames;
    if (!absl::GetFlag(FLAGS_quiet)) {
      const auto& changed = received->summary.contact_sheet_visible_change;
      for (size_t c = 0; c < changed.size(); ++c) {
        std::fprintf(stderr,
                     "  contact sheet column %d against plain: a median %.1f "
                     "%% of the subject's pixels changed by more than %d "
                     "levels\n",
                     static_cast<int>(c) + 2, 100.0 * Median(changed[c]),
                     image::kVisibleLevels);
      }
    }
  }
  return WriteSummary(received->summary, request.out);
}

// --video: the saved frames (and with a contact sheet the plain ones beside
// them) as an MP4.
absl::Status WriteVideoFromFlags(const RunRequest& request) {
  if (request.video.empty()) return absl::OkStatus();
  VideoRequest video;
  video.out_dir = request.out;
  video.extension = request.image == "png" ? "png" : "jpg";
  video.pair = request.want_sheet;
  const double fps = absl::GetFlag(FLAGS_video_fps) > 0
                         ? absl::GetFlag(FLAGS_video_fps)
                         : absl::GetFlag(FLAGS_fps);
  video.fps = fps > 0 ? fps : 30;
  video.path = request.video;
  CREASE_RETURN_IF_ERROR(WriteVideo(video));
  if (!absl::GetFlag(FLAGS_quiet)) {
    std::fprintf(stderr, "wrote %s\n", video.path.c_str());
  }
  return absl::OkStatus();
}

absl::Status Run() {
  CREASE_ASSIGN_OR_RETURN(const RunRequest request, RequestFromFlags());
  CREASE_ASSIGN_OR_RETURN(
      io::Animation animation,
      io::LoadAnimation(io::AnimationInputFromFlags(
          absl::GetFlag(FLAGS_fps), absl::GetFlag(FLAGS_frames))));
  if (absl::GetFlag(FLAGS_planar_uvs) && !animation.mesh.has_uvs()) {
    animation.mesh.corner_uvs = io::PlanarUvs(animation.mesh);
  }
  const int num_frames = FramesToSend(animation);
  CREASE_ASSIGN_OR_RETURN(
      const std::unique_ptr<GltfExport> gltf_export,
      GltfExportFromFlags(animation, absl::GetFlag(FLAGS_fps)));
  // Before anything is written: a mistyped flag leaves no empty --out.
  CREASE_RETURN_IF_ERROR(CheckModelFlags());
  CREASE_RETURN_IF_ERROR(CreateOutputDirectory(request.out));
  // --close_up: a camera per frame that follows where the animation
  // compresses most, at a fixed zoom.
  const std::vector<image::Camera> close_up =
      absl::GetFlag(FLAGS_close_up) && request.image != "none"
          ? image::FollowingCloseUp(
                animation, num_frames,
                static_cast<float>(absl::GetFlag(FLAGS_width)) /
                    absl::GetFlag(FLAGS_height),
                static_cast<float>(absl::GetFlag(FLAGS_azimuth)), 1.3f)
          : std::vector<image::Camera>();
  v1::Start start = StartFromFlags(animation, request.image, close_up);
  CREASE_RETURN_IF_ERROR(ApplyModelFlags(&start));
  // Every flag is checked before the client connects: no server needed to
  // hear of a bad one.
  CREASE_ASSIGN_OR_RETURN(std::unique_ptr<CreaseClient> client,
                          ConnectFromFlags());
  // The buckling model's folds are its mesh: --export asks for it.
  if (gltf_export != nullptr &&
      start.parameters().model() == v1::WRINKLE_MODEL_BUCKLING &&
      start.outputs().wrinkled_mesh().level() == 0) {
    start.mutable_outputs()->mutable_wrinkled_mesh()->set_level(1);
  }
  const bool quiet = absl::GetFlag(FLAGS_quiet);
  CREASE_ASSIGN_OR_RETURN(
      const Sessions sessions,
      OpenSessions(*client, start, request.want_sheet, quiet));
  const std::vector<int> sheet_frames =
      SheetFrames(num_frames, absl::GetFlag(FLAGS_sheet_rows));
  Streaming streaming{.animation = animation,
                      .num_frames = num_frames,
                      .sheet_frames = sheet_frames,
                      .sessions = sessions,
                      .gltf_export = gltf_export.get(),
                      .close_up = close_up,
                      .sent_ns = std::vector<std::atomic<int64_t>>(num_frames),
                      .begin = absl::Now(),
                      .options = {.fps = absl::GetFlag(FLAGS_fps),
                                  .paths = absl::GetFlag(FLAGS_paths),
                                  .video_pairs = !request.video.empty(),
                                  .progress = !quiet && isatty(STDERR_FILENO)}};
  CREASE_ASSIGN_OR_RETURN(Received received,
                          StreamFrames(streaming, request.out));
  if (const std::string warning = received.mesh_level.Warning();
      !warning.empty()) {
    std::fprintf(stderr, "crease-client: warning: %s\n", warning.c_str());
  }
  if (gltf_export != nullptr) {
    CREASE_RETURN_IF_ERROR(gltf_export->Write(absl::GetFlag(FLAGS_quiet)));
  }
  CREASE_RETURN_IF_ERROR(
      WriteOutputs(request, sheet_frames, sessions.wrinkled_column, &received));
  return WriteVideoFromFlags(request);
}

}  // namespace
}  // namespace crease::client

int main(int argc, char** argv) {
  crease::SetFlagsUsage(
      "Streams an OBJ + PC2 or a glTF 2.0 animation to a Crease server. "
      "Examples:\n"
      "  crease-client --server 127.0.0.1:50051 --obj "
      "data/cloth_pants_knee.obj "
      "--pc2 data/cloth_pants_knee.pc2 --out out/ --image jpeg "
      "--contact_sheet\n"
      "  crease-client --gltf data/Fox.glb --animation Walk --fps 30 --out "
      "out/ --image jpeg",
      {"client/cli/", "wrinkle/io/animation_input.cc"});
  absl::ParseCommandLine(argc, argv);
  const absl::Status status = absl::GetFlag(FLAGS_health)
                                  ? crease::client::CheckHealth()
                                  : crease::client::Run();
  if (!status.ok()) {
    std::fprintf(stderr, "crease-client: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
