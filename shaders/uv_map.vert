#version 450 core
// Each triangle drawn at its texture coordinates: the UV square [0, 1]^2 fills
// the target (v upwards, as OBJ and Topology.corner_uvs have it), carrying the
// surface position, smooth normal and tangent frame to the texels it covers.
layout(location = 0) in vec2 in_uv;
layout(location = 1) in vec3 in_position;
layout(location = 2) in vec3 in_normal;
layout(location = 3) in vec4 in_tangent;  // xyz, bitangent sign
// The triangle the corner belongs to (a piece of one carries its index).
layout(location = 4) in int in_triangle;
out vec3 vs_position;
out vec3 vs_normal;
out vec4 vs_tangent;
flat out int vs_triangle;
void main() {
  vs_position = in_position;
  vs_normal = in_normal;
  vs_tangent = in_tangent;
  vs_triangle = in_triangle;
  // v = 1 on the bottom row of the target, which glReadPixels returns first:
  // the maps come back top row first, as images are stored.
  gl_Position = vec4(2.0 * in_uv.x - 1.0, 1.0 - 2.0 * in_uv.y, 0.0, 1.0);
}
