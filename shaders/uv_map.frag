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
uniform float u_height_zero;   // the smooth surface, a fraction of full scale
uniform float u_green;         // 1: +Y (glTF), -1: -Y (Unreal)
uniform float u_size;          // texels per side

// A list's fourth entry (uv_map_pieces.h, PieceRole): kGrid for a cut
// triangle drawn whole, whose texels each take the list of the piece their
// centre lies in (the cells follow the header: 2 (j n + i) + upper).
const int kGrid = 1;

void main() {
  ivec4 list = triangle_ranges[vs_triangle];
  if (list.w == kGrid) {
    int n = list.y;
    vec2 st = TexelBarycentrics(list.z, gl_FragCoord.xy, u_size) * float(n);
    int i = clamp(int(floor(st.x)), 0, n - 1);
    int j = clamp(int(floor(st.y)), 0, n - 1 - i);
    int upper = st.x - float(i) + st.y - float(j) >= 1.0 && i + j + 2 <= n ? 1 : 0;
    list = triangle_ranges[list.x + 2 * (j * n + i) + upper];
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
             u_height_range, u_height_zero, u_green, out_normal, out_height);
}
