#version 450 core
// The triangle drawn at each texel of the UV maps (with uv_map.vert), once
// per UV layout: where uv_map_shade.comp finds a texel's triangle.
flat in int vs_triangle;
layout(location = 0) out int out_triangle;
void main() { out_triangle = vs_triangle; }
