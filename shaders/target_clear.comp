#version 450 core
// Clears every sample of a multisampled colour target to u_color: on a GPU
// whose raster units are few (an H100 or H200 has graphics on 2 of its TPCs),
// glClear of a 4x target costs 9x what this does on the compute units
// (docs/benchmarks.md, "What a frame's target costs").
layout(local_size_x = 8, local_size_y = 8) in;
layout(rgba8, binding = 0) writeonly uniform image2DMS u_target;
uniform vec4 u_color;
void main() {
  ivec2 size = imageSize(u_target);
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  // The texture's own count: the GL may allocate more samples than asked.
  int samples = imageSamples(u_target);
  for (int s = 0; s < samples; ++s) imageStore(u_target, p, s, u_color);
}
