// Wrinkle lookup shared by the evaluation and fragment shaders. Inserted after
// wrinkle/profile_shared.h and wrinkle/projection_shared.h. Per triangle:
// offset into `ranges`, how many, how many of those (listed first) displace
// the surface, padding; each range is [first, last] refined points of one
// wrinkle near the triangle and the wrinkle's own ends among them (else -1);
// points carry xyz + width, frames the bisector normal s + height.
layout(std430, binding = 1) readonly buffer TriangleRanges { ivec4 triangle_ranges[]; };
layout(std430, binding = 2) readonly buffer Ranges { ivec4 ranges[]; };
layout(std430, binding = 3) readonly buffer Points { vec4 points[]; };
layout(std430, binding = 4) readonly buffer Frames { vec4 frames[]; };
// Per range: a sphere holding every point the range can lift (centre, radius).
layout(std430, binding = 5) readonly buffer RangeBounds { vec4 range_bounds[]; };

// Projects p onto refined points [range.x, range.y] of one wrinkle
// (Gillette's smooth Voronoi projection, Eq. 7.1-7.3): the nearest projection
// among the segments within reach of p (p closer to the segment's midpoint than
// half its length plus half its wider end's width) whose cell holds p, else the
// nearer of the wrinkle's own ends among range.zw (-1: a clipped end, out of
// reach). Returns the squared distance (1e30: none); q, width, height at the
// projection. Each point and frame is loaded once: llvmpipe runs every branch
// of every lane, so loads (gathers), not skipped work, set the cost.
float ProjectOntoWrinkle(ivec4 range, vec3 p, out vec3 q, out float width,
                         out float height) {
  float best_d2 = 1e30;
  q = vec3(0.0);
  width = 0.0;
  height = 0.0;
  vec4 first_point = points[range.x], first_frame = frames[range.x];
  vec4 v0 = first_point, s0 = first_frame;  // the segment's start
  for (int i = range.x; i < range.y; ++i) {
    vec4 v1 = points[i + 1], s1 = frames[i + 1];
    vec3 z0 = v1.xyz - v0.xyz;
    vec3 from_mid = p - 0.5 * (v0.xyz + v1.xyz);
    float reach = 0.5 * (length(z0) + max(v0.w, v1.w));
    if (dot(from_mid, from_mid) <= reach * reach) {
      vec3 z1 = v0.xyz - p, ds = s1.xyz - s0.xyz;
      float alpha = VoronoiAlpha(dot(z0, ds), dot(z0, s0.xyz) + dot(z1, ds),
                                 dot(z1, s0.xyz));
      vec3 c = v0.xyz + alpha * z0;
      float d2 = dot(p - c, p - c);
      if (alpha >= 0.0 && d2 < best_d2) {
        best_d2 = d2;
        q = c;
        width = mix(v0.w, v1.w, alpha);
        height = mix(s0.w, s1.w, alpha);
      }
    }
    v0 = v1;
    s0 = s1;
  }
  if (best_d2 < 1e30) return best_d2;
  // In no cell: past one end of the wrinkle, whose end point is then the
  // nearest (the cell boundary there projects onto it, so this is continuous).
  // v0, s0 now hold the last point.
  for (int k = 0; k < 2; ++k) {
    bool is_end = k == 0 ? range.z >= 0 : range.w >= 0;
    vec4 end = k == 0 ? first_point : v0;
    float end_height = k == 0 ? first_frame.w : s0.w;
    float d2 = dot(p - end.xyz, p - end.xyz);
    if (is_end && d2 < best_d2) {
      best_d2 = d2;
      q = end.xyz;
      width = end.w;
      height = end_height;
    }
  }
  return best_d2;
}

// Largest offset over ranges [first, first + count) at surface point p: the
// displacement (max blending). Heights arrive faded by the level of detail.
float WrinkleOffset(int first, int count, vec3 p) {
  float best = 0.0;
  for (int r = first; r < first + count; ++r) {
    vec4 bounds = range_bounds[r];
    vec3 to_centre = p - bounds.xyz;
    if (dot(to_centre, to_centre) > bounds.w * bounds.w) continue;
    vec3 q;
    float width, height;
    float d2 = ProjectOntoWrinkle(ranges[r], p, q, width, height);
    if (width <= 0.0) continue;
    best = max(best, WrinkleProfile(2.0 * sqrt(d2) / width, height));
  }
  return best;
}

