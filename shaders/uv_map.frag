#version 450 core
// One texel of the UV-space maps, rasterised (a triangle or a piece of one at
// its corner UVs), shaded by uv_texel.glsl's ShadeTexel. Written as the maps
// are stored: the normal as 0.5 n + 0.5 in RGBA8 with alpha 1 (the clear's
// alpha 0 marks texels no triangle covers), the height over u_height_range
// in R16.
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
uniform float u_size;          // texels per side

// A piece list's fourth entry (uv_map_pieces.h, PieceRole): 0 a whole
// triangle, 1 a cut triangle's fringe (the whole triangle, drawing only the
// texels within a texel of its edges), 2 a piece cut from it (drawing the
// rest). The fringe gives the edges the whole triangle's own coverage, which
// interpolated piece corners, snapped by the rasteriser, would not.
const int kFringe = 1;
const int kInterior = 2;

void main() {
  ivec4 list = triangle_ranges[vs_triangle];
  if (list.w == kFringe || list.w == kInterior) {
    bool near_edge = EdgeTexels(list.z, gl_FragCoord.xy, u_size) < 1.0;
    if (near_edge != (list.w == kFringe)) discard;
  }
  vec3 position = vs_position, normal = vs_normal;
  vec4 tangent = vs_tangent;
  vec3 dpdx = dFdx(vs_position), dpdy = dFdy(vs_position);
  // A texel no wrinkle reaches needs only its normal frame, which either
  // way gives the flat map.
  if (list.y > 0) {
    vec3 p, nn, dx, dy;
    vec4 tt;
    if (TexelInputs(list.z, gl_FragCoord.xy, u_size, p, nn, tt, dx, dy)) {
      position = p;
      normal = nn;
      tangent = tt;
      dpdx = dx;
      dpdy = dy;
    }
  }
  ShadeTexel(list, position, normal, tangent, dpdx, dpdy, u_reach,
             u_height_range, u_green, out_normal, out_height);
}
