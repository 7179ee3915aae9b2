// glb_frame_render GLB FRAME WIDTH HEIGHT OUT_DIR [AZIMUTH]: draws frame FRAME
// of a .glb that crease-client --export wrote as Crease draws an engine's mesh
// (renderer::MeshPreviewRenderer, the wrinkle renderer's camera and light):
// OUT_DIR/crease_mapped.png with the frame's normal map and tangents,
// OUT_DIR/crease_plain.png with its vertex normals alone, and
// OUT_DIR/camera.json (eye, target, up, vertical_fov_degrees and the
// renderer's key and fill light directions) so a browser can draw the same
// file the same way (tests/client/gltf_viewer_test.py).

#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "image/camera.h"
#include "image/image_encoding.h"
#include "renderer/gpu_context.h"
#include "renderer/mesh_preview_renderer.h"
#include "wrinkle/io/gltf_model.h"

namespace crease {
namespace {

using io::gltf_internal::AccessorData;
using io::gltf_internal::ReadAccessor;

struct Frame {
  std::vector<float> positions, normals, corner_uvs, corner_tangents;
  std::vector<io::Triangle> triangles;
  image::RgbaImage normal_map;
};

absl::StatusOr<Frame> ReadFrame(const tinygltf::Model& model, int frame) {
  // The root's children are the frames' nodes, in order.
  if (model.scenes.empty() || model.scenes[0].nodes.empty()) {
    return absl::InvalidArgumentError("no scene");
  }
  const tinygltf::Node& root = model.nodes[model.scenes[0].nodes[0]];
  if (frame < 0 || frame >= static_cast<int>(root.children.size())) {
    return absl::InvalidArgumentError(absl::StrCat("no frame ", frame));
  }
  const tinygltf::Node& node = model.nodes[root.children[frame]];
  const tinygltf::Primitive& primitive = model.meshes[node.mesh].primitives[0];
  const auto read = [&](const std::string& name, int type) {
    return ReadAccessor(model, primitive.attributes.at(name), name, {type});
  };
  Frame out;
  absl::StatusOr<AccessorData> p = read("POSITION", TINYGLTF_TYPE_VEC3);
  absl::StatusOr<AccessorData> n = read("NORMAL", TINYGLTF_TYPE_VEC3);
  absl::StatusOr<AccessorData> uv = read("TEXCOORD_0", TINYGLTF_TYPE_VEC2);
  absl::StatusOr<AccessorData> t = read("TANGENT", TINYGLTF_TYPE_VEC4);
  absl::StatusOr<AccessorData> indices =
      ReadAccessor(model, primitive.indices, "indices", {TINYGLTF_TYPE_SCALAR});
  for (const auto* s : {&p, &n, &uv, &t, &indices}) {
    if (!s->ok()) return s->status();
  }
  out.positions.assign(p->values.begin(), p->values.end());
  out.normals.assign(n->values.begin(), n->values.end());
  for (size_t i = 0; i + 2 < indices->values.size(); i += 3) {
    io::Triangle tri;
    for (int k = 0; k < 3; ++k) {
      const auto v = static_cast<int32_t>(indices->values[i + k]);
      tri[k] = v;
      // glTF's v is flipped; Crease's corner UVs are v upwards.
      out.corner_uvs.push_back(static_cast<float>(uv->values[2 * v]));
      out.corner_uvs.push_back(static_cast<float>(1 - uv->values[2 * v + 1]));
      for (int c = 0; c < 4; ++c) {
        out.corner_tangents.push_back(static_cast<float>(t->values[4 * v + c]));
      }
    }
    out.triangles.push_back(tri);
  }
  const tinygltf::Material& material = model.materials[primitive.material];
  const int texture = material.normalTexture.index;
  if (texture < 0) return absl::InvalidArgumentError("frame has no normal map");
  const tinygltf::Image& image = model.images[model.textures[texture].source];
  const tinygltf::BufferView& view = model.bufferViews[image.bufferView];
  const auto* bytes = &model.buffers[view.buffer].data[view.byteOffset];
  absl::StatusOr<image::RgbaImage> map = image::DecodePng(
      std::string_view(reinterpret_cast<const char*>(bytes), view.byteLength));
  if (!map.ok()) return map.status();
  out.normal_map = *std::move(map);
  return out;
}

std::string Json(const std::array<float, 3>& v) {
  return absl::StrFormat("[%.9g, %.9g, %.9g]", v[0], v[1], v[2]);
}

absl::Status Run(const std::string& glb_path, int frame, int width, int height,
                 const std::string& out, float azimuth) {
  absl::StatusOr<std::string> glb = files::ReadFileToString(glb_path);
  if (!glb.ok()) return glb.status();
  absl::StatusOr<tinygltf::Model> model =
      io::gltf_internal::LoadModel(*glb, nullptr);
  if (!model.ok()) return model.status();
  absl::StatusOr<Frame> f = ReadFrame(*model, frame);
  if (!f.ok()) return f.status();
  absl::StatusOr<std::unique_ptr<renderer::GpuContext>> gpu =
      renderer::GpuContext::Create();
  if (!gpu.ok()) return gpu.status();
  absl::StatusOr<std::unique_ptr<renderer::MeshPreviewRenderer>> preview =
      renderer::MeshPreviewRenderer::Create(gpu->get());
  if (!preview.ok()) return preview.status();
  renderer::RenderOptions options;
  options.width = width;
  options.height = height;
  options.background = {0, 0, 0, 0};
  const image::Camera camera = image::AutoFrame(
      f->positions, static_cast<float>(width) / static_cast<float>(height),
      azimuth);
  options.camera = camera;
  const renderer::PreviewMesh mesh{.positions = f->positions,
                                   .triangles = f->triangles,
                                   .normals = f->normals,
                                   .corner_uvs = f->corner_uvs,
                                   .corner_tangents = f->corner_tangents};
  renderer::PreviewOptions mapped;
  mapped.normal_map = &f->normal_map;
  for (const auto& [name, preview_options] :
       {std::pair{"crease_mapped", mapped},
        std::pair{"crease_plain", renderer::PreviewOptions()}}) {
    absl::StatusOr<image::RgbaImage> drawn =
        (*preview)->Render(mesh, options, preview_options);
    if (!drawn.ok()) return drawn.status();
    absl::StatusOr<std::string> png = image::EncodePng(*drawn);
    if (!png.ok()) return png.status();
    if (absl::Status s = files::WriteStringToFile(
            absl::StrCat(out, "/", name, ".png"), *png);
        !s.ok()) {
      return s;
    }
  }
  return files::WriteStringToFile(
      absl::StrCat(out, "/camera.json"),
      absl::StrFormat("{\"eye\": %s, \"target\": %s, \"up\": %s, "
                      "\"vertical_fov_degrees\": %.9g}\n",
                      Json(camera.eye), Json(camera.target), Json(camera.up),
                      camera.vertical_fov_degrees));
}

}  // namespace
}  // namespace crease

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::fprintf(
        stderr,
        "usage: glb_frame_render GLB FRAME WIDTH HEIGHT OUT_DIR [AZIMUTH]\n");
    return 2;
  }
  const absl::Status status = crease::Run(
      argv[1], std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]),
      argv[5], argc == 7 ? std::atof(argv[6]) : 0);
  if (!status.ok()) {
    std::fprintf(stderr, "glb_frame_render: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
