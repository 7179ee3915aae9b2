#ifndef CREASE_WRINKLE_SCA2015_SESSION_H_
#define CREASE_WRINKLE_SCA2015_SESSION_H_

#include <Eigen/Core>
#include <array>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "wrinkle/core/field_smoothing.h"
#include "wrinkle/core/mesh.h"
#include "wrinkle/core/stretch.h"
#include "wrinkle/core/surface.h"
#include "wrinkle/io/triangle_mesh.h"
#include "wrinkle/sca2015/input_noise.h"
#include "wrinkle/sca2015/labeling.h"
#include "wrinkle/sca2015/reference.h"
#include "wrinkle/sca2015/wrinkle_tracker.h"

namespace crease {

struct SessionParams {
  // Frames a second of the animation. The rules that act once a frame were
  // set at kCalibrationFrameRate (30, the papers' rate); the session converts
  // them to this rate (AtFrameRate in frame_rate.h), so that a fold takes as
  // long to relax, fade or die at 60 fps as at 30. > 0 and finite.
  double frame_rate = 30.0;
  MeshTopologyOptions topology;
  LabelingParams labeling;
  ReferenceParams reference;
  // A triangle is degenerate when twice its area is at most this times its
  // longest edge squared; it gets the identity tensor, is labeled Rest and
  // keeps its reference.
  double degenerate_relative_area = 1e-6;
  WrinkleParams wrinkles;
  // The field's directions smoothed over neighbouring compressed triangles
  // before wrinkles follow them (docs/algorithm.md, "Fold families").
  FieldSmoothingParams field_smoothing;
  // The labeling, adaptive references and compression field (steps 2-5).
  // Off, a frame is only validated and counted: labels stay Rest, the field
  // the identity, the references empty, and nothing is traced. For a served
  // session whose model and outputs read none of it (server/served_session.h).
  bool compute_field = true;
  // Noisy input (docs/algorithm.md, "Noisy input"). Where the input's noise
  // (InputNoiseEstimate, the deviation of edge lengths per frame) exceeds
  // noise_floor by e, the labeling's sigma becomes sqrt(sigma^2 +
  // (noise_sigma_factor e)^2), a Stretch replaces a reference only past
  // 1 + noise_stretch_factor e, a Rest reference averages in the current
  // shape within 1 +- noise_band_factor e, and the compression field loses
  // noise_field_factor e. At or below the floor the papers' rules hold bit
  // for bit (the bundled sets read at most 0.3 %).
  double noise_floor = 0.01;
  double noise_sigma_factor = 8.0;
  double noise_stretch_factor = 6.0;
  double noise_band_factor = 6.0;
  double noise_field_factor = 5.0;
  bool trace_wrinkles = true;  // steps 6-11; needs compute_field
  // Baseline for metrics: forget every wrinkle each frame and trace anew.
  bool retrace_every_frame = false;
};

// Wall time of the stages of the last frame, in milliseconds.
struct StageTimings {
  double tensors_ms = 0;    // edge matrices, inter-frame tensors, unary costs
  double labeling_ms = 0;   // graph cut
  double reference_ms = 0;  // reference update and the compression field
  double evolve_ms = 0;  // wrinkle persistence, sliding, length update, death
  double seed_ms = 0;    // seeding and tracing new wrinkles
  double shape_ms =
      0;  // widths, heights, refinement, triangle -> wrinkle lists
  double field_ms() const { return tensors_ms + labeling_ms + reference_ms; }
  double total_ms() const {
    return field_ms() + evolve_ms + seed_ms + shape_ms;
  }
};

// Everything one animated mesh remembers between frames (steps 1-11 in
// docs/architecture.md, "One frame end to end"): the previous frame's edge
// matrices and labels, the adaptive reference shapes, the graph of the
// labeling problem (built once) and the wrinkles.
// Single-threaded and deterministic. The compression-field buffers are sized at
// creation; the wrinkle stages reuse theirs, so a frame allocates only when
// wrinkles are born or grow past earlier sizes (and libmaxflow's pool every
// 64th frame).
class Session {
 public:
  // `rest_positions` (packed xyz, e.g. the OBJ's) are used only to weld
  // coincident vertices for adjacency. InvalidArgument for a malformed mesh.
  static absl::StatusOr<std::unique_ptr<Session>> Create(
      absl::Span<const io::Triangle> triangles,
      absl::Span<const float> rest_positions, const SessionParams& params = {});

