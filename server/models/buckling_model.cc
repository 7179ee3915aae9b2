#include "server/models/buckling_model.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "common/stopwatch.h"
#include "wrinkle/core/mesh.h"
#include "wrinkle/data/smooth_normals.h"

namespace crease::server {
namespace {

constexpr char kBucklingField[] = "start.parameters.buckling";

absl::Status InvalidBuckling(std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrFormat("%s%s", kBucklingField, what));
}

absl::StatusOr<BucklingParams> Params(const v1::BucklingParameters& p) {
  BucklingParams params;
  if (p.has_fabric_a()) {
    if (!(p.fabric_a() > 0)) {
      return InvalidBuckling(
          absl::StrFormat(".fabric_a: %g is not > 0", p.fabric_a()));
    }
    params.fabric_a = p.fabric_a();
  }
  if (p.has_calibration_diamonds()) {
    params.calibration_diamonds =
        static_cast<int>(std::min<uint32_t>(p.calibration_diamonds(), 1000));
  }
  if (p.has_calibration_radius()) {
    if (!(p.calibration_radius() > 0)) {
      return InvalidBuckling(absl::StrFormat(
          ".calibration_radius: %g is not > 0", p.calibration_radius()));
    }
    params.calibration_radius = p.calibration_radius();
  }
  if (p.has_elastic_compression()) {
    params.elastic_compression = p.elastic_compression();
  }
  if (p.has_twist_gain()) params.twist_gain = p.twist_gain();
  if (p.has_smoothing_passes()) {
    params.smoothing_passes =
        static_cast<int>(std::min<uint32_t>(p.smoothing_passes(), 1000));
  }
  if (p.compression_gain()) {
    params.diamond_depth = DiamondDepth::kCompressionGain;
  }
  params.centre_ridges = !p.no_centre_ridges();
  params.radial_folds = !p.normal_folds();
  if (p.lattice_spline()) {
    params.smooth_surface = SmoothSurface::kLatticeSpline;
  }
  if (absl::Status s = ValidateBucklingParams(params); !s.ok()) {
    return InvalidBuckling(absl::StrFormat(".%s", s.message()));
  }
  return params;
}

absl::StatusOr<std::vector<TubeDescription>> Tubes(
    const v1::BucklingParameters& p) {
  std::vector<TubeDescription> tubes;
  if (static_cast<size_t>(p.tubes_size()) > kMaxTubes) {
    return InvalidBuckling(
        absl::StrFormat(".tubes: %d, over %d", p.tubes_size(), kMaxTubes));
  }
  for (int i = 0; i < p.tubes_size(); ++i) {
    const v1::TubeDescription& t = p.tubes(i);
    TubeDescription d;
    d.triangles.assign(t.triangles().begin(), t.triangles().end());
    d.ring_a.assign(t.ring_a().begin(), t.ring_a().end());
    d.ring_b.assign(t.ring_b().begin(), t.ring_b().end());
    for (const auto& [indices, name] :
         {std::pair{&d.triangles, "triangles"}, std::pair{&d.ring_a, "ring_a"},
          std::pair{&d.ring_b, "ring_b"}}) {
      for (int32_t index : *indices) {
        if (index < 0) {  // over INT32_MAX as uint32
          return InvalidBuckling(
              absl::StrFormat(".tubes[%d].%s: %u is out of range", i, name,
                              static_cast<uint32_t>(index)));
        }
      }
    }
    const auto vec = [&](const auto& field, const char* name,
                         std::optional<Eigen::Vector3d>* out) -> absl::Status {
      if (field.empty()) return absl::OkStatus();
      if (field.size() != 3) {
        return InvalidBuckling(absl::StrFormat(
            ".tubes[%d].%s: %d floats, need 3", i, name, field.size()));
      }
      const Eigen::Vector3d v(field[0], field[1], field[2]);
      if (!v.allFinite()) {
        return InvalidBuckling(
            absl::StrFormat(".tubes[%d].%s: not finite", i, name));
      }
      *out = v;
      return absl::OkStatus();
    };
    CREASE_RETURN_IF_ERROR(vec(t.axis_origin(), "axis_origin", &d.axis_origin));
    CREASE_RETURN_IF_ERROR(
        vec(t.axis_direction(), "axis_direction", &d.axis_direction));
    tubes.push_back(std::move(d));
  }
  return tubes;
}

void FillEffective(const BucklingParams& params,
                   const v1::BucklingParameters& asked,
                   v1::BucklingParameters* out) {
  *out->mutable_tubes() = asked.tubes();
  if (params.fabric_a > 0) {
    out->set_fabric_a(params.fabric_a);
  } else {
    out->clear_fabric_a();
  }
  out->set_calibration_diamonds(
      static_cast<uint32_t>(params.calibration_diamonds));
  if (params.calibration_radius > 0) {
    out->set_calibration_radius(params.calibration_radius);
  } else {
    out->clear_calibration_radius();
  }
  out->set_elastic_compression(params.elastic_compression);
  out->set_twist_gain(params.twist_gain);
  out->set_smoothing_passes(static_cast<uint32_t>(params.smoothing_passes));
  out->set_compression_gain(params.diamond_depth ==
                            DiamondDepth::kCompressionGain);
  out->set_no_centre_ridges(!params.centre_ridges);
  out->set_normal_folds(!params.radial_folds);
  out->set_lattice_spline(params.smooth_surface ==
                          SmoothSurface::kLatticeSpline);
}

}  // namespace

