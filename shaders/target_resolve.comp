#version 450 core
// Resolves a multisampled colour target (the mean of its samples, as a
// framebuffer blit resolves RGBA8) into a single-sampled image with its rows
// turned top to bottom, so the read-back's rows are an image's: no flip on
// the CPU. On the compute units, for the reason of target_clear.comp.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 15) uniform sampler2DMS u_target;
layout(rgba8, binding = 1) writeonly uniform image2D u_resolved;
void main() {
  ivec2 size = imageSize(u_resolved);
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  // The texture's own count: the GL may allocate more samples than asked.
  int samples = textureSamples(u_target);
  vec4 sum = vec4(0.0);
  for (int s = 0; s < samples; ++s) sum += texelFetch(u_target, p, s);
  imageStore(u_resolved, ivec2(p.x, size.y - 1 - p.y), sum / float(samples));
}
