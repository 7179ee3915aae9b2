// crease-aliasing: how far frames at W x H are from the same frames rendered
// at 4W x 4H and box-downsampled, over the subject's interior (silhouettes
// excluded), plain and wrinkled. Wrinkle shading that aliases shows as a
// larger difference in the wrinkled frames than in the plain ones.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "common/file_util.h"
#include "common/flags_usage.h"
#include "common/status_macros.h"
#include "image/image_compare.h"
#include "image/image_encoding.h"
#include "renderer/frame_renderer.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/sca2015/session.h"

ABSL_FLAG(std::string, data, "data", "Directory of the bundled animations.");
ABSL_FLAG(std::string, sets, "fox_walk,cloth_pants_knee,cesiumman_walk",
          "Animations (NAME.obj + NAME.pc2), comma separated.");
ABSL_FLAG(std::string, sizes, "480x360,960x720",
          "Image sizes, WxH, comma "
          "separated.");
ABSL_FLAG(int, window, 60,
          "Render the frame with the most wrinkles among the first N.");
ABSL_FLAG(double, azimuth, 0.0,
          "image::Camera azimuth in degrees (180: behind).");
ABSL_FLAG(bool, displace, true,
          "Let wide wrinkles displace the surface (false: normals only, to "
          "measure the shading alone).");
ABSL_FLAG(std::string, out, "",
          "If set, writes the images here (made if missing) as PNG: the "
          "frame, its reference box-downsampled (_ref) and their amplified "
          "difference (_diff).");
ABSL_FLAG(bool, full_reference, false,
          "With --out: also the reference at 4W x 4H (_ref4), to see what a "
          "differing pixel's 4 x 4 block holds.");

