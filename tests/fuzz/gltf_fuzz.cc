// Fuzzes the glTF reader: tinygltf's parser (compiled into crease_gltf, so
// instrumented here) on .gltf JSON and .glb bytes, then our evaluation of the
// mesh, skin, morph targets and animation, from memory (external files are
// refused). Errors must be InvalidArgument or NotFound (an unknown external
// buffer); what is accepted must be a consistent, finite Animation of the
// frames asked for.

#include <cmath>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/fuzz_check.h"
#include "wrinkle/io/gltf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace crease;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  io::GltfOptions options;
  options.fps = 7;  // key times fall between frames
  options.frames = 3;
  options.loop = true;
  const absl::StatusOr<io::Animation> read =
      io::ParseGltf(bytes, "fuzz.gltf", options);
  if (!read.ok()) {
    CREASE_FUZZ_CHECK(absl::IsInvalidArgument(read.status()) ||
                      absl::IsNotFound(read.status()));
    CREASE_FUZZ_CHECK(!read.status().message().empty());
    return 0;
  }
  const io::TriangleMesh& mesh = read->mesh;
  CREASE_FUZZ_CHECK(read->num_frames() == 3);
  CREASE_FUZZ_CHECK(mesh.num_vertices() > 0 && mesh.num_triangles() > 0);
  CREASE_FUZZ_CHECK(read->frames.num_points == mesh.num_vertices());
  CREASE_FUZZ_CHECK(read->frames.positions.size() ==
                    3u * 3u * static_cast<size_t>(mesh.num_vertices()));
  for (const io::Triangle& t : mesh.triangles) {
    for (int32_t v : t) CREASE_FUZZ_CHECK(v >= 0 && v < mesh.num_vertices());
  }
  CREASE_FUZZ_CHECK(mesh.corner_uvs.empty() ||
                    mesh.corner_uvs.size() == 6u * mesh.triangles.size());
  for (float x : read->frames.positions) CREASE_FUZZ_CHECK(std::isfinite(x));
  const auto first = read->frames.Sample(0);
  CREASE_FUZZ_CHECK(std::equal(first.begin(), first.end(),
                               mesh.positions.begin(), mesh.positions.end()));
  return 0;
}
