// The wrinkle lookup's geometry, written once in the subset of C++ and GLSL
// both accept (like profile_shared.h and projection_shared.h, after which the
// renderer inserts it into its GLSL): one segment's and one end's part in the
// smooth projection of a surface point onto a wrinkle's refined centre line,
// the offset that projection gives, and the direction across the wrinkle.
// shaders/wrinkle_field.glsl walks its GPU buffers with these; the CPU
// (wrinkle/outputs/wrinkle_lookup.cc: the wrinkled mesh) walks a FrameWrinkles
// with the same, so both displace a point by the same rule. In C++ the vector
// types are glsl_vec.h's, in namespace crease::glsl.

#ifndef CREASE_WRINKLE_DATA_WRINKLE_LOOKUP_SHARED_H_
#define CREASE_WRINKLE_DATA_WRINKLE_LOOKUP_SHARED_H_

#ifdef __cplusplus
#include "wrinkle/data/glsl_vec.h"
#include "wrinkle/data/profile_shared.h"
#include "wrinkle/data/projection_shared.h"
#define CREASE_INOUT(type) type&
namespace crease::glsl {
#else
#define CREASE_INOUT(type) inout type
#endif

// Segment v0 v1 of a refined centre line (widths w0, w1; bisector normals s0,
// s1; heights h0, h1) as a candidate for p's projection (Eq. 7.1-7.3): when p
// is within reach of it (closer to its midpoint than half its length plus
// half its wider end's width, plus `margin`) and in its cell, and nearer than
// best_d2, the projection q, its squared distance and the width and height
// there replace the best so far.
CREASE_SHARED_FN void ProjectOntoSegment(
    vec3 v0, float w0, vec3 s0, float h0, vec3 v1, float w1, vec3 s1, float h1,
    vec3 p, float margin, CREASE_INOUT(float) best_d2, CREASE_INOUT(vec3) q,
    CREASE_INOUT(float) width, CREASE_INOUT(float) height) {
  vec3 z0 = v1 - v0;
  vec3 from_mid = p - 0.5 * (v0 + v1);
  float reach = 0.5 * (length(z0) + max(w0, w1)) + margin;
  if (dot(from_mid, from_mid) > reach * reach) return;
  vec3 z1 = v0 - p;
  vec3 ds = s1 - s0;
  float alpha =
      VoronoiAlpha(dot(z0, ds), dot(z0, s0) + dot(z1, ds), dot(z1, s0));
  vec3 c = v0 + alpha * z0;
  vec3 pc = p - c;
  float d2 = dot(pc, pc);
  if (alpha >= 0.0 && d2 < best_d2) {
    best_d2 = d2;
    q = c;
    width = mix(w0, w1, alpha);
    height = mix(h0, h1, alpha);
  }
}

// A wrinkle's own end point (width w, height h) as the projection of a p that
// is in no segment's cell (past that end; the end cell's boundary projects
// onto it, so this is continuous): taken when nearer than best_d2.
CREASE_SHARED_FN void ProjectOntoEnd(vec3 end, float w, float h, vec3 p,
                                     CREASE_INOUT(float) best_d2,
                                     CREASE_INOUT(vec3) q,
                                     CREASE_INOUT(float) width,
                                     CREASE_INOUT(float) height) {
  vec3 pe = p - end;
  float d2 = dot(pe, pe);
  if (d2 < best_d2) {
    best_d2 = d2;
    q = end;
    width = w;
    height = h;
  }
}

// The offset along the normal of a point at squared distance d2 from the
// centre line where the wrinkle's profile is `width` wide (its support) and
// `height` high: the cross-section at 2 distance / width (0 where there is no
// width).
CREASE_SHARED_FN float OffsetAtDistance(float d2, float width, float height) {
  if (width <= 0.0) return 0.0;
  return WrinkleProfile(2.0 * CREASE_SQRT(d2) / width, height);
}

// Overlapping wrinkles' offsets combine as the highest crest plus the deepest
// valley (both start at 0; the offset is crest + valley): a valley shows where
// no crest rises, a crest beside a neighbour's valley sinks by it, and the sum
// is continuous where one wrinkle's support ends inside another's.
CREASE_SHARED_FN void CombineOffset(float offset, CREASE_INOUT(float) crest,
                                    CREASE_INOUT(float) valley) {
  crest = max(crest, offset);
  valley = min(valley, offset);
}

// How much of a wrinkle whose centre line p projects onto at q (the profile
// `width` wide there) shows at p (normal n): 1 while q - p runs along p's
// tangent plane (within 45 degrees of it), fading to 0 at 63 degrees, where q
// lies on another sheet of the surface. A twentieth of the width is added to
// the length it is measured against, so that on the centre line, which bows a
// little off the surface between its points, the crest is not faded. Where the
// animation crushes a fold flat (the trouser knee's pit) the lists reach round
// the fold's bottom to the facing lip, and a wrinkle on one lip shaded the
// other by its 3D distance (a dimple where the far lip shows). On one sheet q -
// p stays near the plane: a few degrees out of it round a sleeve, half the
// dihedral across a coarse crease. A fade, not a cut: a cut left a hard edge
// where it switched.
CREASE_SHARED_FN float SameSheetWeight(vec3 p, vec3 q, vec3 n, float width) {
  vec3 d = q - p;
  float out_of_plane = dot(d, n);
  float length2 = dot(d, d) + 0.0025 * width * width;
  if (!(length2 > 0.0)) return 1.0;
  float sin2 = out_of_plane * out_of_plane / length2;
  float weight = (0.8 - sin2) / 0.3;
  return weight < 0.0 ? 0.0 : (weight > 1.0 ? 1.0 : weight);
}

// The unit direction across the wrinkle at p (normal n), from its projection
// q towards p in the tangent plane; zero on the centre line.
CREASE_SHARED_FN vec3 AcrossDirection(vec3 p, vec3 q, vec3 n) {
  vec3 across = p - q;
  across -= dot(across, n) * n;
  float len = length(across);
  return len > 1e-12 ? across / len : vec3(0.0);
}

#ifdef __cplusplus
}  // namespace crease::glsl
#endif

#endif  // CREASE_WRINKLE_DATA_WRINKLE_LOOKUP_SHARED_H_
