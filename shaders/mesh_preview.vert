#version 450 core
// A plain triangle mesh as an engine draws it (MeshPreviewRenderer): world
// positions, vertex normals, texture coordinates and tangents (xyz + the
// bitangent's sign) to the rasteriser, three vertices per triangle.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 3) in vec4 in_tangent;
out vec3 vs_position;
out vec3 vs_normal;
out vec2 vs_uv;
out vec4 vs_tangent;
uniform mat4 u_view_projection;
void main() {
  vs_position = in_position;
  vs_normal = in_normal;
  vs_uv = in_uv;
  vs_tangent = in_tangent;
  gl_Position = u_view_projection * vec4(in_position, 1.0);
}
