#version 450 core
// The UV maps' reached texels on the compute units (a GPU's; uv_map.frag,
// rasterised, runs on its few graphics units): each texel of a triangle some
// wrinkle reaches (u_triangle_ids: the triangle drawn there, rasterised once
// per UV layout by uv_id.frag) shaded by ShadeTexel from the texel's centre
// and its triangle's corners, as uv_map.frag shades a whole triangle's.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 8) uniform isampler2D u_triangle_ids;
layout(rgba8, binding = 2) writeonly uniform image2D u_normal_map;
layout(r16, binding = 3) writeonly uniform image2D u_height_map;
uniform float u_reach;         // as uv_map.frag's
uniform float u_height_range;
uniform float u_height_zero;
uniform float u_green;
uniform float u_size;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(u_normal_map);
  if (p.x >= size.x || p.y >= size.y) return;
  int triangle = texelFetch(u_triangle_ids, p, 0).r;
  if (triangle < 0) return;
  ivec4 list = triangle_ranges[triangle];
  if (list.y <= 0) return;
  vec3 position, normal, dpdx, dpdy;
  vec4 tangent;
  if (!TexelInputs(triangle, vec2(p) + 0.5, u_size, position, normal, tangent,
                   dpdx, dpdy)) {
    return;
  }
  vec4 normal_out;
  float height_out;
  ShadeTexel(list, position, normal, tangent, dpdx, dpdy, u_reach,
             u_height_range, u_height_zero, u_green, normal_out, height_out);
  imageStore(u_normal_map, p, normal_out);
  imageStore(u_height_map, p, vec4(height_out));
}
