#ifndef CREASE_WRINKLE_SCA2015_WRINKLE_TRACKER_H_
#define CREASE_WRINKLE_SCA2015_WRINKLE_TRACKER_H_

#include <cstdint>
#include <vector>

#include "wrinkle/core/surface.h"
#include "wrinkle/data/frame_wrinkles.h"
#include "wrinkle/sca2015/joining.h"
#include "wrinkle/sca2015/persistence.h"
#include "wrinkle/sca2015/shape.h"
#include "wrinkle/sca2015/tracing.h"
#include "wrinkle/sca2015/wrinkle_path.h"

namespace crease {

struct WrinkleParams {
  TracingParams tracing;
  PersistenceParams persistence;
  // L_min, the minimal wrinkle width, in model units. 0: DefaultMinWidth,
  // `min_width_fraction` of the first frame's bounding-box diagonal, but at
  // least a tenth of the median coarse edge.
  double min_width = 0.0;
  double min_width_fraction = 0.005;
  // The length update, every length_update_period frames, changes a path's
  // length by at most this fraction.
  double max_length_change = 0.15;
  int length_update_period = 1;
  // A wrinkle's shape compression follows its triangles' by at most this
  // fraction a frame, and the band it holds the same, growing from none by
  // at most band_growth L_min a frame (WrinklePath::shape_compression).
  double max_shape_change = 0.15;
  double band_growth = 0.1;
  int max_new_per_frame = 8;
  int seed_period = 1;  // seeds are drawn on every seed_period'th frame
  // A newborn must cross at least this many coarse triangles: shorter traces
  // are stubs of one noisy triangle, not folds.
  int min_seed_segments = 4;
  // ... and be at least this many widest widths (L_max) long. Both give way
  // where the compression is confined to a band the newborn crosses whole
  // (a pleat at a gathered edge, a cuff, a waistband): it is then kept if it
  // is at least two of its widths long and the band runs along the compression
  // min_seed_aspect times its length (WrinkleTracker::SpansConfinedBand).
  double min_seed_aspect = 3.0;
  // The band rule above, with triangles other than compression peaks seeding
  // such pleats side by side, two pleat widths apart; false: every newborn
  // is held to min_seed_segments and min_seed_aspect.
  bool pleats_in_confined_bands = true;
  // The same for a band inside the cloth (a belt, a drawstring, a waist
  // seam): a newborn that leaves the compression at both ends is a pleat when
  // the band runs on along the compression from it, both ways, at least
  // inner_band_aspect / 2 times its length each, in the cloth's own length,
  // no thicker across than it is long (RunsAlongBothWays).
  bool pleats_in_inner_bands = true;
  double inner_band_aspect = 6.0;
  // Seeds only in triangles no neighbour of which is more compressed: one
  // fold per compressed region, traced through it, instead of one per noisy
  // triangle.
  bool seed_at_peaks = true;
  // A seed keeps at least this fraction of its triangle's extent along the
  // compression direction (and at least its width) from other wrinkles: one
  // tensor per coarse triangle cannot tell two parallel folds in it apart.
  double seed_spacing_across = 1.5;
  // A fold seeded at a compression peak brings its family: siblings seeded
  // this many of its mid widths apart along the compression direction (2: a
  // fold and the valley beside it), on either side, while the cloth there is
  // compressed (above the keep threshold) the same way (within 30 degrees),
  // at most max_family_per_side a side. A compressed band holds a train of
  // parallel folds, not one (docs/algorithm.md, "Fold families"). 0: one
  // fold per peak.
  double family_spacing_widths = 2.0;
  int max_family_per_side = 1;
  // Every living path gets one pass of the seeding's smoothing (the papers'
  // tangential Laplacian step, TracingParams::smoothing_step) each frame,
  // after the persistence solve. The papers smooth a path once, when it is
  // traced; the solve then aligns its segments with a field that is constant
  // per coarse triangle, and over the frames paths grew kinks a viewer reads
  // as veins (docs/algorithm.md, "Smoothing").
  bool smooth_each_frame = true;
  double each_frame_smoothing_step = 0.5;  // that pass's step
  // Wrinkles whose ends meet head on within this many widest widths (L_max)
  // are joined into one (JoinMeetingEnds); 0: never.
  double join_gap_widths = 2.0;
  int max_wrinkles = 256;
  int samples_per_segment = 4;  // Bezier samples per path segment
  // Frames over which a wrinkle's height fades in after birth and out before
  // death (WrinklePath::fade); 0: wrinkles appear and vanish at once.
  double fade_frames = 3.0;  // fractional at other rates (AtFrameRate)
  // A wrinkle none of whose triangles is above the keep threshold stays
  // (dormant, flattened by its shape) this many frames before it fades out,
  // so compression that comes and goes with a gait or noise revives the same
  // wrinkle instead of a new one. About the half-life of the reference
  // relaxation (13.5 frames at 0.95 a frame): the field's own memory.
  int dormant_frames = 12;
  // Heights are scaled by a smoothstep of the wrinkle's shape compression
  // from the keep threshold (0) to tau (1): a wrinkle kept alive by the lower
  // threshold shows only as much as its compression warrants, and fades with
  // it instead of standing at half its height on cloth that has relaxed.
  bool strength_from_compression = true;
  // The persistence solve turns a segment towards its triangle's field
  // direction only as far as that triangle is compressed: not at all at the
  // keep threshold or below (where the direction is noise), fully from tau,
  // a smoothstep between (PersistenceParams::align_from, align_full). false:
  // the same weight everywhere, as the papers' Eq. 5.2.
  bool align_where_compressed = true;
  // The fold's cross-section holds the slack of the compressed band it stands
  // for (docs/algorithm.md, "Shape"): the band's extent across the fold
  // times (c - 1), the band being the compressed triangles it crosses, shared
  // among the wrinkles crossing each; the fold widens and its arc grows to
  // hold it, within fold_limits. false: the thesis's rule, an arc of L_max
  // (the slack inside the fold's own width).
  bool slack_from_band = true;
  // How far such a fold widens: at most max_width L_min, and only until its
  // arc spans max_arc_degrees (docs/algorithm.md, "Shape").
  FoldLimits fold_limits;
  uint64_t seed = 1;  // of the seeding PRNG
};

// The automatic L_min (docs/algorithm.md, "Wrinkle width"): `fraction` of the
// bounding-box diagonal of `surface` (independent of the model's orientation
// and units), but at least a tenth of the median edge length, so that the
// widest wrinkle (pi L_min) spans at least about a third of a typical coarse
// triangle, the finest detail the per-triangle field can place.
double DefaultMinWidth(const SurfaceFrame& surface, double fraction);

// Why a wrinkle ended, for metrics.
struct WrinkleDeath {
  uint32_t id;
  int age;  // frames it lived
  // Joined into another wrinkle (JoinMeetingEnds): its fold lives on there,
  // so a viewer sees no death.
  bool joined = false;
};

struct WrinkleStageTimings {
  double evolve_ms = 0;  // persistence, sliding, meets, length update, death
  double seed_ms = 0;    // seeding, tracing, smoothing
  double shape_ms = 0;   // shape, refinement, triangle -> wrinkle ranges
};

// The wrinkle half of a Session (steps 8-11 in docs/architecture.md, "One
// frame end to end"): keeps the wrinkles alive from frame to frame.
// Deterministic for a given seed.
class WrinkleTracker {
 public:
  explicit WrinkleTracker(const WrinkleParams& params);

