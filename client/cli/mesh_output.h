#ifndef CREASE_CLIENT_CLI_MESH_OUTPUT_H_
#define CREASE_CLIENT_CLI_MESH_OUTPUT_H_

// crease-client's engine outputs: the flags that ask for the wrinkled mesh,
// the per-vertex fields and the UV-space maps (--wrinkled_mesh_level,
// --vertex_fields, --uv_maps_size) and the files written for each frame:
// out/frame_NNNN_wrinkled.obj, out/frame_NNNN_vertex_fields.csv,
// out/frame_NNNN_normal.png and out/frame_NNNN_height.png (client/README.md).

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "crease/v1/crease.pb.h"

namespace crease::client {

// Adds to `start` the mesh outputs the flags ask for.
void RequestMeshOutputs(v1::Start* start);

// The wrinkled mesh of one frame as OBJ: `v` and `vn` per vertex, `vt` per
// triangle corner when the topology has UVs, and `f a/t/n` (or `a//n`) faces.
// InvalidArgument when the sizes disagree (the field named).
absl::StatusOr<std::string> WrinkledMeshObj(
    const v1::WrinkledMeshTopology& topology, const v1::WrinkledMesh& mesh);

// The vertex fields of one frame as CSV: a header, then per vertex
// `vertex,compression,dir_x,dir_y,dir_z,compress,rest,stretch`.
// InvalidArgument when the sizes disagree.
absl::StatusOr<std::string> VertexFieldsCsv(const v1::VertexFields& fields);

// FrameResult.vertex_amplitudes (the wrinkle-map model) as CSV, one row per
// vertex: `vertex,a0[,a1[,a2]]`. InvalidArgument for a malformed message.
absl::StatusOr<std::string> VertexAmplitudesCsv(
    const v1::VertexAmplitudes& amplitudes);

// Writes what `result` carries of them into `out`, as the files above.
absl::Status SaveMeshOutputs(const v1::Started& started,
                             const v1::FrameResult& result,
                             const std::string& out);

}  // namespace crease::client

#endif  // CREASE_CLIENT_CLI_MESH_OUTPUT_H_
