#version 450 core
// A stock engine's tangent-space normal mapping: the interpolated vertex
// normal and tangent, the tangent made orthogonal to the normal
// (Gram-Schmidt), bitangent = sign * cross(n, t), the map's texel as
// 2 c - 1 (green +Y, or -Y when u_green is -1) turned into world space; then
// the same cloth lighting as the wrinkle renderer (cloth_lighting.glsl), with
// no occlusion (a normal map carries none). Without a map: the vertex normal.
// u_overlay: a flat colour (lines drawn over the surface).
in vec3 vs_position;
in vec3 vs_normal;
in vec2 vs_uv;
in vec4 vs_tangent;
out vec4 out_color;
uniform bool u_normal_mapped;
uniform sampler2D u_normal_map;
uniform float u_green;  // 1: +Y (glTF), -1: -Y (Unreal)
uniform bool u_overlay;
uniform vec4 u_overlay_color;
// Shade, u_eye and the lights: cloth_lighting.glsl, inserted before.

vec3 NormalMapped(vec3 n) {
  vec3 t = vs_tangent.xyz - dot(vs_tangent.xyz, n) * n;
  if (dot(t, t) < 1e-20) return n;  // no tangent frame: leave it smooth
  t = normalize(t);
  vec3 b = (vs_tangent.w < 0.0 ? -1.0 : 1.0) * cross(n, t);
  // Rows are stored top to bottom (the top row is v = 1): as glTF samples an
  // image, at v flipped.
  vec3 m = 2.0 * texture(u_normal_map, vec2(vs_uv.x, 1.0 - vs_uv.y)).xyz - 1.0;
  vec3 bent = m.x * t + u_green * m.y * b + m.z * n;
  float len = length(bent);
  return len > 0.0 ? bent / len : n;
}

void main() {
  if (u_overlay) {
    out_color = u_overlay_color;
    return;
  }
  float len = length(vs_normal);
  vec3 v = normalize(u_eye - vs_position);
  vec3 n = len > 0.0 ? vs_normal / len : v;
  // Cloth is seen from both sides, as in mesh.frag.
  float facing = dot(n, v) < 0.0 ? -1.0 : 1.0;
  if (u_normal_mapped) n = NormalMapped(n);
  out_color = vec4(Shade(facing * n, v, 1.0), 1.0);
}