  // Runs one frame. `positions` are packed xyz for every vertex. A frame with
  // the wrong length or non-finite values is rejected with InvalidArgument and
  // changes nothing.
  absl::Status ProcessFrame(absl::Span<const float> positions);

  const MeshTopology& topology() const { return topology_; }
  const SessionParams& params() const { return params_; }
  int num_triangles() const { return topology_.num_triangles(); }
  int frames_processed() const { return frames_processed_; }

  // Results of the last processed frame.
  absl::Span<const Label> labels() const { return labels_; }
  // Per-triangle argmin of the unary costs alone: the baseline without the
  // graph cut.
  absl::Span<const Label> argmin_labels() const { return argmin_labels_; }
  // This frame's unary costs, before the temporal term (what an offline
  // labeling of the whole sequence takes: LabelSequenceOffline).
  absl::Span<const UnaryCost> unary_costs() const { return unaries_; }
  // Against the previous frame: what the labeling sees.
  absl::Span<const StretchRatios> interframe_stretch() const {
    return interframe_;
  }
  // Against the adaptive references after this frame's update: the compression
  // field.
  absl::Span<const StretchTensor> compression_field() const { return field_; }
  absl::Span<const Eigen::Matrix2d> references() const { return reference_; }
  // Energy of the labels, temporal term included.
  double labeling_energy() const { return energy_; }
  // The wrinkles after this frame, their shapes (index-aligned) and, per
  // triangle, the ranges of wrinkle segments that may displace it.
  const WrinkleTracker& tracker() const { return tracker_; }
  // The last frame's mesh as the wrinkle stages saw it: evaluates edge points.
  const SurfaceFrame& surface() const { return surface_; }
  const StageTimings& timings() const { return timings_; }
  // The input's estimated noise (InputNoiseEstimate::sigma) after this frame.
  double input_noise() const { return noise_.sigma(); }

 private:
  Session(MeshTopology topology, const SessionParams& params);

  absl::Status ValidateFrame(absl::Span<const float> positions) const;
  void ComputeEdgeMatrices(absl::Span<const float> positions);
  void ComputeInterframeCosts();
  void UpdateReferencesAndField();
  void AdaptToInputNoise();

  MeshTopology topology_;
  SessionParams params_;
  std::vector<LabelEdge> spatial_edges_;
  GraphCutLabeler labeler_;
  InputNoiseEstimate noise_;
  // This frame's labeling and reference parameters: params_'s, widened by
  // the input's noise above the floor.
  LabelingParams frame_labeling_;
  ReferenceParams frame_reference_;
  double field_margin_ = 0;
  int frames_processed_ = 0;

  std::vector<Eigen::Matrix2d> current_, previous_, reference_;
  std::vector<LocalFrame> frames_;
  std::vector<uint8_t> current_degenerate_, previous_degenerate_;
  std::vector<StretchRatios> interframe_;
  std::vector<StretchTensor> field_;
  // The per-triangle stages run a block of triangles at a time, two at a
  // time within it; their scratch, for one block: the stretch of the stage
  // at hand (current * previous^-1, then current * reference^-1), the
  // former's singular values as the costs' input, the latter's decomposition.
  static constexpr size_t kBlock = 64;
  struct BlockScratch {
    std::array<Eigen::Matrix2d, kBlock> stretch;
    std::array<double, kBlock> compression, lambda_max;
    std::array<Svd2, kBlock> svd;
  };
  BlockScratch block_;
  FieldSmoothingScratch field_smoothing_scratch_;
  std::vector<UnaryCost> unaries_, folded_unaries_;
  std::vector<Label> labels_, previous_labels_, argmin_labels_;
  std::vector<Eigen::Vector3d> positions_;
  SurfaceFrame surface_;
  WrinkleTracker tracker_;
  double energy_ = 0.0;
  StageTimings timings_;
};

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_SESSION_H_
