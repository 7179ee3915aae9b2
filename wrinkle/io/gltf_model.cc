#include "wrinkle/io/gltf_model.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <filesystem>
#include <limits>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "common/file_util.h"
#include "common/status_macros.h"

namespace crease::io::gltf_internal {
namespace {

// Where tinygltf may read external files: only under `base_dir`, never when
// `allowed` is false. tinygltf also tries the working directory; a buffer
// found there and not beside the file would be a surprise, so it is refused.
struct FileScope {
  bool allowed = false;
  std::string base_dir;
};

bool InScope(const std::string& path, void* user_data) {
  const auto* scope = static_cast<const FileScope*>(user_data);
  if (scope == nullptr || !scope->allowed) return false;
  if (!scope->base_dir.empty() && !absl::StartsWith(path, scope->base_dir)) {
    return false;
  }
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

std::string SamePath(const std::string& path, void*) { return path; }

bool ReadScopedFile(std::vector<unsigned char>* out, std::string* err,
                    const std::string& path, void* user_data) {
  if (!InScope(path, user_data)) {
    if (err != nullptr) *err += "not found";
    return false;
  }
  absl::StatusOr<std::string> bytes = files::ReadFileToString(path);
  if (!bytes.ok()) {
    if (err != nullptr) *err += std::string(bytes.status().message());
    return false;
  }
  out->assign(bytes->begin(), bytes->end());
  return true;
}

bool RefuseWrite(std::string* err, const std::string&,
                 const std::vector<unsigned char>&, void*) {
  if (err != nullptr) *err += "crease reads glTF, it does not write it";
  return false;
}

// Images stay encoded (and are not even copied): Crease needs no textures.
bool SkipImage(tinygltf::Image*, const int, std::string*, std::string*, int,
               int, const unsigned char*, int, void*) {
  return true;
}

int ComponentSize(int component_type) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return 4;
    default:
      return 0;  // INT and DOUBLE are not glTF 2.0 component types
  }
}

int ComponentCount(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return 1;
    case TINYGLTF_TYPE_VEC2:
      return 2;
    case TINYGLTF_TYPE_VEC3:
      return 3;
    case TINYGLTF_TYPE_VEC4:
    case TINYGLTF_TYPE_MAT2:
      return 4;
    case TINYGLTF_TYPE_MAT3:
      return 9;
    case TINYGLTF_TYPE_MAT4:
      return 16;
    default:
      return 0;
  }
}

// One component at `bytes` (little-endian, as glTF stores it), normalised
// when asked (glTF 2.0 §3.11: max(c / 127, -1) for signed bytes, c / 255 for
// unsigned ones, likewise for shorts).
double Component(const unsigned char* bytes, int component_type,
                 bool normalized) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
      const double c = static_cast<int8_t>(bytes[0]);
      return normalized ? std::max(c / 127.0, -1.0) : c;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return normalized ? bytes[0] / 255.0 : bytes[0];
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      int16_t c;
      std::memcpy(&c, bytes, 2);
      return normalized ? std::max(c / 32767.0, -1.0) : c;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      uint16_t c;
      std::memcpy(&c, bytes, 2);
      return normalized ? c / 65535.0 : c;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
      uint32_t c;
      std::memcpy(&c, bytes, 4);
      return c;
    }
    default: {
      float c;
      std::memcpy(&c, bytes, 4);
      return c;
    }
  }
}

// The bytes of `count` elements of `element_size` bytes, `stride` apart,
// starting `offset` bytes into buffer view `view`: checked to lie within the
// view and the view within its buffer.
absl::StatusOr<const unsigned char*> ViewBytes(const tinygltf::Model& model,
                                               int view, uint64_t offset,
                                               int64_t count,
                                               uint64_t element_size,
                                               uint64_t stride) {
  if (view < 0 || view >= static_cast<int>(model.bufferViews.size())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("bufferView %d does not exist (%d bufferViews)", view,
                        model.bufferViews.size()));
  }
  const tinygltf::BufferView& bv = model.bufferViews[view];
  if (bv.buffer < 0 || bv.buffer >= static_cast<int>(model.buffers.size())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("bufferView %d: buffer %d does not exist (%d buffers)",
                        view, bv.buffer, model.buffers.size()));
  }
  const uint64_t buffer_size = model.buffers[bv.buffer].data.size();
  if (bv.byteOffset > buffer_size ||
      bv.byteLength > buffer_size - bv.byteOffset) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "bufferView %d: bytes %d..%d are past the end of buffer %d (%d bytes)",
        view, bv.byteOffset, uint64_t{bv.byteOffset} + bv.byteLength, bv.buffer,
        buffer_size));
  }
  // count - 1 strides and one element from `offset`, without overflow: count
  // is below 2^24 and stride at most 252 here.
  const uint64_t needed =
      count == 0 ? 0
                 : (static_cast<uint64_t>(count) - 1) * stride + element_size;
  if (offset > bv.byteLength || needed > bv.byteLength - offset) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%d elements of %d bytes, %d apart, from byte %d need %d bytes, but "
        "bufferView %d has %d",
        count, element_size, stride, offset, offset + needed, view,
        bv.byteLength));
  }
  return model.buffers[bv.buffer].data.data() + bv.byteOffset + offset;
}

