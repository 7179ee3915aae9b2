#ifndef CREASE_CLIENT_CLI_GLTF_EXPORT_H_
#define CREASE_CLIENT_CLI_GLTF_EXPORT_H_

// crease-client --export FILE.glb: what the session returned, as one glTF 2.0
// binary file (wrinkle/io/gltf_write.h) written when the stream ends. Per
// frame, in the order they arrive (frames the server failed are left out):
//
// * the wrinkled mesh, when --wrinkled_mesh_level asked for it: its fixed
//   triangles and UVs (Started.wrinkled_mesh) and its positions
//   (FrameResult.wrinkled_mesh). With its analytic normals, when no normal
//   map came too; when one did (--uv_maps_size) and the mesh has UVs, with
//   that map, and the coarse smooth surface's normals and tangents at each
//   refined vertex (the frame the map is baked in): the map shades the folds
//   and the geometry gives their outline;
// * else the coarse mesh at the positions streamed, with smooth normals (the
//   renderer's rule: area-weighted over welded vertices) and the UVs of the
//   input, and the server's normal map (FrameResult.uv_maps) as the frame's
//   normalTexture when the frame has one.
//
// The frame rate is --fps (30 when it is 0).

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "crease/v1/crease.pb.h"
#include "wrinkle/data/corner_tangents.h"
#include "wrinkle/data/refined_topology.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/io/gltf_write.h"

namespace crease::client {

class GltfExport {
 public:
  // `path` is where the .glb goes; `animation` is what is streamed.
  GltfExport(std::string path, const io::Animation& animation, double fps);

  // Keeps what one successful result brings. InvalidArgument when it does
  // not fit the session (sizes, a wrinkled mesh in some frames only).
  absl::Status Add(const v1::Started& started, const v1::FrameResult& result);

  // Writes the file; unless `quiet`, says where, how many frames and bytes.
  absl::Status Write(bool quiet) const;

 private:
  absl::Status AddWrinkled(const v1::Started& started,
                           const v1::FrameResult& result);
  absl::Status AddCoarse(const v1::FrameResult& result);
  absl::Status MapOntoWrinkled(const v1::Started& started,
                               const v1::FrameResult& result,
                               io::GltfFrame* frame);
  void PlaceOnCoarse(absl::Span<const float> coarse,
                     std::vector<float>* positions,
                     std::vector<float>* normals);

  const std::string path_;
  const io::Animation& animation_;
  std::vector<int32_t> welded_;  // coarse vertex -> welded id
  // With maps on the wrinkled mesh: its topology rebuilt, and its welding.
  RefinedTopology refined_;
  std::vector<int32_t> refined_welded_;
  std::vector<float> normal_sums_;  // per coarse welded id, reused
  int num_welded_ = 0;
  // The tangents' position + normal per vertex, and their reused state.
  std::vector<float> interleaved_;
  TangentScratch tangent_scratch_;
  io::GltfMeshAnimation gltf_;
  enum class Source { kNone, kWrinkled, kCoarse } source_ = Source::kNone;
};

// From --export: null when it is not given. InvalidArgument when the name
// does not end in .glb or its directory does not exist (checked before any
// frame is streamed).
absl::StatusOr<std::unique_ptr<GltfExport>> GltfExportFromFlags(
    const io::Animation& animation, double fps);

}  // namespace crease::client

#endif  // CREASE_CLIENT_CLI_GLTF_EXPORT_H_
