#ifndef CREASE_TESTS_WRINKLE_IO_GLTF_BUILDER_H_
#define CREASE_TESTS_WRINKLE_IO_GLTF_BUILDER_H_

// Tiny .gltf files for tests, written as JSON text with one buffer in a
// base64 data: URI, so that every number in them is known.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "wrinkle/io/gltf.h"

namespace crease::testing {

class GltfBuilder {
 public:
  // An accessor of floats ("SCALAR", "VEC2", "VEC3", "VEC4", "MAT4");
  // returns its index.
  int Floats(const std::vector<float>& values, const std::string& type) {
    const int components = type == "SCALAR" ? 1
                           : type == "VEC2" ? 2
                           : type == "VEC3" ? 3
                           : type == "VEC4" ? 4
                                            : 16;
    return Add(values.data(), values.size() * 4, 5126,
               values.size() / components, type);
  }
  // A SCALAR accessor of unsigned shorts (indices), or VEC4 (joints).
  int Shorts(const std::vector<uint16_t>& values, const std::string& type) {
    const size_t components = type == "SCALAR" ? 1 : 4;
    return Add(values.data(), values.size() * 2, 5123,
               values.size() / components, type);
  }

  // A buffer view of raw bytes, and an accessor given as its JSON object
  // (for sparse accessors); both return their index.
  int View(const void* data, size_t bytes) {
    while (bin_.size() % 4 != 0) bin_.push_back('\0');
    views_.push_back(absl::StrCat(R"({"buffer": 0, "byteOffset": )",
                                  bin_.size(), R"(, "byteLength": )", bytes,
                                  "}"));
    bin_.append(static_cast<const char*>(data), bytes);
    return static_cast<int>(views_.size()) - 1;
  }
  int Accessor(const std::string& json) {
    accessors_.push_back(json);
    return static_cast<int>(accessors_.size()) - 1;
  }

  // The whole file: the buffer, views and accessors, then `rest` (more
  // top-level members, "meshes": [...], "nodes": [...], ..., no leading
  // comma).
  std::string Json(const std::string& rest) const {
    return absl::StrCat(
        R"({"asset": {"version": "2.0"}, "buffers": [{"byteLength": )",
        bin_.size(), R"(, "uri": "data:application/octet-stream;base64,)",
        absl::Base64Escape(bin_), R"("}], "bufferViews": [)",
        absl::StrJoin(views_, ", "), R"(], "accessors": [)",
        absl::StrJoin(accessors_, ", "), "], ", rest, "}");
  }

 private:
  int Add(const void* data, size_t bytes, int component_type, size_t count,
          const std::string& type) {
    const int view = View(data, bytes);
    accessors_.push_back(absl::StrCat(
        R"({"bufferView": )", view, R"(, "componentType": )", component_type,
        R"(, "count": )", count, R"(, "type": ")", type, R"("})"));
    return static_cast<int>(accessors_.size()) - 1;
  }

  std::string bin_;
  std::vector<std::string> views_;
  std::vector<std::string> accessors_;
};

// Options by the fields that matter to a test (designated initializers that
// leave fields out trip GCC 12's -Wmissing-field-initializers).
inline io::GltfOptions ClipOptions(const std::string& animation, int frames = 0,
                                   bool loop = false) {
  io::GltfOptions options;
  options.animation = animation;
  options.frames = frames;
  options.loop = loop;
  return options;
}
inline io::GltfOptions TimingOptions(double fps, int frames = 0,
                                     bool loop = false, double t_start = 0) {
  io::GltfOptions options;
  options.fps = fps;
  options.frames = frames;
  options.loop = loop;
  options.t_start = t_start;
  return options;
}

}  // namespace crease::testing

#endif  // CREASE_TESTS_WRINKLE_IO_GLTF_BUILDER_H_