  // Sets L_min from the first frame when it is automatic.
  void Initialize(const SurfaceFrame& surface);
  // One frame on the current surface (its compression field already updated).
  void Step(const SurfaceFrame& surface);
  // Only the seeding of new wrinkles, tracing and smoothing (no evolution of
  // the old ones): what a tracker that forgets its wrinkles every frame would
  // do.
  void RetraceFromScratch(const SurfaceFrame& surface);

  double min_width() const { return min_width_; }
  const std::vector<WrinklePath>& wrinkles() const { return paths_; }
  const std::vector<WrinkleShape>& shapes() const { return shapes_; }
  // CSR over triangles: ranges()[offsets()[f] .. offsets()[f + 1]). Built
  // on the first call after a Step (from the positions that Step shaped on),
  // not in Step: a session that only sends paths never pays for them.
  const std::vector<int32_t>& range_offsets() const {
    EnsureRanges();
    return range_offsets_;
  }
  const std::vector<TriangleWrinkleRange>& ranges() const {
    EnsureRanges();
    return ranges_;
  }
  int births() const { return births_; }
  const std::vector<WrinkleDeath>& deaths() const { return deaths_; }
  // Length change of each wrinkle in this frame's length update, relative (|dL|
  // / L).
  double max_length_update() const { return max_length_update_; }
  const WrinkleStageTimings& timings() const { return timings_; }

