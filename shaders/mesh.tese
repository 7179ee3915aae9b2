#version 450 core
// Interpolates position and normal over the patch and projects.
layout(triangles, equal_spacing, ccw) in;
in vec3 tc_position[];
in vec3 tc_normal[];
out vec3 te_position;
out vec3 te_normal;
uniform mat4 u_view_projection;
void main() {
  vec3 b = gl_TessCoord;
  te_position = b.x * tc_position[0] + b.y * tc_position[1] + b.z * tc_position[2];
  te_normal = b.x * tc_normal[0] + b.y * tc_normal[1] + b.z * tc_normal[2];
  gl_Position = u_view_projection * vec4(te_position, 1.0);
}
