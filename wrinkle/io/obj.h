#ifndef CREASE_WRINKLE_IO_OBJ_H_
#define CREASE_WRINKLE_IO_OBJ_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::io {

// Wavefront OBJ: geometry and texture coordinates.
//
// Reads `v x y z [w]` (extra numbers such as vertex colours are ignored),
// `vt u [v] [w]` (v defaults to 0, w is ignored) and `f` lines whose corners
// may be `i`, `i/t`, `i//n` or `i/t/n`, with 1-based or negative (relative)
// indices; a face may only use the `v` and `vt` lines above it. Faces with
// more than three corners are fan-triangulated (v0 v1 v2, v0 v2 v3, ...) and
// counted in `polygons_triangulated`; the triangles keep their corners' UVs.
// Other statements (vn, o, g, s, usemtl, mtllib, l, ...) and normal indices
// are skipped.
//
// UVs: when the faces have texture indices, `corner_uvs` holds u v for each
// triangle corner (6 floats per triangle, v upwards as written); when none
// has, `corner_uvs` is empty (`vt` lines no face uses are dropped). Every face
// must have texture indices on all its corners or none has any: a file that
// mixes them is an error naming the line and the first face of the other
// kind, not a mesh with some of its UVs dropped.
//
// Errors are InvalidArgument (NotFound when the file cannot be opened) with a
// message `path:line: problem`: malformed or non-finite numbers, too few
// coordinates, faces with fewer than three corners, vertex or texture indices
// that are zero or out of range, faces mixing corners with and without texture
// indices.
absl::StatusOr<TriangleMesh> ParseObj(std::string_view text,
                                      std::string_view name_for_errors);
absl::StatusOr<TriangleMesh> ReadObj(const std::string& path);

// Writes `v` and `f` lines (1-based), with `%.9g` precision so floats
// round-trip; with UVs, one `vt` per triangle corner and `f a/t b/t c/t`
// faces, so ParseObj(FormatObj(mesh)) gives back the same positions,
// triangles and corner_uvs. corner_uvs must be empty or 6 per triangle
// (checked in debug builds; WriteObj returns InvalidArgument otherwise).
std::string FormatObj(const TriangleMesh& mesh);
absl::Status WriteObj(const std::string& path, const TriangleMesh& mesh);

}  // namespace crease::io

#endif  // CREASE_WRINKLE_IO_OBJ_H_
