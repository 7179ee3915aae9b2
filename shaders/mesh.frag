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
// 4: a pixel a wrinkle reaches is looked up on its 2x2 sub-pixels; 1: once,
// over its whole footprint (RenderOptions::wrinkle_subpixels).
uniform int u_subpixels;
// The view direction, and kFootprintReachPixels (renderer/frame_data.h) in
// world units per unit of depth along it: the cap on the lookup's margin.
uniform vec3 u_forward;
uniform float u_reach_per_depth;
// Shade, u_eye and the lights: cloth_lighting.glsl, inserted before.

// With u_subpixels 4, where a pixel a wrinkle reaches is shaded: the centres
// of its 2x2 sub-pixels, in pixels from its centre. Each is looked up and
// filtered across the wrinkles on its own (a quarter of the footprint), so
// the ends, bends and crossings of wrinkles are sampled along them as well.
const vec2 kSubPixels[4] = vec2[](vec2(-0.25, -0.25), vec2(0.25, -0.25),
                                  vec2(-0.25, 0.25), vec2(0.25, 0.25));

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
  vec4 nx, ny, nz;
  float occlusion;
  if (u_subpixels != 4) {
    // One pass over the wrinkles: each projected once, to test its reach
    // and to shade (an H200 drew the Fox 1.15x as fast as with the reach
    // tested first and the wrinkles projected again to shade).
    if (list.y > 0 &&
        WrinkleShadingIfReached(list.x, list.y, te_position, te_center,
                                smooth_n, dpdx, dpdy, margin, nx, ny, nz,
                                occlusion)) {
      vec3 center_v = normalize(u_eye - te_center);
      for (int j = 0; j < kSlices; ++j) {
        color += Shade(facing * vec3(nx[j], ny[j], nz[j]), center_v, occlusion);
      }
      color /= float(kSlices);
    } else {
      color = Shade(facing * smooth_n, v, 1.0);
    }
  } else if (list.y > 0 && WrinkleReaches(list.x, list.y, te_position,
                                          te_center, smooth_n, dpdx, dpdy,
                                          margin)) {
    for (int i = 0; i < 4; ++i) {
      vec3 offset = kSubPixels[i].x * dpdx + kSubPixels[i].y * dpdy;
      vec3 n = normalize(te_normal + kSubPixels[i].x * dndx +
                         kSubPixels[i].y * dndy);
      vec3 sub_v = normalize(u_eye - te_center - offset);
      occlusion = WrinkleShading(list.x, list.y, te_position + offset,
                                 te_center + offset, n, 0.5 * dpdx,
                                 0.5 * dpdy, margin, nx, ny, nz);
      for (int j = 0; j < kSlices; ++j) {
        color += Shade(facing * vec3(nx[j], ny[j], nz[j]), sub_v, occlusion);
      }
    }
    color /= float(4 * kSlices);
  } else {
    color = Shade(facing * smooth_n, v, 1.0);
  }
  out_color = vec4(color, 1.0);
}
