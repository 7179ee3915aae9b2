#include "server/mesh_outputs.h"

#include <google/protobuf/io/coded_stream.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "common/stopwatch.h"
#include "renderer/uv_maps.h"

namespace crease::server {
namespace {

using google::protobuf::io::CodedOutputStream;

// Encoded sizes: a packed repeated float field of n values, and a message
// field of `bytes` (field numbers below 16: one tag byte).
uint64_t PackedFloatBytes(uint64_t n) {
  return n == 0 ? 0 : 1 + CodedOutputStream::VarintSize64(4 * n) + 4 * n;
}
uint64_t MessageFieldBytes(uint64_t bytes) {
  return 1 + CodedOutputStream::VarintSize64(bytes) + bytes;
}

// What every FrameResult carries at a fixed size: the wrinkled mesh of
// `refined_vertices` (0: none), the vertex fields (with tangent-space
// directions when the Start has UVs), labels and tensors.
uint64_t FixedFrameBytes(const v1::Start& start, uint64_t refined_vertices,
                         uint64_t vertices, uint64_t triangles) {
  const v1::Outputs& outputs = start.outputs();
  uint64_t bytes = 0;
  if (refined_vertices > 0) {
    bytes += MessageFieldBytes(2 * PackedFloatBytes(3 * refined_vertices));
  }
  if (outputs.vertex_fields()) {
    const bool has_uvs = start.topology().corner_uvs_size() > 0;
    bytes += MessageFieldBytes(PackedFloatBytes(vertices) +
                               2 * PackedFloatBytes(3 * vertices) +
                               (has_uvs ? PackedFloatBytes(2 * vertices) : 0));
  }
  if (outputs.labels()) {
    bytes += 1 + CodedOutputStream::VarintSize64(triangles) + triangles;
  }
  if (outputs.tensors()) bytes += PackedFloatBytes(8 * triangles);
  return bytes;
}

// Started.wrinkled_mesh for this refinement.
std::shared_ptr<v1::WrinkledMeshTopology> StartedMessage(
    const RefinedTopology& refined, const v1::Topology& topology) {
  auto message = std::make_shared<v1::WrinkledMeshTopology>();
  message->set_level(static_cast<uint32_t>(refined.level));
  message->set_vertex_count(static_cast<uint32_t>(refined.num_vertices()));
  auto* triangles = message->mutable_triangles();
  triangles->Reserve(3 * refined.num_triangles());
  for (const std::array<int32_t, 3>& t : refined.triangles) {
    for (int32_t v : t) triangles->AddAlreadyReserved(static_cast<uint32_t>(v));
  }
  // Checked against the triangles by the topology's validation.
  const std::vector<float> uvs =
      RefineCornerUvs(refined, topology.corner_uvs());
  message->mutable_corner_uvs()->Add(uvs.begin(), uvs.end());
  return message;
}

absl::Status Exhausted(const std::string& what) {
  return absl::ResourceExhaustedError(
      absl::StrFormat("start.outputs.wrinkled_mesh.level: %s", what));
}

// A mesh at `level` checked against the message limit before it is built:
// each index takes at least a byte in Started, each vertex 24 in every frame.
absl::Status CheckRefinedSize(const v1::Start& start,
                              absl::Span<const io::Triangle> triangles,
                              uint32_t vertex_count, uint32_t level,
                              const ServerLimits& limits) {
  const RefinedCounts counts = CountRefined(
      triangles, static_cast<int>(vertex_count), static_cast<int>(level));
  if (3 * static_cast<uint64_t>(counts.triangles) > limits.max_message_bytes) {
    return Exhausted(absl::StrFormat(
        "%d gives %d triangles: at least %d bytes in Started, over this "
        "server's max_message_bytes (%d)",
        level, counts.triangles, 3 * counts.triangles,
        limits.max_message_bytes));
  }
  const uint64_t frame_bytes =
      FixedFrameBytes(start, static_cast<uint64_t>(counts.vertices),
                      vertex_count, triangles.size());
  if (frame_bytes > limits.max_message_bytes / 2) {
    return Exhausted(absl::StrFormat(
        "%d gives %d vertices: %d bytes a frame with the other fixed-size "
        "outputs, over half this server's max_message_bytes (%d)",
        level, counts.vertices, frame_bytes, limits.max_message_bytes));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<MeshOutputsSetup> ValidateMeshOutputs(
    const v1::Start& start, absl::Span<const io::Triangle> triangles,
    uint32_t vertex_count, const ServerLimits& limits,
    bool refine_wrinkled_mesh) {
  const v1::Outputs& outputs = start.outputs();
  MeshOutputsSetup setup;
  setup.vertex_fields = outputs.vertex_fields();
  if (setup.vertex_fields && start.topology().corner_uvs_size() > 0) {
    setup.corner_uvs.assign(start.topology().corner_uvs().begin(),
                            start.topology().corner_uvs().end());
    setup.vertex_corner.assign(vertex_count, -1);
    for (size_t corner = 3 * triangles.size(); corner-- > 0;) {
      setup.vertex_corner[triangles[corner / 3][corner % 3]] =
          static_cast<int32_t>(corner);
    }
  }
  const uint32_t level = outputs.wrinkled_mesh().level();
  if (level > kMaxWrinkledMeshLevel) {
    return absl::InvalidArgumentError(
        absl::StrFormat("start.outputs.wrinkled_mesh.level: %d is over %d",
                        level, kMaxWrinkledMeshLevel));
  }
  if (level == 0 || !refine_wrinkled_mesh) {
    const uint64_t bytes =
        FixedFrameBytes(start, 0, vertex_count, triangles.size());
    if (setup.vertex_fields && bytes > limits.max_message_bytes / 2) {
      return absl::ResourceExhaustedError(absl::StrFormat(
          "start.outputs.vertex_fields: %d bytes a frame with the other "
          "fixed-size outputs, over half this server's max_message_bytes "
          "(%d)",
          bytes, limits.max_message_bytes));
    }
    return setup;
  }
  CREASE_RETURN_IF_ERROR(
      CheckRefinedSize(start, triangles, vertex_count, level, limits));
  absl::StatusOr<RefinedTopology> refined = RefineTopology(
      triangles, static_cast<int>(vertex_count), static_cast<int>(level));
  if (!refined.ok()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "start.outputs.wrinkled_mesh: %s", refined.status().message()));
  }
  auto started = StartedMessage(*refined, start.topology());
  // Room for the rest of Started (id, parameters, limits).
  constexpr uint64_t kStartedRest = 1024;
  if (started->ByteSizeLong() + kStartedRest > limits.max_message_bytes) {
    return Exhausted(absl::StrFormat(
        "%d gives %d triangles: %d bytes in Started, over this server's "
        "max_message_bytes (%d)",
        level, refined->num_triangles(), started->ByteSizeLong(),
        limits.max_message_bytes));
  }
  setup.started = std::move(started);
  setup.topology = std::make_shared<const RefinedTopology>(*std::move(refined));
  return setup;
}

void MeshOutputs::FillStarted(v1::Started* started) const {
  if (setup_.started) *started->mutable_wrinkled_mesh() = *setup_.started;
}

// Each vertex's direction in its first corner's tangent frame (the normal
// map's: renderer::CornerTangents on the renderer's smooth normals), as a
// unit 2D vector with x >= 0 (axial), or 0 0.
void MeshOutputs::FillTangentDirections(const Session& session,
                                        absl::Span<const float> positions) {
  const renderer::RenderMesh mesh = {positions, session.topology().triangles(),
                                     session.topology().weld_map(),
                                     setup_.corner_uvs};
  normals_.Compute(mesh);
  const std::vector<float>& interleaved = normals_.interleaved();
  renderer::CornerTangents(mesh, interleaved, &corner_tangents_,
                           &tangent_scratch_);
  const size_t num_vertices = setup_.vertex_corner.size();
  tangent_directions_.assign(2 * num_vertices, 0.0f);
  for (size_t v = 0; v < num_vertices; ++v) {
    const int32_t corner = setup_.vertex_corner[v];
    const Eigen::Vector3f d(fields_.directions[3 * v],
                            fields_.directions[3 * v + 1],
                            fields_.directions[3 * v + 2]);
    if (corner < 0 || d.squaredNorm() == 0.0f) continue;
    const float* frame = &corner_tangents_[4 * static_cast<size_t>(corner)];
    const Eigen::Vector3f n =
        Eigen::Vector3f(interleaved[6 * v + 3], interleaved[6 * v + 4],
                        interleaved[6 * v + 5])
            .normalized();
    const Eigen::Vector3f t(frame[0], frame[1], frame[2]);
    const Eigen::Vector3f b = frame[3] * n.cross(t);
    Eigen::Vector2f in_frame(d.dot(t), d.dot(b));
    const float length = in_frame.norm();
    if (length < 1e-6f) continue;  // along the normal: no direction in plane
    in_frame /= length;
    if (in_frame.x() < 0.0f || (in_frame.x() == 0.0f && in_frame.y() < 0.0f))
      in_frame = -in_frame;
    tangent_directions_[2 * v] = in_frame.x();
    tangent_directions_[2 * v + 1] = in_frame.y();
  }
}

void MeshOutputs::FillFrame(const Session& session,
                            absl::Span<const float> positions,
                            v1::FrameResult* result) {
  if (!wanted()) return;
  Stopwatch stopwatch;
  const std::vector<int32_t>& welded = session.topology().weld_map();
  if (setup_.topology) {
    session.tracker().ExportFrame(&wrinkles_);
    mesh_builder_.Compute(*setup_.topology, positions, welded, wrinkles_,
                          &mesh_);
    v1::WrinkledMesh* mesh = result->mutable_wrinkled_mesh();
    mesh->mutable_positions()->Add(mesh_.positions.begin(),
                                   mesh_.positions.end());
    mesh->mutable_normals()->Add(mesh_.normals.begin(), mesh_.normals.end());
  }
  if (setup_.vertex_fields) {
    field_builder_.Compute(positions, session.topology().triangles(), welded,
                           session.compression_field(), session.labels(),
                           &fields_);
    v1::VertexFields* fields = result->mutable_vertex_fields();
    fields->mutable_compression()->Add(fields_.compression.begin(),
                                       fields_.compression.end());
    fields->mutable_directions()->Add(fields_.directions.begin(),
                                      fields_.directions.end());
    fields->mutable_label_weights()->Add(fields_.label_weights.begin(),
                                         fields_.label_weights.end());
    if (!setup_.corner_uvs.empty()) {
      FillTangentDirections(session, positions);
      fields->mutable_tangent_directions()->Add(tangent_directions_.begin(),
                                                tangent_directions_.end());
    }
  }
  result->mutable_timings()->set_mesh_outputs_ms(stopwatch.Lap());
}

}  // namespace crease::server