  // This frame's wrinkles as plain data for a renderer (the lists, refined
  // points and L_min), into `out`'s reused storage. Before the first Step:
  // no lists.
  void ExportFrame(FrameWrinkles* out) const;

 private:
  // 0..1: how much of its height a wrinkle of this shape compression shows.
  double CompressionStrength(double c) const;
  double FadeStep() const {
    return params_.fade_frames > 0 ? 1.0 / params_.fade_frames : 1.0;
  }
  // Persistence, meets, (with update_lengths) the length update, joining
  // and death.
  void Evolve(const SurfaceFrame& surface, bool update_lengths);
  void ResolveMeets(const SurfaceFrame& surface);
  void UpdateLength(const SurfaceFrame& surface, int index);
  // Extends the path's end (callers reverse it to extend the front) by whole
  // segments while their total length stays within `budget`.
  bool Extend(const SurfaceFrame& surface, int index, double budget);
  // Over the path's triangles: the largest compression (at least 1) and
  // whether any is above the keep threshold.
  struct PathCompression {
    double max = 1.0;
    bool kept = false;
  };
  PathCompression CompressionOf(const SurfaceFrame& surface,
                                const WrinklePath& path) const;
  // Updates the path's dormancy and fade; false when it dies now.
  bool StaysAlive(const SurfaceFrame& surface, WrinklePath* path) const;
  void CollectSeedCandidates(const SurfaceFrame& surface);
  // Marks the triangles from which a trace could reach the cloth's border
  // through compressed triangles (IsWrinkleFace, across edges): the only
  // ones whose trace can be a pleat, which runs from the border
  // (ReachesBorder). Seeds elsewhere that could only make a pleat are not
  // traced at all.
  void MarkBorderReach(const SurfaceFrame& surface);
  bool ReachesBorder(int32_t f) const {
    return border_stamp_[f] == border_visit_;
  }
  // Whether triangle f lies in a band inside the cloth that a pleat was
  // found crossing (RunsAlongBothWays) in the last kInnerBandFrames frames:
  // it may seed pleats beside it.
  bool InInnerBand(int32_t f) const { return inner_until_[f] >= seed_frame_; }
  static constexpr int kInnerBandFrames = 30;
  // Births at most `max_births` new wrinkles (this frame's total).
  void Seed(const SurfaceFrame& surface, int max_births);
  // Seeds, traces and keeps one wrinkle from triangle `f`, with its family
  // when it is a fold (SeedFamily), at most `room` in all; returns how many
  // were born. `pleats_only`: kept only if it crosses a confined band
  // (SpansConfinedBand), whatever its length.
  int TrySeed(const SurfaceFrame& surface, int32_t f, bool pleats_only,
              int room);
  // The siblings of the fold just seeded at `seed` in `face` of width
  // `width` (family_spacing_widths); at most `room`; returns how many.
  int SeedFamily(const SurfaceFrame& surface, int32_t face,
                 const Eigen::Vector3d& seed, double width, int room);
  // Whether candidate_ (traced from a seed, `width` wide) is a fold long
  // enough to keep.
  bool LongEnoughForAFold(const SurfaceFrame& surface, double width) const;
  // Adds candidate_ as a new wrinkle.
  void AddNewborn(const SurfaceFrame& surface);
  void Shape(const SurfaceFrame& surface);
  bool FarFromPaths(const SurfaceFrame& surface, const Eigen::Vector3d& q,
                    double distance) const;
  // Whether the trace just made from `face` (trace_scratch_) crosses the
  // whole compressed band it lies in, `length` long: both its ends leave the
  // compressed region or reach the mesh's border, and the band runs along
  // the compression at least min_seed_aspect times that length, in the
  // cloth's own length (a gathered edge, a cuff, a waistband), not a blob of
  // noise.
  // Inside the cloth (both ends leave the compression) the band must
  // instead run on along the compression from `face`, both ways
  // (RunsAlongBothWays).
  bool SpansConfinedBand(const SurfaceFrame& surface, int32_t face,
                         double length);
  // Whether the compressed cloth joined to `face`, squeezed the same way,
  // reaches inner_band_aspect / 2 times `length` along the compression from
  // it both ways, in the cloth's own length, following the band as it
  // turns (a belt's band closes round the body, which a straight measure
  // would cut short), while no thicker across than `length`. Marks the
  // triangles it reached InInnerBand.
  bool RunsAlongBothWays(const SurfaceFrame& surface, int32_t face,
                         double length);
  // Starts a flood fill of the band scratch from `face` alone.
  void StartBandFill(const SurfaceFrame& surface, int32_t face);
  // Builds the triangle lists of the last Shape when they are stale.
  void EnsureRanges() const;

