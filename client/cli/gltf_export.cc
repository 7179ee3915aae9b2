#include "client/cli/gltf_export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "common/file_util.h"
#include "common/status_macros.h"
#include "image/image_encoding.h"
#include "image/rgba_image.h"
#include "wrinkle/data/corner_tangents.h"
#include "wrinkle/data/refined_topology.h"
#include "wrinkle/data/smooth_normals.h"
#include "wrinkle/data/weld.h"

ABSL_FLAG(std::string, export, "",
          "Write what comes back as one glTF 2.0 binary (.glb) here: the "
          "wrinkled mesh per frame with --wrinkled_mesh_level (with the "
          "server's normal maps on it when --uv_maps_size asks for them too), "
          "else the coarse mesh with the normal maps when there are any; one "
          "node per frame, played by an animation at --fps (0: 30). Its "
          "directory is made if missing.");

namespace crease::client {
namespace {

// Unit smooth normals of one coarse frame: the welded area-weighted sums
// (the renderer's rule, which the normal maps are relative to); +z where a
// vertex's triangles have no area.
std::vector<float> SmoothUnitNormals(absl::Span<const float> positions,
                                     const std::vector<io::Triangle>& triangles,
                                     const std::vector<int32_t>& welded) {
  std::vector<float> sums;
  SumWeldedNormals(positions, triangles, welded, &sums);
  std::vector<float> normals(positions.size());
  for (size_t v = 0; v < welded.size(); ++v) {
    const float* s = &sums[3 * static_cast<size_t>(welded[v])];
    const double length = std::hypot(s[0], s[1], s[2]);
    for (int i = 0; i < 3; ++i) {
      normals[3 * v + i] =
          length > 0 ? static_cast<float>(s[i] / length) : (i == 2 ? 1 : 0);
    }
  }
  return normals;
}

// The frame's normal map as PNG bytes (raw RGBA8 rows are encoded), or empty
// when it has none.
absl::StatusOr<std::string> NormalMapPng(const v1::FrameResult& result) {
  const v1::UvMaps& maps = result.uv_maps();
  if (maps.normal_map().empty()) return std::string();
  if (maps.encoding() != v1::UV_MAP_ENCODING_RAW) return maps.normal_map();
  const size_t size = maps.size();
  if (maps.normal_map().size() != 4 * size * size) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--export: frame %d: uv_maps.normal_map has %d bytes, need 4 x %d x %d",
        result.index(), maps.normal_map().size(), size, size));
  }
  image::RgbaImage map{
      .width = static_cast<int>(size),
      .height = static_cast<int>(size),
      .pixels = {maps.normal_map().begin(), maps.normal_map().end()}};
  return image::EncodePng(map, 1, image::PngFilter::kSub);
}

}  // namespace

GltfExport::GltfExport(std::string path, const io::Animation& animation,
                       double fps)
    : path_(std::move(path)), animation_(animation) {
  gltf_.fps = fps > 0 ? fps : 30.0;
}

absl::Status GltfExport::Add(const v1::Started& started,
                             const v1::FrameResult& result) {
  const Source source =
      result.has_wrinkled_mesh() ? Source::kWrinkled : Source::kCoarse;
  if (source_ != Source::kNone && source != source_) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--export: frame %d %s a wrinkled mesh and the frames before %s",
        result.index(), source == Source::kWrinkled ? "has" : "has no",
        source == Source::kWrinkled ? "had none" : "had one"));
  }
  source_ = source;
  return source == Source::kWrinkled ? AddWrinkled(started, result)
                                     : AddCoarse(result);
}

