#include "wrinkle/io/gltf_write.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>
#include <tuple>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "common/status_macros.h"
#include "tiny_gltf.h"

namespace crease::io {
namespace {

constexpr char kPngSignature[] = "\x89PNG\r\n\x1a\n";
// GLB lengths are uint32: the whole file, headers and padding included.
constexpr int64_t kMaxGlbBytes = int64_t{std::numeric_limits<uint32_t>::max()};

absl::Status Invalid(const std::string& message) {
  return absl::InvalidArgumentError(message);
}

bool AllFinite(const std::vector<float>& values, size_t* bad) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      *bad = i;
      return false;
    }
  }
  return true;
}

absl::Status CheckTopology(const GltfMeshAnimation& animation) {
  if (animation.vertex_count <= 0 || animation.triangles.empty()) {
    return Invalid(absl::StrFormat(
        "glTF export: %d vertices and %d triangles; need at least one of each",
        animation.vertex_count, animation.triangles.size()));
  }
  for (size_t t = 0; t < animation.triangles.size(); ++t) {
    for (int32_t v : animation.triangles[t]) {
      if (v < 0 || v >= animation.vertex_count) {
        return Invalid(absl::StrFormat(
            "glTF export: triangle %d has vertex %d, outside 0..%d", t, v,
            animation.vertex_count - 1));
      }
    }
  }
  const size_t uvs = animation.corner_uvs.size();
  if (uvs != 0 && uvs != 6 * animation.triangles.size()) {
    return Invalid(absl::StrFormat(
        "glTF export: corner_uvs has %d floats, need 6 x %d triangles", uvs,
        animation.triangles.size()));
  }
  size_t bad = 0;
  if (!AllFinite(animation.corner_uvs, &bad)) {
    return Invalid(
        absl::StrFormat("glTF export: corner_uvs[%d] is not finite (%g)", bad,
                        animation.corner_uvs[bad]));
  }
  if (!(animation.fps > 0.0) || !std::isfinite(animation.fps)) {
    return Invalid(
        absl::StrFormat("glTF export: fps %g, need > 0", animation.fps));
  }
  if (animation.frames.empty()) {
    return Invalid("glTF export: no frames");
  }
  return absl::OkStatus();
}

