#version 450 core
// The wrinkle-map model's corners (three per triangle, in order): position,
// smooth normal, UV, the channels' amplitudes, and the displaced variant's
// seam weight and mip level (renderer/pattern_data.h).
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 3) in vec3 in_amplitude;
layout(location = 4) in vec2 in_weight_lod;
out vec3 vs_position;
out vec3 vs_normal;
out vec2 vs_uv;
out vec3 vs_amplitude;
out vec2 vs_weight_lod;
flat out int vs_triangle;
void main() {
  vs_position = in_position;
  vs_normal = in_normal;
  vs_uv = in_uv;
  vs_amplitude = in_amplitude;
  vs_weight_lod = in_weight_lod;
  vs_triangle = gl_VertexID / 3;
}
