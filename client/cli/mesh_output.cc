#include "client/cli/mesh_output.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "common/status_macros.h"

ABSL_FLAG(int, wrinkled_mesh_level, 0,
          "Ask for the wrinkled mesh, each triangle cut into level^2 "
          "(1..8; 0: none), and write out/frame_NNNN_wrinkled.obj per frame "
          "(positions, normals, UVs when the input has them).");
ABSL_FLAG(int, uv_maps_size, 0,
          "Ask for the wrinkles' tangent-space normal map and 16-bit height "
          "map in the mesh's UV space, this many texels a side (0: none; the "
          "input needs UVs: OBJ vt or glTF TEXCOORD_0), and write "
          "out/frame_NNNN_normal.png and out/frame_NNNN_height.png per frame.");
ABSL_FLAG(bool, uv_maps_green_down, false,
          "Normal maps with green -Y (Unreal) instead of +Y (glTF, Godot, "
          "Unity, three.js).");
ABSL_FLAG(bool, vertex_fields, false,
          "Ask for per-vertex compression, direction and label weights, and "
          "write out/frame_NNNN_vertex_fields.csv per frame.");

namespace crease::client {
namespace {

// The sizes a frame's mesh must have for its topology.
absl::Status CheckMesh(const v1::WrinkledMeshTopology& topology,
                       const v1::WrinkledMesh& mesh) {
  const int64_t floats = 3 * static_cast<int64_t>(topology.vertex_count());
  if (mesh.positions_size() != floats || mesh.normals_size() != floats) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "frame_result.wrinkled_mesh: %d positions and %d normals, need 3 x "
        "%d vertices = %d each",
        mesh.positions_size(), mesh.normals_size(), topology.vertex_count(),
        floats));
  }
  for (uint32_t v : topology.triangles()) {
    if (v >= topology.vertex_count()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("started.wrinkled_mesh.triangles: vertex %d of %d", v,
                          topology.vertex_count()));
    }
  }
  if (topology.corner_uvs_size() != 0 &&
      topology.corner_uvs_size() != 2 * topology.triangles_size()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "started.wrinkled_mesh.corner_uvs: %d floats, need 2 x %d corners",
        topology.corner_uvs_size(), topology.triangles_size()));
  }
  return absl::OkStatus();
}

}  // namespace

void RequestMeshOutputs(v1::Start* start) {
  const int level = absl::GetFlag(FLAGS_wrinkled_mesh_level);
  if (level > 0) {
    start->mutable_outputs()->mutable_wrinkled_mesh()->set_level(
        static_cast<uint32_t>(level));
  }
  if (absl::GetFlag(FLAGS_vertex_fields)) {
    start->mutable_outputs()->set_vertex_fields(true);
  }
  if (const int size = absl::GetFlag(FLAGS_uv_maps_size); size > 0) {
    v1::UvMapRequest* maps = start->mutable_outputs()->mutable_uv_maps();
    maps->set_size(static_cast<uint32_t>(size));
    maps->set_green_down(absl::GetFlag(FLAGS_uv_maps_green_down));
    maps->set_encoding(v1::UV_MAP_ENCODING_PNG);
  }
}

absl::StatusOr<std::string> WrinkledMeshObj(
    const v1::WrinkledMeshTopology& topology, const v1::WrinkledMesh& mesh) {
  CREASE_RETURN_IF_ERROR(CheckMesh(topology, mesh));
  std::string obj = absl::StrFormat(
      "# crease wrinkled mesh, level %d: %d vertices, %d triangles\n",
      topology.level(), topology.vertex_count(), topology.triangles_size() / 3);
  for (int i = 0; i < mesh.positions_size(); i += 3) {
    absl::StrAppendFormat(&obj, "v %.9g %.9g %.9g\n", mesh.positions(i),
                          mesh.positions(i + 1), mesh.positions(i + 2));
  }
  for (int i = 0; i < mesh.normals_size(); i += 3) {
    absl::StrAppendFormat(&obj, "vn %.9g %.9g %.9g\n", mesh.normals(i),
                          mesh.normals(i + 1), mesh.normals(i + 2));
  }
  const bool uvs = topology.corner_uvs_size() > 0;
  for (int i = 0; uvs && i < topology.corner_uvs_size(); i += 2) {
    absl::StrAppendFormat(&obj, "vt %.9g %.9g\n", topology.corner_uvs(i),
                          topology.corner_uvs(i + 1));
  }
  for (int i = 0; i < topology.triangles_size(); i += 3) {
    obj += "f";
    for (int k = 0; k < 3; ++k) {
      const uint32_t v = topology.triangles(i + k) + 1;  // OBJ is 1-based
      if (uvs) {
        absl::StrAppend(&obj, " ", v, "/", i + k + 1, "/", v);
      } else {
        absl::StrAppend(&obj, " ", v, "//", v);
      }
    }
    obj += "\n";
  }
  return obj;
}

