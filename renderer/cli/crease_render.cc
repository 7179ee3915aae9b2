// crease-render: runs a Session over an OBJ + PC2 animation and renders frames
// with and without wrinkles, headless, to images and one contact sheet (rows of
// frames, plain | wrinkled) that a person can judge at a glance.

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "common/flags_usage.h"
#include "common/status_macros.h"
#include "image/contact_sheet.h"
#include "image/image_encoding.h"
#include "renderer/frame_renderer.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/session.h"

ABSL_FLAG(std::string, obj, "", "Mesh (frame 0 and topology), Wavefront OBJ.");
ABSL_FLAG(std::string, pc2, "",
          "Vertex animation, PC2, same vertex count as --obj.");
ABSL_FLAG(std::string, out, "", "Output directory (created if missing).");
ABSL_FLAG(int, frames, 0, "Process at most this many frames (0: all).");
ABSL_FLAG(int, every, 10,
          "Render every Nth frame (the Session still runs every frame).");
ABSL_FLAG(int, start_frame, 0,
          "Render from this frame on, every --every frames (the first frame "
          "has no wrinkles yet).");
ABSL_FLAG(int, sheet_rows, 6,
          "Frames on the contact sheet, spread over those rendered.");
ABSL_FLAG(int, width, 480, "Image width, 1..4096.");
ABSL_FLAG(int, height, 360, "Image height, 1..4096.");
ABSL_FLAG(std::string, format, "jpeg", "Frame images: jpeg or png.");
ABSL_FLAG(int, quality, 90, "JPEG quality, 1..100.");
ABSL_FLAG(
    double, azimuth, 0.0,
    "Turn the auto-framed camera around the vertical axis by this many degrees "
    "(180: from behind).");
ABSL_FLAG(
    double, min_width, 0.0,
    "L_min in model units (0: 0.5 % of the bounding-box diagonal, at least a "
    "tenth of the median edge).");
ABSL_FLAG(double, tau, 1.3, "Compression threshold for wrinkles.");

namespace crease::renderer {
namespace {

absl::Status Run() {
  const std::string obj = absl::GetFlag(FLAGS_obj),
                    pc2 = absl::GetFlag(FLAGS_pc2);
  const std::string out = absl::GetFlag(FLAGS_out);
  const std::string format = absl::GetFlag(FLAGS_format);
  if (obj.empty() || pc2.empty() || out.empty()) {
    return absl::InvalidArgumentError("--obj, --pc2 and --out are required");
  }
  if (format != "jpeg" && format != "png") {
    return absl::InvalidArgumentError("--format must be jpeg or png");
  }
  const int every = std::max(1, absl::GetFlag(FLAGS_every));
  const int start = std::max(0, absl::GetFlag(FLAGS_start_frame));
  CREASE_ASSIGN_OR_RETURN(io::Animation anim, io::ReadAnimation(obj, pc2));
  SessionParams params;
  params.wrinkles.min_width = absl::GetFlag(FLAGS_min_width);
  params.wrinkles.tracing.tau = absl::GetFlag(FLAGS_tau);
  CREASE_ASSIGN_OR_RETURN(
      std::unique_ptr<Session> session,
      Session::Create(anim.mesh.triangles, anim.mesh.positions, params));
  CREASE_ASSIGN_OR_RETURN(std::unique_ptr<GpuContext> gpu,
                          GpuContext::Create());
  CREASE_ASSIGN_OR_RETURN(std::unique_ptr<FrameRenderer> renderer,
                          FrameRenderer::Create(gpu.get()));
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec)
    return absl::PermissionDeniedError(absl::StrCat(out, ": ", ec.message()));

