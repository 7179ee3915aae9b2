#ifndef CREASE_WRINKLE_IO_ANIMATION_H_
#define CREASE_WRINKLE_IO_ANIMATION_H_

#include <string>

#include "absl/status/statusor.h"
#include "wrinkle/io/pc2.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::io {

// A mesh with fixed connectivity (from OBJ) and its per-frame vertex positions
// (PC2).
struct Animation {
  TriangleMesh mesh;  // positions are the OBJ's (frame 0 up to rounding)
  PointCache frames;  // frames.num_points == mesh.num_vertices()

  int num_frames() const { return frames.num_samples; }
};

// Reads NAME.obj and NAME.pc2 and checks that their vertex counts agree.
absl::StatusOr<Animation> ReadAnimation(const std::string& obj_path,
                                        const std::string& pc2_path);

}  // namespace crease::io

#endif  // CREASE_WRINKLE_IO_ANIMATION_H_
