#include "wrinkle/cli/analysis_report.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/median.h"

namespace crease::cli {

ReportSummary Summarize(const AnalysisReport& report) {
  ReportSummary s;
  std::vector<double> tensors, labeling, reference, total, wrinkle, pipeline;
  double retrace = 0;
  bool has_retrace = false;
  int flicker_frames = 0;
  for (const FrameReport& f : report.frames) {
    s.peak_compression = std::max(s.peak_compression, f.max_compression);
    s.peak_input_noise = std::max(s.peak_input_noise, f.input_noise);
    if (f.frame >= 2) {
      s.mean_flicker += f.flicker;
      s.mean_argmin_flicker += f.argmin_flicker;
      s.mean_jitter += f.jitter;
      if (f.retrace_jitter >= 0) {
        retrace += f.retrace_jitter;
        has_retrace = true;
      }
      ++flicker_frames;
    }
    s.mean_wrinkles += f.wrinkles;
    s.births += f.births;
    s.deaths += f.deaths;
    if (f.frame >= 1) {  // frame 0 only initialises
      tensors.push_back(f.timings.tensors_ms);
      labeling.push_back(f.timings.labeling_ms);
      reference.push_back(f.timings.reference_ms);
      total.push_back(f.timings.field_ms());
      wrinkle.push_back(f.timings.evolve_ms + f.timings.seed_ms +
                        f.timings.shape_ms);
      pipeline.push_back(f.timings.total_ms());
    }
  }
  if (flicker_frames > 0) {
    s.mean_flicker /= flicker_frames;
    s.mean_argmin_flicker /= flicker_frames;
    s.mean_jitter /= flicker_frames;
    if (has_retrace) s.mean_retrace_jitter = retrace / flicker_frames;
  }
  if (!report.frames.empty()) s.mean_wrinkles /= report.frames.size();
  s.lifetime = SummarizeLifetimes(report.lifetimes);
  s.median_wrinkle_ms = Median(wrinkle);
  s.median_pipeline_ms = Median(pipeline);
  s.median_tensors_ms = Median(tensors);
  s.median_labeling_ms = Median(labeling);
  s.median_reference_ms = Median(reference);
  s.median_total_ms = Median(total);
  return s;
}

void CompareOffline(absl::Span<const Label> online,
                    absl::Span<const Label> offline, int num_triangles,
                    AnalysisReport::Offline* out) {
  out->run = true;
  out->mean_flicker = 0;
  out->agreement = 0;
  if (num_triangles <= 0 || online.size() != offline.size() ||
      offline.size() % num_triangles != 0 || offline.empty()) {
    return;
  }
  const size_t n = static_cast<size_t>(num_triangles);
  const size_t frames = offline.size() / n;
  int flicker_frames = 0;
  for (size_t f = 2; f < frames; ++f) {  // as ReportSummary::mean_flicker
    out->mean_flicker += LabelFlicker(offline.subspan((f - 1) * n, n),
                                      offline.subspan(f * n, n));
    ++flicker_frames;
  }
  if (flicker_frames > 0) out->mean_flicker /= flicker_frames;
  size_t same = 0;
  for (size_t i = 0; i < offline.size(); ++i) same += online[i] == offline[i];
  out->agreement = static_cast<double>(same) / offline.size();
}

std::string InputDescription(const AnalysisReport& report) {
  if (report.gltf_path.empty()) {
    return absl::StrCat(report.obj_path, " + ", report.pc2_path);
  }
  return absl::StrCat(
      report.gltf_path, ", animation ",
      report.gltf_animation.empty() ? "(the first)" : report.gltf_animation);
}

std::string FormatReportTable(const AnalysisReport& report) {
  std::string out = absl::StrFormat(
      "%s\n%d vertices (%d welded), %d triangles, %d edges (%d boundary, "
      "%d "
      "non-manifold)\n\n",
      InputDescription(report), report.vertices, report.welded_vertices,
      report.triangles, report.edges, report.boundary_edges,
      report.non_manifold_edges);
  absl::StrAppend(
      &out,
      "frame  compress stretch  rest   flicker argmin-flicker  max-c  "
      "wrinkles  born  died   field ms wrinkles ms\n");
  for (const FrameReport& f : report.frames) {
    absl::StrAppendFormat(
        &out,
        "%5d  %6.1f%% %6.1f%% %6.1f%%  %6.2f%%  %6.2f%%       %6.3f  %8d %5d "
        "%5d   %8.3f "
        "%10.3f\n",
        f.frame, 100 * f.label_shares[LabelIndex(Label::kCompress)],
        100 * f.label_shares[LabelIndex(Label::kStretch)],
        100 * f.label_shares[LabelIndex(Label::kRest)], 100 * f.flicker,
        100 * f.argmin_flicker, f.max_compression, f.wrinkles, f.births,
        f.deaths, f.timings.field_ms(),
        f.timings.evolve_ms + f.timings.seed_ms + f.timings.shape_ms);
  }
  const ReportSummary s = Summarize(report);
  absl::StrAppendFormat(
      &out,
      "\nmean label flicker (frames 2..): graph cut %.2f%%, argmin %.2f%%\n"
      "peak compression %.3f\n"
      "wrinkles: %.1f per frame on average, %d born, %d died; lifetime median "
      "%.1f "
      "frames (p10 %.1f, p90 %.1f, max %d) over %d wrinkles\n",
      100 * s.mean_flicker, 100 * s.mean_argmin_flicker, s.peak_compression,
      s.mean_wrinkles, s.births, s.deaths, s.lifetime.median, s.lifetime.p10,
      s.lifetime.p90, s.lifetime.max, s.lifetime.count);
  if (report.min_width > 0) {
    absl::StrAppendFormat(&out, "path jitter per frame: %.3f L_min",
                          s.mean_jitter / report.min_width);
    if (s.mean_retrace_jitter >= 0) {
      absl::StrAppendFormat(&out, " (retracing every frame: %.3f L_min)",
                            s.mean_retrace_jitter / report.min_width);
    }
    absl::StrAppendFormat(&out, "; L_min = %.4g\n", report.min_width);
  }
  const WrinkleStatsSummary& w = report.wrinkle_stats;
  absl::StrAppendFormat(
      &out,
      "wrinkle shape: %.2f alive per 100 triangles; medians per wrinkle-frame: "
      "%.1f coarse segments, length %.4g (%.2f%% of the diagonal), mid width "
      "%.4g (%.2f%%), sharpest turn %.0f deg (%.0f within the cloth); "
      "neighbours (mid points within 4 mid widths) %.0f deg apart, median "
      "over %d pairs (%.0f over the %d facing the same way, %.0f within the "
      "cloth); median lifetime "
      "%.1f frames (%.2f s) over %d that died; churn %.1f%% (%d of %d "
      "births)\n",
      w.wrinkles_per_100_triangles, w.median_segments, w.median_length,
      100 * w.median_length_relative, w.median_mid_width,
      100 * w.median_mid_width_relative, w.median_sharpest_turn,
      w.median_sharpest_turn_in_cloth, w.median_neighbour_angle,
      w.neighbour_pairs, w.median_neighbour_angle_same_side,
      w.neighbour_pairs_same_side, w.median_neighbour_angle_in_cloth,
      w.median_lifetime, w.median_lifetime / w.frame_rate, w.ended,
      100 * w.churn(), w.churned_births, w.births);
  absl::StrAppendFormat(
      &out,
      "median per frame: tensors %.3f ms, labeling %.3f ms, references %.3f ms "
      "(field %.3f ms), wrinkles %.3f ms, whole pipeline %.3f ms\n",
      s.median_tensors_ms, s.median_labeling_ms, s.median_reference_ms,
      s.median_total_ms, s.median_wrinkle_ms, s.median_pipeline_ms);
  if (report.offline.run) {
    absl::StrAppendFormat(
        &out,
        "offline (one graph cut over space and time, %.2f s): flicker mean "
        "%.4f against %.4f online; %.1f%% of triangle-frames labelled alike; "
        "energy %.6g\n",
        report.offline.seconds, report.offline.mean_flicker, s.mean_flicker,
        100 * report.offline.agreement, report.offline.energy);
  }
  return out;
}

namespace {

using ReportJson = nlohmann::ordered_json;  // keys in the order written

// The run's summary: the labeling's, the timings', the lifetimes' and the
// wrinkle statistics' figures (docs/algorithm.md, "Wrinkle statistics").
ReportJson SummaryJson(const AnalysisReport& report, const ReportSummary& s) {
  const WrinkleStatsSummary& w = report.wrinkle_stats;
  return {
      {"frames", report.frames.size()},
      {"mean_flicker", s.mean_flicker},
      {"mean_argmin_flicker", s.mean_argmin_flicker},
      {"peak_compression", s.peak_compression},
      {"peak_input_noise", s.peak_input_noise},
      {"median_tensors_ms", s.median_tensors_ms},
      {"median_labeling_ms", s.median_labeling_ms},
      {"median_reference_ms", s.median_reference_ms},
      {"median_total_ms", s.median_total_ms},
      {"median_wrinkle_ms", s.median_wrinkle_ms},
      {"median_pipeline_ms", s.median_pipeline_ms},
      {"mean_wrinkles", s.mean_wrinkles},
      {"births", s.births},
      {"deaths", s.deaths},
      {"lifetime_median", s.lifetime.median},
      {"lifetime_p10", s.lifetime.p10},
      {"lifetime_p90", s.lifetime.p90},
      {"lifetime_max", s.lifetime.max},
      {"min_width", report.min_width},
      {"mean_jitter", s.mean_jitter},
      {"mean_retrace_jitter", s.mean_retrace_jitter},
      {"diagonal", w.diagonal},
      {"wrinkles_per_100_triangles", w.wrinkles_per_100_triangles},
      {"median_segments", w.median_segments},
      {"median_length", w.median_length},
      {"median_length_relative", w.median_length_relative},
      {"median_mid_width", w.median_mid_width},
      {"median_mid_width_relative", w.median_mid_width_relative},
      {"median_sharpest_turn", w.median_sharpest_turn},
      {"median_sharpest_turn_in_cloth", w.median_sharpest_turn_in_cloth},
      {"median_neighbour_angle", w.median_neighbour_angle},
      {"neighbour_pairs", w.neighbour_pairs},
      {"median_neighbour_angle_same_side", w.median_neighbour_angle_same_side},
      {"neighbour_pairs_same_side", w.neighbour_pairs_same_side},
      {"median_neighbour_angle_in_cloth", w.median_neighbour_angle_in_cloth},
      {"median_lifetime_ended", w.median_lifetime},
      {"frame_rate", w.frame_rate},
      {"ended", w.ended},
      {"churn", w.churn()},
      {"churned_births", w.churned_births}};
}

// One frame's line of the "frames" array.
ReportJson FrameJson(const FrameReport& f) {
  return {{"frame", f.frame},
          {"compress", f.label_shares[LabelIndex(Label::kCompress)]},
          {"stretch", f.label_shares[LabelIndex(Label::kStretch)]},
          {"rest", f.label_shares[LabelIndex(Label::kRest)]},
          {"flicker", f.flicker},
          {"argmin_flicker", f.argmin_flicker},
          {"max_compression", f.max_compression},
          {"input_noise", f.input_noise},
          {"energy", f.energy},
          {"wrinkles", f.wrinkles},
          {"births", f.births},
          {"deaths", f.deaths},
          {"jitter", f.jitter},
          {"retrace_jitter", f.retrace_jitter},
          {"tensors_ms", f.timings.tensors_ms},
          {"labeling_ms", f.timings.labeling_ms},
          {"reference_ms", f.timings.reference_ms},
          {"evolve_ms", f.timings.evolve_ms},
          {"seed_ms", f.timings.seed_ms},
          {"shape_ms", f.timings.shape_ms}};
}

}  // namespace

std::string FormatReportJson(const AnalysisReport& report) {
  const ReportSummary s = Summarize(report);
  ReportJson json = {{"obj", report.obj_path},
                     {"pc2", report.pc2_path},
                     {"gltf", report.gltf_path},
                     {"animation", report.gltf_animation},
                     {"vertices", report.vertices},
                     {"welded_vertices", report.welded_vertices},
                     {"triangles", report.triangles},
                     {"edges", report.edges},
                     {"boundary_edges", report.boundary_edges},
                     {"non_manifold_edges", report.non_manifold_edges}};
  json["summary"] = SummaryJson(report, s);
  if (report.offline.run) {
    json["offline"] = {{"mean_flicker", report.offline.mean_flicker},
                       {"online_mean_flicker", s.mean_flicker},
                       {"agreement", report.offline.agreement},
                       {"energy", report.offline.energy},
                       {"seconds", report.offline.seconds}};
  }
  ReportJson& frames = json["frames"] = ReportJson::array();
  for (const FrameReport& f : report.frames) {
    frames.push_back(FrameJson(f));
  }
  // Non-finite numbers (none expected) become null; invalid UTF-8 in a path
  // is replaced rather than thrown.
  return json.dump(2, ' ', false, ReportJson::error_handler_t::replace) + "\n";
}

}  // namespace crease::cli
