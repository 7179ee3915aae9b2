// Fuzzes the OBJ parser and, for what it accepts, the mesh topology and two
// frames of a Session on it. Accepted meshes have indices in range and finite
// UVs for every corner or none, and must write back (FormatObj) to text that
// parses to the same mesh, UVs included; a mesh Session::Create accepts must
// accept frames of finite positions and keep CheckSessionOutputs true.

#include <cmath>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "tests/fuzz/session_invariants.h"
#include "wrinkle/io/obj.h"
#include "wrinkle/sca2015/session.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace crease;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const absl::StatusOr<io::TriangleMesh> mesh = io::ParseObj(text, "fuzz.obj");
  if (!mesh.ok()) {
    CREASE_FUZZ_CHECK(absl::IsInvalidArgument(mesh.status()));
    return 0;
  }
  for (const io::Triangle& t : mesh->triangles) {
    for (int32_t v : t) {
      CREASE_FUZZ_CHECK(v >= 0 && v < mesh->num_vertices());
    }
  }
  CREASE_FUZZ_CHECK(mesh->corner_uvs.empty() ||
                    mesh->corner_uvs.size() == 6 * mesh->triangles.size());
  for (float uv : mesh->corner_uvs) CREASE_FUZZ_CHECK(std::isfinite(uv));
  const absl::StatusOr<io::TriangleMesh> again =
      io::ParseObj(io::FormatObj(*mesh), "formatted.obj");
  CREASE_FUZZ_CHECK(again.ok());
  CREASE_FUZZ_CHECK(again->positions == mesh->positions);
  CREASE_FUZZ_CHECK(again->triangles == mesh->triangles);
  CREASE_FUZZ_CHECK(again->corner_uvs == mesh->corner_uvs);

  // Sessions cost time per triangle; the parser is what is fuzzed above.
  if (mesh->num_triangles() > 2000) return 0;
  absl::StatusOr<std::unique_ptr<Session>> session =
      Session::Create(mesh->triangles, mesh->positions);
  if (!session.ok()) return 0;
  CREASE_FUZZ_CHECK((*session)->ProcessFrame(mesh->positions).ok());
  fuzz::CheckSessionOutputs(**session);
  // Squeezed along x and bent along z: compression, so wrinkles may be born.
  std::vector<float> squeezed = mesh->positions;
  for (size_t v = 0; v < squeezed.size(); v += 3) {
    squeezed[v + 2] += 0.1f * squeezed[v] * squeezed[v];
    squeezed[v] *= 0.7f;
  }
  for (float x : squeezed) {
    if (!std::isfinite(x)) return 0;  // overflowed: not a frame to send
  }
  CREASE_FUZZ_CHECK((*session)->ProcessFrame(squeezed).ok());
  fuzz::CheckSessionOutputs(**session);
  return 0;
}
