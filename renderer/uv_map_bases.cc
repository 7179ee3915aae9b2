// UvMapRenderer's flat bases (uv_map_renderer.h): the maps with no wrinkles
// for a UV layout, made once, kept for the sessions that share a render
// thread, and copied into the targets before each frame draws its wrinkles.

#include <algorithm>
#include <memory>

#include "renderer/uv_map_renderer.h"
#include "renderer/uv_map_renderer_state.h"

namespace crease::renderer {
namespace {

using uv_map_internal::kMaxBases;
using uv_map_internal::MakeTexture;

// Copies a rectangle of a base texture into a target of the same size and
// format.
void CopyBase(GLuint texture, GLuint target, int x, int y, int width,
              int height) {
  glCopyImageSubData(texture, GL_TEXTURE_2D, 0, x, y, 0, target, GL_TEXTURE_2D,
                     0, x, y, 0, width, height, 1);
}

}  // namespace

UvMapRenderer::UvMapBase* UvMapRenderer::FindBase(
    const RenderMesh& mesh, const UvMapOptions& options) const {
  for (const std::unique_ptr<UvMapBase>& base : gl_->bases) {
    if (base->rings == options.dilate_texels &&
        base->green_down == options.green_down &&
        std::equal(base->uvs.begin(), base->uvs.end(), mesh.corner_uvs.begin(),
                   mesh.corner_uvs.end())) {
      return base.get();
    }
  }
  return nullptr;
}

// Uses `found` (FindBase's), else makes a base for this frame's UVs, rings
// and green sign (replacing the least recently used past kMaxBases), and
// copies it into the targets.
void UvMapRenderer::PrepareBase(UvMapBase* found, const RenderMesh& mesh,
                                const UvMapOptions& options, UvMaps* scratch) {
  Gl& g = *gl_;
  g.base = found;
  if (g.base == nullptr) {
    if (g.bases.size() < kMaxBases) {
      g.bases.push_back(std::make_unique<UvMapBase>());
      g.bases.back()->normal = MakeTexture(GL_RGBA8, options.size);
      g.bases.back()->height = MakeTexture(GL_R16, options.size);
      g.base = g.bases.back().get();
    } else {
      g.base = std::min_element(g.bases.begin(), g.bases.end(),
                                [](const auto& a, const auto& b) {
                                  return a->last_used < b->last_used;
                                })
                   ->get();
    }
    MakeBase(mesh, options, scratch);
  }
  g.base->last_used = ++g.renders;
  if (g.held_base == g.base) {
    RestoreBase(options.size);
  } else {
    CopyBase(g.base->normal.get(), g.normal_color.get(), 0, 0, options.size,
             options.size);
    CopyBase(g.base->height.get(), g.height_color.get(), 0, 0, options.size,
             options.size);
    g.held_base = g.base;
  }
  g.drawn_boxes.clear();  // RefillAroundPieces lists this frame's
}

// The last frame's boxes, gathered into 32-texel tiles and copied a run of
// tiles at a time: a frame's pieces cover a tenth of a 1024² map's texels
// (their tiles 29 %), and the whole copy cost 0.8 ms (docs/benchmarks.md,
// "UV maps").
void UvMapRenderer::RestoreBase(int size) {
  constexpr int kTile = 32;
  Gl& g = *gl_;
  const int tiles = (size + kTile - 1) / kTile;
  MarkTiles(g.drawn_boxes, size, kTile, 0, &g.dirty_tiles);
  for (int ty = 0; ty < tiles; ++ty) {
    const uint8_t* row = g.dirty_tiles.data() + static_cast<size_t>(ty) * tiles;
    for (int tx = 0; tx < tiles;) {
      if (!row[tx]) {
        ++tx;
        continue;
      }
      const int run_begin = tx;
      while (tx < tiles && row[tx]) ++tx;
      const int x = run_begin * kTile, y = ty * kTile;
      const int width = std::min(tx * kTile, size) - x;
      const int height = std::min(kTile, size - y);
      CopyBase(g.base->normal.get(), g.normal_color.get(), x, y, width, height);
      CopyBase(g.base->height.get(), g.height_color.get(), x, y, width, height);
    }
  }
}

// Into g.base: every triangle drawn with empty wrinkle lists (the shader's
// flat path), read back into `scratch`, dilated on the CPU (which records the
// plan the frames re-dilate by) and uploaded.
void UvMapRenderer::MakeBase(const RenderMesh& mesh,
                             const UvMapOptions& options, UvMaps* scratch) {
  Gl& g = *gl_;
  UvMapBase& base = *g.base;
  const int size = options.size;
  g.held_base = nullptr;  // the targets get the undilated draw
  ClearWrinkleBuffers(mesh.triangles.size(), &g.wrinkle_data);
  g.triangle_ranges.UploadStorage(1, g.wrinkle_data.triangle_ranges);
  // Uncovered texels: a flat normal with alpha 0, the surface's height.
  const float flat[4] = {128 / 255.0f, 128 / 255.0f, 1, 0},
              zero[4] = {kHeightZeroFraction, 0, 0, 0};
  glClearNamedFramebufferfv(g.framebuffer.get(), GL_COLOR, 0, flat);
  glClearNamedFramebufferfv(g.framebuffer.get(), GL_COLOR, 1, zero);
  glDrawArrays(GL_TRIANGLES, 0,
               3 * static_cast<GLsizei>(mesh.triangles.size()));
  ReadMaps(size, scratch);
  base.dilation.Build(options.dilate_texels, scratch);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(base.normal.get(), 0, 0, 0, size, size, GL_RGBA,
                      GL_UNSIGNED_BYTE, scratch->normal.pixels.data());
  glTextureSubImage2D(base.height.get(), 0, 0, 0, size, size, GL_RED,
                      GL_UNSIGNED_SHORT, scratch->height.data());
  if (g.gpu_paths) DrawTriangleIds(mesh, size);
  base.uvs.assign(mesh.corner_uvs.begin(), mesh.corner_uvs.end());
  base.rings = options.dilate_texels;
  base.green_down = options.green_down;
}

// Into g.base->triangle_ids: each triangle's index over the texels it
// covers (-1 elsewhere), with the same rasterisation as the base's; leaves
// the maps' framebuffer and program bound, as MakeBase found them.
void UvMapRenderer::DrawTriangleIds(const RenderMesh& mesh, int size) {
  Gl& g = *gl_;
  UvMapBase& base = *g.base;
  if (base.triangle_ids.get() == 0) {
    base.triangle_ids = MakeTexture(GL_R32I, size);
    // Nearest: an integer texture with the default linear filters is
    // incomplete, and its fetches read 0.
    glTextureParameteri(base.triangle_ids.get(), GL_TEXTURE_MIN_FILTER,
                        GL_NEAREST);
    glTextureParameteri(base.triangle_ids.get(), GL_TEXTURE_MAG_FILTER,
                        GL_NEAREST);
  }
  const GLuint fb = g.id_framebuffer.get();
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT0, base.triangle_ids.get(),
                            0);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  const GLint none[4] = {-1, -1, -1, -1};
  glClearNamedFramebufferiv(fb, GL_COLOR, 0, none);
  glUseProgram(g.id_program.get());
  glDrawArrays(GL_TRIANGLES, 0,
               3 * static_cast<GLsizei>(mesh.triangles.size()));
  glBindFramebuffer(GL_FRAMEBUFFER, g.framebuffer.get());
  glUseProgram(g.program.get());
}

}  // namespace crease::renderer
