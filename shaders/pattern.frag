#version 450 core
// The wrinkle-map model by bump mapping: the smooth normal bent by the
// surface gradient of H = sum_c a_c h_c(uv), a the amplitudes with the
// leading channel kept (LeadingChannel) (Mikkelsen's surface gradient
// from screen derivatives), every pattern quantity the mip-mapped mean over
// the pixel's footprint (textureGrad), the mean normal shortened by the mean
// squared slope (Toksvig, as mesh.frag), channels faded out below about two
// pixels a wavelength; then the cloth lighting with valley occlusion
// (docs/algorithm.md, "Drawing the wrinkle-map model").
layout(early_fragment_tests) in;
centroid in vec3 te_position;
centroid in vec3 te_normal;
in vec3 te_center;
in vec2 te_uv;
in vec3 te_amplitude;
out vec4 out_color;
uniform int u_channels;
// Per channel, its wavelength in UV units (0: flat), and the on-screen
// wavelengths (pixels) over which a channel fades in.
uniform vec3 u_wavelength;
uniform vec2 u_fade_pixels;
// The pattern's texels per UV unit: its layers hold derivatives per texel.
uniform vec2 u_texels;
// q of LeadingChannel (0: the plain sum).
uniform float u_leading_power;
layout(binding = 0) uniform sampler2DArray u_pattern;
// Shade, u_eye and the lights: cloth_lighting.glsl, inserted before.

// The surface gradient of a scalar with screen derivatives (dfdx, dfdy),
// given r1 = dpdy x n, r2 = n x dpdx and det = dpdx . r1.
vec3 SurfaceGradient(float dfdx, float dfdy, vec3 r1, vec3 r2, float det) {
  return (dfdx * r1 + dfdy * r2) / det;
}

// Per channel the factor (a_c / a_max)^q on the positive amplitudes (1 on
// the others, and everywhere at q = 0): where a triangle's corners lead
// with different channels, each part of it keeps its own leader (as
// pattern.tese). A flat channel (wavelength 0) draws no folds, so it never
// leads.
vec3 LeadingChannel(vec3 a) {
  vec3 may_lead = mix(vec3(0.0), a, greaterThan(u_wavelength, vec3(0.0)));
  float lead = max(max(may_lead.x, may_lead.y), may_lead.z);
  if (u_leading_power <= 0.0 || lead <= 0.0) return vec3(1.0);
  vec3 kept = pow(clamp(a / lead, 0.0, 1.0), vec3(u_leading_power));
  return mix(vec3(1.0), kept, greaterThan(a, vec3(0.0)));
}

void main() {
  vec3 n = normalize(te_normal);
  vec3 v = normalize(u_eye - te_position);
  float facing = dot(n, v) < 0.0 ? -1.0 : 1.0;
  vec3 dpdx = dFdx(te_center), dpdy = dFdy(te_center);
  vec2 duvdx = dFdx(te_uv), duvdy = dFdy(te_uv);
  // The factor's own gradient is left out of the amplitudes' gradient: it
  // is steep where the leader changes, and screen derivatives (per 2x2
  // quad) drew that as a jagged bright line.
  vec3 keep = LeadingChannel(te_amplitude);
  vec3 amplitude = keep * te_amplitude;
  vec3 dadx = keep * dFdx(te_amplitude), dady = keep * dFdy(te_amplitude);
  vec3 r1 = cross(dpdy, n), r2 = cross(n, dpdx);
  float det = dot(dpdx, r1);
  // UV units a pixel spans, along its longer footprint axis.
  float footprint = max(length(duvdx), length(duvdy));
  vec3 gradient = vec3(0.0);  // mean surface gradient of H
  float slope2 = 0.0;         // mean |gradient|^2 (cross-channel terms left out)
  float mean_height = 0.0, relief = 0.0;
  if (abs(det) > 1e-20 && footprint > 0.0) {
    // The surface gradients of the texel coordinates.
    vec3 grad_u = u_texels.x * SurfaceGradient(duvdx.x, duvdy.x, r1, r2, det);
    vec3 grad_v = u_texels.y * SurfaceGradient(duvdx.y, duvdy.y, r1, r2, det);
    for (int c = 0; c < u_channels; ++c) {
      float fade = smoothstep(u_fade_pixels.x, u_fade_pixels.y,
                              u_wavelength[c] / footprint);
      float a = amplitude[c] * fade;
      if (a == 0.0) continue;
      vec4 h = textureGrad(u_pattern, vec3(te_uv, 2 * c), duvdx, duvdy);
      vec4 m = textureGrad(u_pattern, vec3(te_uv, 2 * c + 1), duvdx, duvdy);
      gradient += a * (h.y * grad_u + h.z * grad_v) +
                  fade * h.x * SurfaceGradient(dadx[c], dady[c], r1, r2, det);
      slope2 += a * a *
                (m.x * dot(grad_u, grad_u) + m.y * dot(grad_v, grad_v) +
                 2.0 * m.z * dot(grad_u, grad_v));
      mean_height += a * h.x;
      relief += abs(a);
    }
  }
  // The mean normal over the footprint: (n - g) / sqrt(1 + E[|g|^2]), shorter
  // than 1 where the footprint averages facets facing different ways.
  slope2 = max(slope2, dot(gradient, gradient));
  vec3 mean_n = (n - gradient) / sqrt(1.0 + slope2);
  // Valley occlusion from the pattern's own profile: none on crests, up to
  // 30 % at the bottom of a valley as steep as 45 degrees (rms slope 1).
  float depth = relief > 0.0 ? clamp(0.5 - 0.5 * mean_height / relief, 0.0, 1.0)
                             : 0.0;
  float occlusion = 1.0 - 0.3 * min(sqrt(slope2), 1.0) * depth;
  out_color = vec4(Shade(facing * mean_n, v, occlusion), 1.0);
}
