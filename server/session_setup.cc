#include "server/session_setup.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "server/models/registry.h"
#include "wrinkle/sca2015/frame_rate.h"

namespace crease::server {
namespace {

// FormatSpec checks the format against the arguments at compile time (clang
// refuses a plain `const char*` here).
template <typename... Args>
absl::Status Invalid(const absl::FormatSpec<Args...>& format,
                     const Args&... args) {
  return absl::InvalidArgumentError(absl::StrFormat(format, args...));
}

bool Finite(const v1::Vec3& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

}  // namespace

v1::Limits LimitsToProto(const ServerLimits& limits) {
  v1::Limits out;
  out.set_max_vertices(limits.max_vertices);
  out.set_max_triangles(limits.max_triangles);
  out.set_max_sessions(limits.max_sessions);
  out.set_max_message_bytes(limits.max_message_bytes);
  out.set_idle_timeout_seconds(
      static_cast<uint32_t>(absl::ToInt64Seconds(limits.idle_timeout)));
  out.set_max_image_size(limits.max_image_size);
  out.set_start_timeout_seconds(
      static_cast<uint32_t>(absl::ToInt64Seconds(limits.start_timeout)));
  out.set_write_timeout_seconds(
      static_cast<uint32_t>(absl::ToInt64Seconds(limits.write_timeout)));
  return out;
}

absl::StatusOr<image::Camera> CameraFromProto(const v1::Camera& camera,
                                              const char* field) {
  if (!camera.has_eye() || !camera.has_target()) {
    return Invalid("%s: eye and target are required", field);
  }
  image::Camera out;
  const v1::Vec3 up = camera.has_up() ? camera.up() : [] {
    v1::Vec3 v;
    v.set_y(1);
    return v;
  }();
  for (const v1::Vec3* v : {&camera.eye(), &camera.target(), &up}) {
    if (!Finite(*v)) return Invalid("%s: non-finite coordinates", field);
  }
  out.eye = {camera.eye().x(), camera.eye().y(), camera.eye().z()};
  out.target = {camera.target().x(), camera.target().y(), camera.target().z()};
  out.up = {up.x(), up.y(), up.z()};
  const Eigen::Vector3f view(out.target[0] - out.eye[0],
                             out.target[1] - out.eye[1],
                             out.target[2] - out.eye[2]);
  const Eigen::Vector3f up_vector(out.up[0], out.up[1], out.up[2]);
  // Finite coordinates can still overflow their difference or its square.
  if (!std::isfinite(view.squaredNorm()) ||
      !std::isfinite(up_vector.squaredNorm()) ||
      !std::isfinite(view.cross(up_vector).squaredNorm())) {
    return Invalid("%s: eye, target or up too large (the view overflows)",
                   field);
  }
  if (view.squaredNorm() == 0 || view.cross(up_vector).squaredNorm() == 0) {
    return Invalid("%s: eye equals target, or up is along the view", field);
  }
  if (camera.vertical_fov_degrees() != 0) {
    if (!(camera.vertical_fov_degrees() > 1 &&
          camera.vertical_fov_degrees() < 170)) {
      return Invalid("%s.vertical_fov_degrees: %g is outside (1, 170)", field,
                     camera.vertical_fov_degrees());
    }
    out.vertical_fov_degrees = camera.vertical_fov_degrees();
  }
  return out;
}

namespace {

// The mesh: counts within the limits, indices in range, rest positions.
absl::Status ValidateTopology(const v1::Start& start,
                              const ServerLimits& limits, SessionSetup* setup) {
  if (!start.has_topology()) return Invalid("start.topology: missing");
  const v1::Topology& topology = start.topology();
  if (topology.vertex_count() < 3) {
    return Invalid("start.topology.vertex_count: %d, need at least 3",
                   topology.vertex_count());
  }
  if (topology.triangles_size() == 0 || topology.triangles_size() % 3 != 0) {
    return Invalid(
        "start.topology.triangles: %d indices is not a positive multiple of 3",
        topology.triangles_size());
  }
  const uint32_t num_triangles = topology.triangles_size() / 3;
  if (topology.vertex_count() > limits.max_vertices) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "start.topology.vertex_count: %d is over this server's limit of %d",
        topology.vertex_count(), limits.max_vertices));
  }
  if (num_triangles > limits.max_triangles) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "start.topology.triangles: %d triangles is over this server's limit "
        "of %d",
        num_triangles, limits.max_triangles));
  }
  setup->vertex_count = topology.vertex_count();
  setup->triangles.resize(num_triangles);
  for (uint32_t f = 0; f < num_triangles; ++f) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t v = topology.triangles(3 * f + k);
      if (v >= topology.vertex_count()) {
        return Invalid(
            "start.topology.triangles: triangle %d uses vertex %d of %d", f, v,
            topology.vertex_count());
      }
      setup->triangles[f][k] = static_cast<int32_t>(v);
    }
  }
  if (topology.rest_positions_size() != 0) {
    if (static_cast<uint32_t>(topology.rest_positions_size()) !=
        3 * topology.vertex_count()) {
      return Invalid(
          "start.topology.rest_positions: %d floats, need 3 x vertex_count = "
          "%d",
          topology.rest_positions_size(), 3 * topology.vertex_count());
    }
    for (int i = 0; i < topology.rest_positions_size(); ++i) {
      if (!std::isfinite(topology.rest_positions(i))) {
        return Invalid("start.topology.rest_positions: vertex %d is not finite",
                       i / 3);
      }
    }
    setup->rest_positions.assign(topology.rest_positions().begin(),
                                 topology.rest_positions().end());
  }
  return absl::OkStatus();
}

