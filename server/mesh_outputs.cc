#include "server/mesh_outputs.h"

#include <google/protobuf/io/coded_stream.h>

#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "wrinkle/stopwatch.h"

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
// `refined_vertices` (0: none), the vertex fields, labels and tensors.
uint64_t FixedFrameBytes(const v1::Outputs& outputs, uint64_t refined_vertices,
                         uint64_t vertices, uint64_t triangles) {
  uint64_t bytes = 0;
  if (refined_vertices > 0) {
    bytes += MessageFieldBytes(2 * PackedFloatBytes(3 * refined_vertices));
  }
  if (outputs.vertex_fields()) {
    bytes += MessageFieldBytes(PackedFloatBytes(vertices) +
                               2 * PackedFloatBytes(3 * vertices));
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
absl::Status CheckRefinedSize(const v1::Outputs& outputs,
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
      FixedFrameBytes(outputs, static_cast<uint64_t>(counts.vertices),
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
    uint32_t vertex_count, const ServerLimits& limits) {
  const v1::Outputs& outputs = start.outputs();
  MeshOutputsSetup setup;
  setup.vertex_fields = outputs.vertex_fields();
  const uint32_t level = outputs.wrinkled_mesh().level();
  if (level > kMaxWrinkledMeshLevel) {
    return absl::InvalidArgumentError(
        absl::StrFormat("start.outputs.wrinkled_mesh.level: %d is over %d",
                        level, kMaxWrinkledMeshLevel));
  }
  if (level == 0) {
    const uint64_t bytes =
        FixedFrameBytes(outputs, 0, vertex_count, triangles.size());
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
      CheckRefinedSize(outputs, triangles, vertex_count, level, limits));
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

void MeshOutputs::FillFrame(const Session& session,
                            absl::Span<const float> positions,
                            v1::FrameResult* result) {
  if (!wanted()) return;
  Stopwatch stopwatch;
  const std::vector<int32_t>& welded = session.topology().weld_map();
  if (setup_.topology) {
    session.wrinkles().ExportFrame(&wrinkles_);
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
  }
  result->mutable_timings()->set_mesh_outputs_ms(stopwatch.Lap());
}

}  // namespace crease::server
