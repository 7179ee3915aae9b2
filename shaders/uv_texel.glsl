// The UV-space maps' texel shading, shared by the rasterised pass
// (uv_map.frag) and the compute pass (uv_map_shade.comp): one texel's
// normal in its tangent frame, filtered over the texel's footprint on the
// surface exactly as the screen renderer filters a pixel's (WrinkleShading,
// four slices averaged), and the wrinkles' offset along the smooth normal at
// the texel's centre (the displacement the tessellation applies: the highest
// crest plus the deepest valley, as WrinkleOffset combines them). Inserted after
// wrinkle_field.glsl.

// The whole triangles' corners, 13 floats each (uv, position, normal,
// tangent + bitangent sign, index), three a triangle. A texel a wrinkle
// reaches takes its inputs from its centre and its triangle's corners, not
// from the piece drawn: rasterisers snap a primitive's corners to a
// sub-texel grid and interpolate over the snapped primitive, so a piece and
// its whole triangle gave a texel different inputs on NVIDIA (heights apart
// by up to 83 of 65535); computed here they are the same bit for bit.
layout(std430, binding = 3) readonly buffer TriangleCorners {
  float triangle_corners[];
};
const int kCornerFloats = 13;

vec2 CornerUv(int corner) {
  int at = corner * kCornerFloats;
  return vec2(triangle_corners[at], triangle_corners[at + 1]);
}
vec3 CornerVec3(int corner, int offset) {
  int at = corner * kCornerFloats + offset;
  return vec3(triangle_corners[at], triangle_corners[at + 1],
              triangle_corners[at + 2]);
}
vec4 CornerVec4(int corner, int offset) {
  return vec4(CornerVec3(corner, offset),
              triangle_corners[corner * kCornerFloats + offset + 3]);
}

// The barycentric coordinates (of corners 1 and 2) of the texel centre at
// `window` in triangle `triangle`'s UVs, as TexelInputs computes them; 0 for
// a triangle degenerate in UV (it covers no texel).
vec2 TexelBarycentrics(int triangle, vec2 window, float size) {
  int c = 3 * triangle;
  vec2 a = CornerUv(c), e1 = CornerUv(c + 1) - a, e2 = CornerUv(c + 2) - a;
  float det = e1.x * e2.y - e1.y * e2.x;
  if (det == 0.0) return vec2(0.0);
  // v = 1 - y / size: the vertex shader draws v upwards from the bottom row.
  vec2 d = vec2(window.x, size - window.y) / size - a;
  return vec2(d.x * e2.y - d.y * e2.x, e1.x * d.y - e1.y * d.x) / det;
}

// The position, normal, tangent and position derivatives at `window` (a
// texel centre, in the target's window coordinates, rows from the bottom) of
// a `size`-texel map over triangle `triangle`, as the interpolation of an unsnapped triangle
// gives them; false for a triangle with no area in UV (the rasteriser's
// values stand).
bool TexelInputs(int triangle, vec2 window, float size, out vec3 position,
                 out vec3 normal, out vec4 tangent, out vec3 dpdx,
                 out vec3 dpdy) {
  int c = 3 * triangle;
  vec2 a = CornerUv(c), e1 = CornerUv(c + 1) - a, e2 = CornerUv(c + 2) - a;
  float det = e1.x * e2.y - e1.y * e2.x;
  if (det == 0.0) return false;
  vec2 st = TexelBarycentrics(triangle, window, size);
  float s = st.x, t = st.y;
  // (d/dx, d/dy) of s and t: a window step moves uv by (1, 0) or (0, -1)
  // over size.
  vec2 ds = vec2(e2.y, e2.x) / (det * size);
  vec2 dt = -vec2(e1.y, e1.x) / (det * size);
  vec3 p0 = CornerVec3(c, 2), p1 = CornerVec3(c + 1, 2) - p0,
       p2 = CornerVec3(c + 2, 2) - p0;
  position = p0 + s * p1 + t * p2;
  dpdx = ds.x * p1 + dt.x * p2;
  dpdy = ds.y * p1 + dt.y * p2;
  vec3 n0 = CornerVec3(c, 5);
  normal = n0 + s * (CornerVec3(c + 1, 5) - n0) + t * (CornerVec3(c + 2, 5) - n0);
  vec4 t0 = CornerVec4(c, 8);
  tangent = t0 + s * (CornerVec4(c + 1, 8) - t0) + t * (CornerVec4(c + 2, 8) - t0);
  return true;
}

// One texel's maps from its inputs (TexelInputs' or the rasteriser's) and
// its wrinkle list: the filtered normal in the tangent frame as stored
// (0.5 n + 0.5, alpha 1) and the height, stored as height_zero + height /
// height_range (height_zero: the smooth surface's level, a fraction of full
// scale; valleys beside the ridges go below it). `reach` caps the footprint
// margin; `green` is 1 (+Y) or -1 (-Y).
void ShadeTexel(ivec4 list, vec3 position, vec3 normal, vec4 tangent,
                vec3 dpdx, vec3 dpdy, float reach, float height_range,
                float height_zero, float green, out vec4 normal_out,
                out float height_out) {
  vec3 n = normalize(normal);
  vec3 t = tangent.xyz - dot(tangent.xyz, n) * n;
  t = dot(t, t) > 1e-20 ? normalize(t) : normalize(cross(n, abs(n.x) < 0.9
                                                                ? vec3(1, 0, 0)
                                                                : vec3(0, 1, 0)));
  vec3 b = (tangent.w < 0.0 ? -1.0 : 1.0) * cross(n, t);
  float margin = min(0.5 * max(length(dpdx), length(dpdy)), reach);
  // One projection per wrinkle serves both maps (the screen renderer's gate,
  // shading and offset make three). The offset comes from the projection
  // with the footprint's margin (at most a texel), so it can differ from
  // WrinkleOffset's only where a segment that far past its reach is nearer.
  ShadingSums sums = NoShading();
  float crest = 0.0, valley = 0.0;
  int r = list.x;
  do {  // see kLoopNote (wrinkle_field.glsl)
    float line_distance, width, top;
    vec3 dir;
    if (r >= list.x + list.y ||
        !WrinkleAcross(r, position, n, margin, line_distance, dir, width,
                       top))
      continue;
    CombineOffset(OffsetAtDistance(line_distance * line_distance, width, top),
                  crest, valley);
    AddWrinkleShading(line_distance, dir, width, top, position,
                      position, n, dpdx, dpdy, sums);
  } while (++r < list.x + list.y);
  vec4 nx, ny, nz;
  ResolveShading(sums, n, nx, ny, nz);
  const vec4 quarter = vec4(0.25);
  vec3 mean_normal = vec3(dot(nx, quarter), dot(ny, quarter), dot(nz, quarter));
  float len = length(mean_normal);
  vec3 m = len > 1e-12 ? mean_normal / len : n;
  vec3 tangent_space = vec3(dot(m, t), green * dot(m, b), dot(m, n));
  normal_out = vec4(0.5 * tangent_space + 0.5, 1.0);
  height_out = clamp(height_zero + (crest + valley) / height_range, 0.0, 1.0);
}
