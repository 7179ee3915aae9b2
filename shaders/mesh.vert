#version 450 core
// Pass-through: positions and smooth normals in world space, to the tessellator.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
out vec3 vs_position;
out vec3 vs_normal;
flat out int vs_triangle;  // vertices come three per triangle, in order
void main() {
  vs_position = in_position;
  vs_normal = in_normal;
  vs_triangle = gl_VertexID / 3;
}
