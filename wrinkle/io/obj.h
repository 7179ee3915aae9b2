#ifndef CREASE_WRINKLE_IO_OBJ_H_
#define CREASE_WRINKLE_IO_OBJ_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::io {

// Wavefront OBJ, geometry only.
//
// Reads `v x y z [w]` (extra numbers such as vertex colours are ignored) and
// `f` lines whose corners may be `i`, `i/t`, `i//n` or `i/t/n`, with 1-based or
// negative (relative) indices. Faces with more than three corners are
// fan-triangulated (v0 v1 v2, v0 v2 v3, ...) and counted in
// `polygons_triangulated`. Other statements (vt, vn, o, g, s, usemtl, mtllib,
// l, ...) are skipped.
//
// Errors are InvalidArgument (NotFound when the file cannot be opened) with a
// message `path:line: problem`: malformed or non-finite numbers, too few
// coordinates, faces with fewer than three corners, indices that are zero or
// out of range.
absl::StatusOr<TriangleMesh> ParseObj(std::string_view text,
                                      std::string_view name_for_errors);
absl::StatusOr<TriangleMesh> ReadObj(const std::string& path);

// Writes `v` and `f` lines (1-based), with `%.9g` precision so floats
// round-trip.
std::string FormatObj(const TriangleMesh& mesh);
absl::Status WriteObj(const std::string& path, const TriangleMesh& mesh);

}  // namespace crease::io

#endif  // CREASE_WRINKLE_IO_OBJ_H_
