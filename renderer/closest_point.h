#ifndef CREASE_RENDERER_CLOSEST_POINT_H_
#define CREASE_RENDERER_CLOSEST_POINT_H_

#include <Eigen/Core>

namespace crease::renderer {

// The point of triangle abc nearest p (Ericson, Real-Time Collision
// Detection, 5.1.5); finite for coincident corners too.
Eigen::Vector3f ClosestPointOnTriangle(const Eigen::Vector3f& p,
                                       const Eigen::Vector3f& a,
                                       const Eigen::Vector3f& b,
                                       const Eigen::Vector3f& c);

// The squared distance between segments p0 p1 and q0 q1 (Ericson 5.1.9;
// either may be a point).
float SegmentSegmentDistanceSq(const Eigen::Vector3f& p0,
                               const Eigen::Vector3f& p1,
                               const Eigen::Vector3f& q0,
                               const Eigen::Vector3f& q1);

// The squared distance between segment p0 p1 and triangle abc: 0 where the
// segment crosses it, else the least over its end points against the
// triangle and its edges against the segment (which is where the nearest
// pair lies when they do not meet). Any coordinates' magnitude; a triangle
// with coincident corners or no area is taken as its edges.
float SegmentTriangleDistanceSq(const Eigen::Vector3f& p0,
                                const Eigen::Vector3f& p1,
                                const Eigen::Vector3f& a,
                                const Eigen::Vector3f& b,
                                const Eigen::Vector3f& c);

// Whether some point of triangle abc can lie in the projection cell of a
// wrinkle's segment v0 v1 whose bisector normals are s0 and s1
// (wrinkle/data/projection_shared.h): where c = (v0 - p).s0 and g = (v1 - p).s1
// differ in sign or vanish. Both are affine in p, so when every corner gives
// both the same strict sign by more than 1e-4 |s| `scale` (`scale`: the
// distances the products are made of, for the shaders' rounding), no point of
// the triangle does, and the lookup rejects the segment there. True for NaNs.
bool SegmentCellMayMeetTriangle(const Eigen::Vector3f& v0,
                                const Eigen::Vector3f& s0,
                                const Eigen::Vector3f& v1,
                                const Eigen::Vector3f& s1,
                                const Eigen::Vector3f& a,
                                const Eigen::Vector3f& b,
                                const Eigen::Vector3f& c, float scale);

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_CLOSEST_POINT_H_