// The optional texture coordinates: u v for every corner of every triangle,
// finite, or none. Called after ValidateTopology (the triangle count is
// known).
absl::Status ValidateCornerUvs(const v1::Topology& topology,
                               SessionSetup* setup) {
  if (topology.corner_uvs_size() == 0) return absl::OkStatus();
  const int64_t needed = 2 * static_cast<int64_t>(topology.triangles_size());
  if (topology.corner_uvs_size() != needed) {
    return Invalid(
        "start.topology.corner_uvs: %d floats, need 2 x %d triangle corners = "
        "%d (u v per corner) or none",
        topology.corner_uvs_size(), topology.triangles_size(), needed);
  }
  for (int i = 0; i < topology.corner_uvs_size(); ++i) {
    if (!std::isfinite(topology.corner_uvs(i))) {
      return Invalid(
          "start.topology.corner_uvs: triangle %d corner %d is not finite",
          i / 6, i / 2 % 3);
    }
  }
  setup->corner_uvs.assign(topology.corner_uvs().begin(),
                           topology.corner_uvs().end());
  return absl::OkStatus();
}

// The wrinkle parameters, defaults filled in `setup->effective`.
absl::Status ValidateParameters(const v1::Start& start, SessionSetup* setup) {
  const v1::Parameters& p = start.parameters();
  SessionParams& params = setup->params;
  if (p.min_width() < 0 || !std::isfinite(p.min_width())) {
    return Invalid("start.parameters.min_width: %g, need >= 0", p.min_width());
  }
  if (p.min_width() > 0) params.wrinkles.min_width = p.min_width();
  if (p.min_width_fraction() != 0) {
    if (!(p.min_width_fraction() > 0 && p.min_width_fraction() < 1)) {
      return Invalid(
          "start.parameters.min_width_fraction: %g is outside (0, 1)",
          p.min_width_fraction());
    }
    params.wrinkles.min_width_fraction = p.min_width_fraction();
  }
  if (p.seed_compression() != 0) {
    if (!(p.seed_compression() > 1 && p.seed_compression() < 100)) {
      return Invalid(
          "start.parameters.seed_compression: %g is outside (1, 100)",
          p.seed_compression());
    }
    params.wrinkles.tracing.tau = p.seed_compression();
  }
  if (p.max_wrinkles() != 0) {
    if (p.max_wrinkles() > 4096) {
      return Invalid("start.parameters.max_wrinkles: %d is over 4096",
                     p.max_wrinkles());
    }
    params.wrinkles.max_wrinkles = static_cast<int>(p.max_wrinkles());
  }
  if (p.seed() != 0) params.wrinkles.seed = p.seed();
  if (p.frame_rate() != 0) {
    if (!ValidateFrameRate(p.frame_rate()).ok()) {
      return Invalid("start.parameters.frame_rate: %g is outside [%g, %g]",
                     p.frame_rate(), kMinFrameRate, kMaxFrameRate);
    }
    params.frame_rate = p.frame_rate();
  }
  // The session counts fade_frames at 30 fps (AtFrameRate); the client's
  // count is of its own frames.
  const double frames_per_calibration_frame =
      params.frame_rate / kCalibrationFrameRate;
  if (p.has_fade_frames()) {
    if (p.fade_frames() > 60) {
      return Invalid("start.parameters.fade_frames: %d is over 60",
                     p.fade_frames());
    }
    params.wrinkles.fade_frames =
        p.fade_frames() / frames_per_calibration_frame;
  }
  setup->effective.set_min_width(params.wrinkles.min_width);
  setup->effective.set_min_width_fraction(params.wrinkles.min_width_fraction);
  setup->effective.set_seed_compression(params.wrinkles.tracing.tau);
  setup->effective.set_max_wrinkles(params.wrinkles.max_wrinkles);
  setup->effective.set_seed(params.wrinkles.seed);
  setup->effective.set_fade_frames(
      p.has_fade_frames()
          ? p.fade_frames()
          : static_cast<uint32_t>(std::lround(params.wrinkles.fade_frames *
                                              frames_per_calibration_frame)));
  setup->effective.set_frame_rate(params.frame_rate);
  return absl::OkStatus();
}