  RenderOptions options;
  options.width = absl::GetFlag(FLAGS_width);
  options.height = absl::GetFlag(FLAGS_height);
  std::vector<std::pair<image::RgbaImage, image::RgbaImage>>
      rendered;  // (plain, wrinkled)
  std::vector<int> rendered_frames;
  FrameWrinkles wrinkles;  // of the frame rendered, storage reused
  const bool progress = isatty(STDERR_FILENO);
  int frames = anim.num_frames();
  if (absl::GetFlag(FLAGS_frames) > 0)
    frames = std::min(frames, absl::GetFlag(FLAGS_frames));
  for (int frame = 0; frame < frames; ++frame) {
    const absl::Span<const float> positions = anim.frames.Sample(frame);
    CREASE_RETURN_IF_ERROR(session->ProcessFrame(positions));
    if (frame < start || (frame - start) % every != 0) continue;
    const image::Camera camera = image::AutoFrame(
        positions, static_cast<float>(options.width) / options.height,
        static_cast<float>(absl::GetFlag(FLAGS_azimuth)));
    options.camera = camera;
    const RenderMesh mesh = {positions, anim.mesh.triangles,
                             session->topology().weld_map()};
    session->wrinkles().ExportFrame(&wrinkles);
    options.wrinkles = false;
    CREASE_ASSIGN_OR_RETURN(image::RgbaImage plain,
                            renderer->Render(mesh, &wrinkles, options));
    options.wrinkles = true;
    CREASE_ASSIGN_OR_RETURN(image::RgbaImage wrinkled,
                            renderer->Render(mesh, &wrinkles, options));
    CREASE_ASSIGN_OR_RETURN(
        std::string bytes,
        format == "png"
            ? image::EncodePng(wrinkled)
            : image::EncodeJpeg(wrinkled, absl::GetFlag(FLAGS_quality)));
    const std::string path = absl::StrFormat("%s/render_%04d.%s", out, frame,
                                             format == "png" ? "png" : "jpg");
    CREASE_RETURN_IF_ERROR(files::WriteStringToFile(path, bytes));
    rendered.emplace_back(std::move(plain), std::move(wrinkled));
    rendered_frames.push_back(frame);
    if (progress) {
      std::fprintf(stderr, "\rrendered frame %d/%d (%zu wrinkles)   ",
                   frame + 1, frames, session->wrinkles().wrinkles().size());
    }
  }
  if (progress) std::fputc('\n', stderr);
  if (rendered.empty()) return absl::OkStatus();

  // Contact sheet: rows spread evenly over the rendered frames, plain |
  // wrinkled.
  const int rows = std::clamp(absl::GetFlag(FLAGS_sheet_rows), 1,
                              static_cast<int>(rendered.size()));
  std::vector<std::pair<const image::RgbaImage*, const image::RgbaImage*>>
      sheet_rows;
  std::string caption;
  for (int r = 0; r < rows; ++r) {
    const size_t pick = rows == 1 ? 0 : r * (rendered.size() - 1) / (rows - 1);
    sheet_rows.push_back({&rendered[pick].first, &rendered[pick].second});
    absl::StrAppend(&caption, r > 0 ? ", " : "", rendered_frames[pick]);
  }
  CREASE_ASSIGN_OR_RETURN(image::RgbaImage sheet,
                          image::ContactSheet(sheet_rows));
  CREASE_ASSIGN_OR_RETURN(std::string png, image::EncodePng(sheet));
  if (absl::Status s =
          files::WriteStringToFile(out + "/contact_sheet.png", png);
      !s.ok()) {
    return s;
  }
  std::cout << absl::StrFormat(
      "rendered %d frames on %s (%s); contact sheet %s/contact_sheet.png: rows "
      "= frames "
      "%s, left without wrinkles, right with\n",
      rendered.size(), gpu->info().renderer, gpu->info().platform, out,
      caption);
  return absl::OkStatus();
}

}  // namespace
}  // namespace crease::renderer

int main(int argc, char** argv) {
  crease::SetFlagsUsage(
      "Renders an animation with and without wrinkles, headless.\n"
      "  crease-render --obj NAME.obj --pc2 NAME.pc2 --out DIR",
      "renderer/cli/crease_render.cc");
  absl::ParseCommandLine(argc, argv);
  const absl::Status status = crease::renderer::Run();
  if (!status.ok()) {
    std::cerr << "crease-render: " << status.message() << "\n";
    return status.code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
  }
  return 0;
}
