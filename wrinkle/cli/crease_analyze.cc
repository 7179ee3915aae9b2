// crease-analyze: runs a Crease Session (compression field and wrinkle paths)
// over an OBJ + PC2 animation, or a glTF one, and writes per-frame coloured PLY
// meshes, wrinkle polylines, wrinkles.jsonl and a summary.

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "common/flags_usage.h"
#include "common/status_macros.h"
#include "common/stopwatch.h"
#include "wrinkle/cli/analysis_report.h"
#include "wrinkle/cli/session_flags.h"
#include "wrinkle/cli/wrinkle_output.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/io/animation_input.h"
#include "wrinkle/io/ply.h"
#include "wrinkle/sca2015/labeling.h"
#include "wrinkle/sca2015/metrics.h"
#include "wrinkle/sca2015/session.h"

ABSL_FLAG(
    std::string, out, "",
    "Directory for per-frame PLY meshes (frame_NNNN_labels.ply, "
    "frame_NNNN_compression.ply), wrinkle polylines (frame_NNNN_wrinkles.obj), "
    "wrinkles.jsonl (one line per frame) and summary.txt. Empty: none "
    "written.");
ABSL_FLAG(std::string, json, "",
          "Write the summary as JSON to this path ('-': stdout).");
ABSL_FLAG(int, frames, 0,
          "Process at most this many frames (0: all; with --gltf, the frames "
          "sampled, 0: one clip length).");
ABSL_FLAG(double, fps, 0,
          "The animation's frames a second (0: 30): the session's per-frame "
          "rules act at this rate; with --gltf also the sampling rate.");
ABSL_FLAG(
    double, compression_color_max, 2.0,
    "Compression c mapped to the darkest colour in the compression meshes.");
ABSL_FLAG(bool, quiet, false, "No progress bar and no table on stdout.");
ABSL_FLAG(
    bool, compare_retrace, true,
    "Also run a session that retraces every frame from scratch, and report its "
    "path jitter for comparison.");

ABSL_FLAG(bool, offline, false,
          "Also label the whole sequence with one graph cut over space and "
          "time (on the online run's unary costs) and compare its flicker "
          "with the online labeling's. At most 4,000,000 triangle-frames.");

