#ifndef CREASE_WRINKLE_IO_GLTF_MODEL_H_
#define CREASE_WRINKLE_IO_GLTF_MODEL_H_

// Internal to crease_gltf: tinygltf's model from bytes, and accessors read
// with every bound checked. Errors carry no file name; ParseGltf adds it.

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tiny_gltf.h"

namespace crease::io::gltf_internal {

// Parses .gltf JSON or .glb bytes (GLB when they start with "glTF"). Images
// are not decoded. External files are read from `base_dir` only, and not at
// all when it is null. NotFound for a missing external buffer, else
// InvalidArgument with tinygltf's message. tinygltf's warnings go to
// `warnings` when it is given (the writer's tests want none).
absl::StatusOr<tinygltf::Model> LoadModel(std::string_view bytes,
                                          const std::string* base_dir,
                                          std::string* warnings = nullptr);

// An accessor's elements as doubles: `components` per element (matrices
// column-major, as stored), integers normalised to [-1, 1] or [0, 1] when the
// accessor says so, sparse substitutions applied.
struct AccessorData {
  std::vector<double> values;  // count * components
  int64_t count = 0;
  int components = 0;
  int component_type = 0;  // TINYGLTF_COMPONENT_TYPE_*
  bool normalized = false;

  // True for unsigned integer components that are not normalised, which
  // indices and joints must be.
  bool IsUnsignedInteger() const;
};

// The most values (count * components) one accessor may hold: larger ones are
// refused before anything is allocated (an accessor without a bufferView
// costs no bytes in the file).
inline constexpr int64_t kMaxAccessorValues = int64_t{1} << 24;

// Reads accessor `index`, which must exist and have one of `types`
// (TINYGLTF_TYPE_*); `what` says what it is for ("mesh 0 primitive 1
// POSITION") in the error messages. `expected_count` >= 0 is checked before
// anything is read.
absl::StatusOr<AccessorData> ReadAccessor(const tinygltf::Model& model,
                                          int index, std::string_view what,
                                          std::initializer_list<int> types,
                                          int64_t expected_count = -1);

// "SCALAR", "VEC3", ... for messages.
std::string_view TypeName(int type);

}  // namespace crease::io::gltf_internal

#endif  // CREASE_WRINKLE_IO_GLTF_MODEL_H_