absl::StatusOr<std::string> VertexFieldsCsv(const v1::VertexFields& fields) {
  const int n = fields.compression_size();
  if (fields.directions_size() != 3 * n ||
      fields.label_weights_size() != 3 * n) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "frame_result.vertex_fields: %d compressions, %d direction and %d "
        "label weight floats, need 3 x %d each",
        n, fields.directions_size(), fields.label_weights_size(), n));
  }
  // Tangent-frame directions come only with UVs: two more columns then.
  const bool tangent = fields.tangent_directions_size() > 0;
  if (tangent && fields.tangent_directions_size() != 2 * n) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "frame_result.vertex_fields: %d tangent direction floats, need 2 x %d",
        fields.tangent_directions_size(), n));
  }
  std::string csv =
      "vertex,compression,dir_x,dir_y,dir_z,compress,rest,stretch";
  csv += tangent ? ",tangent_x,tangent_y\n" : "\n";
  for (int v = 0; v < n; ++v) {
    absl::StrAppendFormat(
        &csv, "%d,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g", v, fields.compression(v),
        fields.directions(3 * v), fields.directions(3 * v + 1),
        fields.directions(3 * v + 2), fields.label_weights(3 * v),
        fields.label_weights(3 * v + 1), fields.label_weights(3 * v + 2));
    if (tangent) {
      absl::StrAppendFormat(&csv, ",%.7g,%.7g",
                            fields.tangent_directions(2 * v),
                            fields.tangent_directions(2 * v + 1));
    }
    csv += "\n";
  }
  return csv;
}

absl::StatusOr<std::string> VertexAmplitudesCsv(
    const v1::VertexAmplitudes& amplitudes) {
  const int channels = static_cast<int>(amplitudes.channels());
  if (channels < 1 || channels > 3 ||
      amplitudes.amplitudes_size() % channels != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "frame_result.vertex_amplitudes: %d channels and %d floats, need 1..3 "
        "channels and a whole number of vertices",
        amplitudes.channels(), amplitudes.amplitudes_size()));
  }
  std::string csv = "vertex";
  for (int c = 0; c < channels; ++c) absl::StrAppend(&csv, ",a", c);
  csv += "\n";
  for (int v = 0; v < amplitudes.amplitudes_size() / channels; ++v) {
    absl::StrAppend(&csv, v);
    for (int c = 0; c < channels; ++c) {
      absl::StrAppendFormat(&csv, ",%.7g",
                            amplitudes.amplitudes(v * channels + c));
    }
    csv += "\n";
  }
  return csv;
}

absl::Status SaveMeshOutputs(const v1::Started& started,
                             const v1::FrameResult& result,
                             const std::string& out) {
  if (result.has_wrinkled_mesh()) {
    CREASE_ASSIGN_OR_RETURN(
        const std::string obj,
        WrinkledMeshObj(started.wrinkled_mesh(), result.wrinkled_mesh()));
    CREASE_RETURN_IF_ERROR(files::WriteStringToFile(
        absl::StrFormat("%s/frame_%04d_wrinkled.obj", out, result.index()),
        obj));
  }
  if (result.has_vertex_fields()) {
    CREASE_ASSIGN_OR_RETURN(const std::string csv,
                            VertexFieldsCsv(result.vertex_fields()));
    CREASE_RETURN_IF_ERROR(files::WriteStringToFile(
        absl::StrFormat("%s/frame_%04d_vertex_fields.csv", out, result.index()),
        csv));
  }
  if (result.has_vertex_amplitudes()) {
    CREASE_ASSIGN_OR_RETURN(const std::string csv,
                            VertexAmplitudesCsv(result.vertex_amplitudes()));
    CREASE_RETURN_IF_ERROR(files::WriteStringToFile(
        absl::StrFormat("%s/frame_%04d_amplitudes.csv", out, result.index()),
        csv));
  }
  if (result.has_uv_maps()) {
    // PNG as the server encoded them (the client asks for PNG).
    CREASE_RETURN_IF_ERROR(files::WriteStringToFile(
        absl::StrFormat("%s/frame_%04d_normal.png", out, result.index()),
        result.uv_maps().normal_map()));
    CREASE_RETURN_IF_ERROR(files::WriteStringToFile(
        absl::StrFormat("%s/frame_%04d_height.png", out, result.index()),
        result.uv_maps().height_map()));
  }
  return absl::OkStatus();
}

