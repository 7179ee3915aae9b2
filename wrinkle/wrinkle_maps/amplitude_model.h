#ifndef CREASE_WRINKLE_WRINKLE_MAPS_AMPLITUDE_MODEL_H_
#define CREASE_WRINKLE_WRINKLE_MAPS_AMPLITUDE_MODEL_H_

// The second wrinkle model: amplitude-modulated wrinkle maps (Volino &
// Magnenat-Thalmann 1999, "Fast Geometrical Wrinkles on Animated Surfaces").
// A fixed heightmap (WrinklePattern) is displaced along the normal with a
// per-vertex, per-channel amplitude that grows as the mesh edges shrink
// against their native lengths. Stateless per frame and O(edges): the cheap
// tier beside SCA 2015's traced wrinkles. docs/algorithm.md,
// "Amplitude-modulated wrinkle maps (Volino 1999)", has every decision.

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "wrinkle/core/mesh.h"
#include "wrinkle/wrinkle_maps/wrinkle_pattern.h"

namespace crease {

// Eq. 1, the shrink term t of an edge of current length l and native length
// L (x = lambda l / L).
enum class ShrinkFormula {
  // t = 2 / (1 + x^2) - 1: 1 at l = 0, 0 at l = L / lambda, -> -1 when
  // stretched (the digest's reconstruction, matching the paper's prose).
  kReconstructed,
  // t = 2 / (1 + x^2) - 1 + 1, the extracted text (at lambda = 1 exactly):
  // never negative, 1 at rest.
  kLiteral,
};

// Eq. 2, the sensitivity m of an edge to a channel from A, the pattern's
// variation along the edge in UV.
enum class SensitivityFormula {
  // m = alpha A / (1 + alpha A): grows as the edge crosses more crests (the
  // prose; the extraction lost the "1 -" of 1 - 1 / (1 + alpha A)).
  kReconstructed,
  // m = 1 / (1 + alpha A), the extracted text (at alpha = 1 exactly).
  kLiteral,
  // Ours, the default: the channels are weighted by the compression's
  // direction instead of per edge. Per vertex, a 2×2 compression tensor T in
  // UV is fitted to its edges' shrink terms (t ≈ the strain along the edge,
  // least squares over the edges' UV directions), and channel c gets
  // ChannelWeight(T, S_c, p) of the vertex's Eq. 3 amplitude taken with
  // m = 1, S_c the channel's structure tensor (PatternStructureTensor), p =
  // directional_sharpness. The paper's A counts the crests an edge crosses
  // and saturates once an edge spans about a wavelength, so every channel
  // got m ≈ 0.9 and three equal sinusoids at 60° added up to an egg-crate;
  // and a per-edge direction weight cannot separate channels 60° apart
  // better than cos² (an edge's strain is cos² wide). The tensor can:
  // compression across one channel's crests drives that channel alone, so
  // uniaxial compression makes parallel folds (docs/algorithm.md,
  // "Directional channels").
  kDirectional,
};

// Where the native edge lengths L come from.
enum class RestLengthSource {
  kRestPositions,  // |rest_b - rest_a| from the rest pose given to Create
  // Beyond the paper: the root mean square over the edge's triangles of its
  // length in each triangle's SCA 2015 adaptive reference
  // (Session::references(); docs/algorithm.md says why), so game animation
  // with no rest pose works.
  kAdaptiveReferences,
};

struct AmplitudeModelParams {
  // lambda of Eq. 1, (0, 10]: above 1 an edge must shrink below L / lambda
  // before wrinkles appear; below 1 the rest state is already wrinkled.
  double shrink_threshold = 1.0;
  // alpha of Eq. 2, (0, 1e6]: at 1, an edge crossing a quarter wavelength of
  // a unit sinusoid head on has m = 0.55, a full wavelength 0.95.
  double sensitivity_alpha = 1.0;
  ShrinkFormula shrink = ShrinkFormula::kReconstructed;
  SensitivityFormula sensitivity = SensitivityFormula::kDirectional;
  // p of kDirectional, [1, 64]. At 4, uniaxial compression across one
  // channel's crests gives the channels at ±60° (cos² 60°)² = 1/16 of it
  // each: their sum under an eighth of the leading channel, so the lattice
  // is gone; at 2 it is a half, and the egg-crate shows.
  double directional_sharpness = 4.0;
  // Ours, k of kDirectional, [0, 64]: each channel's weight is further
  // multiplied by (r_c / r_max)^k, r_c its cos² to the compression and r_max
  // the leading channel's, so that compression between two channels' crest
  // normals drives the nearer one, not both at once. With k = 0 a
  // compression 20° off one channel (40° off the next) gave the second 44 %
  // of the first, and the two crossed as an egg-crate across the Fox's flank;
  // at 4 it gets 8 %, and only within a few degrees of the exact midpoint do
  // both show. The leading channel is never reduced.
  double channel_selectivity = 4.0;
  // Ours, 0..3, of kDirectional: the compression tensor of a vertex is
  // fitted to the shrinking of its own edges and, for each ring, of its
  // neighbours' edges too. A coarse vertex has five or six edges, and a fit
  // to them alone turns from vertex to vertex with the mesh's irregularity:
  // neighbouring vertices led with channels 60° apart and the Fox's flank
  // showed a crosshatch of chevrons. With 1 ring the directions agree over
  // a compressed region and it shows one family of folds; 2 rings blur two
  // regions' directions where they meet (docs/algorithm.md, "Fitted over a
  // ring of neighbours"). 0: the vertex's own edges.
  int direction_fit_rings = 1;
  // Not in the paper: vertex amplitudes below 0 (stretching outweighs
  // compression around the vertex) become 0 instead of inverting the pattern.
  bool clamp_negative = true;
  // k, [0, 100]: vertex amplitudes are k times the paper's s (which is about
  // an edge length at full compression); 1 is the paper.
  double scale = 1.0;
  RestLengthSource rest_lengths = RestLengthSource::kRestPositions;
  // n of Eq. 2 is max(min_edge_segments, 2 per texel the edge spans in UV),
  // at most kMaxEdgeSegments; min_edge_segments in 1..kMaxEdgeSegments.
  int min_edge_segments = 8;
  // Not in the paper, [0, 100] (0: no cap): each channel's vertex amplitude
  // is at most max_slope λ / 2π, λ the channel's wavelength on the surface
  // there (PatternWavelength times the vertex's world length per UV unit,
  // the root mean square over its edges of current length / UV length), so
  // the relief's
  // slope stays under max_slope whatever the mesh's units and UV scale.
  // Without it a coarse mesh whose UV tile spans about one edge (the Fox:
  // λ 12.8 for a median edge of 10.7) reached slopes of 2.8 at k = 1 and
  // looked spiked; with 1 (45°) those clip and finer patterns (Cesium Man,
  // slope <= 0.95) are left alone.
  double max_slope = 1.0;
};

// Caps Create's cost on outside input: an edge spanning more than 512 texels
// in UV is sampled at 1,024 points (its A may then alias).
inline constexpr int kMaxEdgeSegments = 1024;
// Larger corner UVs (10,000 tiles away) are rejected: they would overflow
// the sampler's texel arithmetic.
inline constexpr float kMaxUvMagnitude = 1e4f;

// InvalidArgument naming the parameter and its range.
absl::Status ValidateAmplitudeParams(const AmplitudeModelParams& params);

// Built once per mesh and pattern; Update per frame allocates nothing.
// Outputs are per caller vertex (the caller's indexing, seams split or not),
// each vertex carrying the value of its welded vertex, so copies of a vertex
// split at a UV seam get the same amplitude.
class AmplitudeModel {
 public:
  // One unique (welded) edge: caller vertices of its first triangle.
  struct Edge {
    int32_t v0 = -1;
    int32_t v1 = -1;
  };

