#ifndef CREASE_CLIENT_MESH_MESSAGES_H_
#define CREASE_CLIENT_MESH_MESSAGES_H_

#include <cstdint>

#include "absl/types/span.h"
#include "crease/v1/crease.pb.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::client {

// A Start carrying `mesh`'s topology, its positions as the rest shape (used
// to weld UV seams and soups) and its corner UVs when it has them (as they
// are: u v per triangle corner, v upwards). Parameters and outputs are the
// caller's.
v1::Start StartForMesh(const io::TriangleMesh& mesh);

// Frame `index` with packed xyz `positions`.
v1::Frame FrameOf(absl::Span<const float> positions, uint32_t index);

}  // namespace crease::client

#endif  // CREASE_CLIENT_MESH_MESSAGES_H_
