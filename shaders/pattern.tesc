#version 450 core
// Per-edge tessellation levels from the CPU (FillPatternTessellation: from the
// edge alone, so both triangles on it agree); 1 where nothing displaces.
layout(vertices = 3) out;
in vec3 vs_position[];
in vec3 vs_normal[];
in vec2 vs_uv[];
in vec3 vs_amplitude[];
in vec2 vs_weight_lod[];
flat in int vs_triangle[];
out vec3 tc_position[];
out vec3 tc_normal[];
out vec2 tc_uv[];
out vec3 tc_amplitude[];
out vec2 tc_weight_lod[];
layout(std430, binding = 0) readonly buffer TriangleLevels { vec4 levels[]; };
void main() {
  tc_position[gl_InvocationID] = vs_position[gl_InvocationID];
  tc_normal[gl_InvocationID] = vs_normal[gl_InvocationID];
  tc_uv[gl_InvocationID] = vs_uv[gl_InvocationID];
  tc_amplitude[gl_InvocationID] = vs_amplitude[gl_InvocationID];
  tc_weight_lod[gl_InvocationID] = vs_weight_lod[gl_InvocationID];
  if (gl_InvocationID == 0) {
    vec4 l = levels[vs_triangle[0]];
    // Outer level i is the edge opposite corner i: corners (i+1, i+2).
    gl_TessLevelOuter[0] = l.y;
    gl_TessLevelOuter[1] = l.z;
    gl_TessLevelOuter[2] = l.x;
    gl_TessLevelInner[0] = l.w;
  }
}