  // `topology` of the caller's triangles (its weld rule is the Session's);
  // `corner_uvs` 6 floats per triangle (io::TriangleMesh::corner_uvs);
  // `rest_positions` packed xyz per caller vertex, needed for
  // RestLengthSource::kRestPositions (may be empty otherwise).
  // InvalidArgument for bad params (ValidateAmplitudeParams), a bad pattern
  // (ValidatePattern), missing or wrong-sized corner UVs, non-finite UVs or
  // UVs beyond kMaxUvMagnitude, or
  // missing, wrong-sized or non-finite rest positions.
  static absl::StatusOr<AmplitudeModel> Create(
      const MeshTopology& topology, absl::Span<const float> corner_uvs,
      const WrinklePattern& pattern, absl::Span<const float> rest_positions,
      const AmplitudeModelParams& params = {});

  // One frame: `positions` packed xyz per caller vertex; `references` per
  // triangle (Session::references()) when the rest lengths come from them,
  // else ignored. InvalidArgument (and nothing changes) for wrong sizes or
  // non-finite values.
  absl::Status Update(absl::Span<const float> positions,
                      absl::Span<const Eigen::Matrix2d> references = {});

  const AmplitudeModelParams& params() const { return params_; }
  int channels() const { return channels_; }
  int num_vertices() const { return static_cast<int>(vertex_welded_.size()); }
  int num_triangles() const { return num_triangles_; }
  int num_edges() const { return static_cast<int>(edges_.size()); }
  const Edge& edge(int e) const { return edges_[e]; }