absl::Status GltfExport::AddWrinkled(const v1::Started& started,
                                     const v1::FrameResult& result) {
  if (gltf_.frames.empty()) {  // the topology, once
    const v1::WrinkledMeshTopology& topology = started.wrinkled_mesh();
    if (topology.triangles_size() % 3 != 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--export: started.wrinkled_mesh.triangles has %d indices, not a "
          "multiple of 3",
          topology.triangles_size()));
    }
    gltf_.vertex_count = static_cast<int>(topology.vertex_count());
    gltf_.triangles.resize(topology.triangles_size() / 3);
    for (int i = 0; i < topology.triangles_size(); ++i) {
      gltf_.triangles[i / 3][i % 3] = static_cast<int32_t>(
          std::min<uint32_t>(topology.triangles(i), INT32_MAX));
    }
    gltf_.corner_uvs.assign(topology.corner_uvs().begin(),
                            topology.corner_uvs().end());
  }
  const v1::WrinkledMesh& mesh = result.wrinkled_mesh();
  const int64_t floats = 3 * int64_t{gltf_.vertex_count};
  if (mesh.positions_size() != floats || mesh.normals_size() != floats) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--export: frame %d: the wrinkled mesh has %d positions and %d "
        "normals, need %d each (3 x %d vertices)",
        result.index(), mesh.positions_size(), mesh.normals_size(), floats,
        gltf_.vertex_count));
  }
  if (!gltf_.corner_uvs.empty() &&
      gltf_.corner_uvs.size() != 6 * gltf_.triangles.size()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--export: started.wrinkled_mesh has %d corner UVs for %d triangles, "
        "need 6 each",
        gltf_.corner_uvs.size(), gltf_.triangles.size()));
  }
  io::GltfFrame frame;
  frame.positions.assign(mesh.positions().begin(), mesh.positions().end());
  CREASE_ASSIGN_OR_RETURN(frame.normal_map_png, NormalMapPng(result));
  if (!frame.normal_map_png.empty() && !gltf_.corner_uvs.empty()) {
    CREASE_RETURN_IF_ERROR(MapOntoWrinkled(started, result, &frame));
  } else {
    frame.normal_map_png.clear();  // no UVs to lay it on
    frame.normals.assign(mesh.normals().begin(), mesh.normals().end());
  }
  gltf_.frames.push_back(std::move(frame));
  return absl::OkStatus();
}

// The normal map is relative to the coarse mesh's smooth surface, so on the
// wrinkled mesh it gets that surface's normals and tangent frame, carried to
// each refined vertex as the server places it (RefinedVertex): the map shades
// the folds, the geometry gives their silhouette, and nothing counts twice.
absl::Status GltfExport::MapOntoWrinkled(const v1::Started& started,
                                         const v1::FrameResult& result,
                                         io::GltfFrame* frame) {
  const io::TriangleMesh& mesh = animation_.mesh;
  if (refined_.triangles.empty()) {  // once: the server's topology, rebuilt
    CREASE_ASSIGN_OR_RETURN(
        refined_,
        RefineTopology(mesh.triangles, mesh.num_vertices(),
                       static_cast<int>(started.wrinkled_mesh().level())));
    bool same = refined_.triangles.size() == gltf_.triangles.size();
    for (size_t t = 0; same && t < gltf_.triangles.size(); ++t) {
      same = refined_.triangles[t] == gltf_.triangles[t];
    }
    if (!same || refined_.num_vertices() != gltf_.vertex_count) {
      return absl::InvalidArgumentError(
          "--export: the server's wrinkled mesh is not the refinement of the "
          "mesh sent, so its normal maps cannot be laid on it");
    }
    welded_ = WeldVerticesRelative(mesh.positions,
                                   kDefaultWeldRelativeTolerance, &num_welded_);
    // Refined vertices weld by where they lie on the rest mesh.
    std::vector<float> rest, rest_normals;
    PlaceOnCoarse(mesh.positions, &rest, &rest_normals);
    int num_refined_welded = 0;
    refined_welded_ = WeldVerticesRelative(rest, kDefaultWeldRelativeTolerance,
                                           &num_refined_welded);
  }
  if (result.index() >= static_cast<uint32_t>(animation_.num_frames())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--export: frame %d was never sent", result.index()));
  }
  const absl::Span<const float> coarse =
      animation_.frames.Sample(static_cast<int>(result.index()));
  std::vector<float> base;
  PlaceOnCoarse(coarse, &base, &frame->normals);
  interleaved_.resize(2 * base.size());
  for (size_t v = 0; v < base.size() / 3; ++v) {
    std::copy_n(&base[3 * v], 3, &interleaved_[6 * v]);
    std::copy_n(&frame->normals[3 * v], 3, &interleaved_[6 * v + 3]);
  }
  CornerTangents(gltf_.triangles, refined_welded_, gltf_.corner_uvs,
                 interleaved_, &frame->tangents, &tangent_scratch_);
  return absl::OkStatus();
}