absl::StatusOr<std::unique_ptr<WrinkleModel>> BucklingModel::FromStart(
    const ModelStart& in, v1::Parameters* effective) {
  if (in.rest_positions.empty()) {
    return absl::InvalidArgumentError(
        "start.parameters.model: WRINKLE_MODEL_BUCKLING needs "
        "start.topology.rest_positions (the tubes are laid out on the rest "
        "pose)");
  }
  const v1::BucklingParameters& asked = in.start.parameters().buckling();
  CREASE_ASSIGN_OR_RETURN(BucklingParams params, Params(asked));
  CREASE_ASSIGN_OR_RETURN(std::vector<TubeDescription> descriptions,
                          Tubes(asked));
  // Each frame's mesh (24 bytes a vertex, coarse ones too) fits half a
  // message, and Started's topology (two triangles of 12 bytes and 6 UV
  // floats a fine vertex, and the coarse triangles' 36 bytes each) one.
  const int64_t message = in.limits.max_message_bytes;
  params.max_fine_vertices = std::min(
      {kMaxFineVertices,
       message / 2 / 24 - static_cast<int64_t>(in.rest_positions.size() / 3),
       (message - 4096) / 72 - static_cast<int64_t>(in.triangles.size())});
  if (params.max_fine_vertices <= 0) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "%s: the coarse mesh alone fills this server's max_message_bytes "
        "(%d)",
        kBucklingField, message));
  }
  absl::StatusOr<MeshTopology> topology =
      MeshTopology::Build(in.triangles, in.rest_positions);
  if (!topology.ok()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("start.topology: %s", topology.status().message()));
  }
  absl::StatusOr<std::vector<Tube>> tubes =
      FindTubes(*topology, in.rest_positions, descriptions);
  if (!tubes.ok()) {
    return InvalidBuckling(
        absl::StrFormat(".tubes: %s", tubes.status().message()));
  }
  // Only planned here: the fine mesh is made by Prepare, once the session's
  // memory (MemoryBytes, from the plan) is reserved.
  absl::StatusOr<int64_t> planned = BucklingMesh::PlanFineVertices(
      *topology, in.rest_positions, *tubes, params);
  if (!planned.ok()) {
    return absl::Status(
        planned.status().code(),
        absl::StrFormat("%s: %s", kBucklingField, planned.status().message()));
  }
  effective->set_model(v1::WRINKLE_MODEL_BUCKLING);
  FillEffective(params, asked, effective->mutable_buckling());
  auto model = std::make_unique<BucklingModel>();
  model->planned_vertices_ = *planned;
  model->params_ = params;
  model->tubes_ = *std::move(tubes);
  model->coarse_ = *std::move(topology);
  model->rest_positions_.assign(in.rest_positions.begin(),
                                in.rest_positions.end());
  model->corner_uvs_.assign(in.corner_uvs.begin(), in.corner_uvs.end());
  model->wrinkled_mesh_ = in.start.outputs().wrinkled_mesh().level() > 0;
  return model;
}

