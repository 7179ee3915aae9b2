#ifndef CREASE_SERVER_SERVED_SESSION_H_
#define CREASE_SERVER_SERVED_SESSION_H_

// One session's Start -> per-frame answer -> render job sequence, with no
// transport (docs/architecture.md, "One frame end to end"): the gRPC
// reactor, the Start fuzz target, the benchmarks and the tests all drive
// this. The reactor adds only the stream, its flow control, slots and
// accounting. One thread at a time.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "crease/v1/crease.pb.h"
#include "image/camera.h"
#include "server/mesh_outputs.h"
#include "server/render_pool.h"
#include "server/server_options.h"
#include "server/session_setup.h"
#include "wrinkle/sca2015/session.h"

namespace crease::server {

class ServedSession {
 public:
  // From a validated Start (ValidateStart). Turns off the analysis stages
  // that neither the model nor the asked outputs read, and welds now when
  // the Start carried rest positions (else on the first frame).
  // INVALID_ARGUMENT "start.topology: ..." when the mesh cannot be welded.
  static absl::StatusOr<std::unique_ptr<ServedSession>> Create(
      SessionSetup setup);

  const SessionSetup& setup() const { return setup_; }
  // The shared analysis; null before the first frame of a Start without
  // rest positions.
  const Session* analysis() const { return analysis_.get(); }
  // Whether frames are answered with an image or UV maps (a render job).
  bool renders() const { return setup_.image || setup_.uv_maps.has_value(); }
  // Triangles a frame works on (the mesh times the mesh outputs' work), or
  // half its vertices if more: a frame's positions are read and copied
  // whether triangles use them or not.
  size_t work_triangles() const {
    return std::max<size_t>(
        setup_.triangles.size() * mesh_outputs_.work_per_triangle(),
        setup_.vertex_count / 2);
  }

  // Started: the id given, the effective parameters, `limits` and the
  // wrinkled mesh's topology when asked for.
  void FillStarted(std::string_view session_id, const ServerLimits& limits,
                   v1::Started* started) const;

  // Answers `frame` into `result` (cleared first). A frame that fails
  // validation gets an error answer and changes nothing; a model's error
  // after the analysis ran (the wrinkle-map model refusing its mesh on the
  // first frame, say) is answered as an error too, the analysis having seen
  // the frame. True when the answer still needs its render: then
  // MakeRenderJob, and AddRenderings with what the render pool made.
  bool AnswerFrame(const v1::Frame& frame, v1::FrameResult* result);
  // The last answered frame's render, borrowing this session's storage
  // until AddRenderings; `abandoned` as RenderJob's.
  RenderJob MakeRenderJob(const std::atomic<bool>* abandoned);
  // The image and UV maps a render made, into `result` (or its error).
  void AddRenderings(RenderOutcome outcome, v1::FrameResult* result) const;

 private:
  explicit ServedSession(SessionSetup setup);
  // Validates, welds on the first frame, runs the analysis and the model.
  absl::Status RunFrame(const v1::Frame& frame);
  // steady_camera_, framed on the first frame and kept in view after.
  const image::Camera& SteadyCamera(float aspect);

  SessionSetup setup_;
  std::unique_ptr<Session> analysis_;
  MeshOutputs mesh_outputs_;  // wrinkled mesh, vertex fields
  std::optional<uint32_t> last_index_;
  std::vector<float> positions_;  // the frame being answered
  // The frame's camera, when it carried one (kept for the frames after).
  std::optional<image::Camera> frame_camera_;
  // The mesh's closure for culling (renderer::ClosedAndConsistent), found on
  // the first image frame: the topology never changes within a session.
  std::optional<bool> closed_and_consistent_;
  // When the client gives no camera: the first frame's framing, kept steady.
  std::optional<image::Camera> steady_camera_;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_SERVED_SESSION_H_
