#ifndef CREASE_WRINKLE_SCA2015_JOINING_H_
#define CREASE_WRINKLE_SCA2015_JOINING_H_

#include <Eigen/Core>
#include <cstdint>
#include <utility>
#include <vector>

#include "wrinkle/core/surface.h"
#include "wrinkle/sca2015/wrinkle_path.h"

namespace crease {

struct JoinParams {
  // Ends at most this far apart may join, model units.
  double max_gap = 0;
  // The two ends must point at each other within this angle's cosine (30°):
  // a fold that bends more than that is two folds.
  double min_alignment = 0.866;
  int max_segments = 64;     // of the joined path
  int max_bridge_faces = 3;  // triangles the connecting line may cross
};

struct JoinScratch {
  std::vector<uint32_t> stamp;  // per face: visited by the joined paths
  uint32_t counter = 0;
  std::vector<EdgePoint> bridge_points;
  std::vector<int32_t> bridge_faces;
  std::vector<std::pair<double, int32_t>> candidates;  // (gap, end pair)
  std::vector<uint8_t> joined;                         // per path
  std::vector<Eigen::Vector3d> end_point, end_out;     // per end
  std::vector<std::pair<double, int32_t>> sweep;       // (x, end)
};

// Joins wrinkles that meet end to end, head on, into one: the field is one
// tensor per coarse triangle, so a fold often comes out as two traces that
// stop short of each other where the direction kinks (each stops within a
// width of the other). The ends are connected by a straight line across at
// most max_bridge_faces triangles that neither path crosses; the joined path
// keeps the older wrinkle's id, and the other is left with no points (it
// dies as broken). Each wrinkle joins at most once a call. Returns the number
// of joins.
int JoinMeetingEnds(const SurfaceFrame& surface, const JoinParams& params,
                    const SegmentIndex& segments, JoinScratch& scratch,
                    std::vector<WrinklePath>* paths);

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_JOINING_H_