namespace crease::cli {
namespace {

// The offline graph has two binary nodes a triangle-frame; past this the cut
// would take gigabytes.
constexpr int64_t kMaxOfflineTriangleFrames = 4'000'000;

io::Rgb LabelColor(Label l) {
  switch (l) {
    case Label::kCompress:
      return {40, 90, 220};
    case Label::kStretch:
      return {220, 60, 40};
    case Label::kRest:
      break;
  }
  return {205, 205, 205};
}

// White at c = 1 through yellow and orange to dark red at c >= c_max.
io::Rgb CompressionColor(double c, double c_max) {
  const double t =
      std::clamp((c - 1.0) / std::max(c_max - 1.0, 1e-9), 0.0, 1.0);
  auto lerp = [](double a, double b, double s) {
    return static_cast<uint8_t>(a + (b - a) * s + 0.5);
  };
  if (t < 0.5) {
    const double s = t / 0.5;
    return {255, lerp(255, 170, s), lerp(255, 0, s)};
  }
  const double s = (t - 0.5) / 0.5;
  return {lerp(255, 140, s), lerp(170, 0, s), 0};
}

void DrawProgress(int done, int total) {
  constexpr int kWidth = 40;
  const int filled = total > 0 ? done * kWidth / total : kWidth;
  std::string bar(filled, '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "\r[%s] %d/%d frames", bar.c_str(), done, total);
  if (done == total) std::fputc('\n', stderr);
  std::fflush(stderr);
}

// The flags that say what to read and what to write.
struct Options {
  io::AnimationInput input;
  std::string out_dir;    // empty: no files written
  std::string json_path;  // empty: no JSON; "-": stdout
  bool quiet = false;
  bool progress = false;  // a progress bar on stderr
  double c_max = 0;       // compression of the darkest colour
  bool offline = false;   // --offline
};

// What a per-frame error names: the file the frames come from.
const std::string& InputName(const Options& options) {
  return options.input.gltf.empty() ? options.input.pc2 : options.input.gltf;
}

absl::StatusOr<Options> OptionsFromFlags() {
  Options options;
  if (absl::GetFlag(FLAGS_frames) < 0 || absl::GetFlag(FLAGS_fps) < 0) {
    return absl::InvalidArgumentError("--frames and --fps must be >= 0");
  }
  options.input = io::AnimationInputFromFlags(absl::GetFlag(FLAGS_fps),
                                              absl::GetFlag(FLAGS_frames));
  CREASE_RETURN_IF_ERROR(io::CheckAnimationInput(options.input));
  options.out_dir = absl::GetFlag(FLAGS_out);
  options.json_path = absl::GetFlag(FLAGS_json);
  options.quiet = absl::GetFlag(FLAGS_quiet);
  options.offline = absl::GetFlag(FLAGS_offline);
  options.progress = !options.quiet && isatty(STDERR_FILENO);
  options.c_max = absl::GetFlag(FLAGS_compression_color_max);
  return options;
}

// The session analysed and, with --compare_retrace, one that retraces every
// frame from scratch for comparison.
struct Sessions {
  std::unique_ptr<Session> tracked;
  std::unique_ptr<Session> retrace;  // null without --compare_retrace
};

absl::StatusOr<Sessions> CreateSessions(const io::Animation& animation,
                                        const SessionParams& params) {
  Sessions sessions;
  CREASE_ASSIGN_OR_RETURN(sessions.tracked,
                          Session::Create(animation.mesh.triangles,
                                          animation.mesh.positions, params));
  if (absl::GetFlag(FLAGS_compare_retrace)) {
    SessionParams retrace_params = params;
    retrace_params.retrace_every_frame = true;
    sessions.retrace = *Session::Create(
        animation.mesh.triangles, animation.mesh.positions, retrace_params);
  }
  return sessions;
}

absl::Status CreateOutputDirectory(const std::string& out_dir) {
  if (out_dir.empty()) return absl::OkStatus();
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat(out_dir, ": cannot create directory: ", ec.message()));
  }
  return absl::OkStatus();
}

int FramesToProcess(const io::Animation& animation) {
  int num_frames = animation.num_frames();
  if (absl::GetFlag(FLAGS_frames) > 0) {
    num_frames = std::min(num_frames, absl::GetFlag(FLAGS_frames));
  }
  return num_frames;
}

// The report being built, what the frame loop carries from one frame to the
// next, and the per-triangle buffers it reuses.
struct Analysis {
  Analysis(const Options& options, const MeshTopology& topology)
      : previous_labels(topology.num_triangles(), Label::kRest),
        previous_argmin(topology.num_triangles(), Label::kRest),
        label_colors(topology.num_triangles()),
        compression_colors(topology.num_triangles()),
        compression(topology.num_triangles()),
        wrinkle_dir{std::vector<float>(topology.num_triangles()),
                    std::vector<float>(topology.num_triangles()),
                    std::vector<float>(topology.num_triangles())} {
    report.obj_path = options.input.obj;
    report.pc2_path = options.input.pc2;
    report.gltf_path = options.input.gltf;
    report.gltf_animation = options.input.animation;
    report.vertices = topology.num_vertices();
    report.welded_vertices = topology.num_welded_vertices();
    report.triangles = topology.num_triangles();
    report.edges = topology.num_edges();
    report.boundary_edges = static_cast<int>(topology.boundary_edges().size());
    report.non_manifold_edges =
        static_cast<int>(topology.non_manifold_edges().size());
  }

  AnalysisReport report;
  std::vector<Label> previous_labels, previous_argmin;
  std::vector<io::Rgb> label_colors, compression_colors;
  std::vector<float> compression;
  // The direction a wrinkle runs in each triangle (x, y, z; zero where
  // degenerate), so a viewer can draw the field the tracer follows.
  std::vector<float> wrinkle_dir[3];
  std::vector<WrinklePath> previous_wrinkles, previous_retrace;
  std::map<uint32_t, int> lifetime;  // id -> frames seen
  WrinkleStatistics wrinkle_stats;
  std::string jsonl;  // wrinkles.jsonl, one line per frame
  // With --offline, frame-major over the run: the unary costs and the
  // online labels.
  std::vector<UnaryCost> unaries;
  std::vector<Label> online_labels;
};

absl::Status ProcessFrame(const Options& options, int frame,
                          absl::Span<const float> positions,
                          Sessions& sessions) {
  if (absl::Status s = sessions.tracked->ProcessFrame(positions); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(InputName(options), ": frame ",
                                               frame, ": ", s.message()));
  }
  if (sessions.retrace != nullptr) {
    (void)sessions.retrace->ProcessFrame(positions);
  }
  return absl::OkStatus();
}

