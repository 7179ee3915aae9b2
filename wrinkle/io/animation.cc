#include "wrinkle/io/animation.h"

#include "wrinkle/io/obj.h"

namespace crease::io {

absl::StatusOr<Animation> ReadAnimation(const std::string& obj_path,
                                        const std::string& pc2_path) {
  absl::StatusOr<TriangleMesh> mesh = ReadObj(obj_path);
  if (!mesh.ok()) return mesh.status();
  absl::StatusOr<PointCache> frames = ReadPc2(pc2_path, mesh->num_vertices());
  if (!frames.ok()) return frames.status();
  return Animation{*std::move(mesh), *std::move(frames)};
}

}  // namespace crease::io
