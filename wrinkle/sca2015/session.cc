#include "wrinkle/sca2015/session.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "common/stopwatch.h"
#include "wrinkle/sca2015/frame_rate.h"

namespace crease {
namespace {

Eigen::Vector3d Vertex(absl::Span<const float> positions, int32_t v) {
  return Eigen::Vector3d(positions[3 * v], positions[3 * v + 1],
                         positions[3 * v + 2]);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Session>> Session::Create(
    absl::Span<const io::Triangle> triangles,
    absl::Span<const float> rest_positions, const SessionParams& params) {
  CREASE_RETURN_IF_ERROR(ValidateFrameRate(params.frame_rate));
  CREASE_ASSIGN_OR_RETURN(
      MeshTopology topology,
      MeshTopology::Build(triangles, rest_positions, params.topology));
  return std::unique_ptr<Session>(new Session(std::move(topology), params));
}

Session::Session(MeshTopology topology, const SessionParams& params)
    : topology_(std::move(topology)),
      params_(AtFrameRate(params)),
      spatial_edges_(SpatialEdges(topology_.adjacent_face_pairs(),
                                  params_.labeling.spatial_step)),
      labeler_(topology_.num_triangles(), spatial_edges_),
      // With no field nothing reads it: no history to keep.
      noise_(params.compute_field ? topology_.num_triangles() : 0),
      frame_labeling_(params_.labeling),
      frame_reference_(params_.reference),
      tracker_(params_.wrinkles) {
  const size_t n = topology_.num_triangles();
  current_.resize(n);
  previous_.resize(n);
  reference_.resize(n);
  frames_.resize(n);
  current_degenerate_.resize(n);
  previous_degenerate_.resize(n);
  interframe_.resize(n);
  field_.resize(n);
  unaries_.resize(n);
  folded_unaries_.resize(n);
  labels_.assign(n, Label::kRest);
  previous_labels_.assign(n, Label::kRest);
  argmin_labels_.assign(n, Label::kRest);
  positions_.resize(topology_.num_vertices());
  surface_.topology = &topology_;
  surface_.positions = positions_;
  surface_.edge_matrices = current_;
  surface_.frames = frames_;
  surface_.field = field_;
  // Nothing reads them without the field: not left uninitialised.
  if (!params_.compute_field) reference_.clear();
}

absl::Status Session::ValidateFrame(absl::Span<const float> positions) const {
  const size_t expected = 3 * static_cast<size_t>(topology_.num_vertices());
  if (positions.size() != expected) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "positions: %d floats, expected %d (3 per vertex for %d vertices)",
        positions.size(), expected, topology_.num_vertices()));
  }
  for (size_t i = 0; i < positions.size(); ++i) {
    if (!std::isfinite(positions[i])) {
      return absl::InvalidArgumentError(
          absl::StrFormat("positions: vertex %d has a non-finite %c coordinate",
                          i / 3, "xyz"[i % 3]));
    }
  }
  return absl::OkStatus();
}

void Session::ComputeEdgeMatrices(absl::Span<const float> positions) {
  for (size_t v = 0; v < positions_.size(); ++v)
    positions_[v] = Vertex(positions, v);
  EdgeMatricesOfMany(positions_, topology_.triangles(),
                     absl::MakeSpan(current_), absl::MakeSpan(frames_));
  for (size_t f = 0; f < current_.size(); ++f) {
    // A triangle the weld collapsed has no edges to trace across, whatever
    // its corners' positions do later: degenerate for the whole session.
    current_degenerate_[f] =
        topology_.face_edges(f)[0] < 0 ||
        IsDegenerate(current_[f], params_.degenerate_relative_area);
  }
}

void Session::ComputeInterframeCosts() {
  const LabelingParams& lp = frame_labeling_;
  const size_t n = current_.size();
  // A block at a time, two triangles at a time within it (the costs' exps
  // were a fifth of this stage), with scratch of a block, not of the mesh.
  for (size_t first = 0; first < n; first += kBlock) {
    const size_t count = std::min(kBlock, n - first);
    for (size_t i = 0; i < count; ++i) {
      const size_t f = first + i;
      // Any matrix where a triangle is degenerate: it is not used.
      block_.stretch[i] =
          current_degenerate_[f] || previous_degenerate_[f]
              ? Eigen::Matrix2d::Identity()
              : Eigen::Matrix2d(current_[f] * Inverse2(previous_[f]));
    }
    // The singular values s1, s2 land where lambda_max and the compression
    // (1 / s2) then go.
    const auto lambda_max = absl::MakeSpan(block_.lambda_max).subspan(0, count);
    const auto compression =
        absl::MakeSpan(block_.compression).subspan(0, count);
    SingularValuesOfMany(absl::MakeConstSpan(block_.stretch).subspan(0, count),
                         lambda_max, compression);
    for (size_t i = 0; i < count; ++i) {
      const size_t f = first + i;
      interframe_[f] = current_degenerate_[f] || previous_degenerate_[f]
                           ? StretchRatios::Degenerate()
                           : MakeStretchRatios(lambda_max[i], compression[i]);
      // A degenerate triangle's costs are replaced below; 1 keeps its lane's
      // arithmetic finite.
      const bool degenerate = interframe_[f].degenerate;
      compression[i] = degenerate ? 1.0 : interframe_[f].compression;
      lambda_max[i] = degenerate ? 1.0 : interframe_[f].lambda_max;
    }
    if (lp.rate_exponent != 1.0) {
      // The change as over rate_exponent frames (AtFrameRate).
      for (size_t i = 0; i < count; ++i) {
        compression[i] = std::pow(compression[i], lp.rate_exponent);
        lambda_max[i] = std::pow(lambda_max[i], lp.rate_exponent);
      }
    }
    UnaryCostsOfMany(compression, lambda_max, lp,
                     absl::MakeSpan(unaries_).subspan(first, count));
  }
  for (size_t f = 0; f < n; ++f) {
    if (interframe_[f].degenerate) unaries_[f] = DegenerateUnaryCosts(lp);
    argmin_labels_[f] = ArgminLabel(unaries_[f]);
    folded_unaries_[f] = unaries_[f];
    AddTemporalCost(previous_labels_[f], lp.temporal_step, folded_unaries_[f]);
  }
}

