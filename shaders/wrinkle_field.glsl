// Wrinkle lookup shared by the evaluation and fragment shaders. Inserted after
// wrinkle/data/profile_shared.h, wrinkle/data/projection_shared.h and
// wrinkle/data/wrinkle_lookup_shared.h (the per-segment projection, the offset and
// the direction across, which the CPU's wrinkled mesh uses too). Per triangle:
// offset into `ranges`, how many, how many of those (listed first) displace
// the surface, padding; each range is [first, last] refined points of one
// wrinkle near the triangle and the wrinkle's own ends among them (else -1);
// points carry xyz + the profile's support width (SupportWidth), frames the
// bisector normal s + height; both are buffer textures (texelFetch), which
// llvmpipe reads faster than SSBOs.
layout(std430, binding = 1) readonly buffer TriangleRanges {
  ivec4 triangle_ranges[];
};
layout(std430, binding = 2) readonly buffer Ranges { ivec4 ranges[]; };
layout(binding = 6) uniform samplerBuffer wrinkle_points;
layout(binding = 7) uniform samplerBuffer wrinkle_frames;
// Per range: a sphere holding every point the range can lift (centre, radius).
layout(std430, binding = 5) readonly buffer RangeBounds {
  vec4 range_bounds[];
};

// kLoopNote: the loops over ranges and segments are do-whiles with the bound
// tested inside. llvmpipe runs a shader lane-parallel and leaves a loop only
// at its bottom once no lane is left in it, so a for loop (test at the top)
// runs its whole body once more, every lane masked, after the last real pass:
// about a sixth of the UV maps' cost (docs/benchmarks.md, "UV maps"). Guarded
// do-whiles end with their last real pass; an empty list still costs one.

// Projects p onto refined points [range.x, range.y] of one wrinkle
// (Gillette's smooth Voronoi projection, Eq. 7.1-7.3): the nearest projection
// among the segments within reach of p (p closer to the segment's midpoint than
// half its length plus half its wider end's width plus `margin`: the
// fragment stage's footprint reach, within the CPU's bounds) whose cell holds
// p, else the
// nearer of the wrinkle's own ends among range.zw (-1: a clipped end, out of
// reach). Returns the squared distance (1e30: none); q, width, height at the
// projection. Each point and frame is loaded once: llvmpipe runs every branch
// of every lane, so loads (gathers), not skipped work, set the cost.
float ProjectOntoWrinkle(ivec4 range, vec3 p, float margin, out vec3 q,
                         out float width, out float height) {
  float best_d2 = 1e30;
  q = vec3(0.0);
  width = 0.0;
  height = 0.0;
  vec4 first_point = texelFetch(wrinkle_points, range.x);
  vec4 first_frame = texelFetch(wrinkle_frames, range.x);
  vec4 v0 = first_point, s0 = first_frame;  // the segment's start
  int i = range.x;
  do {  // see kLoopNote; a lone point (x == y) makes no segment
    vec4 v1 = texelFetch(wrinkle_points, min(i + 1, range.y));
    vec4 s1 = texelFetch(wrinkle_frames, min(i + 1, range.y));
    if (i < range.y) {
      ProjectOntoSegment(v0.xyz, v0.w, s0.xyz, s0.w, v1.xyz, v1.w, s1.xyz,
                         s1.w, p, margin, best_d2, q, width, height);
    }
    v0 = v1;
    s0 = s1;
  } while (++i < range.y);
  if (best_d2 < 1e30) return best_d2;
  // In no cell: past one end of the wrinkle, whose end point is then the
  // nearest. v0, s0 now hold the last point.
  if (range.z >= 0) {
    ProjectOntoEnd(first_point.xyz, first_point.w, first_frame.w, p, best_d2,
                   q, width, height);
  }
  if (range.w >= 0) {
    ProjectOntoEnd(v0.xyz, v0.w, s0.w, p, best_d2, q, width, height);
  }
  return best_d2;
}

// The offset over ranges [first, first + count) at surface point p, normal n
// (CombineOffset: the highest crest plus the deepest valley). Heights arrive
// faded by the level of detail, and fade here off p's sheet
// (SameSheetWeight).
float WrinkleOffset(int first, int count, vec3 p, vec3 n) {
  float crest = 0.0, valley = 0.0;
  int r = first;
  do {  // see kLoopNote
    if (r >= first + count) continue;
    vec4 bounds = range_bounds[r];
    vec3 to_centre = p - bounds.xyz;
    if (dot(to_centre, to_centre) > bounds.w * bounds.w) continue;
    vec3 q;
    float width, height;
    float d2 = ProjectOntoWrinkle(ranges[r], p, 0.0, q, width, height);
    CombineOffset(
        OffsetAtDistance(d2, width, height * SameSheetWeight(p, q, n, width)), crest,
        valley);
  } while (++r < first + count);
  return crest + valley;
}

