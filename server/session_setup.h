#ifndef CREASE_SERVER_SESSION_SETUP_H_
#define CREASE_SERVER_SESSION_SETUP_H_

// Turning crease.v1 messages into a Session and back: validation of
// everything a client sends, with errors that name the field.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "crease/v1/crease.pb.h"
#include "renderer/frame_renderer.h"
#include "server/mesh_outputs.h"
#include "server/models/wrinkle_model.h"
#include "server/render_pool.h"
#include "server/server_options.h"
#include "wrinkle/sca2015/session.h"

namespace crease::server {

// A validated Start.
struct SessionSetup {
  uint32_t vertex_count = 0;
  std::vector<io::Triangle> triangles;
  std::vector<float> rest_positions;  // empty: weld on the first frame
  // u v per triangle corner (6 floats per triangle), v upwards; empty: none.
  // Kept for the UV-space outputs; the wrinkles do not depend on them.
  std::vector<float> corner_uvs;
  SessionParams params;
  v1::Parameters effective;  // params as sent back in Started
  v1::Outputs outputs;
  bool image = false;
  renderer::RenderOptions render_options;
  ImageEncoding encoding = ImageEncoding::kJpeg;
  int jpeg_quality = 90;
  // Outputs.uv_maps with a size: drawn on a render thread with the image.
  std::optional<renderer::UvMapOptions> uv_maps;
  bool uv_maps_raw = false;
  MeshOutputsSetup mesh_outputs;
  std::unique_ptr<WrinkleModel> model;  // Parameters.model (never null)
};

// INVALID_ARGUMENT naming the field for a malformed Start; RESOURCE_EXHAUSTED
// for a mesh (or a wrinkled mesh, ValidateMeshOutputs) over the limits;
// FAILED_PRECONDITION for an image when the server renders nothing.
absl::StatusOr<SessionSetup> ValidateStart(const v1::Start& start,
                                           const ServerLimits& limits,
                                           bool can_render);

// The frame's camera if it has one (parsed once, here). INVALID_ARGUMENT for a
// wrong position count, non-finite positions, an index not above the last
// accepted one (or the reserved largest), or a bad camera.
absl::StatusOr<std::optional<image::Camera>> ValidateFrame(
    const v1::Frame& frame, uint32_t vertex_count,
    std::optional<uint32_t> last_index);

// Makes `result` an error answer for frame `index`: every output cleared,
// the status's code and message (after `prefix`, e.g. "image: ").
void SetFrameError(uint32_t index, const absl::Status& status,
                   absl::string_view prefix, v1::FrameResult* result);

absl::StatusOr<image::Camera> CameraFromProto(const v1::Camera& camera,
                                              const char* field);

// The requested outputs of the session's last frame (not the image).
void FillFrameResult(const Session& session, const v1::Outputs& outputs,
                     v1::FrameResult* result);

v1::Limits LimitsToProto(const ServerLimits& limits);

}  // namespace crease::server

#endif  // CREASE_SERVER_SESSION_SETUP_H_