// The image asked for, if any: size, camera, format.
absl::Status ValidateImage(const v1::Outputs& outputs,
                           const ServerLimits& limits, bool can_render,
                           SessionSetup* setup) {
  setup->outputs = outputs;
  if (outputs.has_image()) {
    const v1::ImageRequest& image = outputs.image();
    if (!can_render) {
      return absl::FailedPreconditionError(
          "start.outputs.image: this server renders no images (started with "
          "--render_threads=0)");
    }
    setup->image = true;
    renderer::RenderOptions& options = setup->render_options;
    options.width = image.width() == 0 ? 640 : static_cast<int>(image.width());
    options.height =
        image.height() == 0 ? 480 : static_cast<int>(image.height());
    if (static_cast<uint32_t>(options.width) > limits.max_image_size ||
        static_cast<uint32_t>(options.height) > limits.max_image_size) {
      return absl::ResourceExhaustedError(absl::StrFormat(
          "start.outputs.image: %dx%d is over this server's limit of %d per "
          "side",
          options.width, options.height, limits.max_image_size));
    }
    options.wrinkles = !image.plain();
    if (image.has_camera()) {
      CREASE_ASSIGN_OR_RETURN(
          image::Camera camera,
          CameraFromProto(image.camera(), "start.outputs.image.camera"));
      options.camera = camera;
    }
    switch (image.format()) {
      case v1::IMAGE_FORMAT_UNSPECIFIED:
      case v1::IMAGE_FORMAT_JPEG:
        setup->encoding = ImageEncoding::kJpeg;
        break;
      case v1::IMAGE_FORMAT_PNG:
        setup->encoding = ImageEncoding::kPng;
        break;
      default:
        return Invalid("start.outputs.image.format: unknown value %d",
                       image.format());
    }
    if (image.jpeg_quality() > 100) {
      return Invalid("start.outputs.image.jpeg_quality: %d is over 100",
                     image.jpeg_quality());
    }
    if (image.jpeg_quality() != 0) {
      setup->jpeg_quality = static_cast<int>(image.jpeg_quality());
    }
  }
  return absl::OkStatus();
}

