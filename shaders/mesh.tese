#version 450 core
// Interpolates position and normal over the patch, displaces along the smooth normal by
// the largest wrinkle offset, and projects.
layout(triangles, equal_spacing, ccw) in;
in vec3 tc_position[];
in vec3 tc_normal[];
patch in int tc_triangle;
// On the undisplaced surface: the fragment shader's lookup. Centroid: a
// partly covered pixel is shaded at a covered sample, inside the triangle,
// where the triangle's wrinkle list holds.
centroid out vec3 te_position;
centroid out vec3 te_normal;
out vec3 te_center;  // the same, at the pixel's centre (mesh.frag)
flat out int te_triangle;
uniform mat4 u_view_projection;
uniform bool u_wrinkles;

bool Before(vec3 a, vec3 b) {
  return a.x != b.x ? a.x < b.x : (a.y != b.y ? a.y < b.y : a.z < b.z);
}

// Position and normal at tessellation coordinate b. A vertex on a patch edge is
// shared with the neighbouring patch, which sees the edge's corners in the other
// order: evaluate it from the corners sorted by position, at a parameter snapped
// to the edge's level, so both patches compute the same bits. Otherwise the
// rasteriser is not watertight and single pixels drop out of the seam.
void Evaluate(vec3 b, out precise vec3 position, out precise vec3 normal) {
  int opposite = b.x == 0.0 ? 0 : (b.y == 0.0 ? 1 : (b.z == 0.0 ? 2 : -1));
  if (opposite >= 0) {
    int i = (opposite + 1) % 3, j = (opposite + 2) % 3;
    if (b[i] != 0.0 && b[j] != 0.0) {
      bool swap = Before(tc_position[j], tc_position[i]);
      int first = swap ? j : i, second = swap ? i : j;
      float level = gl_TessLevelOuter[opposite];
      float t = round(b[second] * level) / level;
      position = tc_position[first] + t * (tc_position[second] - tc_position[first]);
      normal = tc_normal[first] + t * (tc_normal[second] - tc_normal[first]);
      return;
    }
  }
  position = b.x * tc_position[0] + b.y * tc_position[1] + b.z * tc_position[2];
  normal = b.x * tc_normal[0] + b.y * tc_normal[1] + b.z * tc_normal[2];
}

void main() {
  precise vec3 position, n;
  Evaluate(gl_TessCoord, position, n);
  te_position = position;
  te_center = position;
  float len = length(n);
  te_normal = len > 0.0 ? n / len : vec3(0.0, 0.0, 1.0);
  te_triangle = tc_triangle;
  vec3 displaced = te_position;
  if (u_wrinkles) {
    // Only the wrinkles the tessellation can sample (listed first).
    ivec4 list = triangle_ranges[te_triangle];
    displaced += WrinkleOffset(list.x, list.z, te_position, te_normal) * te_normal;
  }
  gl_Position = u_view_projection * vec4(displaced, 1.0);
}