absl::Status BucklingModel::Prepare() {
  absl::StatusOr<BucklingMesh> mesh = BucklingMesh::Create(
      *coarse_, rest_positions_, std::move(tubes_), params_);
  if (!mesh.ok()) {
    return absl::Status(
        mesh.status().code(),
        absl::StrFormat("%s: %s", kBucklingField, mesh.status().message()));
  }
  mesh_ = *std::move(mesh);
  drawn_ = CombinedMesh::Of(*mesh_, coarse_->triangles(), coarse_->weld_map(),
                            corner_uvs_);
  normals_.resize(3 * drawn_.welded.size());
  // What only the layout needed.
  coarse_vertices_ = coarse_->num_vertices();
  coarse_.reset();
  rest_positions_ = {};
  corner_uvs_ = {};
  return absl::OkStatus();
}

absl::Status BucklingModel::CheckOutputs(const v1::Outputs& outputs) const {
  if (outputs.has_uv_maps() && outputs.uv_maps().size() > 0) {
    return absl::InvalidArgumentError(
        "start.outputs.uv_maps: drawn from SCA 2015's wrinkles, not with "
        "WRINKLE_MODEL_BUCKLING (its wrinkled_mesh is the model's output)");
  }
  if (outputs.vertex_amplitudes()) {
    return absl::InvalidArgumentError(
        "start.outputs.vertex_amplitudes: needs start.parameters.model "
        "WRINKLE_MODEL_AMPLITUDE_MAPS");
  }
  return absl::OkStatus();
}

absl::Status BucklingModel::Update(const Session& analysis,
                                   const ModelFrame& frame) {
  (void)analysis;
  Stopwatch watch;
  if (!mesh_) {
    return absl::FailedPreconditionError("buckling model not prepared");
  }
  CREASE_RETURN_IF_ERROR(mesh_->Update(frame.positions));
  const size_t coarse = 3 * static_cast<size_t>(coarse_vertices_);
  drawn_.Fill(*mesh_, frame.positions);
  if (wrinkled_mesh_) {
    // The coarse vertices' smooth normals (over the triangles in no tube),
    // then the fine mesh's.
    SumWeldedNormals(absl::MakeConstSpan(drawn_.positions).first(coarse),
                     absl::MakeConstSpan(drawn_.triangles)
                         .first(mesh_->uncovered_triangles().size()),
                     absl::MakeConstSpan(drawn_.welded).first(coarse_vertices_),
                     &normal_sums_);
    for (int v = 0; v < coarse_vertices_; ++v) {
      const float* s = &normal_sums_[3 * static_cast<size_t>(drawn_.welded[v])];
      const float length = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
      for (int k = 0; k < 3; ++k) {
        normals_[3 * static_cast<size_t>(v) + k] =
            length > 0 ? s[k] / length : (k == 1 ? 1.0f : 0.0f);
      }
    }
    std::copy(mesh_->normals().begin(), mesh_->normals().end(),
              normals_.begin() + static_cast<std::ptrdiff_t>(coarse));
  }
  update_ms_ = watch.Lap();
  return absl::OkStatus();
}

void BucklingModel::FillFrame(v1::FrameResult* result) const {
  result->mutable_timings()->set_buckling_ms(update_ms_);
  if (!wrinkled_mesh_) return;
  v1::WrinkledMesh* out = result->mutable_wrinkled_mesh();
  out->mutable_positions()->Add(drawn_.positions.begin(),
                                drawn_.positions.end());
  out->mutable_normals()->Add(normals_.begin(), normals_.end());
}

renderer::WrinkleDraw BucklingModel::Draw(const Session&) {
  return renderer::MeshWrinkles{
      {drawn_.positions, drawn_.triangles, drawn_.welded, {}}};
}

void BucklingModel::FillStarted(v1::Started* started) const {
  if (!wrinkled_mesh_) return;
  v1::WrinkledMeshTopology* out = started->mutable_wrinkled_mesh();
  out->set_level(0);
  out->set_vertex_count(static_cast<uint32_t>(drawn_.welded.size()));
  for (const io::Triangle& t : drawn_.triangles) {
    for (int32_t v : t) out->add_triangles(static_cast<uint32_t>(v));
  }
  out->mutable_corner_uvs()->Add(drawn_.corner_uvs.begin(),
                                 drawn_.corner_uvs.end());
}

int64_t BucklingModel::MemoryBytes() const {
  return planned_vertices_ * kBytesPerFineVertex;
}

}  // namespace crease::server
