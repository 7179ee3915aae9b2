#version 450 core
// Interpolates position and normal over the patch, displaces along the smooth normal by
// the largest wrinkle offset, and projects.
layout(triangles, equal_spacing, ccw) in;
in vec3 tc_position[];
in vec3 tc_normal[];
out vec3 te_position;   // on the undisplaced surface: the fragment shader's lookup
out vec3 te_normal;
flat out int te_triangle;
uniform mat4 u_view_projection;
uniform int u_first_patch;
uniform bool u_wrinkles;
void main() {
  vec3 b = gl_TessCoord;
  te_position = b.x * tc_position[0] + b.y * tc_position[1] + b.z * tc_position[2];
  vec3 n = b.x * tc_normal[0] + b.y * tc_normal[1] + b.z * tc_normal[2];
  float len = length(n);
  te_normal = len > 0.0 ? n / len : vec3(0.0, 0.0, 1.0);
  te_triangle = gl_PrimitiveID + u_first_patch;
  vec3 displaced = te_position;
  if (u_wrinkles) {
    vec3 bent;
    displaced += WrinkleOffset(te_triangle, te_position, te_normal, bent) * te_normal;
  }
  gl_Position = u_view_projection * vec4(displaced, 1.0);
}
