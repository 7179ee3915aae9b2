// Fuzzes the server's handling of a client's Start message (bytes off the
// wire): parsing, ValidateStart against small limits, then, for what it
// accepts, a ServedSession (the server's own Start -> answer sequence) and a
// few frames answered with what the Start asked for (and, for odd-sized
// inputs, the paths, labels and tensors as well, so the analysis runs whole).
// Validation must return only the documented codes, an accepted Start keeps
// its corner UVs as sent (finite, 6 per triangle, or none), and its session
// must answer finite frames without an error.

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "crease/v1/crease.pb.h"
#include "server/served_session.h"
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
  absl::StatusOr<server::SessionSetup> setup =
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
  const std::vector<float> rest = setup->rest_positions;
  const uint32_t vertex_count = setup->vertex_count;
  const std::shared_ptr<const RefinedTopology> refined =
      setup->mesh_outputs.topology;
  const bool vertex_amplitudes = start.outputs().vertex_amplitudes();
  if (size % 2 == 1) {
    setup->outputs.set_paths(true);
    setup->outputs.set_labels(true);
    setup->outputs.set_tensors(true);
  }
  absl::StatusOr<std::unique_ptr<server::ServedSession>> served =
      server::ServedSession::Create(*std::move(setup));
  if (!served.ok()) {
    CREASE_FUZZ_CHECK(absl::IsInvalidArgument(served.status()));
    return 0;
  }
  v1::Started started;
  (*served)->FillStarted("fuzz", limits, &started);
  if (refined != nullptr) {
    CREASE_FUZZ_CHECK(started.wrinkled_mesh().triangles_size() ==
                      3 * refined->num_triangles());
    for (uint32_t v : started.wrinkled_mesh().triangles()) {
      CREASE_FUZZ_CHECK(v < started.wrinkled_mesh().vertex_count());
    }
  }
  // Frames: the rest shape (or a line of vertices when none was sent), then
  // the same squeezed along x and bent along z.
  std::vector<float> positions = rest;
  if (positions.empty()) {
    for (uint32_t v = 0; v < vertex_count; ++v) {
      positions.insert(positions.end(),
                       {0.01f * (v % 17), 0.01f * (v / 17), 0.0f});
    }
  }
  for (uint32_t frame = 0; frame < 3; ++frame) {
    v1::Frame message;
    message.set_index(frame);
    message.mutable_positions()->Add(positions.begin(), positions.end());
    v1::FrameResult result;
    (void)(*served)->AnswerFrame(message, &result);
    if ((*served)->analysis() == nullptr) {
      // No rest positions, and the first frame's welding refused the mesh.
      CREASE_FUZZ_CHECK(result.error().code() ==
                        static_cast<int>(absl::StatusCode::kInvalidArgument));
      return 0;
    }
    CREASE_FUZZ_CHECK(!result.has_error());
    CREASE_FUZZ_CHECK(result.index() == frame);
    fuzz::CheckSessionOutputs(*(*served)->analysis());
    if ((*served)->setup().outputs.labels()) {
      CREASE_FUZZ_CHECK(
          result.labels().size() ==
          static_cast<size_t>((*served)->analysis()->num_triangles()));
    }
    if (vertex_amplitudes) {
      const v1::VertexAmplitudes& a = result.vertex_amplitudes();
      CREASE_FUZZ_CHECK(a.channels() >= 1 && a.channels() <= 3);
      CREASE_FUZZ_CHECK(static_cast<uint32_t>(a.amplitudes_size()) ==
                        a.channels() * vertex_count);
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
