// crease-client: streams an OBJ + PC2 animation to a Crease server, frame by
// frame, and writes what comes back: wrinkle paths (JSON Lines), images, a
// contact sheet (plain | wrinkled) and a summary with round-trip latencies.

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "client/cli/stream_summary.h"
#include "client/crease_client.h"
#include "client/mesh_messages.h"
#include "common/file_util.h"
#include "common/flags_usage.h"
#include "common/status_macros.h"
#include "image/camera.h"
#include "image/contact_sheet.h"
#include "image/image_encoding.h"
#include "wrinkle/io/animation.h"

ABSL_FLAG(std::string, server, "127.0.0.1:50051", "Server address, host:port.");
ABSL_FLAG(std::string, obj, "", "Mesh (topology and rest shape), OBJ.");
ABSL_FLAG(std::string, pc2, "", "Vertex animation, PC2.");
ABSL_FLAG(std::string, out, "", "Output directory (created if missing).");
ABSL_FLAG(int, frames, 0, "Send at most this many frames (0: all).");
ABSL_FLAG(double, fps, 0, "Send at this rate (0: as fast as the server goes).");
ABSL_FLAG(bool, paths, true, "Ask for wrinkle paths (wrinkles.jsonl).");
ABSL_FLAG(std::string, image, "none", "Ask for images: none, jpeg or png.");
ABSL_FLAG(int, width, 480, "Image width.");
ABSL_FLAG(int, height, 360, "Image height.");
ABSL_FLAG(int, quality, 90, "JPEG quality, 1..100.");
ABSL_FLAG(double, azimuth, 0,
          "Turn the camera (framed on the first frame) around the vertical "
          "axis by this many degrees (180: from behind).");
ABSL_FLAG(bool, contact_sheet, false,
          "With images: also stream the plain mesh in a second session and "
          "write contact_sheet.png (rows of plain | wrinkled).");
ABSL_FLAG(int, sheet_rows, 6, "Frames on the contact sheet.");
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

absl::StatusOr<std::string> FirstLine(const std::string& path) {
  CREASE_ASSIGN_OR_RETURN(std::string text, files::ReadFileToString(path));
  std::string line(absl::StripAsciiWhitespace(text.substr(0, text.find('\n'))));
  if (line.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": no token"));
  }
  return line;
}

// A renderer camera as a crease.v1 one.
v1::Camera ProtoCamera(const image::Camera& camera) {
  v1::Camera out;
  out.mutable_eye()->set_x(camera.eye[0]);
  out.mutable_eye()->set_y(camera.eye[1]);
  out.mutable_eye()->set_z(camera.eye[2]);
  out.mutable_target()->set_x(camera.target[0]);
  out.mutable_target()->set_y(camera.target[1]);
  out.mutable_target()->set_z(camera.target[2]);
  out.mutable_up()->set_x(camera.up[0]);
  out.mutable_up()->set_y(camera.up[1]);
  out.mutable_up()->set_z(camera.up[2]);
  out.set_vertical_fov_degrees(camera.vertical_fov_degrees);
  return out;
}

