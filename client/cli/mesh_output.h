#ifndef CREASE_CLIENT_CLI_MESH_OUTPUT_H_
#define CREASE_CLIENT_CLI_MESH_OUTPUT_H_

// crease-client's engine outputs: the flags that ask for the wrinkled mesh,
// the per-vertex fields and the UV-space maps (--wrinkled_mesh_level,
// --vertex_fields, --uv_maps_size) and the files written for each frame:
// out/frame_NNNN_wrinkled.obj, out/frame_NNNN_vertex_fields.csv,
// out/frame_NNNN_normal.png and out/frame_NNNN_height.png (client/README.md).

#include <string>
#include <string_view>
#include <vector>

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

// Whether the wrinkled mesh's triangles are narrow enough for the wrinkles
// it carries: with fewer than kEdgesAcrossWanted / 2 edges across a wrinkle
// an engine draws dents, not folds (client/README.md, "--export").
class MeshLevelCheck {
 public:
  // Edges across a wrinkle that a level is chosen to give: the renderer's
  // rule for displacing a wrinkle (docs/algorithm.md, "Which wrinkles
  // displace").
  static constexpr int kEdgesAcrossWanted = 4;
  static constexpr int kMaxLevel = 8;  // WrinkledMeshRequest's

  // The median edge of the first wrinkled mesh, and each wrinkle's median
  // width. Results without a wrinkled mesh or at level 0 (the buckling
  // model's own mesh) are ignored.
  void Add(const v1::Started& started, const v1::FrameResult& result);
  // A warning naming the level that would do (as `flag` sets it), or empty
  // when the level is fine or nothing was measured.
  std::string Warning(std::string_view flag = "--wrinkled_mesh_level") const;

 private:
  int level_ = 0;
  double median_edge_ = 0;
  std::vector<float> widths_;
};

// The warning for a mesh of `level` whose median edge is `edge` carrying
// wrinkles of median width `width` (empty when at least half of
// kEdgesAcrossWanted edges span one).
std::string CoarseLevelWarning(int level, double edge, double width,
                               std::string_view flag = "--wrinkled_mesh_level");

}  // namespace crease::client

#endif  // CREASE_CLIENT_CLI_MESH_OUTPUT_H_