// Range r as seen from surface point p (normal n): false when it cannot reach
// p (outside its bounds, or flat there). Else the distance from p to the
// wrinkle's centre line, the unit direction across it in the tangent plane
// (from the line towards p), and the width and height at the projection.
bool WrinkleAcross(int r, vec3 p, vec3 n, float margin, out float line_distance,
                   out vec3 dir, out float width, out float height) {
  line_distance = 0.0;
  dir = vec3(0.0);
  width = 0.0;
  height = 0.0;
  vec4 bounds = range_bounds[r];
  vec3 to_centre = p - bounds.xyz;
  if (dot(to_centre, to_centre) > bounds.w * bounds.w) return false;
  vec3 q;
  float d2 = ProjectOntoWrinkle(ranges[r], p, margin, q, width, height);
  height *= SameSheetWeight(p, q, n, width);
  if (width <= 0.0 || height <= 0.0) return false;
  dir = AcrossDirection(p, q, n);
  line_distance = sqrt(d2);
  return true;
}

// Whether a wrinkle, as WrinkleAcross sees it from p, reaches the pixel: a
// sub-pixel's footprint (see mesh.frag) reaches at most 0.6 of the pixel's
// steps (0.25 (|x| + |y|) + half its own 0.5) from the pixel's centre, which
// the 0.5 of `margin` plus the lookup's slack around p covers.
bool ReachesPixel(float line_distance, vec3 dir, float width, vec3 p,
                  vec3 center, vec3 dpdx, vec3 dpdy) {
  float reach = 0.6 * length(vec2(dot(dpdx, dir), dot(dpdy, dir)));
  return line_distance + dot(center - p, dir) - reach < 0.5 * width;
}

// Whether any wrinkle over ranges [first, first + count) reaches the pixel
// (ReachesPixel). Arguments as for WrinkleShading.
bool WrinkleReaches(int first, int count, vec3 p, vec3 center, vec3 n,
                    vec3 dpdx, vec3 dpdy, float margin) {
  int r = first;
  do {  // see kLoopNote
    float line_distance, width, height;
    vec3 dir;
    if (r >= first + count ||
        !WrinkleAcross(r, p, n, margin, line_distance, dir, width, height))
      continue;
    if (ReachesPixel(line_distance, dir, width, p, center, dpdx, dpdy)) {
      return true;
    }
  } while (++r < first + count);
  return false;
}

// How much a wrinkle's flanks darken the ambient light at most, for a wrinkle
// as high as its half-width (see docs/algorithm.md, "Flank occlusion").
const float kFlankOcclusion = 0.3;

// Slices the pixel's footprint is cut into across each wrinkle: the shading
// (not linear in the normal: clamped, normalized) is evaluated per slice and
// averaged, a supersampling across the wrinkle whose samples are themselves
// exactly box-filtered. Four: one per lane of a vec4 (the blended normal is
// kept as three vec4s, one per component).
const int kSlices = 4;

// The unit profile's quantities at t: P, and the integrals of the envelope,
// P^2 and P'^2 (profile_shared.h).
vec4 ProfileIntegrals(float t) {
  return vec4(WrinkleProfile(t, 1.0), WrinkleEnvelopeArea(t),
              WrinkleProfileSquareArea(t), WrinkleSlopeSquareArea(t));
}

// The wrinkles over ranges [first, first + count) as a pixel sees them. Per
// slice of the pixel's footprint across each wrinkle (dpdx, dpdy: the surface
// position's screen derivatives), every profile quantity is box-filtered
// exactly: the mean slope s (a difference of the profile), the mean squared
// slope s2 (it shortens the mean normal, Toksvig-style, so a bump too narrow
// to resolve still darkens its pixel as much as its facets would on average)
// and the mean offset (the blend weight). normal_x, _y, _z receive per slice
// (one per component) the blended mean normal (length <= 1; n where no
// wrinkle reaches); returns the flank occlusion over the whole footprint (1:
// none). p is where the lookup is made (the fragment's centroid, inside its
// triangle), `center` the pixel's centre on the surface. Wrinkles are looked
// up up to `margin` beyond their edges, so a footprint that overlaps one from
// outside it sees it too.
// Running sums of the shading below over the wrinkles a footprint sees.
struct ShadingSums {
  vec4 x, y, z, weight;  // per slice: weighted normal components, weights
  float occlusion;
};

ShadingSums NoShading() {
  return ShadingSums(vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), 1.0);
}

