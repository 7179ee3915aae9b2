#include "wrinkle/io/animation.h"

#include "common/status_macros.h"
#include "wrinkle/io/obj.h"

namespace crease::io {

absl::StatusOr<Animation> ReadAnimation(const std::string& obj_path,
                                        const std::string& pc2_path) {
  CREASE_ASSIGN_OR_RETURN(TriangleMesh mesh, ReadObj(obj_path));
  CREASE_ASSIGN_OR_RETURN(PointCache frames,
                          ReadPc2(pc2_path, mesh.num_vertices()));
  return Animation{std::move(mesh), std::move(frames)};
}

}  // namespace crease::io
