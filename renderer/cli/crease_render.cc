// crease-render: runs a Session over an OBJ + PC2 (or glTF) animation and
// renders frames with and without wrinkles (SCA 2015's, or with --model
// buckling the buckling model's folds of the tubes), headless, to images and
// one contact sheet (rows of frames, plain | wrinkled) that a person can
// judge at a glance.

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>
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
#include "image/close_up.h"
#include "image/contact_sheet.h"
#include "image/image_compare.h"
#include "image/image_encoding.h"
#include "renderer/frame_renderer.h"
#include "wrinkle/buckling/buckling_mesh.h"
#include "wrinkle/cli/session_flags.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/io/animation_input.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/wrinkle_maps/amplitude_model.h"
#include "wrinkle/wrinkle_maps/default_pattern.h"
#include "wrinkle/wrinkle_maps/wrinkle_pattern.h"

// --obj, --pc2, --gltf, --mesh, --animation and --loop:
// wrinkle/io/animation_input.h.
ABSL_FLAG(double, fps, 0,
          "The animation's frames a second (0: 30): the session's per-frame "
          "rules act at this rate; with --gltf also the sampling rate.");
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
ABSL_FLAG(int, wrinkle_subpixels, 1,
          "4: shade the pixels wrinkles reach on 2x2 sub-pixels (finer, about "
          "a third slower on a GPU); 1: one lookup per pixel, as the server.");
ABSL_FLAG(std::string, format, "jpeg", "Frame images: jpeg or png.");
ABSL_FLAG(int, quality, 90, "JPEG quality, 1..100.");
ABSL_FLAG(
    double, azimuth, 0.0,
    "Turn the auto-framed camera around the vertical axis by this many degrees "
    "(180: from behind).");
ABSL_FLAG(bool, close_up, false,
          "Frame the camera on where the animation compresses most (the "
          "vertices of its most shortened tenth of edges over the frames "
          "processed), turned by --azimuth, instead of the whole mesh; the "
          "camera follows that region frame by frame at one zoom (as "
          "crease-client --close_up).");
ABSL_FLAG(std::string, model, "sca2015",
          "The right column: sca2015 (traced wrinkles), amplitude_maps "
          "(Volino 1999's wrinkle maps with the server's default pattern, "
          "bump-mapped; needs UVs) or buckling (Decaudin 2005's diamond and "
          "twist folds of the open tubes, on their fine mesh, laid out on the "
          "first frame).");
// The Session's flags (--tau, --min_width, ...): wrinkle/cli/session_flags.h.

