#include "server/served_session.h"

#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "server/server_version.h"

namespace crease::server {
namespace {

// The analysis stages someone reads: the model, or an output of the Start.
void TurnOffUnreadStages(const ModelNeeds& needs, const SessionSetup& setup,
                         SessionParams* params) {
  const v1::Outputs& outputs = setup.outputs;
  const bool traced = needs.traced_wrinkles || outputs.paths() ||
                      (outputs.wrinkled_mesh().level() > 0 &&
                       !setup.model->GivesWrinkledMesh()) ||
                      setup.uv_maps.has_value();
  // The per-vertex fields read the field and the labels, not the paths.
  const bool field = traced || needs.compression_field || outputs.labels() ||
                     outputs.tensors() || outputs.vertex_fields();
  params->trace_wrinkles = params->trace_wrinkles && traced;
  params->compute_field = params->compute_field && field;
}

}  // namespace

ServedSession::ServedSession(SessionSetup setup)
    : setup_(std::move(setup)), mesh_outputs_(std::move(setup_.mesh_outputs)) {}

absl::StatusOr<std::unique_ptr<ServedSession>> ServedSession::Create(
    SessionSetup setup) {
  TurnOffUnreadStages(setup.model->needs(), setup, &setup.params);
  if (absl::Status prepared = setup.model->Prepare(); !prepared.ok()) {
    return prepared;
  }
  std::unique_ptr<ServedSession> served(new ServedSession(std::move(setup)));
  const SessionSetup& s = served->setup_;
  if (!s.rest_positions.empty()) {
    absl::StatusOr<std::unique_ptr<Session>> analysis =
        Session::Create(s.triangles, s.rest_positions, s.params);
    if (!analysis.ok()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("start.topology: %s", analysis.status().message()));
    }
    served->analysis_ = *std::move(analysis);
  }
  return served;
}

void ServedSession::FillStarted(std::string_view session_id,
                                const ServerLimits& limits,
                                v1::Started* started) const {
  started->set_session_id(std::string(session_id));
  *started->mutable_parameters() = setup_.effective;
  started->set_server_version(ServerVersion());
  started->set_parameters_hash(ParametersHash(setup_.effective));
  *started->mutable_limits() = LimitsToProto(limits);
  mesh_outputs_.FillStarted(started);
  setup_.model->FillStarted(started);
}

absl::Status ServedSession::RunFrame(const v1::Frame& frame) {
  CREASE_ASSIGN_OR_RETURN(
      std::optional<image::Camera> camera,
      ValidateFrame(frame, setup_.vertex_count, last_index_));
  positions_.assign(frame.positions().begin(), frame.positions().end());
  if (analysis_ == nullptr) {
    // No rest positions were given: weld on the first frame.
    CREASE_ASSIGN_OR_RETURN(
        analysis_,
        Session::Create(setup_.triangles, positions_, setup_.params));
  }
  CREASE_RETURN_IF_ERROR(analysis_->ProcessFrame(positions_));
  CREASE_RETURN_IF_ERROR(
      setup_.model->Update(*analysis_, {positions_, setup_.rest_positions,
                                        setup_.corner_uvs, setup_.triangles}));
  frame_camera_ = camera;
  last_index_ = frame.index();
  return absl::OkStatus();
}

bool ServedSession::AnswerFrame(const v1::Frame& frame,
                                v1::FrameResult* result) {
  result->Clear();
  if (absl::Status s = RunFrame(frame); !s.ok()) {
    SetFrameError(frame.index(), s, "", result);
    return false;
  }
  result->set_index(frame.index());
  FillFrameResult(*analysis_, setup_.outputs, result);
  mesh_outputs_.FillFrame(*analysis_, positions_, result);
  setup_.model->FillFrame(result);
  return renders();
}

RenderJob ServedSession::MakeRenderJob(const std::atomic<bool>* abandoned) {
  // A camera given stays for the frames after this one.
  if (frame_camera_.has_value()) setup_.render_options.camera = *frame_camera_;
  RenderJob job;
  job.mesh = {positions_, setup_.triangles, analysis_->topology().weld_map(),
              setup_.corner_uvs};
  if (!closed_and_consistent_.has_value()) {
    std::vector<uint64_t> edges;
    closed_and_consistent_ = renderer::ClosedAndConsistent(
        job.mesh.triangles, job.mesh.welded, &edges);
  }
  job.mesh.closed_and_consistent = closed_and_consistent_;
  // A plain image (ImageRequest.plain) draws no model's wrinkles; UV maps
  // (SCA 2015's only) still bake the traced ones.
  if (setup_.render_options.wrinkles || setup_.uv_maps) {
    job.wrinkles = setup_.model->Draw(*analysis_);
  }
  job.screen = setup_.image;
  job.uv_maps = setup_.uv_maps;
  job.uv_maps_raw = setup_.uv_maps_raw;
  job.options = setup_.render_options;
  if (job.screen && !job.options.camera) {
    job.options.camera = SteadyCamera(static_cast<float>(job.options.width) /
                                      static_cast<float>(job.options.height));
  }
  job.encoding = setup_.encoding;
  job.jpeg_quality = setup_.jpeg_quality;
  job.abandoned = abandoned;
  return job;
}

const image::Camera& ServedSession::SteadyCamera(float aspect) {
  // No camera from the client: framed on the first frame and kept steady
  // (re-framed only when the mesh leaves the view), so the picture does not
  // zoom with the pose.
  if (!steady_camera_) {
    steady_camera_ = image::AutoFrame(positions_, aspect);
  } else {
    image::KeepInView(positions_, aspect, &*steady_camera_);
  }
  return *steady_camera_;
}

void ServedSession::AddRenderings(RenderOutcome outcome,
                                  v1::FrameResult* result) const {
  v1::StageTimings* timings = result->mutable_timings();
  timings->set_queue_ms(outcome.queue_ms);
  if (setup_.image) {
    if (!outcome.encoded.ok()) {
      SetFrameError(result->index(), outcome.encoded.status(),
                    "image: ", result);
      return;
    }
    v1::Image* image = result->mutable_image();
    image->set_format(setup_.encoding == ImageEncoding::kPng
                          ? v1::IMAGE_FORMAT_PNG
                          : v1::IMAGE_FORMAT_JPEG);
    image->set_width(setup_.render_options.width);
    image->set_height(setup_.render_options.height);
    image->set_data(*std::move(outcome.encoded));
    timings->set_render_ms(outcome.render_ms);
    timings->set_encode_ms(outcome.encode_ms);
  }
  if (!setup_.uv_maps) return;
  if (!outcome.uv_maps.has_value() || !outcome.uv_maps->ok()) {
    SetFrameError(result->index(),
                  outcome.uv_maps.has_value()
                      ? outcome.uv_maps->status()
                      : absl::InternalError("no maps came back"),
                  "uv_maps: ", result);
    return;
  }
  EncodedUvMaps& encoded = **outcome.uv_maps;
  v1::UvMaps* maps = result->mutable_uv_maps();
  maps->set_size(static_cast<uint32_t>(encoded.size));
  maps->set_encoding(setup_.uv_maps_raw ? v1::UV_MAP_ENCODING_RAW
                                        : v1::UV_MAP_ENCODING_PNG);
  maps->set_normal_map(std::move(encoded.normal_map));
  maps->set_height_map(std::move(encoded.height_map));
  maps->set_height_range(encoded.height_range);
  maps->set_height_zero(static_cast<uint32_t>(encoded.height_zero));
  timings->set_uv_maps_ms(outcome.uv_maps_ms);
}

}  // namespace crease::server
