#ifndef CREASE_RENDERER_UV_MAP_RENDERER_STATE_H_
#define CREASE_RENDERER_UV_MAP_RENDERER_STATE_H_

// UvMapRenderer's GL objects and per-frame scratch (uv_map_renderer.h), which
// its frame path (uv_map_renderer.cc) and its flat bases (uv_map_bases.cc)
// both use. Internal to renderer/.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/helper_thread.h"
#include "renderer/gl/gl_objects.h"
#include "renderer/gl/stream_buffer.h"
#include "renderer/uv_map_dilation.h"
#include "renderer/uv_map_pieces.h"
#include "renderer/uv_map_renderer.h"

namespace crease::renderer {
namespace uv_map_internal {

// Flat bases kept per renderer: one per UV layout of the sessions that share
// a render thread, up to this many.
constexpr size_t kMaxBases = 4;

// uv_map_shade.comp's bindings: the triangle ids' texture unit, the maps'
// image units, and its work group's side.
constexpr GLuint kTriangleIdsUnit = 8;
constexpr GLuint kNormalImageUnit = 2, kHeightImageUnit = 3;
constexpr int kShadeGroup = 8;

inline gl::Texture MakeTexture(GLenum format, int size) {
  GLuint name = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &name);
  glTextureStorage2D(name, 1, format, size, size);
  return gl::Texture(name);
}

}  // namespace uv_map_internal

// The maps with no wrinkles (every covered texel flat, alpha 1), dilated, for
// one size, UV layout, ring count and green sign: a frame starts from a copy,
// draws only the triangles that wrinkles reach and re-dilates only around
// them (`dilation`).
struct UvMapRenderer::UvMapBase {
  gl::Texture normal, height;
  // With compute shading: the triangle drawn at each texel (R32I, -1: none).
  gl::Texture triangle_ids;
  std::vector<float> uvs;  // the corner UVs it was drawn with
  int rings = -1;
  bool green_down = false;
  DilationPlan dilation;
  uint64_t last_used = 0;
};

struct UvMapRenderer::Gl {
  gl::Program program;
  gl::VertexArray vao;
  gl::StreamBuffer corners_buffer;
  // std430 bindings 1, 2 and 5 of shaders/wrinkle_field.glsl and its two
  // buffer textures (no levels: nothing is tessellated).
  gl::StreamBuffer triangle_ranges, ranges, range_bounds;
  gl::TexelBuffer points, frames;
  gl::Framebuffer framebuffer;
  gl::Texture normal_color, height_color;  // RGBA8, R16
  // The GPU's paths (a hardware GPU, or TargetWork::kCompute): the reached
  // triangles' texels shaded by uv_map_shade.comp over the base's triangle
  // ids, whole triangles, no pieces, and ReadMaps through `read_buffer`;
  // else rasterised pieces, read straight into the maps' memory (on
  // llvmpipe the buffer is one more copy).
  bool gpu_paths = false;
  gl::Program shade_program, id_program;
  gl::Framebuffer id_framebuffer;
  GLint shade_reach = -1, shade_height_range = -1, shade_green = -1,
        shade_size = -1;
  // The flat bases kept (PrepareBase), at most kMaxBases, for this size; the
  // one the frame in work uses.
  std::vector<std::unique_ptr<UvMapBase>> bases;
  UvMapBase* base = nullptr;
  uint64_t renders = 0;  // for the least recently used base
  // The base the targets hold, but for `drawn_boxes` drawn over it since it
  // was copied in; null: anything else (copy it all).
  const UvMapBase* held_base = nullptr;
  std::vector<TexelBox> drawn_boxes;
  std::vector<uint8_t> dirty_tiles;  // RestoreBase's scratch
  // The pieces of reached triangles that wrinkles reach (uv_map_pieces.h).
  gl::StreamBuffer piece_corners, piece_lists, piece_ranges, piece_bounds;
  // Binding 3: the whole triangles' corners, which the shader computes each
  // texel's inputs from (shaders/uv_map.frag).
  gl::StreamBuffer triangle_corners;
  UvMapPieces pieces;
  ReachedPieceFinder piece_finder;
  // The pieces of triangles from `second_run` on, found on `helper`.
  size_t second_run = 0;
  UvMapPieces second_pieces;
  ReachedPieceFinder second_finder;
  int size = 0;
  GLint reach = -1, height_range = -1, green = -1, size_uniform = -1;
  gl::Buffer read_buffer;
  size_t read_buffer_bytes = 0;
  SmoothNormals normals;
  WrinkleBuffers wrinkle_data;
  std::vector<float> tangents, corners;
  TangentScratch tangent_scratch;
  std::vector<int32_t> welded;
  // Takes the corners' normals and tangents and half the pieces: the CPU work
  // before the draw, which llvmpipe's rasterising threads idle through. Last,
  // so it joins before what its jobs touch is destroyed.
  HelperThread helper;
};

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_UV_MAP_RENDERER_STATE_H_
