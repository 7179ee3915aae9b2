#ifndef CREASE_WRINKLE_IO_PLY_H_
#define CREASE_WRINKLE_IO_PLY_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::io {

using Rgb = std::array<uint8_t, 3>;

// A per-face scalar written as an extra `property float NAME` of the face
// element.
struct FaceScalar {
  std::string name;
  absl::Span<const float> values;  // one per triangle
};

// Binary little-endian PLY with per-face colours (`red green blue`, which
// MeshLab and Blender show) and optional per-face scalars. `positions` are
// packed xyz for `triangles`' vertices. InvalidArgument when a per-face array
// has the wrong length.
absl::Status WritePlyWithFaceColors(
    const std::string& path, absl::Span<const float> positions,
    absl::Span<const Triangle> triangles, absl::Span<const Rgb> face_colors,
    absl::Span<const FaceScalar> face_scalars = {});

}  // namespace crease::io

#endif  // CREASE_WRINKLE_IO_PLY_H_