// Integrals from 0 to t (odd in t, in half-widths) of the unit profile P (the
// profile at h = 1), of P^2 and of P'^2: box filtering any of them over an
// interval is a difference of two of these, exactly.
float ProfileArea(float t) {
  float a = min(abs(t), 1.0), b = 1.0 - a;
  float v = a <= 1.0 / 3.0 ? a - a * a * a : 4.0 / 9.0 - 0.5 * b * b * b;
  return sign(t) * v;
}
float ProfileSquareArea(float t) {
  float a = min(abs(t), 1.0), b = 1.0 - a;
  float v = a <= 1.0 / 3.0 ? a - 2.0 * a * a * a + 1.8 * a * a * a * a * a
                           : 44.0 / 135.0 - 0.45 * b * b * b * b * b;
  return sign(t) * v;
}
float SlopeSquareArea(float t) {
  float a = min(abs(t), 1.0), b = 1.0 - a;
  float v = a <= 1.0 / 3.0 ? 12.0 * a * a * a : 4.0 / 3.0 - 3.0 * b * b * b;
  return sign(t) * v;
}

// How much a wrinkle's flanks darken the ambient light at most, for a wrinkle
// as high as its half-width (see docs/algorithm.md, "Folds that read").
const float kFlankOcclusion = 0.3;

// The wrinkles over ranges [first, first + count) as a pixel sees them, with
// every profile quantity box-filtered over the pixel's footprint across the
// wrinkle (dpdx, dpdy: the surface position's screen derivatives): the mean
// slope s (a difference of the profile), the mean squared slope s2 (it
// shortens the normal, Toksvig-style, so a bump too narrow to resolve still
// darkens its pixel as much as its facets would on average) and the mean
// offset (the blend weight). Returns the blended mean normal (length <= 1; n
// where no wrinkle reaches) and the flank occlusion in `occlusion` (1: none).
vec3 WrinkleShading(int first, int count, vec3 p, vec3 n, vec3 dpdx, vec3 dpdy,
                    out float occlusion) {
  vec3 normal_sum = vec3(0.0);
  float weight_sum = 0.0;
  occlusion = 1.0;
  for (int r = first; r < first + count; ++r) {
    vec4 bounds = range_bounds[r];
    vec3 to_centre = p - bounds.xyz;
    if (dot(to_centre, to_centre) > bounds.w * bounds.w) continue;
    vec3 q;
    float width, height;
    float d2 = ProjectOntoWrinkle(ranges[r], p, q, width, height);
    float half_width = 0.5 * width;
    if (half_width <= 0.0 || height <= 0.0) continue;
    vec3 across = p - q;
    across -= dot(across, n) * n;
    float len = length(across);
    vec3 dir = len > 1e-12 ? across / len : vec3(0.0);
    // The pixel's footprint across the wrinkle: the width of a box with the
    // variance of the pixel's projection onto `dir`, in half-widths.
    vec2 f = vec2(dot(dpdx, dir), dot(dpdy, dir));
    float e = max(0.5 * length(f) / half_width, 1e-3);  // half of it
    float t = sqrt(d2) / half_width;
    float lo = t - e, hi = t + e, inv = 0.5 / e;
    float mean_p = (ProfileArea(hi) - ProfileArea(lo)) * inv;
    if (mean_p <= 0.0) continue;
    float k = height / half_width;
    float s = k * (WrinkleProfile(hi, 1.0) - WrinkleProfile(lo, 1.0)) * inv;
    float s2 = k * k * (SlopeSquareArea(hi) - SlopeSquareArea(lo)) * inv;
    float mean_p2 = (ProfileSquareArea(hi) - ProfileSquareArea(lo)) * inv;
    float weight = height * mean_p;
    normal_sum += weight * (n - s * dir) * inversesqrt(1.0 + max(s2, s * s));
    weight_sum += weight;
    // Flanks: 4 P (1 - P) is 0 on the crest and at the foot, 1 halfway down.
    occlusion *= 1.0 - kFlankOcclusion * min(k, 1.0) * 4.0 * (mean_p - mean_p2);
  }
  return weight_sum > 0.0 ? normal_sum / weight_sum : n;
}