// Applies a sparse accessor's substitutions to `data`.
absl::Status ApplySparse(const tinygltf::Model& model,
                         const tinygltf::Accessor& accessor,
                         AccessorData& data) {
  const auto& sparse = accessor.sparse;
  const int index_size = ComponentSize(sparse.indices.componentType);
  if (sparse.count < 1 || sparse.count > data.count ||
      (sparse.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
       sparse.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
       sparse.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT) ||
      sparse.indices.byteOffset < 0 || sparse.values.byteOffset < 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "sparse: count %d (of %d elements), index componentType %d, byte "
        "offsets %d and %d: not a valid sparse accessor",
        sparse.count, data.count, sparse.indices.componentType,
        sparse.indices.byteOffset, sparse.values.byteOffset));
  }
  CREASE_ASSIGN_OR_RETURN(
      const unsigned char* indices,
      ViewBytes(model, sparse.indices.bufferView, sparse.indices.byteOffset,
                sparse.count, index_size, index_size));
  const int size = ComponentSize(data.component_type);
  const uint64_t element_size = uint64_t{1} * size * data.components;
  CREASE_ASSIGN_OR_RETURN(
      const unsigned char* values,
      ViewBytes(model, sparse.values.bufferView, sparse.values.byteOffset,
                sparse.count, element_size, element_size));
  int64_t previous = -1;
  for (int i = 0; i < sparse.count; ++i) {
    const auto at = static_cast<int64_t>(Component(
        indices + i * index_size, sparse.indices.componentType, false));
    if (at <= previous || at >= data.count) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "sparse index %d is %d: indices must increase and stay below the "
          "count %d",
          i, at, data.count));
    }
    previous = at;
    for (int c = 0; c < data.components; ++c) {
      data.values[at * data.components + c] =
          Component(values + i * element_size + c * size, data.component_type,
                    data.normalized);
    }
  }
  return absl::OkStatus();
}

absl::Status CheckAccessorShape(const tinygltf::Accessor& accessor,
                                std::initializer_list<int> types,
                                int64_t expected_count) {
  if (std::find(types.begin(), types.end(), accessor.type) == types.end()) {
    std::string wanted;
    for (int type : types) {
      absl::StrAppend(&wanted, wanted.empty() ? "" : " or ",
                      std::string(TypeName(type)));
    }
    return absl::InvalidArgumentError(absl::StrFormat(
        "type is %s, expected %s", TypeName(accessor.type), wanted));
  }
  const int components = ComponentCount(accessor.type);
  if (ComponentSize(accessor.componentType) == 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("componentType %d is not a glTF 2.0 component type",
                        accessor.componentType));
  }
  if (components > 4 &&
      accessor.componentType != TINYGLTF_COMPONENT_TYPE_FLOAT) {
    // Byte and short matrices pad their columns; nothing Crease reads has them.
    return absl::InvalidArgumentError(
        "matrices of integer components are not supported");
  }
  if (expected_count >= 0 &&
      accessor.count != static_cast<uint64_t>(expected_count)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "count is %d, expected %d", accessor.count, expected_count));
  }
  if (accessor.count > static_cast<uint64_t>(kMaxAccessorValues / components)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "count %d of %s is more than the reader's limit of %d values",
        accessor.count, TypeName(accessor.type), kMaxAccessorValues));
  }
  return absl::OkStatus();
}

