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

// Largest offset over ranges [first, first + count) at surface point p, and the
// offset-weighted blend of their bent normals (n is the smooth surface normal).
float WrinkleOffset(int first, int count, vec3 p, vec3 n, out vec3 bent_normal) {
  float best = 0.0;
  vec3 normal_sum = vec3(0.0);
  float weight_sum = 0.0;
  for (int r = first; r < first + count; ++r) {
    vec4 bounds = range_bounds[r];
    vec3 to_centre = p - bounds.xyz;
    if (dot(to_centre, to_centre) > bounds.w * bounds.w) continue;
    vec3 q;
    float width, height;
    float best_d2 = ProjectOntoWrinkle(ranges[r], p, q, width, height);
    float half_width = 0.5 * width;
    if (half_width <= 0.0) continue;
    float d = sqrt(best_d2);
    float offset = WrinkleProfile(d / half_width, height);
    if (offset <= 0.0) continue;
    best = max(best, offset);
    // Bend the normal by the profile's slope across the wrinkle.
    vec3 across = p - q;
    across -= dot(across, n) * n;
    float len = length(across);
    vec3 dir = len > 1e-12 ? across / len : vec3(0.0);
    float slope = WrinkleProfileSlope(d / half_width, height) / half_width;
    normal_sum += offset * normalize(n - slope * dir);
    weight_sum += offset;
  }
  bent_normal = weight_sum > 0.0 ? normalize(normal_sum) : n;
  return best;
}