absl::StatusOr<std::unique_ptr<CreaseClient>> ConnectFromFlags() {
  ClientOptions options;
  options.max_frames_in_flight = std::max(1, absl::GetFlag(FLAGS_window));
  if (const std::string path = absl::GetFlag(FLAGS_token_file); !path.empty()) {
    CREASE_ASSIGN_OR_RETURN(std::string token, FirstLine(path));
    options.token = token;
  }
  if (const std::string path = absl::GetFlag(FLAGS_tls_ca); !path.empty()) {
    CREASE_ASSIGN_OR_RETURN(std::string pem, files::ReadFileToString(path));
    options.tls_root_certificates = pem;
  }
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

// The Start the flags ask for: parameters, outputs, and the camera turned by
// --azimuth.
v1::Start StartFromFlags(const io::Animation& animation,
                         const std::string& image) {
  v1::Start start = StartForMesh(animation.mesh);
  start.mutable_parameters()->set_min_width(absl::GetFlag(FLAGS_min_width));
  if (absl::GetFlag(FLAGS_fade_frames) >= 0) {
    start.mutable_parameters()->set_fade_frames(
        static_cast<uint32_t>(absl::GetFlag(FLAGS_fade_frames)));
  }
  start.mutable_outputs()->set_paths(absl::GetFlag(FLAGS_paths));
  if (image != "none") {
    v1::ImageRequest* request = start.mutable_outputs()->mutable_image();
    request->set_format(image == "png" ? v1::IMAGE_FORMAT_PNG
                                       : v1::IMAGE_FORMAT_JPEG);
    request->set_width(static_cast<uint32_t>(absl::GetFlag(FLAGS_width)));
    request->set_height(static_cast<uint32_t>(absl::GetFlag(FLAGS_height)));
    request->set_jpeg_quality(static_cast<uint32_t>(
        std::clamp(absl::GetFlag(FLAGS_quality), 1, 100)));
    if (absl::GetFlag(FLAGS_azimuth) != 0) {
      // Framed on the first frame as the server frames, then turned.
      *request->mutable_camera() = ProtoCamera(
          image::AutoFrame(animation.frames.Sample(0),
                           static_cast<float>(absl::GetFlag(FLAGS_width)) /
                               absl::GetFlag(FLAGS_height),
                           static_cast<float>(absl::GetFlag(FLAGS_azimuth))));
    }
  }
  return start;
}

// Decodes each row's plain and wrinkled image and writes them side by side
// as out/contact_sheet.png.
absl::Status WriteContactSheet(const std::vector<std::string>& plain_images,
                               const std::vector<std::string>& wrinkled_images,
                               bool png, const std::string& out) {
  const int rows = static_cast<int>(plain_images.size());
  std::vector<image::RgbaImage> decoded;
  decoded.reserve(2 * rows);
  for (int r = 0; r < rows; ++r) {
    for (const std::string* bytes : {&plain_images[r], &wrinkled_images[r]}) {
      CREASE_ASSIGN_OR_RETURN(
          image::RgbaImage d,
          png ? image::DecodePng(*bytes) : image::DecodeJpeg(*bytes));
      decoded.push_back(std::move(d));
    }
  }
  std::vector<std::pair<const image::RgbaImage*, const image::RgbaImage*>>
      pairs;
  for (int r = 0; r < rows; ++r) {
    pairs.push_back({&decoded[2 * r], &decoded[2 * r + 1]});
  }
  CREASE_ASSIGN_OR_RETURN(image::RgbaImage sheet, image::ContactSheet(pairs));
  CREASE_ASSIGN_OR_RETURN(std::string encoded, image::EncodePng(sheet));
  return files::WriteStringToFile(out + "/contact_sheet.png", encoded);
}

absl::Status Run() {
  const std::string obj = absl::GetFlag(FLAGS_obj);
  const std::string pc2 = absl::GetFlag(FLAGS_pc2);
  const std::string out = absl::GetFlag(FLAGS_out);
  const std::string image = absl::GetFlag(FLAGS_image);
  if (obj.empty() || pc2.empty() || out.empty()) {
    return absl::InvalidArgumentError("--obj, --pc2 and --out are required");
  }
  if (image != "none" && image != "jpeg" && image != "png") {
    return absl::InvalidArgumentError("--image must be none, jpeg or png");
  }
  const bool want_images = image != "none";
  const bool want_sheet = want_images && absl::GetFlag(FLAGS_contact_sheet);
  CREASE_ASSIGN_OR_RETURN(io::Animation animation, io::ReadAnimation(obj, pc2));
  int num_frames = animation.num_frames();
  if (absl::GetFlag(FLAGS_frames) > 0) {
    num_frames = std::min(num_frames, absl::GetFlag(FLAGS_frames));
  }
  std::error_code error;
  std::filesystem::create_directories(out, error);
  if (error) {
    return absl::UnavailableError(
        absl::StrFormat("%s: %s", out, error.message()));
  }

  CREASE_ASSIGN_OR_RETURN(std::unique_ptr<CreaseClient> client,
                          ConnectFromFlags());

  const v1::Start start = StartFromFlags(animation, image);
  CREASE_ASSIGN_OR_RETURN(std::unique_ptr<SessionStream> session,
                          client->OpenSession(start));
  std::unique_ptr<SessionStream> plain;
  if (want_sheet) {
    v1::Start plain_start = start;
    plain_start.mutable_outputs()->set_paths(false);
    plain_start.mutable_outputs()->mutable_image()->set_plain(true);
    CREASE_ASSIGN_OR_RETURN(std::unique_ptr<SessionStream> opened,
                            client->OpenSession(plain_start));
    plain = std::move(opened);
  }

  const int rows = std::clamp(absl::GetFlag(FLAGS_sheet_rows), 1, num_frames);
  std::vector<int> sheet_frames;
  for (int r = 0; r < rows; ++r) {
    sheet_frames.push_back(rows == 1 ? 0 : r * (num_frames - 1) / (rows - 1));
  }

  // Sender: paced at --fps, or as fast as the window lets it.
  std::vector<std::atomic<int64_t>> sent_ns(num_frames);
  absl::Status send_status;
  const double fps = absl::GetFlag(FLAGS_fps);
  const absl::Time begin = absl::Now();
  std::thread sender([&] {
    for (int f = 0; f < num_frames && send_status.ok(); ++f) {
      if (fps > 0) absl::SleepFor(begin + absl::Seconds(f / fps) - absl::Now());
      const v1::Frame frame =
          FrameOf(animation.frames.Sample(f), static_cast<uint32_t>(f));
      sent_ns[f].store(absl::GetCurrentTimeNanos());
      send_status = session->Send(frame);
      if (send_status.ok() && plain != nullptr)
        send_status = plain->Send(frame);
    }
    (void)session->WritesDone();
    if (plain != nullptr) (void)plain->WritesDone();
  });
  // The plain session's images for the sheet.
  std::vector<std::string> plain_images(rows);
  absl::Status plain_status;
  std::thread plain_receiver;
  if (plain != nullptr) {
    plain_receiver = std::thread([&] {
      for (int f = 0; f < num_frames; ++f) {
        absl::StatusOr<v1::FrameResult> result = plain->Receive();
        if (!result.ok()) {
          plain_status = result.status();
          return;
        }
        for (int r = 0; r < rows; ++r) {
          if (sheet_frames[r] == f) plain_images[r] = result->image().data();
        }
      }
    });
  }

  StreamSummary summary;
  summary.session_id = session->started().session_id();
  std::vector<std::string> wrinkled_images(rows);
  std::string jsonl;
  const bool progress = !absl::GetFlag(FLAGS_quiet) && isatty(STDERR_FILENO);
  absl::Status receive_status;
  for (int f = 0; f < num_frames; ++f) {
    absl::StatusOr<v1::FrameResult> result = session->Receive();
    if (!result.ok()) {
      receive_status = result.status();
      break;
    }
    if (result->index() >= static_cast<uint32_t>(num_frames)) {
      receive_status = absl::InternalError(absl::StrFormat(
          "the server answered frame %d, never sent", result->index()));
      break;
    }
    const double latency_ms =
        (absl::GetCurrentTimeNanos() - sent_ns[result->index()].load()) * 1e-6;
    summary.Add(*result, latency_ms);
    if (result->has_error()) {
      std::fprintf(stderr, "\nframe %d: %s\n", result->index(),
                   result->error().message().c_str());
      continue;
    }
    if (absl::GetFlag(FLAGS_paths)) AppendWrinklesJsonLine(*result, &jsonl);
    if (result->has_image()) {
      const std::string path = absl::StrFormat(
          "%s/frame_%04d.%s", out, result->index(),
          result->image().format() == v1::IMAGE_FORMAT_PNG ? "png" : "jpg");
      if (absl::Status s =
              files::WriteStringToFile(path, result->image().data());
          !s.ok()) {
        receive_status = s;
        break;
      }
      for (int r = 0; r < rows; ++r) {
        if (sheet_frames[r] == f) wrinkled_images[r] = result->image().data();
      }
    }
    if (progress) PrintProgress(summary, num_frames);
  }
  if (progress) std::fprintf(stderr, "\n");
  if (!receive_status.ok()) session->Cancel();
  if (!receive_status.ok() && plain != nullptr) plain->Cancel();
  sender.join();
  if (plain_receiver.joinable()) plain_receiver.join();
  summary.wall_seconds = absl::ToDoubleSeconds(absl::Now() - begin);
  summary.bytes_sent = session->bytes_sent();
  summary.bytes_received = session->bytes_received();
  const absl::Status finished = session->Finish();
  for (const absl::Status& s :
       {receive_status, send_status, finished, plain_status}) {
    if (!s.ok()) return s;
  }
  if (plain != nullptr) {
    CREASE_RETURN_IF_ERROR(plain->Finish());
  }

  if (absl::GetFlag(FLAGS_paths)) {
    CREASE_RETURN_IF_ERROR(
        files::WriteStringToFile(out + "/wrinkles.jsonl", jsonl));
  }
  if (want_sheet) {
    CREASE_RETURN_IF_ERROR(
        WriteContactSheet(plain_images, wrinkled_images, image == "png", out));
    summary.contact_sheet_frames = sheet_frames;
  }
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

}  // namespace
}  // namespace crease::client

int main(int argc, char** argv) {
  crease::SetFlagsUsage(
      "Streams an OBJ + PC2 animation to a Crease server. Example:\n"
      "  crease-client --server 127.0.0.1:50051 --obj "
      "data/cloth_pants_knee.obj "
      "--pc2 data/cloth_pants_knee.pc2 --out out/ --image jpeg "
      "--contact_sheet",
      "client/cli/");
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
