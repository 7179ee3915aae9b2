#version 450 core
// Interpolates the corners over the patch and, in the displaced variant,
// moves the point along the smooth normal by weight * sum_c a_c h_c(uv), h
// at the vertex's mip level, a with the leading channel kept (as
// pattern.frag) (docs/algorithm.md, "Drawing the wrinkle-map model").
layout(triangles, equal_spacing, ccw) in;
in vec3 tc_position[];
in vec3 tc_normal[];
in vec2 tc_uv[];
in vec3 tc_amplitude[];
in vec2 tc_weight_lod[];
// Centroid copies for shading inside the triangle, centre copies for exact
// screen derivatives (as mesh.tese).
centroid out vec3 te_position;
centroid out vec3 te_normal;
out vec3 te_center;
out vec2 te_uv;
out vec3 te_amplitude;
uniform mat4 u_view_projection;
uniform bool u_displace;
uniform int u_channels;
uniform float u_leading_power;
uniform vec3 u_wavelength;  // per channel, 0 for a flat one (as pattern.frag)
// Unit 1: the pattern through a sampler without anisotropy
// (gl/pattern_pass.h says why).
layout(binding = 1) uniform sampler2DArray u_heights;

bool Before(vec3 a, vec3 b) {
  return a.x != b.x ? a.x < b.x : (a.y != b.y ? a.y < b.y : a.z < b.z);
}

// A vertex on a patch edge is shared with the neighbouring patch, which sees
// the edge's corners in the other order: interpolate from the corners sorted
// by position at the parameter snapped to the edge's level, so both patches
// compute the same bits (as mesh.tese). Inside: barycentric.
bool on_edge = false;
int first = 0, second = 0;
float t = 0.0;
void EdgeParameter(vec3 b) {
  int opposite = b.x == 0.0 ? 0 : (b.y == 0.0 ? 1 : (b.z == 0.0 ? 2 : -1));
  if (opposite < 0) return;
  int i = (opposite + 1) % 3, j = (opposite + 2) % 3;
  if (b[i] == 0.0 || b[j] == 0.0) return;  // a corner: barycentric is exact
  bool swap = Before(tc_position[j], tc_position[i]);
  first = swap ? j : i;
  second = swap ? i : j;
  float level = gl_TessLevelOuter[opposite];
  t = round(b[second] * level) / level;
  on_edge = true;
}
// pattern.frag's LeadingChannel: (a_c / a_max)^q on the positive
// amplitudes, 1 on the others and at q = 0; a flat channel never leads.
vec3 LeadingChannel(vec3 a) {
  vec3 may_lead = mix(vec3(0.0), a, greaterThan(u_wavelength, vec3(0.0)));
  float lead = max(max(may_lead.x, may_lead.y), may_lead.z);
  if (u_leading_power <= 0.0 || lead <= 0.0) return vec3(1.0);
  vec3 kept = pow(clamp(a / lead, 0.0, 1.0), vec3(u_leading_power));
  return mix(vec3(1.0), kept, greaterThan(a, vec3(0.0)));
}

#define INTERPOLATE(a)                                   \
  (on_edge ? a[first] + t * (a[second] - a[first])       \
           : gl_TessCoord.x * a[0] + gl_TessCoord.y * a[1] + \
                 gl_TessCoord.z * a[2])

void main() {
  EdgeParameter(gl_TessCoord);
  precise vec3 position = INTERPOLATE(tc_position);
  precise vec3 n = INTERPOLATE(tc_normal);
  precise vec2 uv = INTERPOLATE(tc_uv);
  precise vec3 amplitude = INTERPOLATE(tc_amplitude);
  precise vec2 weight_lod = INTERPOLATE(tc_weight_lod);
  te_position = position;
  te_center = position;
  float len = length(n);
  te_normal = len > 0.0 ? n / len : vec3(0.0, 0.0, 1.0);
  te_uv = uv;
  te_amplitude = amplitude;
  precise vec3 displaced = position;
  if (u_displace && weight_lod.x > 0.0) {
    precise float height = 0.0;
    precise vec3 kept = LeadingChannel(amplitude) * amplitude;
    for (int c = 0; c < u_channels; ++c) {
      height += kept[c] *
                textureLod(u_heights, vec3(uv, 2 * c), weight_lod.y).x;
    }
    displaced += weight_lod.x * height * te_normal;
  }
  gl_Position = u_view_projection * vec4(displaced, 1.0);
}