namespace crease::renderer {
namespace {

// What the flags ask this run for, checked.
struct RenderRequest {
  io::AnimationInput input;
  std::string out;
  std::string format;  // jpeg or png
  int every = 1;       // render every Nth frame
  int start = 0;       // from this frame on
};

absl::StatusOr<RenderRequest> RequestFromFlags() {
  RenderRequest request;
  request.input = io::AnimationInputFromFlags(
      absl::GetFlag(FLAGS_fps), std::max(0, absl::GetFlag(FLAGS_frames)));
  CREASE_RETURN_IF_ERROR(io::CheckAnimationInput(request.input));
  request.out = absl::GetFlag(FLAGS_out);
  if (request.out.empty()) {
    return absl::InvalidArgumentError("--out is required");
  }
  request.format = absl::GetFlag(FLAGS_format);
  if (request.format != "jpeg" && request.format != "png") {
    return absl::InvalidArgumentError("--format must be jpeg or png");
  }
  if (const int n = absl::GetFlag(FLAGS_wrinkle_subpixels); n != 1 && n != 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("--wrinkle_subpixels must be 1 or 4, not ", n));
  }
  request.every = std::max(1, absl::GetFlag(FLAGS_every));
  request.start = std::max(0, absl::GetFlag(FLAGS_start_frame));
  return request;
}

// The Session that finds the wrinkles (or the buckling model's mesh) and the
// GPU renderer that draws them.
struct Pipeline {
  std::unique_ptr<Session> session;
  std::unique_ptr<GpuContext> gpu;
  std::unique_ptr<FrameRenderer> renderer;
  std::optional<BucklingMesh> buckling;        // --model buckling
  CombinedMesh buckled;                        // what it draws
  std::optional<WrinklePattern> pattern;       // --model amplitude_maps
  uint64_t pattern_id = 0;                     // names it to the renderer
  std::optional<AmplitudeModel> wrinkle_maps;  // on the Session's welding
};

// --model amplitude_maps: the server's default, the sinusoids at the
// mesh's scale-aware wavelength; rest lengths from the mesh's rest shape (the
// OBJ's, or the glTF's bind pose).
absl::Status AddWrinkleMaps(const io::Animation& anim, Pipeline* pipeline) {
  if (!anim.mesh.has_uvs()) {
    return absl::InvalidArgumentError(
        "--model amplitude_maps needs UVs (e.g. --gltf data/Fox.glb)");
  }
  CREASE_ASSIGN_OR_RETURN(
      const double wavelength,
      DefaultPatternWavelength(anim.mesh.triangles, anim.mesh.positions,
                               anim.mesh.corner_uvs));
  std::cout << absl::StrFormat(
      "amplitude_maps: the default pattern at wavelength 1/%.1f UV\n",
      1.0 / wavelength);
  CREASE_ASSIGN_OR_RETURN(pipeline->pattern, MakeDefaultPattern(wavelength));
  pipeline->pattern_id = NewPatternId();
  CREASE_ASSIGN_OR_RETURN(
      pipeline->wrinkle_maps,
      AmplitudeModel::Create(pipeline->session->topology(),
                             anim.mesh.corner_uvs, *pipeline->pattern,
                             anim.mesh.positions));
  return absl::OkStatus();
}

// --model buckling: the tubes of the first frame, laid out and combined
// with the coarse mesh.
absl::Status AddBuckling(const io::Animation& anim, Pipeline* pipeline) {
  const absl::Span<const float> rest = anim.frames.Sample(0);
  CREASE_ASSIGN_OR_RETURN(const MeshTopology topology,
                          MeshTopology::Build(anim.mesh.triangles, rest));
  CREASE_ASSIGN_OR_RETURN(std::vector<Tube> tubes,
                          FindTubes(topology, rest, {}));
  CREASE_ASSIGN_OR_RETURN(
      pipeline->buckling,
      BucklingMesh::Create(topology, rest, std::move(tubes), {}));
  pipeline->buckled = CombinedMesh::Of(*pipeline->buckling, anim.mesh.triangles,
                                       topology.weld_map(), {});
  return absl::OkStatus();
}

absl::StatusOr<Pipeline> CreatePipeline(const io::Animation& anim) {
  CREASE_ASSIGN_OR_RETURN(
      const SessionParams params,
      cli::SessionParamsFromFlags(absl::GetFlag(FLAGS_fps)));
  Pipeline pipeline;
  CREASE_ASSIGN_OR_RETURN(
      pipeline.session,
      Session::Create(anim.mesh.triangles, anim.mesh.positions, params));
  CREASE_ASSIGN_OR_RETURN(pipeline.gpu, GpuContext::Create());
  CREASE_ASSIGN_OR_RETURN(pipeline.renderer,
                          FrameRenderer::Create(pipeline.gpu.get()));
  const std::string model = absl::GetFlag(FLAGS_model);
  if (model == "buckling") {
    CREASE_RETURN_IF_ERROR(AddBuckling(anim, &pipeline));
  } else if (model == "amplitude_maps") {
    CREASE_RETURN_IF_ERROR(AddWrinkleMaps(anim, &pipeline));
  } else if (model != "sca2015") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--model: ", model, ", need sca2015, amplitude_maps or buckling"));
  }
  return pipeline;
}

absl::Status CreateOutputDirectory(const std::string& out) {
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec)
    return absl::PermissionDeniedError(absl::StrCat(out, ": ", ec.message()));
  return absl::OkStatus();
}

// The frames rendered, each plain and wrinkled.
struct Rendered {
  std::vector<std::pair<image::RgbaImage, image::RgbaImage>>
      images;  // (plain, wrinkled)
  std::vector<int> frames;
};

// What rendering a frame needs; `options` and `wrinkles` are reused from
// frame to frame.
struct FrameRendering {
  const io::Animation& anim;
  Pipeline& pipeline;
  RenderOptions options;
  FrameWrinkles wrinkles;  // of the frame rendered, storage reused
  // --close_up: a camera per frame; empty: each frame auto-framed.
  std::vector<image::Camera> close_up;
};

