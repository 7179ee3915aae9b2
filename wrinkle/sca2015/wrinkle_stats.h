#ifndef CREASE_WRINKLE_SCA2015_WRINKLE_STATS_H_
#define CREASE_WRINKLE_SCA2015_WRINKLE_STATS_H_

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "wrinkle/core/surface.h"
#include "wrinkle/sca2015/wrinkle_tracker.h"

namespace crease {

// What a viewer sees of a session's wrinkles over a whole animation
// (docs/algorithm.md, "Wrinkle statistics"): how many, how long, how wide, how
// long they live and how often one dies and is reborn in the same place.
struct WrinkleStatsSummary {
  int frames = 0;
  int triangles = 0;
  double diagonal = 0;  // of the first frame's bounding box, model units
  // Wrinkles alive per frame, averaged over every frame, per 100 triangles.
  double wrinkles_per_100_triangles = 0;
  // Medians over every wrinkle-frame (one wrinkle on one frame).
  double median_segments = 0;   // coarse path segments (triangles crossed)
  double median_length = 0;     // refined polyline, model units
  double median_mid_width = 0;  // model units
  double median_length_relative = 0;     // / diagonal
  double median_mid_width_relative = 0;  // / diagonal
  // Median over wrinkle-frames of the sharpest turn, in degrees, along the
  // refined path resampled every L_max (its widest width) of arc length
  // (SharpestTurnDegrees): 0 for a straight fold, 90 for an L. Paths shorter
  // than two L_max are left out.
  double median_sharpest_turn = 0;
  // The same with each pair of chords projected into the plane halfway
  // between the cloth's normals at their ends (SharpestTurnDegrees): how
  // the fold turns within the cloth, without the bends of the coarse surface
  // it lies on (a straight fold over a 40-degree edge of a low-poly body
  // counts 40 above, about 0 here).
  double median_sharpest_turn_in_cloth = 0;
  // Fold families: over every pair of wrinkles in one frame whose mid points
  // (arc-length middles of the refined lines) lie within kNeighbourWidths of
  // the larger of their mid widths, the median angle in degrees between
  // their mid tangents (0: parallel, 90: crossing at right angles; a
  // tangent has no sign). 0 and no pairs when no two wrinkles are that near.
  double median_neighbour_angle = 0;
  int neighbour_pairs = 0;
  // The same over the pairs that face the same way (the normals of the
  // triangles under their mid points within kSameSideDegrees): neighbours
  // on the cloth, not two folds on opposite sides of a thin leg or tail that
  // happen to lie near in space.
  double median_neighbour_angle_same_side = 0;
  int neighbour_pairs_same_side = 0;
  // The same pairs' angle within the cloth (InClothAngleDegrees): one
  // tangent carried into the other's tangent plane first. Two folds in a
  // ring round a sleeve are parallel on the cloth, but their tangents differ
  // in 3D by how far round the sleeve their middles lie; this counts 0.
  double median_neighbour_angle_in_cloth = 0;
  // Median lifetime in frames of the wrinkles that died before the last frame
  // (those alive at the end have not finished their lives; one joined into
  // another has not died); 0 if none died.
  double median_lifetime = 0;
  double frame_rate = 30.0;  // of the animation: lifetimes in seconds
  int ended = 0;             // how many died
  int births = 0;
  // Births within two widths of a wrinkle that died in the last 5 frames.
  int churned_births = 0;
  double churn() const {
    return births > 0 ? static_cast<double>(churned_births) / births : 0.0;
  }
};

// The largest angle, in degrees, between consecutive chords of `refined`
// resampled every `step` of arc length, the samples centred on its length (the
// remainder shorter than a step split between the two ends): how sharply a
// path turns at the scale of its width. Nothing for paths shorter than two
// steps (no two chords to compare) or step <= 0.
// With `normals` (one per refined point: the cloth's normal on the segment
// it starts), each pair of chords is first projected into the plane halfway
// between the cloth's normals at their two far ends: the turn within the
// cloth, without the surface's own bends (exact for two chords each lying in
// one of two planes and meeting on their crease).
std::optional<double> SharpestTurnDegrees(
    const std::vector<RefinedPoint>& refined, double step,
    const std::vector<Eigen::Vector3d>* normals = nullptr);

// The point at half the arc length of `refined` and the unit tangent there
// (of the chord it lies on); nothing for fewer than two points or a line of
// no length.
struct MidPoint {
  Eigen::Vector3d point, tangent;
  size_t index = 0;  // the refined point that starts the chord it lies on
};
// The unsigned angle in degrees (0-90) between tangent a at a point with
// normal a and tangent b at one with normal b, on the cloth: b carried into
// a's tangent plane by the least rotation taking normal b to normal a (exact
// for two planes meeting on a crease and round a cylinder; the normals must
// not be opposite). 90 for a zero tangent.
double InClothAngleDegrees(const Eigen::Vector3d& tangent_a,
                           const Eigen::Vector3d& normal_a,
                           const Eigen::Vector3d& tangent_b,
                           const Eigen::Vector3d& normal_b);
std::optional<MidPoint> ArcLengthMiddle(
    const std::vector<RefinedPoint>& refined);

// Accumulates WrinkleStatsSummary frame by frame from a Session's tracker.
class WrinkleStatistics {
 public:
  // Frames at 30 fps a death counts against births for churn: the frame it
  // died on and the 4 before (a sixth of a second; at another frame rate as
  // many frames as that takes).
  static constexpr int kChurnWindow = 5;

