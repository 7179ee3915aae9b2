// Fuzzes the server's handling of a client's Start message (bytes off the
// wire): parsing, ValidateStart against small limits, then, for what it
// accepts, a Session on the validated setup, a few frames and FillFrameResult
// with every output, the mesh outputs the Start asked for and the wrinkle-map
// model when chosen. Validation must
// return only the documented codes, an accepted Start keeps its corner UVs as
// sent (finite, 6 per triangle, or none), and must give a session that
// accepts finite frames.

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "crease/v1/crease.pb.h"
#include "server/session_setup.h"
#include "tests/fuzz/session_invariants.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace crease;
  v1::Start start;
  if (!start.ParseFromArray(data, static_cast<int>(size))) return 0;
  server::ServerLimits limits;
  limits.max_vertices = 2000;
  limits.max_triangles = 4000;
  limits.max_image_size = 1024;
  const absl::StatusOr<server::SessionSetup> setup =
      server::ValidateStart(start, limits, /*can_render=*/true);
  if (!setup.ok()) {
    CREASE_FUZZ_CHECK(absl::IsInvalidArgument(setup.status()) ||
                      absl::IsResourceExhausted(setup.status()));
    CREASE_FUZZ_CHECK(!setup.status().message().empty());
    return 0;
  }
  const auto& sent_uvs = start.topology().corner_uvs();
  CREASE_FUZZ_CHECK(setup->corner_uvs.size() ==
                    static_cast<size_t>(sent_uvs.size()));
  CREASE_FUZZ_CHECK(setup->corner_uvs.empty() ||
                    setup->corner_uvs.size() == 6 * setup->triangles.size());
  for (size_t i = 0; i < setup->corner_uvs.size(); ++i) {
    CREASE_FUZZ_CHECK(std::isfinite(setup->corner_uvs[i]));
    CREASE_FUZZ_CHECK(setup->corner_uvs[i] == sent_uvs[static_cast<int>(i)]);
  }
  absl::StatusOr<std::unique_ptr<Session>> session =
      Session::Create(setup->triangles, setup->rest_positions, setup->params);
  if (!session.ok()) {
    CREASE_FUZZ_CHECK(absl::IsInvalidArgument(session.status()));
    return 0;
  }
  // Frames: the rest shape (or a line of vertices when none was sent), then
  // the same squeezed along x and bent along z.
  std::vector<float> positions = setup->rest_positions;
  if (positions.empty()) {
    for (uint32_t v = 0; v < setup->vertex_count; ++v) {
      positions.insert(positions.end(),
                       {0.01f * (v % 17), 0.01f * (v / 17), 0.0f});
    }
  }
  v1::Outputs all;
  all.set_paths(true);
  all.set_labels(true);
  all.set_tensors(true);
  // The mesh outputs as the Start asked for them.
  server::MeshOutputs mesh_outputs(setup->mesh_outputs);
  v1::Started started;
  mesh_outputs.FillStarted(&started);
  const auto& refined = setup->mesh_outputs.topology;
  if (refined != nullptr) {
    CREASE_FUZZ_CHECK(started.wrinkled_mesh().triangles_size() ==
                      3 * refined->num_triangles());
    for (uint32_t v : started.wrinkled_mesh().triangles()) {
      CREASE_FUZZ_CHECK(v < started.wrinkled_mesh().vertex_count());
    }
  }
  // The wrinkle-map model, when chosen: an accepted Start's model builds and
  // updates on every finite frame.
  server::AmplitudeMaps amplitude_maps(setup->amplitude_maps);
  std::optional<uint32_t> last_index;
  for (uint32_t frame = 0; frame < 3; ++frame) {
    v1::Frame message;
    message.set_index(frame);
    message.mutable_positions()->Add(positions.begin(), positions.end());
    CREASE_FUZZ_CHECK(
        server::ValidateFrame(message, setup->vertex_count, last_index).ok());
    last_index = frame;
    CREASE_FUZZ_CHECK((*session)->ProcessFrame(positions).ok());
    fuzz::CheckSessionOutputs(**session);
    v1::FrameResult result;
    server::FillFrameResult(**session, all, &result);
    CREASE_FUZZ_CHECK(result.labels().size() ==
                      static_cast<size_t>((*session)->num_triangles()));
    mesh_outputs.FillFrame(**session, positions, &result);
    CREASE_FUZZ_CHECK(amplitude_maps
                          .Update(**session, setup->rest_positions,
                                  setup->corner_uvs, positions)
                          .ok());
    amplitude_maps.FillFrame(0.0, &result);
    if (amplitude_maps.enabled() && start.outputs().vertex_amplitudes()) {
      const v1::VertexAmplitudes& a = result.vertex_amplitudes();
      CREASE_FUZZ_CHECK(a.channels() >= 1 && a.channels() <= 3);
      CREASE_FUZZ_CHECK(static_cast<uint32_t>(a.amplitudes_size()) ==
                        a.channels() * setup->vertex_count);
      for (float x : a.amplitudes()) CREASE_FUZZ_CHECK(std::isfinite(x));
    }
    if (refined != nullptr) {
      CREASE_FUZZ_CHECK(result.wrinkled_mesh().positions_size() ==
                        3 * refined->num_vertices());
      for (float x : result.wrinkled_mesh().positions()) {
        CREASE_FUZZ_CHECK(std::isfinite(x));
      }
    }
    for (float x : result.vertex_fields().compression()) {
      CREASE_FUZZ_CHECK(std::isfinite(x) && x > 0);
    }
    for (size_t v = 0; v < positions.size(); v += 3) {
      positions[v + 2] += 0.05f * positions[v] * positions[v];
      positions[v] *= 0.8f;
    }
    for (float x : positions) {
      if (!std::isfinite(x)) return 0;  // overflowed: not a frame to send
    }
  }
  return 0;
}