// The frame's row of the report. Also carries the frame into the analysis and
// colours its triangles for the frame's files.
FrameReport ReportFrame(int frame, const Sessions& sessions, double c_max,
                        Analysis& analysis) {
  const Session& sess = *sessions.tracked;
  FrameReport f;
  f.frame = frame;
  f.label_shares = LabelShares(sess.labels());
  f.flicker = LabelFlicker(analysis.previous_labels, sess.labels());
  f.argmin_flicker =
      LabelFlicker(analysis.previous_argmin, sess.argmin_labels());
  f.energy = sess.labeling_energy();
  f.timings = sess.timings();
  const WrinkleTracker& tracker = sess.tracker();
  f.wrinkles = static_cast<int>(tracker.wrinkles().size());
  f.births = tracker.births();
  f.deaths = static_cast<int>(tracker.deaths().size());
  const double match_radius = 2 * std::numbers::pi * tracker.min_width();
  f.jitter = PathJitter(sess.surface(), analysis.previous_wrinkles,
                        tracker.wrinkles(), match_radius, nullptr);
  analysis.previous_wrinkles = tracker.wrinkles();
  if (const Session* retrace = sessions.retrace.get(); retrace != nullptr) {
    f.retrace_jitter =
        PathJitter(retrace->surface(), analysis.previous_retrace,
                   retrace->tracker().wrinkles(), match_radius, nullptr);
    analysis.previous_retrace = retrace->tracker().wrinkles();
  }
  for (const WrinklePath& p : tracker.wrinkles()) {
    analysis.lifetime[p.id] = p.age + 1;
  }
  analysis.wrinkle_stats.AddFrame(sess.surface(), tracker);
  analysis.report.min_width = tracker.min_width();
  f.input_noise = sess.input_noise();
  const int n = sess.topology().num_triangles();
  for (int t = 0; t < n; ++t) {
    const double c = sess.compression_field()[t].compression;
    f.max_compression = std::max(f.max_compression, c);
    analysis.compression[t] = static_cast<float>(c);
    for (int k = 0; k < 3; ++k) {
      analysis.wrinkle_dir[k][t] =
          static_cast<float>(sess.compression_field()[t].wrinkle_dir[k]);
    }
    analysis.label_colors[t] = LabelColor(sess.labels()[t]);
    analysis.compression_colors[t] = CompressionColor(c, c_max);
  }
  std::copy(sess.labels().begin(), sess.labels().end(),
            analysis.previous_labels.begin());
  std::copy(sess.argmin_labels().begin(), sess.argmin_labels().end(),
            analysis.previous_argmin.begin());
  return f;
}

// The frame's PLY meshes and wrinkle polylines; its wrinkles.jsonl line.
absl::Status WriteFrameFiles(const std::string& out_dir, int frame,
                             absl::Span<const float> positions,
                             const Session& sess, Analysis& analysis) {
  const MeshTopology& topology = sess.topology();
  const std::string stem = absl::StrFormat("%s/frame_%04d", out_dir, frame);
  const io::FaceScalar scalars[] = {{"compression", analysis.compression},
                                    {"wrinkle_dir_x", analysis.wrinkle_dir[0]},
                                    {"wrinkle_dir_y", analysis.wrinkle_dir[1]},
                                    {"wrinkle_dir_z", analysis.wrinkle_dir[2]}};
  CREASE_RETURN_IF_ERROR(
      io::WritePlyWithFaceColors(stem + "_labels.ply", positions,
                                 topology.triangles(), analysis.label_colors));
  CREASE_RETURN_IF_ERROR(files::WriteStringToFile(stem + "_wrinkles.obj",
                                                  FormatWrinklesObj(sess)));
  absl::StrAppend(&analysis.jsonl, FormatWrinklesJsonLine(frame, sess));
  return io::WritePlyWithFaceColors(stem + "_compression.ply", positions,
                                    topology.triangles(),
                                    analysis.compression_colors, scalars);
}

absl::Status AnalyzeFrames(const Options& options,
                           const io::Animation& animation, int num_frames,
                           Sessions& sessions, Analysis& analysis) {
  for (int frame = 0; frame < num_frames; ++frame) {
    const absl::Span<const float> positions = animation.frames.Sample(frame);
    CREASE_RETURN_IF_ERROR(ProcessFrame(options, frame, positions, sessions));
    analysis.report.frames.push_back(
        ReportFrame(frame, sessions, options.c_max, analysis));
    if (options.offline) {
      const Session& sess = *sessions.tracked;
      analysis.unaries.insert(analysis.unaries.end(),
                              sess.unary_costs().begin(),
                              sess.unary_costs().end());
      analysis.online_labels.insert(analysis.online_labels.end(),
                                    sess.labels().begin(), sess.labels().end());
    }
    if (!options.out_dir.empty()) {
      CREASE_RETURN_IF_ERROR(WriteFrameFiles(options.out_dir, frame, positions,
                                             *sessions.tracked, analysis));
    }
    if (options.progress) DrawProgress(frame + 1, num_frames);
  }
  for (const auto& [id, frames] : analysis.lifetime) {
    analysis.report.lifetimes.push_back(frames);
  }
  analysis.report.wrinkle_stats = analysis.wrinkle_stats.Summary();
  return absl::OkStatus();
}

