#include "wrinkle/io/ply.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "wrinkle/io/binary_append.h"

namespace crease::io {

absl::Status WritePlyWithFaceColors(const std::string& path,
                                    absl::Span<const float> positions,
                                    absl::Span<const Triangle> triangles,
                                    absl::Span<const Rgb> face_colors,
                                    absl::Span<const FaceScalar> face_scalars) {
  if (positions.size() % 3 != 0) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": positions length ",
                                                   positions.size(),
                                                   " is not a multiple of 3"));
  }
  if (face_colors.size() != triangles.size()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: %d face colours for %d triangles", path,
                        face_colors.size(), triangles.size()));
  }
  for (const FaceScalar& scalar : face_scalars) {
    if (scalar.values.size() != triangles.size()) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: face scalar '%s' has %d values for %d triangles", path,
          scalar.name, scalar.values.size(), triangles.size()));
    }
  }
  const size_t num_vertices = positions.size() / 3;
  std::string out = absl::StrFormat(
      "ply\nformat binary_little_endian 1.0\ncomment written by Crease\n"
      "element vertex %d\nproperty float x\nproperty float y\nproperty float "
      "z\n"
      "element face %d\nproperty list uchar int vertex_indices\n"
      "property uchar red\nproperty uchar green\nproperty uchar blue\n",
      num_vertices, triangles.size());
  for (const FaceScalar& scalar : face_scalars) {
    absl::StrAppend(&out, "property float ", scalar.name, "\n");
  }
  absl::StrAppend(&out, "end_header\n");
  out.reserve(out.size() + positions.size() * 4 +
              triangles.size() * (16 + 4 * face_scalars.size()));
  for (float p : positions) AppendBinary(out, p);
  for (size_t f = 0; f < triangles.size(); ++f) {
    AppendBinary<uint8_t>(out, 3);
    for (int32_t v : triangles[f]) {
      if (v < 0 || static_cast<size_t>(v) >= num_vertices) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "%s: triangle %d has vertex %d of %d", path, f, v, num_vertices));
      }
      AppendBinary<int32_t>(out, v);
    }
    for (uint8_t channel : face_colors[f]) AppendBinary(out, channel);
    for (const FaceScalar& scalar : face_scalars)
      AppendBinary(out, scalar.values[f]);
  }
  return files::WriteStringToFile(path, out);
}

}  // namespace crease::io