  WrinkleParams params_;
  double min_width_ = 0;
  SplitMix64 rng_;
  SplitMix64 pleat_rng_;  // seeds in band triangles (TrySeed)
  uint32_t next_id_ = 1;
  std::vector<WrinklePath> paths_;
  std::vector<WrinkleShape> shapes_;
  // The lists are built lazily (EnsureRanges), from the topology and
  // positions the last Shape used, kept here.
  mutable std::vector<int32_t> range_offsets_;
  mutable std::vector<TriangleWrinkleRange> ranges_;
  mutable bool ranges_stale_ = false;
  const MeshTopology* shaped_topology_ = nullptr;
  std::vector<Eigen::Vector3d> shaped_positions_;
  int births_ = 0;
  std::vector<WrinkleDeath> deaths_;
  double max_length_update_ = 0;
  int steps_ =
      0;  // Step calls, for the periods of the length update and seeding
  WrinkleStageTimings timings_;

  // Scratch, kept to avoid per-frame allocation.
  SegmentIndex segments_;
  TraceScratch trace_scratch_;
  JoinScratch join_scratch_;
  PersistenceScratch persistence_scratch_;
  mutable TriangleRangesScratch ranges_scratch_;
  // Seed triangles: compression peaks, and (with seed_at_peaks) the others,
  // which may seed only pleats.
  std::vector<int32_t> order_, candidates_, band_candidates_;
  std::vector<double> lengths_;
  std::vector<int32_t> wrinkles_in_face_;  // Shape's per-face path count
  TracedEdges extra_;
  std::vector<Eigen::Vector3d> bbox_lo_, bbox_hi_;
  WrinklePath candidate_;
  std::vector<uint32_t> band_stamp_;  // SpansConfinedBand's flood fill
  uint32_t band_visit_ = 0;
  std::vector<int32_t> band_queue_;
  std::vector<double> band_along_, band_across_;  // RunsAlongBothWays'
  std::vector<Eigen::Vector3d> band_dir_;         // and directions, signed
  std::vector<uint32_t> border_stamp_;  // MarkBorderReach's flood fill
  uint32_t border_visit_ = 0;
  std::vector<int32_t> border_queue_;
  std::vector<int32_t> inner_until_;  // InInnerBand's frames, per triangle
  int32_t seed_frame_ = 0;            // Seed calls so far
};

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_WRINKLE_TRACKER_H_