// wrinkles.jsonl, summary.txt and the JSON summary; the table on stdout.
absl::Status WriteReport(const Options& options, int num_frames,
                         const Analysis& analysis) {
  const std::string& out_dir = options.out_dir;
  if (!out_dir.empty()) {
    CREASE_RETURN_IF_ERROR(
        files::WriteStringToFile(out_dir + "/wrinkles.jsonl", analysis.jsonl));
  }
  const std::string table = FormatReportTable(analysis.report);
  if (!options.quiet) std::cout << table;
  if (!out_dir.empty()) {
    CREASE_RETURN_IF_ERROR(
        files::WriteStringToFile(out_dir + "/summary.txt", table));
  }
  if (options.json_path == "-") {
    std::cout << FormatReportJson(analysis.report);
  } else if (!options.json_path.empty()) {
    CREASE_RETURN_IF_ERROR(files::WriteStringToFile(
        options.json_path, FormatReportJson(analysis.report)));
  }
  if (!options.quiet && !out_dir.empty()) {
    std::cout << absl::StrFormat(
        "\nwrote %d frames of PLY meshes (labels: blue compress, red stretch, "
        "grey rest; compression: white c=1 to dark red c>=%.2f), wrinkle "
        "polylines "
        "(frame_NNNN_wrinkles.obj) and wrinkles.jsonl to %s\n",
        num_frames, options.c_max, out_dir);
  }
  return absl::OkStatus();
}

// --offline: the run's unary costs labelled by one space-time cut
// (LabelSequenceOffline), compared with the online labels.
absl::Status LabelOffline(const Session& session, Analysis& analysis) {
  const int n = session.num_triangles();
  const Stopwatch watch;
  CREASE_ASSIGN_OR_RETURN(
      const LabelingResult offline,
      LabelSequenceOffline(analysis.unaries, n,
                           session.topology().adjacent_face_pairs(),
                           session.params().labeling));
  AnalysisReport::Offline& out = analysis.report.offline;
  CompareOffline(analysis.online_labels, offline.labels, n, &out);
  out.energy = offline.energy;
  out.seconds = watch.Elapsed() / 1000.0;
  return absl::OkStatus();
}

absl::Status Run() {
  CREASE_ASSIGN_OR_RETURN(const Options options, OptionsFromFlags());
  CREASE_ASSIGN_OR_RETURN(io::Animation animation,
                          io::LoadAnimation(options.input));
  CREASE_ASSIGN_OR_RETURN(const SessionParams params,
                          SessionParamsFromFlags(absl::GetFlag(FLAGS_fps)));
  CREASE_ASSIGN_OR_RETURN(Sessions sessions, CreateSessions(animation, params));
  CREASE_RETURN_IF_ERROR(CreateOutputDirectory(options.out_dir));
  Analysis analysis(options, sessions.tracked->topology());
  analysis.wrinkle_stats = WrinkleStatistics(params.frame_rate);
  const int num_frames = FramesToProcess(animation);
  const int64_t triangle_frames =
      int64_t{num_frames} * sessions.tracked->num_triangles();
  if (options.offline && triangle_frames > kMaxOfflineTriangleFrames) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--offline: %d frames of %d triangles are %d triangle-frames, over "
        "%d (use --frames)",
        num_frames, sessions.tracked->num_triangles(), triangle_frames,
        kMaxOfflineTriangleFrames));
  }
  CREASE_RETURN_IF_ERROR(
      AnalyzeFrames(options, animation, num_frames, sessions, analysis));
  if (options.offline) {
    CREASE_RETURN_IF_ERROR(LabelOffline(*sessions.tracked, analysis));
  }
  return WriteReport(options, num_frames, analysis);
}

}  // namespace
}  // namespace crease::cli

int main(int argc, char** argv) {
  crease::SetFlagsUsage(
      "Labels every triangle of an animated mesh compress / stretch / rest and "
      "tracks "
      "its compression, frame by frame.\n"
      "  crease-analyze --obj NAME.obj --pc2 NAME.pc2 [--out DIR] [--json "
      "PATH]\n"
      "  crease-analyze --gltf NAME.glb [--animation NAME] [--loop --frames N] "
      "[--out DIR] [--json PATH]",
      {"wrinkle/cli/", "wrinkle/io/animation_input"});
  absl::ParseCommandLine(argc, argv);
  const absl::Status status = crease::cli::Run();
  if (!status.ok()) {
    std::cerr << "crease-analyze: " << status.message() << "\n";
    return status.code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
  }
  return 0;
}
