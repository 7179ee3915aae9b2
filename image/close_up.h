#ifndef CREASE_IMAGE_CLOSE_UP_H_
#define CREASE_IMAGE_CLOSE_UP_H_

// A close-up (crease-client and crease-render --close_up): where an animation
// compresses most, as the points a camera is framed on, so that the wrinkles
// fill the picture instead of a few pixels of a whole character.

#include <vector>

#include "image/camera.h"
#include "wrinkle/io/animation.h"

namespace crease::image {

// Rest vertices this far apart, as a fraction of the rest mesh's bounding-box
// diagonal (or 1.5 median edge lengths, if more), are in one cluster of
// compressed edges (MostCompressedVertices).
inline constexpr double kClusterLinkFraction = 0.05;

// Packed xyz, over the first `num_frames` frames, of the vertices of the
// edges whose largest shortening (rest length over the shortest length in
// those frames, the rest being the mesh's positions) is among the top
// `fraction` of the edges that shorten by more than 1 %, and of those only
// the heaviest cluster: vertices joined by one of those edges or within
// kClusterLinkFraction of the diagonal (1.5 median edge lengths, if more) of
// each other at rest, weighed by their edges' summed shortening beyond 1. Empty
// when no edge shortens by 1 % (then frame the whole mesh).
std::vector<float> MostCompressedRegion(const io::Animation& animation,
                                        int num_frames, double fraction = 0.1);
// The vertices of those edges, by index.
std::vector<int32_t> MostCompressedVertices(const io::Animation& animation,
                                            int num_frames,
                                            double fraction = 0.1);

// One camera per frame (the first `num_frames`) that follows that region: it
// looks from `azimuth_degrees` as image::AutoFrame does, at the region's
// centre in that frame averaged over four frames either side (it glides),
// from one distance, the median of what each frame needs with `margin` (the
// zoom holds still). Empty when no edge shortens.
std::vector<image::Camera> FollowingCloseUp(const io::Animation& animation,
                                            int num_frames, float aspect,
                                            float azimuth_degrees,
                                            float margin);

}  // namespace crease::image

#endif  // CREASE_IMAGE_CLOSE_UP_H_