absl::Status CheckTangents(const GltfMeshAnimation& animation, size_t f) {
  const std::vector<float>& tangents = animation.frames[f].tangents;
  if (tangents.empty()) return absl::OkStatus();
  if (animation.frames[f].normals.empty() || animation.corner_uvs.empty()) {
    return Invalid(absl::StrFormat(
        "glTF export: frame %d has tangents but no normals or no UVs", f));
  }
  if (tangents.size() != 12 * animation.triangles.size()) {
    return Invalid(absl::StrFormat(
        "glTF export: frame %d has %d tangent floats, need 4 x 3 x %d "
        "triangle corners",
        f, tangents.size(), animation.triangles.size()));
  }
  for (size_t c = 0; c < tangents.size(); c += 4) {
    const float* t = &tangents[c];
    const bool finite =
        std::isfinite(t[0]) && std::isfinite(t[1]) && std::isfinite(t[2]);
    if (!finite || (t[0] == 0.0f && t[1] == 0.0f && t[2] == 0.0f) ||
        (t[3] != 1.0f && t[3] != -1.0f)) {
      return Invalid(absl::StrFormat(
          "glTF export: frame %d corner %d: the tangent is not finite, is "
          "zero, or its w is not +-1",
          f, c / 4));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckFrame(const GltfMeshAnimation& animation, size_t f) {
  const GltfFrame& frame = animation.frames[f];
  const size_t floats = 3 * static_cast<size_t>(animation.vertex_count);
  if (frame.positions.size() != floats ||
      (!frame.normals.empty() && frame.normals.size() != floats)) {
    return Invalid(absl::StrFormat(
        "glTF export: frame %d has %d position and %d normal floats, need 3 "
        "x %d vertices = %d (normals may be empty)",
        f, frame.positions.size(), frame.normals.size(), animation.vertex_count,
        floats));
  }
  size_t bad = 0;
  if (!AllFinite(frame.positions, &bad) || !AllFinite(frame.normals, &bad)) {
    return Invalid(absl::StrFormat(
        "glTF export: frame %d vertex %d: position or normal is not finite", f,
        bad / 3));
  }
  for (size_t v = 0; v < frame.normals.size(); v += 3) {
    const float* n = &frame.normals[v];
    if (n[0] == 0.0f && n[1] == 0.0f && n[2] == 0.0f) {
      return Invalid(absl::StrFormat(
          "glTF export: frame %d vertex %d: the normal is zero", f, v / 3));
    }
  }
  CREASE_RETURN_IF_ERROR(CheckTangents(animation, f));
  if (!frame.normal_map_png.empty()) {
    if (animation.corner_uvs.empty()) {
      return Invalid(absl::StrFormat(
          "glTF export: frame %d has a normal map but the mesh has no UVs", f));
    }
    if (frame.normal_map_png.compare(0, 8, kPngSignature, 8) != 0) {
      return Invalid(absl::StrFormat(
          "glTF export: frame %d: the normal map (%d bytes) is not a PNG", f,
          frame.normal_map_png.size()));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckAnimation(const GltfMeshAnimation& animation) {
  CREASE_RETURN_IF_ERROR(CheckTopology(animation));
  for (size_t f = 0; f < animation.frames.size(); ++f) {
    CREASE_RETURN_IF_ERROR(CheckFrame(animation, f));
  }
  return absl::OkStatus();
}

// glTF vertices: one per distinct (vertex, u, v) of the corners (per vertex
// when there are no UVs), in order of first use.
struct VertexSplit {
  std::vector<int32_t> source;   // glTF vertex -> mesh vertex
  std::vector<uint32_t> first;   // glTF vertex -> its first triangle corner
  std::vector<uint32_t> corner;  // triangle corner -> glTF vertex
  std::vector<float> uvs;        // u, 1 - v per glTF vertex (if UVs)
};

// Which way triangle t's UV triangle turns: 1 counter-clockwise, -1
// clockwise, 0 degenerate (or no UVs).
int UvTurn(const std::vector<float>& corner_uvs, size_t t) {
  if (corner_uvs.empty()) return 0;
  const float* uv = &corner_uvs[6 * t];
  const double det = (double{uv[2]} - uv[0]) * (double{uv[5]} - uv[1]) -
                     (double{uv[4]} - uv[0]) * (double{uv[3]} - uv[1]);
  return det > 0.0 ? 1 : det < 0.0 ? -1 : 0;
}

VertexSplit SplitVertices(const GltfMeshAnimation& animation) {
  VertexSplit split;
  const bool has_uvs = !animation.corner_uvs.empty();
  // With tangents, corners are also told apart by which way their UV
  // triangle turns (0: degenerate): mirrored UV halves that share a seam's
  // UVs have opposite bitangent signs, and a degenerate UV triangle's
  // tangent is arbitrary, so neither may lend its tangent to the others.
  bool has_tangents = false;
  for (const GltfFrame& frame : animation.frames) {
    has_tangents = has_tangents || !frame.tangents.empty();
  }
  std::map<std::tuple<int32_t, uint32_t, uint32_t, int>, uint32_t> ids;
  for (size_t t = 0; t < animation.triangles.size(); ++t) {
    const int turn = has_tangents ? UvTurn(animation.corner_uvs, t) : 0;
    for (int k = 0; k < 3; ++k) {
      const int32_t v = animation.triangles[t][k];
      float uv[2] = {0.0f, 0.0f};
      if (has_uvs) std::memcpy(uv, &animation.corner_uvs[6 * t + 2 * k], 8);
      uint32_t bits[2];
      std::memcpy(bits, uv, 8);
      const auto [it, added] =
          ids.try_emplace({v, bits[0], bits[1], turn},
                          static_cast<uint32_t>(split.source.size()));
      if (added) {
        split.source.push_back(v);
        split.first.push_back(static_cast<uint32_t>(3 * t + k));
        if (has_uvs) {
          split.uvs.push_back(uv[0]);
          split.uvs.push_back(static_cast<float>(1.0 - uv[1]));
        }
      }
      split.corner.push_back(it->second);
    }
  }
  return split;
}

// The model under construction, every array in the one buffer.
class GlbBuilder {
 public:
  GlbBuilder() { model_.buffers.resize(1); }

  tinygltf::Model& model() { return model_; }
  size_t buffer_bytes() const { return model_.buffers[0].data.size(); }

  int AddView(const void* data, size_t bytes, int target) {
    std::vector<unsigned char>& bin = model_.buffers[0].data;
    bin.resize((bin.size() + 3) / 4 * 4, 0);  // 4-aligned for floats
    tinygltf::BufferView view;
    view.buffer = 0;
    view.byteOffset = bin.size();
    view.byteLength = bytes;
    view.target = target;
    const auto* begin = static_cast<const unsigned char*>(data);
    bin.insert(bin.end(), begin, begin + bytes);
    model_.bufferViews.push_back(std::move(view));
    return static_cast<int>(model_.bufferViews.size()) - 1;
  }

  // A tightly packed float accessor of `components` per element; with
  // `bounds`, its min and max (POSITION and animation inputs need them).
  int AddFloats(const std::vector<float>& values, int components, int type,
                bool bounds, int target) {
    tinygltf::Accessor accessor;
    accessor.bufferView =
        AddView(values.data(), values.size() * sizeof(float), target);
    accessor.byteOffset = 0;
    accessor.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
    accessor.count = values.size() / components;
    accessor.type = type;
    if (bounds) {
      accessor.minValues.assign(components, std::numeric_limits<double>::max());
      accessor.maxValues.assign(components,
                                std::numeric_limits<double>::lowest());
      for (size_t i = 0; i < values.size(); ++i) {
        double& lo = accessor.minValues[i % components];
        double& hi = accessor.maxValues[i % components];
        lo = std::min(lo, static_cast<double>(values[i]));
        hi = std::max(hi, static_cast<double>(values[i]));
      }
    }
    return AddAccessor(std::move(accessor));
  }

  int AddIndices(const std::vector<uint32_t>& indices) {
    tinygltf::Accessor accessor;
    accessor.bufferView =
        AddView(indices.data(), indices.size() * sizeof(uint32_t),
                TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
    accessor.byteOffset = 0;
    accessor.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
    accessor.count = indices.size();
    accessor.type = TINYGLTF_TYPE_SCALAR;
    return AddAccessor(std::move(accessor));
  }

 private:
  int AddAccessor(tinygltf::Accessor accessor) {
    model_.accessors.push_back(std::move(accessor));
    return static_cast<int>(model_.accessors.size()) - 1;
  }

  tinygltf::Model model_;
};

tinygltf::Material ClothMaterial(const std::string& name) {
  tinygltf::Material material;
  material.name = name;
  material.doubleSided = true;  // cloth: the inside shows
  material.pbrMetallicRoughness.baseColorFactor = {0.8, 0.8, 0.8, 1.0};
  material.pbrMetallicRoughness.metallicFactor = 0.0;
  material.pbrMetallicRoughness.roughnessFactor = 0.9;
  return material;
}

// The material of a frame with a normal map: the PNG as an image in the
// buffer, a texture of it, and a material whose normalTexture it is.
int AddNormalMappedMaterial(GlbBuilder& builder, const std::string& name,
                            const std::string& png, int* sampler) {
  tinygltf::Model& model = builder.model();
  if (*sampler < 0) {        // made on first use: none left unused
    tinygltf::Sampler made;  // trilinear, repeating (dilated UV islands)
    made.magFilter = TINYGLTF_TEXTURE_FILTER_LINEAR;
    made.minFilter = TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_LINEAR;
    model.samplers.push_back(made);
    *sampler = static_cast<int>(model.samplers.size()) - 1;
  }
  tinygltf::Image image;
  image.name = name;
  image.mimeType = "image/png";
  image.bufferView = builder.AddView(png.data(), png.size(), 0);
  model.images.push_back(std::move(image));
  tinygltf::Texture texture;
  texture.sampler = *sampler;
  texture.source = static_cast<int>(model.images.size()) - 1;
  model.textures.push_back(texture);
  tinygltf::Material material = ClothMaterial(name);
  material.normalTexture.index = static_cast<int>(model.textures.size()) - 1;
  model.materials.push_back(std::move(material));
  return static_cast<int>(model.materials.size()) - 1;
}

// What every frame's mesh shares.
struct SharedGeometry {
  int indices = -1;
  int uvs = -1;             // -1: no TEXCOORD_0
  int plain_material = -1;  // for frames without a normal map (-1: none yet)
  int sampler = -1;         // the normal maps' (-1: none yet)
};

SharedGeometry AddSharedGeometry(GlbBuilder& builder,
                                 const VertexSplit& split) {
  SharedGeometry shared;
  shared.indices = builder.AddIndices(split.corner);
  if (!split.uvs.empty()) {
    shared.uvs = builder.AddFloats(split.uvs, 2, TINYGLTF_TYPE_VEC2, false,
                                   TINYGLTF_TARGET_ARRAY_BUFFER);
  }
  return shared;
}

// One frame's unit tangents (x y z w) in glTF vertex order: each vertex
// its first corner's.
void GatherTangents(const GltfFrame& frame, const VertexSplit& split,
                    std::vector<float>* tangents) {
  tangents->clear();
  if (frame.tangents.empty()) return;
  for (uint32_t c : split.first) {
    const float* t = &frame.tangents[4 * static_cast<size_t>(c)];
    const double length = std::sqrt(double{t[0]} * t[0] + double{t[1]} * t[1] +
                                    double{t[2]} * t[2]);
    for (int i = 0; i < 3; ++i) {
      tangents->push_back(static_cast<float>(t[i] / length));
    }
    tangents->push_back(t[3]);
  }
}

// One frame's positions and unit normals in glTF vertex order.
void GatherFrame(const GltfFrame& frame, const VertexSplit& split,
                 std::vector<float>* positions, std::vector<float>* normals) {
  positions->clear();
  normals->clear();
  for (int32_t v : split.source) {
    positions->insert(positions->end(), &frame.positions[3 * v],
                      &frame.positions[3 * v] + 3);
    if (frame.normals.empty()) continue;
    const float* n = &frame.normals[3 * v];
    const double length = std::sqrt(double{n[0]} * n[0] + double{n[1]} * n[1] +
                                    double{n[2]} * n[2]);
    for (int i = 0; i < 3; ++i) {
      normals->push_back(static_cast<float>(n[i] / length));
    }
  }
}

// Frame f's mesh, material and node (a child of the root, node 0).
void AddFrame(GlbBuilder& builder, const GltfMeshAnimation& animation,
              const VertexSplit& split, SharedGeometry& shared, size_t f) {
  const GltfFrame& frame = animation.frames[f];
  const std::string name = absl::StrFormat("%s_frame_%04d", animation.name, f);
  std::vector<float> positions, normals;
  GatherFrame(frame, split, &positions, &normals);
  tinygltf::Primitive primitive;
  primitive.mode = TINYGLTF_MODE_TRIANGLES;
  primitive.indices = shared.indices;
  primitive.attributes["POSITION"] = builder.AddFloats(
      positions, 3, TINYGLTF_TYPE_VEC3, true, TINYGLTF_TARGET_ARRAY_BUFFER);
  if (!normals.empty()) {
    primitive.attributes["NORMAL"] = builder.AddFloats(
        normals, 3, TINYGLTF_TYPE_VEC3, false, TINYGLTF_TARGET_ARRAY_BUFFER);
  }
  std::vector<float> tangents;
  GatherTangents(frame, split, &tangents);
  if (!tangents.empty()) {
    primitive.attributes["TANGENT"] = builder.AddFloats(
        tangents, 4, TINYGLTF_TYPE_VEC4, false, TINYGLTF_TARGET_ARRAY_BUFFER);
  }
  if (shared.uvs >= 0) primitive.attributes["TEXCOORD_0"] = shared.uvs;
  if (frame.normal_map_png.empty()) {
    if (shared.plain_material < 0) {  // made on first use: none left unused
      builder.model().materials.push_back(ClothMaterial(animation.name));
      shared.plain_material =
          static_cast<int>(builder.model().materials.size()) - 1;
    }
    primitive.material = shared.plain_material;
  } else {
    primitive.material = AddNormalMappedMaterial(
        builder, name, frame.normal_map_png, &shared.sampler);
  }
  tinygltf::Model& model = builder.model();
  tinygltf::Mesh mesh;
  mesh.name = name;
  mesh.primitives.push_back(std::move(primitive));
  model.meshes.push_back(std::move(mesh));
  tinygltf::Node node;
  node.name = name;
  node.mesh = static_cast<int>(model.meshes.size()) - 1;
  const double shown = f == 0 ? 1.0 : 0.0;  // without playback: frame 0
  node.scale = {shown, shown, shown};
  model.nodes.push_back(std::move(node));
  model.nodes[0].children.push_back(static_cast<int>(model.nodes.size()) - 1);
}

// Node 1 + f is shown (scale 1) during [f / fps, (f + 1) / fps), the last
// one until the end of the clip, N / fps; scale 0 otherwise. STEP keys.
void AddVisibilityAnimation(GlbBuilder& builder,
                            const GltfMeshAnimation& animation) {
  const size_t n = animation.frames.size();
  const auto time = [&](size_t f) {
    return static_cast<float>(static_cast<double>(f) / animation.fps);
  };
  tinygltf::Animation clip;
  clip.name = "frames";
  for (size_t f = 0; f < n; ++f) {
    std::vector<float> times, scales;
    const auto key = [&](float t, float s) {
      times.push_back(t);
      scales.insert(scales.end(), {s, s, s});
    };
    if (f > 0) key(0.0f, 0.0f);
    key(time(f), 1.0f);
    key(time(f + 1), f + 1 == n ? 1.0f : 0.0f);
    tinygltf::AnimationSampler sampler;
    sampler.input = builder.AddFloats(times, 1, TINYGLTF_TYPE_SCALAR, true, 0);
    sampler.output = builder.AddFloats(scales, 3, TINYGLTF_TYPE_VEC3, false, 0);
    sampler.interpolation = "STEP";
    clip.samplers.push_back(sampler);
    tinygltf::AnimationChannel channel;
    channel.sampler = static_cast<int>(clip.samplers.size()) - 1;
    channel.target_node = static_cast<int>(1 + f);
    channel.target_path = "scale";
    clip.channels.push_back(std::move(channel));
  }
  builder.model().animations.push_back(std::move(clip));
}

}  // namespace

absl::StatusOr<std::string> FormatGlb(const GltfMeshAnimation& animation) {
  CREASE_RETURN_IF_ERROR(CheckAnimation(animation));
  const VertexSplit split = SplitVertices(animation);
  GlbBuilder builder;
  tinygltf::Model& model = builder.model();
  model.asset.version = "2.0";
  model.asset.generator = "Crease (crease-client --export)";
  tinygltf::Node root;
  root.name = animation.name;
  model.nodes.push_back(std::move(root));
  tinygltf::Scene scene;
  scene.name = animation.name;
  scene.nodes = {0};
  model.scenes.push_back(std::move(scene));
  model.defaultScene = 0;

  SharedGeometry shared = AddSharedGeometry(builder, split);
  for (size_t f = 0; f < animation.frames.size(); ++f) {
    AddFrame(builder, animation, split, shared, f);
    // Checked as it grows: the JSON adds about a kilobyte a frame.
    if (static_cast<int64_t>(builder.buffer_bytes()) +
            static_cast<int64_t>(4096 * (f + 1)) >
        kMaxGlbBytes) {
      return Invalid(absl::StrFormat(
          "glTF export: %d bytes after %d of %d frames; a .glb stops at 4 GiB",
          builder.buffer_bytes(), f + 1, animation.frames.size()));
    }
  }
  AddVisibilityAnimation(builder, animation);
  model.buffers[0].name = "crease";

  std::ostringstream stream;
  tinygltf::TinyGLTF writer;
  if (!writer.WriteGltfSceneToStream(&model, stream, /*prettyPrint=*/false,
                                     /*writeBinary=*/true)) {
    return absl::InternalError("glTF export: tinygltf could not write it");
  }
  std::string glb = std::move(stream).str();
  if (static_cast<int64_t>(glb.size()) > kMaxGlbBytes) {
    return Invalid(absl::StrFormat(
        "glTF export: %d bytes; a .glb stops at 4 GiB", glb.size()));
  }
  return glb;
}

absl::Status WriteGlb(const std::string& path,
                      const GltfMeshAnimation& animation) {
  CREASE_ASSIGN_OR_RETURN(const std::string glb, FormatGlb(animation));
  return files::WriteStringToFile(path, glb);
}

}  // namespace crease::io