// Renders the Session's current frame, at `positions`, without and with its
// wrinkles, from the camera auto-framed on it and turned by --azimuth (or
// frame `frame`'s close-up camera).
absl::StatusOr<std::pair<image::RgbaImage, image::RgbaImage>>
RenderPlainAndWrinkled(absl::Span<const float> positions, int frame,
                       FrameRendering& rendering) {
  RenderOptions& options = rendering.options;
  const Session& session = *rendering.pipeline.session;
  FrameRenderer& renderer = *rendering.pipeline.renderer;
  options.camera =
      static_cast<size_t>(frame) < rendering.close_up.size()
          ? rendering.close_up[frame]
          : image::AutoFrame(positions,
                             static_cast<float>(options.width) / options.height,
                             static_cast<float>(absl::GetFlag(FLAGS_azimuth)));
  const RenderMesh mesh = {positions, rendering.anim.mesh.triangles,
                           session.topology().weld_map()};
  session.tracker().ExportFrame(&rendering.wrinkles);
  options.wrinkles = false;
  CREASE_ASSIGN_OR_RETURN(image::RgbaImage plain,
                          renderer.Render(mesh, &rendering.wrinkles, options));
  options.wrinkles = true;
  if (Pipeline& p = rendering.pipeline; p.wrinkle_maps) {
    CREASE_RETURN_IF_ERROR(
        p.wrinkle_maps->Update(positions, p.session->references()));
    PatternWrinkles maps;
    maps.pattern = {p.pattern->width,
                    p.pattern->height,
                    p.pattern->channels,
                    p.pattern->samples,
                    p.pattern->wrap == PatternWrap::kRepeat,
                    p.pattern_id};
    maps.amplitudes = p.wrinkle_maps->vertex_amplitudes();
    const RenderMesh uv_mesh = {positions, rendering.anim.mesh.triangles,
                                session.topology().weld_map(),
                                rendering.anim.mesh.corner_uvs};
    CREASE_ASSIGN_OR_RETURN(image::RgbaImage mapped,
                            renderer.RenderPattern(uv_mesh, maps, options));
    return std::make_pair(std::move(plain), std::move(mapped));
  }
  if (Pipeline& p = rendering.pipeline; p.buckling) {
    CREASE_RETURN_IF_ERROR(p.buckling->Update(positions));
    p.buckled.Fill(*p.buckling, positions);
    CREASE_ASSIGN_OR_RETURN(
        image::RgbaImage buckled,
        renderer.Render(
            {p.buckled.positions, p.buckled.triangles, p.buckled.welded},
            nullptr, options));
    return std::make_pair(std::move(plain), std::move(buckled));
  }
  CREASE_ASSIGN_OR_RETURN(image::RgbaImage wrinkled,
                          renderer.Render(mesh, &rendering.wrinkles, options));
  return std::make_pair(std::move(plain), std::move(wrinkled));
}

// Writes a frame's wrinkled image as out/render_NNNN.jpg or .png.
absl::Status WriteFrameImage(const image::RgbaImage& wrinkled, int frame,
                             const RenderRequest& request) {
  CREASE_ASSIGN_OR_RETURN(
      std::string bytes,
      request.format == "png"
          ? image::EncodePng(wrinkled)
          : image::EncodeJpeg(wrinkled, absl::GetFlag(FLAGS_quality)));
  const std::string path =
      absl::StrFormat("%s/render_%04d.%s", request.out, frame,
                      request.format == "png" ? "png" : "jpg");
  return files::WriteStringToFile(path, bytes);
}

// Runs the Session over every frame (at most --frames) and renders and
// writes those from --start_frame on, every --every frames.
absl::StatusOr<Rendered> RenderFrames(const RenderRequest& request,
                                      const io::Animation& anim,
                                      Pipeline& pipeline) {
  FrameRendering rendering{.anim = anim,
                           .pipeline = pipeline,
                           .options = {},
                           .wrinkles = {},
                           .close_up = {}};
  rendering.options.width = absl::GetFlag(FLAGS_width);
  rendering.options.height = absl::GetFlag(FLAGS_height);
  rendering.options.wrinkle_subpixels = absl::GetFlag(FLAGS_wrinkle_subpixels);
  Rendered rendered;
  const bool progress = isatty(STDERR_FILENO);
  int frames = anim.num_frames();
  if (absl::GetFlag(FLAGS_frames) > 0)
    frames = std::min(frames, absl::GetFlag(FLAGS_frames));
  if (absl::GetFlag(FLAGS_close_up)) {
    // The client's close-up (margin 1.3): the same pictures either way.
    rendering.close_up = image::FollowingCloseUp(
        anim, frames,
        static_cast<float>(rendering.options.width) / rendering.options.height,
        static_cast<float>(absl::GetFlag(FLAGS_azimuth)), 1.3f);
  }
  for (int frame = 0; frame < frames; ++frame) {
    const absl::Span<const float> positions = anim.frames.Sample(frame);
    CREASE_RETURN_IF_ERROR(pipeline.session->ProcessFrame(positions));
    if (frame < request.start || (frame - request.start) % request.every != 0)
      continue;
    CREASE_ASSIGN_OR_RETURN(
        auto images, RenderPlainAndWrinkled(positions, frame, rendering));
    CREASE_RETURN_IF_ERROR(WriteFrameImage(images.second, frame, request));
    rendered.images.push_back(std::move(images));
    rendered.frames.push_back(frame);
    if (progress) {
      std::fprintf(stderr, "\rrendered frame %d/%d (%zu wrinkles)   ",
                   frame + 1, frames,
                   pipeline.session->tracker().wrinkles().size());
    }
  }
  if (progress) std::fputc('\n', stderr);
  return rendered;
}

