#version 450 core
// One texel of the UV-space maps: the wrinkles' normal in the texel's tangent
// frame, filtered over the texel's footprint on the surface exactly as the
// screen renderer filters a pixel's (WrinkleShading, four slices averaged),
// and the wrinkles' offset along the smooth normal at the texel's centre (the
// displacement the tessellation applies: the largest over the wrinkles, as
// WrinkleOffset takes it). Written as the maps are stored: the normal as
// 0.5 n + 0.5 in RGBA8 with alpha 1 (the clear's alpha 0 marks texels no
// triangle covers), the height over u_height_range in R16.
in vec3 vs_position;
in vec3 vs_normal;
in vec4 vs_tangent;
flat in int vs_triangle;
layout(location = 0) out vec4 out_normal;
layout(location = 1) out float out_height;
// The CPU's lookup reach in model units (one texel of a texture spanning the
// mesh's bounds): the footprint margin is capped there, as the lists allow.
uniform float u_reach;
uniform float u_height_range;  // model units at full scale
uniform float u_green;         // 1: +Y (glTF), -1: -Y (Unreal)

void main() {
  vec3 n = normalize(vs_normal);
  vec3 t = vs_tangent.xyz - dot(vs_tangent.xyz, n) * n;
  t = dot(t, t) > 1e-20 ? normalize(t) : normalize(cross(n, abs(n.x) < 0.9
                                                                ? vec3(1, 0, 0)
                                                                : vec3(0, 1, 0)));
  vec3 b = (vs_tangent.w < 0.0 ? -1.0 : 1.0) * cross(n, t);
  vec3 dpdx = dFdx(vs_position), dpdy = dFdy(vs_position);
  ivec4 list = triangle_ranges[vs_triangle];
  float margin = min(0.5 * max(length(dpdx), length(dpdy)), u_reach);
  // One projection per wrinkle serves both maps (the screen renderer's gate,
  // shading and offset make three). The offset comes from the projection
  // with the footprint's margin (at most a texel), so it can differ from
  // WrinkleOffset's only where a segment that far past its reach is nearer.
  ShadingSums sums = NoShading();
  float height = 0.0;
  int r = list.x;
  do {  // see kLoopNote (wrinkle_field.glsl)
    float line_distance, width, crest;
    vec3 dir;
    if (r >= list.x + list.y ||
        !WrinkleAcross(r, vs_position, n, margin, line_distance, dir, width,
                       crest))
      continue;
    height = max(height, OffsetAtDistance(line_distance * line_distance,
                                          width, crest));
    AddWrinkleShading(line_distance, dir, width, crest, vs_position,
                      vs_position, n, dpdx, dpdy, sums);
  } while (++r < list.x + list.y);
  vec4 nx, ny, nz;
  ResolveShading(sums, n, nx, ny, nz);
  const vec4 quarter = vec4(0.25);
  vec3 mean_normal = vec3(dot(nx, quarter), dot(ny, quarter), dot(nz, quarter));
  float len = length(mean_normal);
  vec3 m = len > 1e-12 ? mean_normal / len : n;
  vec3 tangent_space = vec3(dot(m, t), u_green * dot(m, b), dot(m, n));
  out_normal = vec4(0.5 * tangent_space + 0.5, 1.0);
  out_height = clamp(height / u_height_range, 0.0, 1.0);
}
