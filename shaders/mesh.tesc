#version 450 core
// Tessellation levels. Level 1 (the triangle as it is) for every triangle without
// wrinkles; the wrinkled levels come with the wrinkle buffers (issue 4, next step).
layout(vertices = 3) out;
in vec3 vs_position[];
in vec3 vs_normal[];
out vec3 tc_position[];
out vec3 tc_normal[];
void main() {
  tc_position[gl_InvocationID] = vs_position[gl_InvocationID];
  tc_normal[gl_InvocationID] = vs_normal[gl_InvocationID];
  if (gl_InvocationID == 0) {
    gl_TessLevelOuter[0] = 1.0;
    gl_TessLevelOuter[1] = 1.0;
    gl_TessLevelOuter[2] = 1.0;
    gl_TessLevelInner[0] = 1.0;
  }
}