// The UV-space maps asked for, if any: they need UVs, a renderer, and room in
// a message (raw, 6 bytes a texel, the most either encoding can take).
absl::Status ValidateUvMaps(const v1::Outputs& outputs,
                            const ServerLimits& limits, bool can_render,
                            SessionSetup* setup) {
  if (!outputs.has_uv_maps() || outputs.uv_maps().size() == 0) {
    return absl::OkStatus();
  }
  const v1::UvMapRequest& request = outputs.uv_maps();
  if (!can_render) {
    return absl::FailedPreconditionError(
        "start.outputs.uv_maps: this server renders nothing (started with "
        "--render_threads=0)");
  }
  if (setup->corner_uvs.empty()) {
    return Invalid(
        "start.outputs.uv_maps: needs texture coordinates "
        "(start.topology.corner_uvs)");
  }
  const uint64_t size = request.size();
  if (size > limits.max_image_size ||
      6 * size * size > limits.max_message_bytes / 2) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "start.outputs.uv_maps: %d texels a side is over this server's limit "
        "of %d (max_image_size %d; 6 bytes a texel within half of %d bytes a "
        "message)",
        size,
        std::min<uint64_t>(
            limits.max_image_size,
            static_cast<uint64_t>(std::sqrt(limits.max_message_bytes / 12.0))),
        limits.max_image_size, limits.max_message_bytes));
  }
  if (!std::isfinite(request.height_range()) || request.height_range() < 0) {
    return Invalid("start.outputs.uv_maps.height_range: %g is not >= 0",
                   request.height_range());
  }
  switch (request.encoding()) {
    case v1::UV_MAP_ENCODING_UNSPECIFIED:
    case v1::UV_MAP_ENCODING_PNG:
      setup->uv_maps_raw = false;
      break;
    case v1::UV_MAP_ENCODING_RAW:
      setup->uv_maps_raw = true;
      break;
    default:
      return Invalid("start.outputs.uv_maps.encoding: unknown value %d",
                     request.encoding());
  }
  renderer::UvMapOptions options;
  options.size = static_cast<int>(size);
  options.green_down = request.green_down();
  options.height_range = request.height_range();
  setup->uv_maps = options;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<SessionSetup> ValidateStart(const v1::Start& start,
                                           const ServerLimits& limits,
                                           bool can_render) {
  SessionSetup setup;
  CREASE_RETURN_IF_ERROR(ValidateTopology(start, limits, &setup));
  CREASE_RETURN_IF_ERROR(ValidateCornerUvs(start.topology(), &setup));
  CREASE_RETURN_IF_ERROR(ValidateParameters(start, &setup));
  CREASE_RETURN_IF_ERROR(
      ValidateImage(start.outputs(), limits, can_render, &setup));
  CREASE_RETURN_IF_ERROR(
      ValidateUvMaps(start.outputs(), limits, can_render, &setup));
  CREASE_ASSIGN_OR_RETURN(
      setup.model, ModelFromStart({start, setup.triangles, setup.rest_positions,
                                   setup.corner_uvs, limits},
                                  &setup.effective));
  CREASE_RETURN_IF_ERROR(setup.model->CheckOutputs(start.outputs()));
  CREASE_ASSIGN_OR_RETURN(
      setup.mesh_outputs,
      ValidateMeshOutputs(start, setup.triangles, setup.vertex_count, limits,
                          !setup.model->GivesWrinkledMesh()));
  return setup;
}