// Each refined vertex's point and unit normal on the coarse surface of
// `coarse` (xyz per coarse vertex), by the server's rule (PlaceRefinedVertex).
void GltfExport::PlaceOnCoarse(absl::Span<const float> coarse,
                               std::vector<float>* positions,
                               std::vector<float>* normals) {
  SumWeldedNormals(coarse, animation_.mesh.triangles, welded_, &normal_sums_);
  positions->resize(3 * static_cast<size_t>(refined_.num_vertices()));
  normals->resize(positions->size());
  for (int v = 0; v < refined_.num_vertices(); ++v) {
    Eigen::Vector3f p, n;
    PlaceRefinedVertex(refined_.vertices[v], coarse, welded_, normal_sums_, &p,
                       &n);
    std::copy_n(p.data(), 3, &(*positions)[3 * static_cast<size_t>(v)]);
    std::copy_n(n.data(), 3, &(*normals)[3 * static_cast<size_t>(v)]);
  }
}

absl::Status GltfExport::AddCoarse(const v1::FrameResult& result) {
  const io::TriangleMesh& mesh = animation_.mesh;
  if (gltf_.frames.empty()) {  // the topology, once
    gltf_.vertex_count = mesh.num_vertices();
    gltf_.triangles = mesh.triangles;
    gltf_.corner_uvs = mesh.corner_uvs;
    welded_ = WeldVerticesRelative(mesh.positions,
                                   kDefaultWeldRelativeTolerance, &num_welded_);
  }
  if (result.index() >= static_cast<uint32_t>(animation_.num_frames())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--export: frame %d was never sent", result.index()));
  }
  const absl::Span<const float> positions =
      animation_.frames.Sample(static_cast<int>(result.index()));
  io::GltfFrame frame;
  frame.positions.assign(positions.begin(), positions.end());
  frame.normals = SmoothUnitNormals(positions, mesh.triangles, welded_);
  CREASE_ASSIGN_OR_RETURN(frame.normal_map_png, NormalMapPng(result));
  if (!frame.normal_map_png.empty() && !mesh.corner_uvs.empty()) {
    // TANGENT: the frame the server baked the map in, by the same rule.
    interleaved_.resize(2 * positions.size());
    for (size_t v = 0; v < positions.size() / 3; ++v) {
      std::copy_n(&positions[3 * v], 3, &interleaved_[6 * v]);
      std::copy_n(&frame.normals[3 * v], 3, &interleaved_[6 * v + 3]);
    }
    CornerTangents(mesh.triangles, welded_, mesh.corner_uvs, interleaved_,
                   &frame.tangents, &tangent_scratch_);
  }
  gltf_.frames.push_back(std::move(frame));
  return absl::OkStatus();
}

absl::Status GltfExport::Write(bool quiet) const {
  if (gltf_.frames.empty()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--export %s: no frame came back", path_));
  }
  absl::StatusOr<std::string> glb = io::FormatGlb(gltf_);
  if (!glb.ok()) {
    return absl::Status(
        glb.status().code(),
        absl::StrFormat("--export %s: %s", path_, glb.status().message()));
  }
  CREASE_RETURN_IF_ERROR(files::WriteStringToFile(path_, *glb));
  if (!quiet) {
    std::fprintf(stderr, "wrote %s: %zu frames (%s), %zu bytes\n",
                 path_.c_str(), gltf_.frames.size(),
                 source_ == Source::kCoarse ? "coarse mesh"
                 : gltf_.frames.front().normal_map_png.empty()
                     ? "wrinkled mesh"
                     : "wrinkled mesh with normal maps",
                 glb->size());
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<GltfExport>> GltfExportFromFlags(
    const io::Animation& animation, double fps) {
  const std::string path = absl::GetFlag(FLAGS_export);
  if (path.empty()) return nullptr;
  if (!absl::EndsWithIgnoreCase(path, ".glb")) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--export %s: the file is binary glTF; give it a .glb name", path));
  }
  const std::filesystem::path dir =
      std::filesystem::path(path).parent_path().empty()
          ? std::filesystem::path(".")
          : std::filesystem::path(path).parent_path();
  // Made if missing, as --out's directory is, before any frame is streamed.
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (!std::filesystem::is_directory(dir, error)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--export %s: %s is not a directory and cannot be made one%s", path,
        dir.string(), error ? " (" + error.message() + ")" : ""));
  }
  return std::make_unique<GltfExport>(path, animation, fps);
}

}  // namespace crease::client