  // After Update: `channels()` floats per caller vertex, k * s_a (Eq. 3,
  // clamped at 0 unless clamp_negative is false), in length units. The
  // displacement the paper draws is the sum over channels of amplitude times
  // h_c(uv) along the normal.
  absl::Span<const float> vertex_amplitudes() const {
    return vertex_amplitudes_;
  }
  // Per edge: m (channels per edge; fixed at Create), L, t (this frame), and
  // w = L m t (channels per edge; Eq. 3's terms, before k).
  absl::Span<const float> edge_sensitivities() const { return sensitivity_; }
  absl::Span<const double> edge_rest_lengths() const { return rest_length_; }
  absl::Span<const double> edge_shrink() const { return shrink_; }
  absl::Span<const float> edge_amplitudes() const { return edge_amplitude_; }

 private:
  AmplitudeModel() = default;

  // Create's steps: edges and their triangle sides, Eq. 2 per edge, L from
  // the rest pose.
  void BuildEdges(const MeshTopology& topology);
  void ComputeSensitivities(absl::Span<const float> corner_uvs,
                            const WrinklePattern& pattern);
  void ComputeRestLengths(absl::Span<const float> rest_positions);
  // kDirectional's per-edge forms and per-vertex fits (after BuildEdges).
  void BuildDirectionalFits(absl::Span<const float> corner_uvs);

  // Update's steps.
  absl::Status ValidateFrame(
      absl::Span<const float> positions,
      absl::Span<const Eigen::Matrix2d> references) const;
  void ComputeReferenceLengths(absl::Span<const Eigen::Matrix2d> references);
  template <int kChannels>
  void AccumulateEdges(const float* positions);
  template <int kChannels>
  void AverageToVertices();
  template <int kChannels>
  void CapSlopes();
  // kDirectional: adds the neighbours' fit sums, direction_fit_rings times.
  void WidenFits();