namespace crease::renderer {
namespace {

constexpr int kFactor = 4;
constexpr std::array<uint8_t, 4> kBackground = {255, 0, 255, 255};

// Runs a default Session to the frame with the most wrinkles in the window.
absl::StatusOr<std::unique_ptr<Session>> SessionAtBusiestFrame(
    const io::Animation& anim, int* frame) {
  const int frames = std::min(absl::GetFlag(FLAGS_window), anim.num_frames());
  size_t most = 0;
  *frame = 0;
  for (int pass = 0; pass < 2; ++pass) {
    CREASE_ASSIGN_OR_RETURN(
        auto session, Session::Create(anim.mesh.triangles, anim.mesh.positions,
                                      SessionParams{}));
    for (int f = 0; f < frames; ++f) {
      if (auto s = session->ProcessFrame(anim.frames.Sample(f)); !s.ok())
        return s;
      const size_t count = session->tracker().wrinkles().size();
      if (pass == 0 && count > most) {
        most = count;
        *frame = f;
      }
      if (pass == 1 && f == *frame) return session;
    }
  }
  return absl::InternalError("no frame");
}

// |a - b| per channel, times 8, on black: where the two differ.
image::RgbaImage AmplifiedDifference(const image::RgbaImage& a,
                                     const image::RgbaImage& b) {
  image::RgbaImage out = a;
  for (size_t i = 0; i < out.pixels.size(); ++i) {
    out.pixels[i] = i % 4 == 3
                        ? 255
                        : static_cast<uint8_t>(std::min(
                              255, 8 * std::abs(a.pixels[i] - b.pixels[i])));
  }
  return out;
}

absl::Status WritePng(const image::RgbaImage& image, const std::string& name) {
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty()) return absl::OkStatus();
  CREASE_ASSIGN_OR_RETURN(std::string png, image::EncodePng(image));
  return files::WriteStringToFile(out + "/" + name + ".png", png);
}

// With --out: the frame, its reference box-downsampled, their amplified
// difference and, with --full_reference, the reference itself.
absl::Status WriteImages(const std::string& tag, const image::RgbaImage& frame,
                         const image::RgbaImage& full_reference) {
  CREASE_RETURN_IF_ERROR(WritePng(frame, tag));
  const image::RgbaImage reference =
      image::BoxDownsample(full_reference, kFactor);
  CREASE_RETURN_IF_ERROR(WritePng(reference, tag + "_ref"));
  if (absl::GetFlag(FLAGS_full_reference)) {
    CREASE_RETURN_IF_ERROR(WritePng(full_reference, tag + "_ref4"));
  }
  return WritePng(AmplifiedDifference(frame, reference), tag + "_diff");
}

absl::Status MeasureSet(FrameRenderer& renderer, const std::string& name) {
  const std::string stem = absl::GetFlag(FLAGS_data) + "/" + name;
  CREASE_ASSIGN_OR_RETURN(io::Animation anim,
                          io::ReadAnimation(stem + ".obj", stem + ".pc2"));
  int frame = 0;
  CREASE_ASSIGN_OR_RETURN(auto session, SessionAtBusiestFrame(anim, &frame));
  const absl::Span<const float> positions = anim.frames.Sample(frame);
  for (absl::string_view size :
       absl::StrSplit(absl::GetFlag(FLAGS_sizes), ',')) {
    int w = 0, h = 0;
    if (std::sscanf(std::string(size).c_str(), "%dx%d", &w, &h) != 2)
      return absl::InvalidArgumentError(absl::StrCat("size ", size));
    RenderOptions options;
    options.background = {1, 0, 1, 1};
    options.camera =
        image::AutoFrame(positions, static_cast<float>(w) / h,
                         static_cast<float>(absl::GetFlag(FLAGS_azimuth)));
    const RenderMesh mesh = {positions, anim.mesh.triangles,
                             session->topology().weld_map()};
    FrameWrinkles wrinkles;
    session->tracker().ExportFrame(&wrinkles);
    double means[2];
    int pixels = 0;
    RenderStats stats;
    for (bool wrinkled : {false, true}) {
      options.wrinkles = wrinkled;
      std::vector<image::RgbaImage> images;
      for (int factor : {1, kFactor}) {
        options.width = w * factor;
        options.height = h * factor;
        // The same frame, sampled finer: the level of detail (which wrinkles
        // displace, fade) is decided in W x H pixels for both.
        options.min_edge_pixels = absl::GetFlag(FLAGS_displace)
                                      ? RenderOptions{}.min_edge_pixels * factor
                                      : 1e9f;
        options.min_wrinkle_pixels =
            RenderOptions{}.min_wrinkle_pixels * factor;
        // Stats of the W x H frame (the reference draws more wrinkles).
        CREASE_ASSIGN_OR_RETURN(
            auto image, renderer.Render(mesh, &wrinkles, options,
                                        factor == 1 ? &stats : nullptr));
        images.push_back(std::move(image));
      }
      const image::InteriorDifference d =
          image::CompareInterior(images[0], images[1], kFactor, kBackground);
      means[wrinkled] = d.mean;
      pixels = d.pixels;
      CREASE_RETURN_IF_ERROR(
          WriteImages(absl::StrFormat("%s_%dx%d_%s", name, w, h,
                                      wrinkled ? "wrinkled" : "plain"),
                      images[0], images[1]));
    }
    std::cout << absl::StrFormat(
        "%-16s frame %3d %4dx%-4d plain %6.3f wrinkled %6.3f  (%d interior "
        "pixels, %d wrinkles drawn)\n",
        name, frame, w, h, means[0], means[1], pixels, stats.drawn_wrinkles);
  }
  return absl::OkStatus();
}

absl::Status Run() {
  if (const std::string out = absl::GetFlag(FLAGS_out); !out.empty()) {
    std::error_code error;
    std::filesystem::create_directories(out, error);
    if (error) {
      return absl::PermissionDeniedError(
          absl::StrCat("--out ", out, ": ", error.message()));
    }
  }
  CREASE_ASSIGN_OR_RETURN(std::unique_ptr<GpuContext> gpu,
                          GpuContext::Create());
  CREASE_ASSIGN_OR_RETURN(auto renderer, FrameRenderer::Create(gpu.get()));
  for (absl::string_view name :
       absl::StrSplit(absl::GetFlag(FLAGS_sets), ',')) {
    CREASE_RETURN_IF_ERROR(MeasureSet(*renderer, std::string(name)));
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace crease::renderer

int main(int argc, char** argv) {
  crease::SetFlagsUsage(
      "Mean |difference| (0-255 per channel) between frames and their 4x "
      "supersampled references, over the subject's interior.\n"
      "  crease-aliasing --data data --sets fox_walk --sizes 480x360",
      {"renderer/cli/crease_aliasing.cc"});
  absl::ParseCommandLine(argc, argv);
  const absl::Status status = crease::renderer::Run();
  if (!status.ok()) {
    std::cerr << "crease-aliasing: " << status.message() << "\n";
    return 1;
  }
  return 0;
}
