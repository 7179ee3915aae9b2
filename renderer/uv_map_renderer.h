#ifndef CREASE_RENDERER_UV_MAP_RENDERER_H_
#define CREASE_RENDERER_UV_MAP_RENDERER_H_

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "renderer/frame_data.h"
#include "renderer/frame_renderer.h"
#include "renderer/gpu_context.h"
#include "renderer/uv_maps.h"
#include "wrinkle/data/frame_wrinkles.h"

namespace crease::renderer {

// Draws one frame's wrinkles into the mesh's UV space, headless: a
// tangent-space normal map and a height map an engine's stock material
// applies to the coarse mesh (docs/algorithm.md, "UV-space maps"). Each
// triangle is rasterised at its corner UVs; per texel the wrinkle lookup of
// the screen renderer (shaders/wrinkle_field.glsl) gives the normal, filtered
// over the texel's footprint, and the offset the tessellation would
// displace by. Owns its GL objects and one helper thread (CPU work only);
// use it on the thread where its GpuContext is current.
// Where the calling thread's time in the last UvMapRenderer::Render went,
// in microseconds: checks, the corners and the flat base restored; the
// wrinkle lists made and uploaded; waiting for the corners (made on the
// helper meanwhile); the reached pieces found; their uploads and draw issued;
// the maps read back (waiting for the GPU); the dilation refilled around the
// pieces.
struct UvMapPhaseTimes {
  double setup_us = 0, lists_us = 0, corners_wait_us = 0, pieces_us = 0,
         draw_us = 0, read_us = 0, refill_us = 0;
};

class UvMapRenderer {
 public:
  // `target_work`: kAuto reads the maps back through a pixel buffer on a
  // hardware GPU and straight into UvMaps' memory on a software rasteriser;
  // kCompute and kFixedFunction force one or the other (tests).
  static absl::StatusOr<std::unique_ptr<UvMapRenderer>> Create(
      GpuContext* gpu, TargetWork target_work = TargetWork::kAuto);
  ~UvMapRenderer();

  // InvalidArgument for a mesh without valid corner_uvs, a bad mesh or
  // welding (as FrameRenderer::Render), wrinkles that fail
  // ValidateFrameWrinkles, or a size outside 1..4096. `wrinkles` may be null
  // (flat maps). `out`'s storage is reused from call to call.
  absl::Status Render(const RenderMesh& mesh, const FrameWrinkles* wrinkles,
                      const UvMapOptions& options, UvMaps* out);
  // The last successful Render's.
  const UvMapPhaseTimes& last_phase_times() const { return times_; }

 private:
  struct Gl;
  struct UvMapBase;
  explicit UvMapRenderer(GpuContext* gpu);
  absl::Status PrepareTarget(int size);
  // The corners' smooth normals and tangent frames into the corner
  // attributes (CPU only: runs on the helper thread).
  void MakeCorners(const RenderMesh& mesh);
  absl::StatusOr<float> UploadWrinkles(const RenderMesh& mesh,
                                       const FrameWrinkles* wrinkles, int size);
  // The base made for this frame's UVs, rings and green sign; null if none.
  UvMapBase* FindBase(const RenderMesh& mesh,
                      const UvMapOptions& options) const;
  void PrepareBase(UvMapBase* found, const RenderMesh& mesh,
                   const UvMapOptions& options, UvMaps* scratch);
  // Copies the base over the boxes the last frame drew on it (the targets
  // hold the rest already).
  void RestoreBase(int size);
  void MakeBase(const RenderMesh& mesh, const UvMapOptions& options,
                UvMaps* scratch);
  // reach: the lookup's reach in model units (UploadWrinkles').
  void FindReachedPieces(const UvMapOptions& options, float reach);
  void DrawReached();
  // Binds the maps' targets and program with the frame's uniforms.
  void BindMapsProgram(const UvMapOptions& options, float height_range);
  // Both targets into `out`, rows top to bottom.
  void ReadMaps(int size, UvMaps* out);
  // Re-dilates `out` around the pieces DrawReached drew.
  void RefillAroundPieces(UvMaps* out);
  // Compute shading's counterparts (TargetWork): the base's triangle ids,
  // the reached triangles shaded, and the refill around them.
  void DrawTriangleIds(const RenderMesh& mesh, int size);
  void ShadeReached(const UvMapOptions& options, float reach,
                    float height_range);
  void RefillAroundReachedTriangles(UvMaps* out);
  // Appends to the drawn boxes each triangle's of `corners` (with `lists`:
  // those whose list is not empty).
  void AddUvBoxes(const std::vector<float>& corners,
                  const std::vector<std::array<int32_t, 4>>* lists, int texels);

  GpuContext* gpu_;
  std::unique_ptr<Gl> gl_;
  UvMapPhaseTimes times_;
};

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_UV_MAP_RENDERER_H_
