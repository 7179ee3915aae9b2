#ifndef CREASE_WRINKLE_SCA2015_WRINKLE_PATH_H_
#define CREASE_WRINKLE_SCA2015_WRINKLE_PATH_H_

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "wrinkle/core/surface.h"

namespace crease {

// One wrinkle: a polyline whose vertices lie on mesh edges, straight inside
// each triangle it crosses.
struct WrinklePath {
  uint32_t id = 0;  // stable for the wrinkle's life, unique within a session
  int age = 0;      // frames since birth (0 on the frame it is born)
  // Scales the heights, so wrinkles neither pop in nor out: rises by
  // 1 / fade_frames a frame from birth to 1, falls as fast while the death
  // condition holds (rising again if it stops holding); at 0 the wrinkle dies.
  double fade = 1.0;
  // The largest compression over its triangles as its shape uses it: follows
  // the current value by at most max_shape_change (relative) per frame, so
  // width and height do not jump when the path reaches a more compressed
  // triangle. 0: not set yet (newborn).
  double shape_compression = 0.0;
  // The extent of the compressed band the fold stands for (BandExtent in
  // shape.h), followed like shape_compression. < 0: not set yet.
  double shape_band = -1.0;
  // Frames in a row with no triangle above the keep threshold.
  int dormant = 0;
  std::vector<EdgePoint> points;  // at least 2
  std::vector<int32_t>
      faces;  // faces[i] holds the segment points[i] -> points[i+1]

  int num_segments() const { return static_cast<int>(faces.size()); }
};

// Polyline length on the given frame.
double PathLength(const SurfaceFrame& surface, const WrinklePath& path);

// Per-face lists of path segments, for crossing tests. Rebuilt each frame into
// buffers that keep their capacity.
class SegmentIndex {
 public:
  struct Segment {
    int32_t next;  // next segment in the same face, or -1
    int32_t path;
    Eigen::Vector3d a, b;
  };
  void Reset(int num_faces);
  void Add(int32_t face, int32_t path, const Eigen::Vector3d& a,
           const Eigen::Vector3d& b);
  void AddPath(const SurfaceFrame& surface, int32_t path_index,
               const WrinklePath& path);
  // True if [a, b] in `face` properly crosses a segment of another path there.
  bool Crosses(const SurfaceFrame& surface, int32_t face, int32_t path,
               const Eigen::Vector3d& a, const Eigen::Vector3d& b) const;
  // True if a segment of another path in a triangle touching the edge of
  // `point` comes closer than `distance` to it. (Spacings wider than a triangle
  // are not all seen.)
  bool NearOtherPath(const SurfaceFrame& surface, const EdgePoint& point,
                     int32_t path, double distance) const;

 private:
  std::vector<int32_t> head_;
  std::vector<Segment> segments_;
};

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_WRINKLE_PATH_H_
