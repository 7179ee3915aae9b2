#version 450 core
// Per-pixel wrinkle normals (offset-weighted blend), then two-sided Phong with a
// headlight.
// Depth test before the (costly) lookup: this shader writes no depth.
layout(early_fragment_tests) in;
centroid in vec3 te_position;  // inside the triangle (see mesh.tese)
centroid in vec3 te_normal;
flat in int te_triangle;
out vec4 out_color;
uniform vec3 u_eye;
uniform vec3 u_base_color;
uniform bool u_wrinkles;
void main() {
  vec3 n = normalize(te_normal);
  if (u_wrinkles) {
    ivec4 list = triangle_ranges[te_triangle];
    WrinkleOffset(list.x, list.y, te_position, n, n);
  }
  vec3 v = normalize(u_eye - te_position);
  if (dot(n, v) < 0.0) n = -n;  // cloth is seen from both sides
  vec3 l = v;                   // headlight
  float diffuse = max(dot(n, l), 0.0);
  float specular = pow(max(dot(reflect(-l, n), v), 0.0), 32.0);
  vec3 color = u_base_color * (0.15 + 0.8 * diffuse) + vec3(0.15) * specular;
  out_color = vec4(color, 1.0);
}