namespace {

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  const auto middle = values.begin() + values.size() / 2;
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

}  // namespace

void MeshLevelCheck::Add(const v1::Started& started,
                         const v1::FrameResult& result) {
  const v1::WrinkledMeshTopology& topology = started.wrinkled_mesh();
  if (topology.level() == 0 || !result.has_wrinkled_mesh()) return;
  if (level_ == 0) {  // the first frame's edges
    const auto& p = result.wrinkled_mesh().positions();
    std::vector<double> edges;
    for (int i = 0; i + 2 < topology.triangles_size(); i += 3) {
      for (int k = 0; k < 3; ++k) {
        const int64_t a = 3 * int64_t{topology.triangles(i + k)};
        const int64_t b = 3 * int64_t{topology.triangles(i + (k + 1) % 3)};
        if (std::max(a, b) + 2 >= p.size()) continue;
        edges.push_back(
            std::hypot(p[a] - p[b], p[a + 1] - p[b + 1], p[a + 2] - p[b + 2]));
      }
    }
    if (edges.empty()) return;
    median_edge_ = Median(std::move(edges));
    level_ = static_cast<int>(topology.level());
  }
  for (const v1::Wrinkle& wrinkle : result.wrinkles()) {
    if (wrinkle.widths().empty()) continue;
    std::vector<double> widths(wrinkle.widths().begin(),
                               wrinkle.widths().end());
    widths_.push_back(static_cast<float>(Median(std::move(widths))));
  }
}

std::string MeshLevelCheck::Warning(std::string_view flag) const {
  if (level_ == 0 || widths_.empty()) return "";
  return CoarseLevelWarning(
      level_, median_edge_,
      Median(std::vector<double>(widths_.begin(), widths_.end())), flag);
}

std::string CoarseLevelWarning(int level, double edge, double width,
                               std::string_view flag) {
  constexpr int kWanted = MeshLevelCheck::kEdgesAcrossWanted;
  if (!(edge > 0) || !(width > 0) || width >= 0.5 * kWanted * edge) return "";
  // Edges shrink as 1 / level.
  const auto level_for = [&](int across) {
    return static_cast<int>(std::ceil(level * across * edge / width - 1e-9));
  };
  constexpr int kMax = MeshLevelCheck::kMaxLevel;
  std::string advice;
  if (level_for(kWanted) <= kMax) {
    advice = absl::StrFormat("%s %d puts %d across", flag, level_for(kWanted),
                             kWanted);
  } else if (level_for(kWanted / 2) <= kMax) {
    advice = absl::StrFormat(
        "%s %d puts %d across, the least that reads as folds (%d would need "
        "level %d, past %d); or draw the normal maps (crease-client "
        "--uv_maps_size) on it",
        flag, level_for(kWanted / 2), kWanted / 2, kWanted, level_for(kWanted),
        kMax);
  } else {
    advice = absl::StrFormat(
        "no level up to %d puts %d across: draw the normal maps "
        "(crease-client --uv_maps_size) on it",
        kMax, kWanted / 2);
  }
  return absl::StrFormat(
      "%s %d is too coarse for these wrinkles: they are %.3g wide (median), "
      "its edges %.3g long, %.1f across one, so an engine draws dents, not "
      "folds; %s",
      flag, level, width, edge, width / edge, advice);
}

}  // namespace crease::client
