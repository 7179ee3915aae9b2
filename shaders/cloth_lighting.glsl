// Matte cloth lit from the camera's frame: a key light above and in front, a
// softer fill from the other side, hemispherical ambient (darkened by an
// occlusion factor), a faint specular and sheen. Shared by the wrinkle
// renderer (mesh.frag) and the plain / normal-mapped preview
// (mesh_preview.frag), so both light a normal alike. Inserted after a stage's
// #version line (gl::WithClothLighting); the uniforms are set by
// gl::LightingUniforms (renderer/gl/scene_lighting.h).
uniform vec3 u_eye;
uniform vec3 u_base_color;
// World-space unit directions towards the lights and the sky, fixed in the
// camera's frame so every azimuth is lit alike.
uniform vec3 u_key;
uniform vec3 u_fill;
uniform vec3 u_sky;

// Cloth lit along mean normal n (length <= 1: shorter where a footprint
// averaged a wrinkle's facets), seen along v.
vec3 Shade(vec3 n, vec3 v, float occlusion) {
  float len = length(n);
  vec3 unit_n = len > 0.0 ? n / len : v;
  // Lambert on the mean normal: its length carries the filtered-out relief.
  float key = max(dot(n, u_key), 0.0);
  float fill = max(dot(n, u_fill), 0.0);
  float sky = 0.5 + 0.5 * dot(unit_n, u_sky);
  float ambient = mix(0.12, 0.3, sky) * occlusion;
  // Blinn-Phong, weak and broad; Toksvig's factor widens it where the
  // footprint averaged normals.
  const float kShininess = 24.0;
  float toksvig = len / (len + kShininess * (1.0 - len));
  vec3 half_vector = normalize(u_key + v);
  float specular =
      pow(max(dot(unit_n, half_vector), 0.0), kShininess * toksvig);
  specular *= 0.06 * toksvig * step(0.0, dot(n, u_key));
  // Sheen: cloth's fibres brighten grazing views a little.
  float sheen = 0.1 * pow(1.0 - max(dot(unit_n, v), 0.0), 4.0);
  return u_base_color * (ambient + 0.75 * key + 0.25 * fill * occlusion) +
         vec3(specular) + sheen * mix(u_base_color, vec3(1.0), 0.5);
}
