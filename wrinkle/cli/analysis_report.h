#ifndef CREASE_WRINKLE_CLI_ANALYSIS_REPORT_H_
#define CREASE_WRINKLE_CLI_ANALYSIS_REPORT_H_

#include <array>
#include <string>
#include <vector>

#include "wrinkle/sca2015/labeling.h"
#include "wrinkle/sca2015/metrics.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/sca2015/wrinkle_stats.h"

namespace crease::cli {

struct FrameReport {
  int frame = 0;
  std::array<double, kNumLabels> label_shares{};  // by LabelIndex
  double flicker = 0;  // graph-cut labels changed since the previous frame
  double argmin_flicker = 0;  // the same for per-triangle argmin labels
  double max_compression = 1;
  double input_noise = 0;  // Session::input_noise after the frame
  double energy = 0;
  int wrinkles = 0;
  int births = 0;
  int deaths = 0;
  double jitter = 0;  // PathJitter of the persistent wrinkles, model units
  double retrace_jitter =
      -1;  // the same when retracing every frame (-1: not run)
  StageTimings timings;
};

struct AnalysisReport {
  std::string obj_path;  // empty when the input is glTF
  std::string pc2_path;
  std::string gltf_path;       // empty when the input is OBJ + PC2
  std::string gltf_animation;  // empty: the file's first
  int vertices = 0;
  int welded_vertices = 0;
  int triangles = 0;
  int edges = 0;
  int boundary_edges = 0;
  int non_manifold_edges = 0;
  double min_width = 0;  // L_min used
  std::vector<int>
      lifetimes;  // of every wrinkle, in frames (alive at the end too)
  std::vector<FrameReport> frames;
  // How the wrinkles look over the run (WrinkleStatistics).
  WrinkleStatsSummary wrinkle_stats;
  // With --offline: the run's labels found again by one graph cut over space
  // and time (LabelSequenceOffline on the online run's unary costs).
  struct Offline {
    bool run = false;
    double mean_flicker = 0;  // over frames 2.., as ReportSummary's
    double agreement = 0;     // triangle-frames labelled as online
    double energy = 0;        // of the whole sequence's labels
    double seconds = 0;       // the cut's wall time
  } offline;
};

// Compares online and offline labels (frame-major, `num_triangles` a frame):
// the offline labels' mean flicker over frames 2.. and the share of
// triangle-frames both label alike.
void CompareOffline(absl::Span<const Label> online,
                    absl::Span<const Label> offline, int num_triangles,
                    AnalysisReport::Offline* out);

struct ReportSummary {
  double mean_flicker = 0;  // over frames 2.. (frame 1 compares to all-Rest)
  double mean_argmin_flicker = 0;
  double peak_compression = 1;
  double peak_input_noise = 0;
  double median_tensors_ms = 0;
  double median_labeling_ms = 0;
  double median_reference_ms = 0;
  double median_total_ms = 0;     // field stages only
  double median_wrinkle_ms = 0;   // evolve + seed + shape
  double median_pipeline_ms = 0;  // everything
  double mean_wrinkles = 0;
  int births = 0;
  int deaths = 0;
  LifetimeSummary lifetime;
  double mean_jitter = 0;  // over frames 2..
  double mean_retrace_jitter = -1;
};

ReportSummary Summarize(const AnalysisReport& report);
// "A.obj + B.pc2", or "F.glb, animation NAME".
std::string InputDescription(const AnalysisReport& report);
// A table for people: one line per frame and the summary.
std::string FormatReportTable(const AnalysisReport& report);
// The same for machines.
std::string FormatReportJson(const AnalysisReport& report);

}  // namespace crease::cli

#endif  // CREASE_WRINKLE_CLI_ANALYSIS_REPORT_H_
