#ifndef CREASE_CLIENT_CLI_CLOSE_UP_H_
#define CREASE_CLIENT_CLI_CLOSE_UP_H_

// crease-client --close_up: where an animation compresses most, as the
// points a camera is framed on, so that the wrinkles fill the picture
// instead of a few pixels of a whole character.

#include <vector>

#include "wrinkle/io/animation.h"

namespace crease::client {

// Packed xyz, over the first `num_frames` frames, of the vertices of the
// edges whose largest shortening (rest length over the shortest length in
// those frames, the rest being the mesh's positions) is among the top
// `fraction` of the edges that shorten by more than 1 %. Empty when none
// does (then frame the whole mesh).
std::vector<float> MostCompressedRegion(const io::Animation& animation,
                                        int num_frames, double fraction = 0.1);

}  // namespace crease::client

#endif  // CREASE_CLIENT_CLI_CLOSE_UP_H_
