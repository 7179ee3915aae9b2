#include "wrinkle/sca2015/wrinkle_path.h"

namespace crease {

double PathLength(const SurfaceFrame& surface, const WrinklePath& path) {
  double length = 0;
  for (size_t i = 0; i + 1 < path.points.size(); ++i) {
    length += (surface.Position(path.points[i + 1]) -
               surface.Position(path.points[i]))
                  .norm();
  }
  return length;
}

void SegmentIndex::Reset(int num_faces) {
  head_.assign(num_faces, -1);
  segments_.clear();
}

void SegmentIndex::Add(int32_t face, int32_t path, const Eigen::Vector3d& a,
                       const Eigen::Vector3d& b) {
  segments_.push_back({head_[face], path, a, b});
  head_[face] = static_cast<int32_t>(segments_.size() - 1);
}

void SegmentIndex::AddPath(const SurfaceFrame& surface, int32_t path_index,
                           const WrinklePath& path) {
  for (int i = 0; i < path.num_segments(); ++i) {
    Add(path.faces[i], path_index, surface.Position(path.points[i]),
        surface.Position(path.points[i + 1]));
  }
}

bool SegmentIndex::Crosses(const SurfaceFrame& surface, int32_t face,
                           int32_t path, const Eigen::Vector3d& a,
                           const Eigen::Vector3d& b) const {
  auto cross = [](const Eigen::Vector2d& u, const Eigen::Vector2d& v) {
    return u.x() * v.y() - u.y() * v.x();
  };
  const Eigen::Vector2d p = surface.ToFace(face, a),
                        r = surface.ToFace(face, b) - p;
  for (int32_t s = head_[face]; s >= 0; s = segments_[s].next) {
    const Segment& seg = segments_[s];
    if (seg.path == path) continue;
    const Eigen::Vector2d q = surface.ToFace(face, seg.a);
    const Eigen::Vector2d w = surface.ToFace(face, seg.b) - q;
    const double denom = cross(r, w);
    if (denom == 0.0) continue;  // parallel
    const double u = cross(q - p, w) / denom;
    const double v = cross(q - p, r) / denom;
    if (u > 1e-9 && u < 1 - 1e-9 && v > 1e-9 && v < 1 - 1e-9) return true;
  }
  return false;
}

bool SegmentIndex::NearOtherPath(const SurfaceFrame& surface,
                                 const EdgePoint& point, int32_t path,
                                 double distance) const {
  const MeshTopology& topology = *surface.topology;
  const Eigen::Vector3d q = surface.Position(point);
  const double d2 = distance * distance;
  const MeshTopology::Edge& e = topology.edge(point.edge);
  for (int32_t v : {e.v0, e.v1}) {
    for (int32_t f : topology.vertex_faces(topology.welded_vertex(v))) {
      for (int32_t s = head_[f]; s >= 0; s = segments_[s].next) {
        const Segment& seg = segments_[s];
        if (seg.path != path && SegmentDistanceSq(q, seg.a, seg.b) < d2)
          return true;
      }
    }
  }
  return false;
}

}  // namespace crease
