#ifndef CREASE_SERVER_MESH_OUTPUTS_H_
#define CREASE_SERVER_MESH_OUTPUTS_H_

// The engine-ready mesh outputs of a session (docs/protocol.md, "Wrinkled
// mesh" and "Per-vertex fields"): checked at the Start, the refined topology
// sent once in Started, the wrinkled mesh and the per-vertex fields computed
// each frame. A session that asks for neither holds and computes nothing.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "crease/v1/crease.pb.h"
#include "renderer/frame_data.h"
#include "renderer/uv_maps.h"
#include "server/server_options.h"
#include "wrinkle/data/frame_wrinkles.h"
#include "wrinkle/data/refined_topology.h"
#include "wrinkle/io/triangle_mesh.h"
#include "wrinkle/outputs/vertex_fields.h"
#include "wrinkle/outputs/wrinkled_mesh.h"
#include "wrinkle/sca2015/session.h"

namespace crease::server {

// Outputs.wrinkled_mesh.level: 1..this (0: none).
inline constexpr uint32_t kMaxWrinkledMeshLevel = 8;

// A Start's mesh outputs, validated.
struct MeshOutputsSetup {
  // Null when no wrinkled mesh was asked for.
  std::shared_ptr<const RefinedTopology> topology;
  // Started.wrinkled_mesh, built once at validation (its size is checked).
  std::shared_ptr<const v1::WrinkledMeshTopology> started;
  bool vertex_fields = false;
  // With vertex fields and corner UVs: the UVs, and per vertex the first
  // corner that uses it (-1: none), whose tangent frame the vertex's
  // tangent-space direction is given in.
  std::vector<float> corner_uvs;
  std::vector<int32_t> vertex_corner;
};

// The Start's Outputs.wrinkled_mesh and vertex_fields on its (validated)
// mesh. INVALID_ARGUMENT for a level over kMaxWrinkledMeshLevel;
// RESOURCE_EXHAUSTED when the refined topology would not fit in
// max_message_bytes, or the outputs every FrameResult carries at a fixed size
// (wrinkled mesh, vertex fields, labels, tensors) not in half of it (the
// other half is left to the wrinkle paths and the image).
absl::StatusOr<MeshOutputsSetup> ValidateMeshOutputs(
    const v1::Start& start, absl::Span<const io::Triangle> triangles,
    uint32_t vertex_count, const ServerLimits& limits,
    bool refine_wrinkled_mesh = true);

// One session's mesh outputs, frame after frame (one thread at a time).
class MeshOutputs {
 public:
  MeshOutputs() = default;
  explicit MeshOutputs(MeshOutputsSetup setup) : setup_(std::move(setup)) {}

  bool wanted() const {
    return setup_.topology != nullptr || setup_.vertex_fields;
  }
  // Triangles a frame works on per coarse triangle (level^2 with a mesh).
  size_t work_per_triangle() const {
    const int level = setup_.topology ? setup_.topology->level : 1;
    return static_cast<size_t>(level) * level;
  }

  // Started.wrinkled_mesh, when a mesh was asked for.
  void FillStarted(v1::Started* started) const;
  // The session's last frame (`positions`): FrameResult.wrinkled_mesh and
  // vertex_fields as asked, and timings.mesh_outputs_ms.
  void FillFrame(const Session& session, absl::Span<const float> positions,
                 v1::FrameResult* result);

 private:
  void FillTangentDirections(const Session& session,
                             absl::Span<const float> positions);

  MeshOutputsSetup setup_;
  FrameWrinkles wrinkles_;
  WrinkledMeshBuilder mesh_builder_;
  WrinkledMeshFrame mesh_;
  VertexFieldBuilder field_builder_;
  VertexFields fields_;
  renderer::SmoothNormals normals_;
  std::vector<float> corner_tangents_, tangent_directions_;
  renderer::TangentScratch tangent_scratch_;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_MESH_OUTPUTS_H_
