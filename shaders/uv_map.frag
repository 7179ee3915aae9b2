#version 450 core
// One texel of the UV-space maps: the wrinkles' normal in the texel's tangent
// frame, filtered over the texel's footprint on the surface exactly as the
// screen renderer filters a pixel's (WrinkleShading, four slices averaged),
// and the wrinkles' offset along the smooth normal at the texel's centre (the
// displacement the tessellation applies: the largest over the wrinkles, the
// same WrinkleOffset). Every written texel has a unit normal; the clear
// value's zero normal marks texels no triangle covers.
in vec3 vs_position;
in vec3 vs_normal;
in vec4 vs_tangent;
flat in int vs_triangle;
layout(location = 0) out vec4 out_normal_height;
// The CPU's lookup reach in model units (one texel of a texture spanning the
// mesh's bounds): the footprint margin is capped there, as the lists allow.
uniform float u_reach;

void main() {
  vec3 n = normalize(vs_normal);
  vec3 t = vs_tangent.xyz - dot(vs_tangent.xyz, n) * n;
  t = dot(t, t) > 1e-20 ? normalize(t) : normalize(cross(n, abs(n.x) < 0.9
                                                                ? vec3(1, 0, 0)
                                                                : vec3(0, 1, 0)));
  vec3 b = (vs_tangent.w < 0.0 ? -1.0 : 1.0) * cross(n, t);
  vec3 dpdx = dFdx(vs_position), dpdy = dFdy(vs_position);
  ivec4 list = triangle_ranges[vs_triangle];
  vec3 mean_normal = n;
  float height = 0.0;
  if (list.y > 0) {
    float margin = min(0.5 * max(length(dpdx), length(dpdy)), u_reach);
    vec4 nx, ny, nz;
    WrinkleShading(list.x, list.y, vs_position, vs_position, n, dpdx, dpdy,
                   margin, nx, ny, nz);
    const vec4 quarter = vec4(0.25);
    mean_normal = vec3(dot(nx, quarter), dot(ny, quarter), dot(nz, quarter));
    height = WrinkleOffset(list.x, list.y, vs_position);
  }
  float len = length(mean_normal);
  vec3 m = len > 1e-12 ? mean_normal / len : n;
  out_normal_height = vec4(dot(m, t), dot(m, b), dot(m, n), height);
}
