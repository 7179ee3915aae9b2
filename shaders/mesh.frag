#version 450 core
// Per-pixel wrinkle normals filtered by the pixel's footprint (on 2x2
// sub-pixels where a wrinkle reaches the pixel), then matte cloth lit from
// the camera's frame (cloth_lighting.glsl) with flank occlusion.
// Depth test before the (costly) lookup: this shader writes no depth.
layout(early_fragment_tests) in;
centroid in vec3 te_position;  // inside the triangle (see mesh.tese)
centroid in vec3 te_normal;
// The same position at the pixel's centre (maybe outside the triangle): the
// footprint is centred there, and its derivatives are exact.
in vec3 te_center;
flat in int te_triangle;
out vec4 out_color;
uniform bool u_wrinkles;
// The view direction, and kFootprintReachPixels (renderer/frame_data.h) in
// world units per unit of depth along it: the cap on the lookup's margin.
uniform vec3 u_forward;
uniform float u_reach_per_depth;
// Shade, u_eye and the lights: cloth_lighting.glsl, inserted before.

// Where a pixel a wrinkle reaches is shaded: the centres of its 2x2
// sub-pixels, in pixels from its centre. Each is looked up and filtered
// across the wrinkles on its own (a quarter of the footprint), so the ends,
// bends and crossings of wrinkles are sampled along them as well.
const vec2 kSubPixels[4] = vec2[](vec2(-0.25, -0.25), vec2(0.25, -0.25),
                                  vec2(-0.25, 0.25), vec2(0.25, 0.25));

vec3 SubPixelNormal(int i, vec3 dndx, vec3 dndy) {
  return normalize(te_normal + kSubPixels[i].x * dndx + kSubPixels[i].y * dndy);
}

// The sum of one sub-pixel's slices, shaded.
vec3 SubPixelColor(ShadingSums sums, vec3 n, vec3 offset, float facing) {
  vec3 sub_v = normalize(u_eye - te_center - offset);
  vec4 nx, ny, nz;
  float occlusion = ResolveShading(sums, n, nx, ny, nz);
  vec3 color = vec3(0.0);
  for (int j = 0; j < kSlices; ++j) {
    color += Shade(facing * vec3(nx[j], ny[j], nz[j]), sub_v, occlusion);
  }
  return color;
}

void main() {
  vec3 smooth_n = normalize(te_normal);
  // The footprint, taken in uniform control flow (derivatives need it).
  vec3 dpdx = dFdx(te_center), dpdy = dFdy(te_center);
  vec3 v = normalize(u_eye - te_position);
  // Cloth is seen from both sides.
  float facing = dot(smooth_n, v) < 0.0 ? -1.0 : 1.0;
  vec3 color = vec3(0.0);
  // Taken here, in uniform control flow; te_normal's change per pixel sets
  // each sub-pixel's smooth normal.
  vec3 dndx = dFdx(te_normal), dndy = dFdy(te_normal);
  ivec4 list = u_wrinkles ? triangle_ranges[te_triangle] : ivec4(0);
  // Half the footprint, within what the CPU's bounds allow.
  float margin =
      min(0.5 * max(length(dpdx), length(dpdy)),
          u_reach_per_depth * max(dot(te_position - u_eye, u_forward), 0.0));
  // Where a wrinkle reaches the pixel, each is projected once more, at the
  // pixel: a sub-pixel's distance across it is the pixel's plus its offset
  // along the across direction (a quarter pixel: the wrinkle is straight at
  // that scale). Two projections instead of five made the wrinkled frame's
  // fragments cheaper: docs/benchmarks.md.
  bool reached = list.y > 0 &&
                 WrinkleReaches(list.x, list.y, te_position, te_center,
                                smooth_n, dpdx, dpdy, margin);
  // Four named sums, not an array: a loop over an array of them that a
  // compiler does not unroll indexes memory.
  vec3 o0 = kSubPixels[0].x * dpdx + kSubPixels[0].y * dpdy;
  vec3 o1 = kSubPixels[1].x * dpdx + kSubPixels[1].y * dpdy;
  vec3 o2 = kSubPixels[2].x * dpdx + kSubPixels[2].y * dpdy;
  vec3 o3 = kSubPixels[3].x * dpdx + kSubPixels[3].y * dpdy;
  vec3 n0 = SubPixelNormal(0, dndx, dndy), n1 = SubPixelNormal(1, dndx, dndy),
       n2 = SubPixelNormal(2, dndx, dndy), n3 = SubPixelNormal(3, dndx, dndy);
  ShadingSums s0 = NoShading(), s1 = NoShading(), s2 = NoShading(),
              s3 = NoShading();
  int r = list.x;
  if (reached) do {  // see kLoopNote
    float d, width, height;
    vec3 dir;
    if (r >= list.x + list.y ||
        !WrinkleAcross(r, te_position, smooth_n, margin, d, dir, width, height))
      continue;
    vec3 p = te_position, c = te_center, fx = 0.5 * dpdx, fy = 0.5 * dpdy;
    AddWrinkleShading(d + dot(o0, dir), dir, width, height, p + o0, c + o0, n0,
                      fx, fy, s0);
    AddWrinkleShading(d + dot(o1, dir), dir, width, height, p + o1, c + o1, n1,
                      fx, fy, s1);
    AddWrinkleShading(d + dot(o2, dir), dir, width, height, p + o2, c + o2, n2,
                      fx, fy, s2);
    AddWrinkleShading(d + dot(o3, dir), dir, width, height, p + o3, c + o3, n3,
                      fx, fy, s3);
  } while (++r < list.x + list.y);
  if (reached) {
    color = SubPixelColor(s0, n0, o0, facing) + SubPixelColor(s1, n1, o1, facing) +
            SubPixelColor(s2, n2, o2, facing) + SubPixelColor(s3, n3, o3, facing);
    color /= float(4 * kSlices);
  } else {
    color = Shade(facing * smooth_n, v, 1.0);
  }
  out_color = vec4(color, 1.0);
}