void Session::UpdateReferencesAndField() {
  const size_t n = current_.size();
  // A block at a time, its decompositions two at a time (their square roots
  // and divisions were a tenth of the pipeline).
  for (size_t first = 0; first < n; first += kBlock) {
    const size_t count = std::min(kBlock, n - first);
    for (size_t i = 0; i < count; ++i) {
      const size_t f = first + i;
      if (current_degenerate_[f]) {
        // Any matrix: its decomposition is not used.
        block_.stretch[i] = Eigen::Matrix2d::Identity();
        continue;
      }
      if (IsDegenerate(reference_[f], params_.degenerate_relative_area)) {
        // No usable reference yet (the triangle was degenerate before):
        // start from now.
        reference_[f] = current_[f];
      }
      block_.stretch[i] = current_[f] * Inverse2(reference_[f]);
    }
    ClosedFormSvdOfMany(absl::MakeConstSpan(block_.stretch).subspan(0, count),
                        absl::MakeSpan(block_.svd).subspan(0, count));
    for (size_t i = 0; i < count; ++i) {
      const size_t f = first + i;
      if (current_degenerate_[f]) {
        field_[f] = StretchTensor::Degenerate();
        continue;
      }
      Svd2 updated;
      UpdateReference(labels_[f], current_[f], block_.svd[i], frame_reference_,
                      &reference_[f], &updated);
      field_[f] = MakeStretchTensor(updated, frames_[f]);
      if (field_margin_ > 0 && field_[f].compression > 1.0) {
        field_[f].compression =
            1.0 + std::max(0.0, field_[f].compression - 1.0 - field_margin_);
        field_[f].lambda_min = 1.0 / field_[f].compression;
      }
    }
  }
  // Where a wrinkle may run (above the keep threshold), as if every
  // compressed triangle were smoothed: the mildly compressed ones carry
  // their region's direction to its edges.
  SmoothFieldDirections(topology_, frames_, current_, params_.field_smoothing,
                        params_.wrinkles.tracing.KeepThreshold(),
                        field_smoothing_scratch_, absl::MakeSpan(field_));
}

void Session::AdaptToInputNoise() {
  const double excess = std::max(0.0, noise_.sigma() - params_.noise_floor);
  frame_labeling_ = params_.labeling;
  frame_reference_ = params_.reference;
  field_margin_ = 0;
  if (excess == 0) return;  // the papers' rules, bit for bit
  // The costs read a frame's change times rate_exponent, its jitter too.
  const double widen =
      params_.noise_sigma_factor * params_.labeling.rate_exponent * excess;
  frame_labeling_.sigma = std::sqrt(
      params_.labeling.sigma * params_.labeling.sigma + widen * widen);
  frame_reference_.stretch_margin += params_.noise_stretch_factor * excess;
  frame_reference_.rest_noise_band += params_.noise_band_factor * excess;
  field_margin_ = params_.noise_field_factor * excess;
}

absl::Status Session::ProcessFrame(absl::Span<const float> positions) {
  CREASE_RETURN_IF_ERROR(ValidateFrame(positions));
  if (!params_.compute_field) {
    timings_ = {};
    ++frames_processed_;
    return absl::OkStatus();
  }

  Stopwatch stopwatch;
  ComputeEdgeMatrices(positions);
  noise_.AddFrame(current_, current_degenerate_);
  AdaptToInputNoise();
  if (frames_processed_ == 0) {
    // First frame: the reference is the current shape, everything rests.
    reference_ = current_;
    std::fill(labels_.begin(), labels_.end(), Label::kRest);
    std::fill(argmin_labels_.begin(), argmin_labels_.end(), Label::kRest);
    std::fill(interframe_.begin(), interframe_.end(), StretchRatios{});
    timings_.tensors_ms = stopwatch.Lap();
    timings_.labeling_ms = 0;
    UpdateReferencesAndField();
    timings_.reference_ms = stopwatch.Lap();
    energy_ = 0.0;
  } else {
    ComputeInterframeCosts();
    timings_.tensors_ms = stopwatch.Lap();

    labeler_.Solve(folded_unaries_, absl::MakeSpan(labels_));
    energy_ = LabelingEnergy(folded_unaries_, spatial_edges_, labels_);
    timings_.labeling_ms = stopwatch.Lap();

    UpdateReferencesAndField();
    timings_.reference_ms = stopwatch.Lap();
  }
  if (params_.trace_wrinkles) {
    if (frames_processed_ == 0) {
      tracker_.Initialize(surface_);  // no wrinkles on the first frame
    } else if (params_.retrace_every_frame) {
      tracker_.RetraceFromScratch(surface_);
    } else {
      tracker_.Step(surface_);
    }
    timings_.evolve_ms = tracker_.timings().evolve_ms;
    timings_.seed_ms = tracker_.timings().seed_ms;
    timings_.shape_ms = tracker_.timings().shape_ms;
  }
  // Copies, not swaps: surface_ keeps pointing at this frame's buffers.
  previous_ = current_;
  previous_degenerate_ = current_degenerate_;
  previous_labels_ = labels_;
  ++frames_processed_;
  return absl::OkStatus();
}

}  // namespace crease
