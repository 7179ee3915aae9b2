#version 450 core
// Tessellation levels, computed on the CPU per edge (from the edge alone, so the two
// triangles sharing an edge agree): 1 for triangles no wrinkle reaches.
layout(vertices = 3) out;
in vec3 vs_position[];
in vec3 vs_normal[];
flat in int vs_triangle[];
out vec3 tc_position[];
out vec3 tc_normal[];
// The triangle index from the vertex stage, not gl_PrimitiveID: llvmpipe's is
// wrong past a few hundred patches of one draw.
patch out int tc_triangle;
layout(std430, binding = 0) readonly buffer TriangleLevels { vec4 levels[]; };
void main() {
  tc_position[gl_InvocationID] = vs_position[gl_InvocationID];
  tc_normal[gl_InvocationID] = vs_normal[gl_InvocationID];
  if (gl_InvocationID == 0) {
    tc_triangle = vs_triangle[0];
    vec4 l = levels[tc_triangle];
    // Outer level i is the edge opposite corner i: corners (i+1, i+2).
    gl_TessLevelOuter[0] = l.y;
    gl_TessLevelOuter[1] = l.z;
    gl_TessLevelOuter[2] = l.x;
    gl_TessLevelInner[0] = l.w;
  }
}