absl::StatusOr<AccessorData> ReadChecked(const tinygltf::Model& model,
                                         const tinygltf::Accessor& accessor) {
  AccessorData data;
  data.count = static_cast<int64_t>(accessor.count);
  data.components = ComponentCount(accessor.type);
  data.component_type = accessor.componentType;
  data.normalized = accessor.normalized;
  data.values.assign(data.count * data.components, 0.0);
  if (accessor.bufferView >= 0) {
    const int size = ComponentSize(accessor.componentType);
    const uint64_t element_size = uint64_t{1} * size * data.components;
    const tinygltf::BufferView* view =
        accessor.bufferView < static_cast<int>(model.bufferViews.size())
            ? &model.bufferViews[accessor.bufferView]
            : nullptr;
    const uint64_t stride = view != nullptr && view->byteStride != 0
                                ? view->byteStride
                                : element_size;
    if (stride < element_size || stride > 252) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "byteStride %d for elements of %d bytes", stride, element_size));
    }
    CREASE_ASSIGN_OR_RETURN(
        const unsigned char* bytes,
        ViewBytes(model, accessor.bufferView, accessor.byteOffset, data.count,
                  element_size, stride));
    for (int64_t e = 0; e < data.count; ++e) {
      for (int c = 0; c < data.components; ++c) {
        data.values[e * data.components + c] =
            Component(bytes + e * stride + c * size, accessor.componentType,
                      accessor.normalized);
      }
    }
  }
  if (accessor.sparse.isSparse) {
    CREASE_RETURN_IF_ERROR(ApplySparse(model, accessor, data));
  }
  return data;
}

}  // namespace

bool AccessorData::IsUnsignedInteger() const {
  return (component_type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE ||
          component_type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ||
          component_type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT) &&
         !normalized;
}

std::string_view TypeName(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return "SCALAR";
    case TINYGLTF_TYPE_VEC2:
      return "VEC2";
    case TINYGLTF_TYPE_VEC3:
      return "VEC3";
    case TINYGLTF_TYPE_VEC4:
      return "VEC4";
    case TINYGLTF_TYPE_MAT2:
      return "MAT2";
    case TINYGLTF_TYPE_MAT3:
      return "MAT3";
    case TINYGLTF_TYPE_MAT4:
      return "MAT4";
    default:
      return "an unknown type";
  }
}

absl::StatusOr<AccessorData> ReadAccessor(const tinygltf::Model& model,
                                          int index, std::string_view what,
                                          std::initializer_list<int> types,
                                          int64_t expected_count) {
  if (index < 0 || index >= static_cast<int>(model.accessors.size())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: accessor %d does not exist (%d accessors)", what,
                        index, model.accessors.size()));
  }
  const tinygltf::Accessor& accessor = model.accessors[index];
  absl::Status status = CheckAccessorShape(accessor, types, expected_count);
  absl::StatusOr<AccessorData> data =
      status.ok() ? ReadChecked(model, accessor) : status;
  if (!data.ok()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: accessor %d: %s", what, index, data.status().message()));
  }
  return data;
}

absl::StatusOr<tinygltf::Model> LoadModel(std::string_view bytes,
                                          const std::string* base_dir,
                                          std::string* warnings) {
  if (bytes.size() > std::numeric_limits<unsigned int>::max()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%d bytes: glTF files stop at 4 GiB", bytes.size()));
  }
  FileScope scope{.allowed = base_dir != nullptr,
                  .base_dir = base_dir != nullptr ? *base_dir : ""};
  tinygltf::TinyGLTF loader;
  loader.SetFsCallbacks(
      {&InScope, &SamePath, &ReadScopedFile, &RefuseWrite, &scope});
  loader.SetImageLoader(&SkipImage, nullptr);
  tinygltf::Model model;
  std::string err;
  std::string warn;
  bool ok = false;
  try {
    const bool glb = bytes.substr(0, 4) == "glTF";
    const auto size = static_cast<unsigned int>(bytes.size());
    ok = glb ? loader.LoadBinaryFromMemory(
                   &model, &err, &warn,
                   reinterpret_cast<const unsigned char*>(bytes.data()), size,
                   scope.base_dir)
             : loader.LoadASCIIFromString(&model, &err, &warn, bytes.data(),
                                          size, scope.base_dir);
  } catch (const std::exception& e) {
    ok = false;
    absl::StrAppend(&err, e.what());
  }
  if (warnings != nullptr) *warnings = warn;
  if (!ok) {
    const std::string message(absl::StripAsciiWhitespace(err));
    if (absl::StrContains(message, "File not found")) {
      return absl::NotFoundError(message);
    }
    return absl::InvalidArgumentError(
        message.empty() ? "tinygltf could not parse it" : message);
  }
  return model;
}

}  // namespace crease::io::gltf_internal