  WrinkleStatistics() = default;
  // For an animation of `frame_rate` frames a second (> 0).
  explicit WrinkleStatistics(double frame_rate);
  // A birth this many widths (the larger of the two wrinkles' mid widths) or
  // less from a recently dead wrinkle is churn.
  static constexpr double kChurnWidths = 2.0;

  // Wrinkles this near (in mid widths) count as neighbours for
  // median_neighbour_angle.
  static constexpr double kNeighbourWidths = 4.0;
  // Neighbours whose cloth normals differ by more than this face different
  // ways (median_neighbour_angle_same_side).
  static constexpr double kSameSideDegrees = 60.0;
  // Call after every processed frame, the first included.
  void AddFrame(const SurfaceFrame& surface, const WrinkleTracker& tracker) {
    AddFrame(surface, tracker.wrinkles(), tracker.shapes(), tracker.deaths());
  }
  // The same from plain data: this frame's wrinkles, their shapes
  // (index-aligned) and the wrinkles that died on this frame.
  void AddFrame(const SurfaceFrame& surface,
                const std::vector<WrinklePath>& paths,
                const std::vector<WrinkleShape>& shapes,
                const std::vector<WrinkleDeath>& deaths);
  WrinkleStatsSummary Summary() const;

 private:
  struct Seen {
    int frames = 0;  // frames it was alive
    double mid_width = 0;
    std::vector<EdgePoint> points;  // as on the last frame it was alive
  };
  struct Dead {
    int frame = 0;
    double mid_width = 0;
    std::vector<EdgePoint> points;
  };
  bool NearRecentDeath(const SurfaceFrame& surface, const WrinklePath& path,
                       double mid_width) const;
  void AddNeighbourAngles(const SurfaceFrame& surface,
                          const std::vector<WrinklePath>& paths,
                          const std::vector<WrinkleShape>& shapes);
  // The normal of the triangle under each refined point, into normals_.
  void RefinedNormals(const SurfaceFrame& surface, const WrinklePath& path,
                      const WrinkleShape& shape);

  int churn_window_ = kChurnWindow;  // frames at this frame rate
  double frame_rate_ = 30.0;
  int frame_ = 0;
  int triangles_ = 0;
  double diagonal_ = 0;
  double alive_sum_ = 0;
  std::vector<double> segments_, lengths_, mid_widths_, sharpest_turns_;
  std::vector<double> sharpest_turns_in_cloth_;
  std::vector<double> neighbour_angles_, neighbour_angles_same_side_;
  std::vector<double> neighbour_angles_in_cloth_;
  struct Middle {  // scratch: one wrinkle's middle this frame
    Eigen::Vector3d point, tangent, normal;
    double width;
  };
  std::vector<Eigen::Vector3d> normals_;  // scratch: RefinedNormals
  std::vector<Middle> middles_;
  std::vector<int> lifetimes_;
  int births_ = 0;
  int churned_ = 0;
  absl::flat_hash_map<uint32_t, Seen> seen_;
  std::vector<Dead> recent_deaths_;
};

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_WRINKLE_STATS_H_