absl::StatusOr<std::optional<image::Camera>> ValidateFrame(
    const v1::Frame& frame, uint32_t vertex_count,
    std::optional<uint32_t> last_index) {
  // Indices only go up, so the largest would leave no index for a later
  // frame: refused, and the session stays usable.
  if (frame.index() == std::numeric_limits<uint32_t>::max()) {
    return Invalid("frame.index: %d is reserved (no frame could follow it)",
                   frame.index());
  }
  if (last_index.has_value() && frame.index() <= *last_index) {
    return Invalid("frame.index: %d is not after the last frame, %d",
                   frame.index(), *last_index);
  }
  if (static_cast<uint64_t>(frame.positions_size()) !=
      3 * static_cast<uint64_t>(vertex_count)) {
    return Invalid("frame.positions: %d floats, need 3 x %d vertices = %d",
                   frame.positions_size(), vertex_count, 3 * vertex_count);
  }
  for (int i = 0; i < frame.positions_size(); ++i) {
    if (!std::isfinite(frame.positions(i))) {
      return Invalid("frame.positions: vertex %d is not finite", i / 3);
    }
  }
  if (!frame.has_camera()) return std::nullopt;
  return CameraFromProto(frame.camera(), "frame.camera");
}

void SetFrameError(uint32_t index, const absl::Status& status,
                   absl::string_view prefix, v1::FrameResult* result) {
  result->Clear();
  result->set_index(index);
  result->mutable_error()->set_code(static_cast<int>(status.code()));
  result->mutable_error()->set_message(absl::StrCat(prefix, status.message()));
}

void FillFrameResult(const Session& session, const v1::Outputs& outputs,
                     v1::FrameResult* result) {
  if (outputs.paths()) {
    const WrinkleTracker& tracker = session.tracker();
    for (size_t w = 0; w < tracker.wrinkles().size(); ++w) {
      v1::Wrinkle* out = result->add_wrinkles();
      out->set_id(tracker.wrinkles()[w].id);
      out->set_age(static_cast<uint32_t>(tracker.wrinkles()[w].age));
      const std::vector<RefinedPoint>& refined = tracker.shapes()[w].refined;
      out->mutable_points()->Reserve(3 * static_cast<int>(refined.size()));
      for (const RefinedPoint& r : refined) {
        for (int c = 0; c < 3; ++c) {
          out->add_points(static_cast<float>(r.position[c]));
        }
        out->add_widths(static_cast<float>(r.width));
        out->add_heights(static_cast<float>(r.height));
      }
    }
  }
  if (outputs.labels()) {
    std::string* labels = result->mutable_labels();
    labels->resize(session.labels().size());
    for (size_t f = 0; f < session.labels().size(); ++f) {
      (*labels)[f] = static_cast<char>(
          session.labels()[f] == Label::kCompress ? v1::TRIANGLE_LABEL_COMPRESS
          : session.labels()[f] == Label::kRest   ? v1::TRIANGLE_LABEL_REST
                                                  : v1::TRIANGLE_LABEL_STRETCH);
    }
  }
  if (outputs.tensors()) {
    auto* tensors = result->mutable_tensors();
    tensors->Reserve(8 * static_cast<int>(session.compression_field().size()));
    for (const StretchTensor& t : session.compression_field()) {
      tensors->Add(static_cast<float>(t.lambda_max));
      tensors->Add(static_cast<float>(t.lambda_min));
      for (int c = 0; c < 3; ++c) {
        tensors->Add(static_cast<float>(t.compression_dir[c]));
      }
      for (int c = 0; c < 3; ++c) {
        tensors->Add(static_cast<float>(t.wrinkle_dir[c]));
      }
    }
  }
  result->set_input_noise(static_cast<float>(session.input_noise()));
  const StageTimings& t = session.timings();
  v1::StageTimings* timings = result->mutable_timings();
  timings->set_tensors_ms(t.tensors_ms);
  timings->set_labeling_ms(t.labeling_ms);
  timings->set_reference_ms(t.reference_ms);
  timings->set_evolve_ms(t.evolve_ms);
  timings->set_seed_ms(t.seed_ms);
  timings->set_shape_ms(t.shape_ms);
}

}  // namespace crease::server