  AmplitudeModelParams params_;
  int channels_ = 0;
  int num_triangles_ = 0;
  std::vector<Edge> edges_;
  std::vector<int32_t> edge_welded_;  // welded ids of v0 and v1, 2 per edge
  // The triangles of edge e and the edge's index k in each (corners k and
  // (k + 1) % 3): side_face_/side_slot_[side_offset_[e] .. [e + 1]).
  std::vector<int32_t> side_offset_, side_face_;
  std::vector<uint8_t> side_slot_;
  std::vector<double> inv_sides_;       // 1 / the edge's triangles (0: none)
  std::vector<int32_t> vertex_welded_;  // caller vertex -> welded id
  std::vector<double> welded_edge_weight_;  // 1 / incident edges (0: none)
  std::vector<float> sensitivity_;
  std::vector<double> rest_length_, rest_length_squared_, shrink_;
  std::vector<float> edge_amplitude_;
  std::vector<double> welded_sum_;
  std::vector<float> vertex_amplitudes_;
  // The slope cap: per channel the pattern's wavelength in UV units; per edge
  // its UV length (mean over its triangles; 0: degenerate in UV, left out);
  // per welded vertex 1 / the edges counted, and this frame's sum of their
  // squared world / UV length ratios.
  std::vector<double> channel_wavelength_, uv_length_, inv_uv_length_squared_;
  // kDirectional: per channel S_c / λ_max(S_c) as (xx, xy, yy); per edge
  // (dx², 2 dx dy, dy²) of its unit UV direction (mean over its triangles);
  // per welded vertex the inverse of its fit's normal matrix and this
  // frame's right-hand side Σ form t (AccumulateEdges), both summed over
  // direction_fit_rings rings of neighbours (BuildDirectionalFits, WidenFits,
  // which swaps welded_fit_ with its scratch welded_fit_wide_ each ring);
  // solved per vertex in AverageToVertices.
  std::vector<Eigen::Vector3d> channel_structure_;
  std::vector<Eigen::Vector3d> edge_form_, welded_fit_, welded_fit_wide_;
  std::vector<Eigen::Matrix3d> welded_fit_inverse_;
  std::vector<double> welded_uv_weight_, welded_uv_scale_;
};

// Eq. 1 and Eq. 2 alone, for tests and the docs' tables.
double ShrinkTerm(double current_length, double rest_length,
                  const AmplitudeModelParams& params);
// The reconstructed or literal Eq. 2 (kDirectional takes m = 1).
double SensitivityFromVariation(double variation,
                                const AmplitudeModelParams& params);
// kDirectional's weight of a channel of structure tensor `structure` under
// the compression tensor `compression` (positive = shrinking): with T⁺ the
// compressive part of T, (tr(S T⁺) / (λ_max(S) λ_max(T⁺)))^(p / 2), clamped
// to [0, 1]: 1 when T⁺ is all across the channel's crests (or the channel
// is isotropic), cos^p of the angle otherwise, and 0 when nothing is
// compressed (no direction to fold across). Only positive amplitudes are
// weighted; a negative one (keep_negative) stays on every channel.
double ChannelWeight(const Eigen::Matrix2d& compression,
                     const Eigen::Matrix2d& structure, double sharpness);
// Every channel's weight together (up to kMaxPatternChannels structures):
// ChannelWeight's, times (r_c / r_max)^selectivity, r_c = tr(S_c T⁺) /
// (λ_max(S_c) λ_max(T⁺)) and r_max the largest over the channels
// (AmplitudeModelParams::channel_selectivity).
std::array<double, kMaxPatternChannels> ChannelWeights(
    const Eigen::Matrix2d& compression,
    absl::Span<const Eigen::Matrix2d> structures, double sharpness,
    double selectivity);
// A of Eq. 2 along the UV segment uv0 -> uv1 of channel c: n times the sum
// of squared height differences over n equal segments, n as in
// AmplitudeModelParams::min_edge_segments.
double PatternVariation(const WrinklePattern& pattern, int channel,
                        const Eigen::Vector2f& uv0, const Eigen::Vector2f& uv1,
                        int min_edge_segments);

}  // namespace crease

#endif  // CREASE_WRINKLE_WRINKLE_MAPS_AMPLITUDE_MODEL_H_