// Adds one wrinkle, as WrinkleAcross sees it from p, to `sums`.
void AddWrinkleShading(float line_distance, vec3 dir, float width,
                       float height, vec3 p, vec3 center, vec3 n, vec3 dpdx,
                       vec3 dpdy, inout ShadingSums sums) {
  float half_width = 0.5 * width;
  // The pixel's footprint across the wrinkle: the width of a box with the
  // variance of the pixel's projection onto `dir`, in half-widths.
  vec2 f = vec2(dot(dpdx, dir), dot(dpdy, dir));
  float e = max(0.5 * length(f) / half_width, 1e-3);  // half of it
  // Centred on the pixel's centre, not on p: a pixel split between
  // triangles is shaded once per triangle at its own centroid, and the
  // parts must average the same footprint.
  float t = (line_distance + dot(center - p, dir)) / half_width;
  if (abs(t) - e >= 1.0) return;
  float k = height / half_width;
  float inv = float(kSlices) / (2.0 * e);
  // Slice boundaries t - e + i (2e / 4), i = 0..4.
  vec4 b0 = ProfileIntegrals(t - e), b1 = ProfileIntegrals(t - 0.5 * e),
       b2 = ProfileIntegrals(t), b3 = ProfileIntegrals(t + 0.5 * e),
       b4 = ProfileIntegrals(t + e);
  // Rows: P, and the integrals of the envelope, P^2, P'^2; one slice a lane.
  mat4 lo = transpose(mat4(b0, b1, b2, b3));
  mat4 hi = transpose(mat4(b1, b2, b3, b4));
  vec4 s = k * (hi[0] - lo[0]) * inv;
  vec4 s2 = k * k * (hi[3] - lo[3]) * inv;
  // Weights: the envelope's mean (never negative), times the height.
  vec4 weight = height * (hi[1] - lo[1]) * inv;
  vec4 scale = weight * inversesqrt(1.0 + max(s2, s * s));
  sums.x += scale * (n.x - s * dir.x);
  sums.y += scale * (n.y - s * dir.y);
  sums.z += scale * (n.z - s * dir.z);
  sums.weight += weight;
  float mean_p =
      (WrinkleProfileArea(t + e) - WrinkleProfileArea(t - e)) / (2.0 * e);
  float mean_p2 = (b4.z - b0.z) / (2.0 * e);
  // Flanks: 4 P (1 - P) is 0 on the crest and at the foot, 1 halfway down;
  // the shoulders' valleys (P < 0) are not darkened by it.
  sums.occlusion *= 1.0 - kFlankOcclusion * min(k, 1.0) * 4.0 *
                              max(mean_p - mean_p2, 0.0);
}

// The blended mean normal per slice (n where no wrinkle reached) and the
// occlusion, as WrinkleShading returns them.
float ResolveShading(ShadingSums sums, vec3 n, out vec4 normal_x,
                     out vec4 normal_y, out vec4 normal_z) {
  bvec4 some = greaterThan(sums.weight, vec4(0.0));
  vec4 inv_weight = 1.0 / max(sums.weight, vec4(1e-30));
  normal_x = mix(vec4(n.x), sums.x * inv_weight, some);
  normal_y = mix(vec4(n.y), sums.y * inv_weight, some);
  normal_z = mix(vec4(n.z), sums.z * inv_weight, some);
  return sums.occlusion;
}

// WrinkleReaches and WrinkleShading for a whole pixel in one pass over the
// ranges, each wrinkle projected once (not once to test the reach and again
// to shade): true when some wrinkle reaches the pixel, and then the normals
// and occlusion WrinkleShading would give.
bool WrinkleShadingIfReached(int first, int count, vec3 p, vec3 center,
                             vec3 n, vec3 dpdx, vec3 dpdy, float margin,
                             out vec4 normal_x, out vec4 normal_y,
                             out vec4 normal_z, out float occlusion) {
  ShadingSums sums = NoShading();
  bool reached = false;
  int r = first;
  do {  // see kLoopNote
    float line_distance, width, height;
    vec3 dir;
    if (r >= first + count ||
        !WrinkleAcross(r, p, n, margin, line_distance, dir, width, height))
      continue;
    reached = reached ||
              ReachesPixel(line_distance, dir, width, p, center, dpdx, dpdy);
    AddWrinkleShading(line_distance, dir, width, height, p, center, n, dpdx,
                      dpdy, sums);
  } while (++r < first + count);
  occlusion = ResolveShading(sums, n, normal_x, normal_y, normal_z);
  return reached;
}

float WrinkleShading(int first, int count, vec3 p, vec3 center, vec3 n,
                     vec3 dpdx, vec3 dpdy, float margin, out vec4 normal_x,
                     out vec4 normal_y, out vec4 normal_z) {
  float occlusion;
  // The reach test's answer is not needed here; the shading is the same.
  WrinkleShadingIfReached(first, count, p, center, n, dpdx, dpdy, margin,
                          normal_x, normal_y, normal_z, occlusion);
  return occlusion;
}