// Writes out/contact_sheet.png: rows spread evenly over the rendered frames,
// plain | wrinkled. Returns the frames on its rows and, per row, the share of
// the subject's pixels the wrinkles change by more than 12 levels
// (image::VisibleChange, as crease-client's contact_sheet_visible_change), as
// a caption.
absl::StatusOr<std::string> WriteContactSheet(const Rendered& rendered,
                                              const std::string& out) {
  const int rows = std::clamp(absl::GetFlag(FLAGS_sheet_rows), 1,
                              static_cast<int>(rendered.images.size()));
  std::vector<std::pair<const image::RgbaImage*, const image::RgbaImage*>>
      sheet_rows;
  std::string caption, changed;
  for (int r = 0; r < rows; ++r) {
    const size_t pick =
        rows == 1 ? 0 : r * (rendered.images.size() - 1) / (rows - 1);
    const auto& [plain, wrinkled] = rendered.images[pick];
    sheet_rows.push_back({&plain, &wrinkled});
    absl::StrAppend(&caption, r > 0 ? ", " : "", rendered.frames[pick]);
    absl::StrAppendFormat(
        &changed, "%s%.1f", r > 0 ? ", " : "",
        100 * image::VisibleChange(plain, wrinkled, {255, 255, 255, 255},
                                   image::kVisibleLevels));
  }
  absl::StrAppend(&caption,
                  "; subject pixels changed by more than 12 levels, by row: ",
                  changed, " %");
  CREASE_ASSIGN_OR_RETURN(image::RgbaImage sheet,
                          image::ContactSheet(sheet_rows));
  CREASE_ASSIGN_OR_RETURN(std::string png, image::EncodePng(sheet));
  CREASE_RETURN_IF_ERROR(
      files::WriteStringToFile(out + "/contact_sheet.png", png));
  return caption;
}

absl::Status Run() {
  CREASE_ASSIGN_OR_RETURN(const RenderRequest request, RequestFromFlags());
  CREASE_ASSIGN_OR_RETURN(io::Animation anim, io::LoadAnimation(request.input));
  CREASE_ASSIGN_OR_RETURN(Pipeline pipeline, CreatePipeline(anim));
  CREASE_RETURN_IF_ERROR(CreateOutputDirectory(request.out));
  CREASE_ASSIGN_OR_RETURN(const Rendered rendered,
                          RenderFrames(request, anim, pipeline));
  if (rendered.images.empty()) return absl::OkStatus();
  CREASE_ASSIGN_OR_RETURN(const std::string caption,
                          WriteContactSheet(rendered, request.out));
  std::cout << absl::StrFormat(
      "rendered %d frames on %s (%s); contact sheet %s/contact_sheet.png: rows "
      "= frames "
      "%s; left without wrinkles, right with\n",
      rendered.images.size(), pipeline.gpu->info().renderer,
      pipeline.gpu->info().platform, request.out, caption);
  return absl::OkStatus();
}

}  // namespace
}  // namespace crease::renderer

int main(int argc, char** argv) {
  crease::SetFlagsUsage(
      "Renders an animation with and without wrinkles, headless.\n"
      "  crease-render --obj NAME.obj --pc2 NAME.pc2 --out DIR\n"
      "  crease-render --gltf data/Fox.glb --animation Walk --out DIR",
      {"renderer/cli/crease_render.cc", "wrinkle/io/animation_input.cc",
       "wrinkle/cli/session_flags.cc"});
  absl::ParseCommandLine(argc, argv);
  const absl::Status status = crease::renderer::Run();
  if (!status.ok()) {
    std::cerr << "crease-render: " << status.message() << "\n";
    return status.code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
  }
  return 0;
}
