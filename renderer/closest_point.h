#ifndef CREASE_RENDERER_CLOSEST_POINT_H_
#define CREASE_RENDERER_CLOSEST_POINT_H_

#include <Eigen/Core>

namespace crease::renderer {

// The point of triangle abc nearest p (Ericson, Real-Time Collision
// Detection, 5.1.5).
Eigen::Vector3f ClosestPointOnTriangle(const Eigen::Vector3f& p,
                                       const Eigen::Vector3f& a,
                                       const Eigen::Vector3f& b,
                                       const Eigen::Vector3f& c);

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_CLOSEST_POINT_H_
