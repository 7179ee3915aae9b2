#ifndef CREASE_RENDERER_FRAME_RENDERER_H_
#define CREASE_RENDERER_FRAME_RENDERER_H_

#include <array>
#include <memory>
#include <optional>
#include <variant>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "image/camera.h"
#include "image/rgba_image.h"
#include "renderer/frame_data.h"
#include "renderer/gpu_context.h"
#include "renderer/pattern_data.h"
#include "renderer/pixel_readback.h"
#include "wrinkle/data/frame_wrinkles.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::renderer {
namespace gl {
struct PixelBox;    // gl/offscreen_target.h
struct SceneView;   // gl/scene_lighting.h
class PatternPass;  // gl/pattern_pass.h
}  // namespace gl

enum class FaceCulling { kAuto, kNone, kBack };

struct RenderOptions {
  int width = 640;   // 1..4096
  int height = 480;  // 1..4096
  int samples = 4;   // MSAA samples per pixel (1: none)
  std::array<float, 4> background = {1.0f, 1.0f, 1.0f, 1.0f};
  std::array<float, 3> base_color = {0.55f, 0.62f, 0.75f};
  // Unset: framed automatically on the mesh's bounds (see AutoFrame).
  std::optional<image::Camera> camera;
  // Draw the wrinkles given to Render (tessellated, displaced, per-pixel
  // normals).
  bool wrinkles = true;
  // Let the wrinkles wide enough on screen displace the surface (see
  // min_edge_pixels). false: every wrinkle is drawn by its per-pixel normals
  // (and flank occlusion) alone, on the undisplaced surface, as a normal map
  // on the coarse mesh would draw it: the reference that map is held to.
  bool displacement = true;
  // Which triangles to skip. kAuto culls the faces turned away from the
  // camera when the mesh is closed and consistently wound (a character's
  // body; welded by position, so soups and UV seams count), and none for open
  // cloth, which is seen from both sides. kBack assumes counter-clockwise
  // fronts. The camera is assumed outside closed meshes.
  FaceCulling culling = FaceCulling::kAuto;
  // Tessellated edges are kept at least this many pixels long on screen: finer
  // detail comes from the per-pixel normals. It also sets which wrinkles
  // displace the surface: those at least 4 min_edge_pixels wide somewhere
  // on screen (32 px by default), which the tessellation samples with four
  // edges or more across; narrower ones are drawn by (filtered) normals
  // alone. 8, not 4 as before: auto-framing now fills the image, so at 640 x
  // 480 the trouser knee's wrinkles reach 10.7 px and tessellating them made
  // a wrinkled frame 3.3x plain (41 ms); at 8 px it is 1.1x, and the knee
  // with L_min 1.2 cm went from 107 to 32 ms (docs/benchmarks.md).
  float min_edge_pixels = 8.0f;
  // Level of detail: a wrinkle fades in (its height, so its relief and its
  // normal bend, times a smoothstep) as its width on screen grows from a
  // quarter of this to this; one no wider than a quarter anywhere is not drawn,
  // which saves its per-pixel lookups in small or distant views, without a
  // pop. Above it the fragment shader filters the normals by the pixel's
  // footprint, so narrow wrinkles do not alias (docs/algorithm.md).
  float min_wrinkle_pixels = 1.0f;
  // 4: a pixel some wrinkle reaches is looked up on its 2x2 sub-pixels, each
  // filtered over a quarter of the footprint; anything else: once, over the
  // whole footprint. The sub-pixels halve the wrinkles' share of the
  // aliasing error (Fox at 480 x 360: 0.018 -> 0.009 against plain's 0.267,
  // images alike at 3x zoom) for about a third of a GPU frame (an H200 drew
  // the Fox at 640 x 480 1.56x as fast with one lookup): docs/benchmarks.md.
  int wrinkle_subpixels = 1;
  // Patches per draw call; 0 picks the largest that keeps each draw under
  // 65,535 tessellated vertices (llvmpipe renders garbage past that in one
  // draw).
  int max_patches_per_draw = 0;
};

// What a frame draws for its session's wrinkle model, one descriptor per
// model (docs/architecture.md, "Wrinkle models"): SCA 2015's traced wrinkles
// (Render), the wrinkle-map model's pattern and amplitudes (RenderPattern),
// or the buckling model's fine mesh, drawn in place of the coarse one
// (Render with no wrinkles: the same light and anti-aliasing). A new model
// adds its descriptor here and its pass beside PatternPass.
struct TracedWrinkles {
  const FrameWrinkles* frame = nullptr;  // null: none
};
struct MeshWrinkles {
  RenderMesh mesh;
};
using WrinkleDraw = std::variant<TracedWrinkles, PatternWrinkles, MeshWrinkles>;

// How a renderer clears and resolves its multisampled targets: with the GL's
// own clear and blit, or with compute passes (renderer/gl/target_passes.h:
// colour cleared and resolved on the compute units, depth cleared only where
// the frame can draw, resolved rows top to bottom). On an H200 the GL's clear
// and resolve took 184 of a 640x480 frame's 272 us of GPU time
// (docs/benchmarks.md). kAuto: compute on a hardware GPU, the GL's own on a
// software rasteriser, where the compute passes are the slower.
enum class TargetWork { kAuto, kFixedFunction, kCompute };

// What one Render drew, for tests and benchmarks.
struct RenderStats {
  int drawn_wrinkles = 0;         // shaded (wide enough on screen)
  int displaced_wrinkles = 0;     // of those, displacing the surface
  int tessellated_triangles = 0;  // input triangles at a level above 1
  int draw_calls = 0;
  // RenderPattern: 1 when this frame built and uploaded its pattern's
  // texture, 0 when the one it found on the GPU was the frame's.
  int pattern_uploads = 0;
};

// The CPU half of a wrinkled frame (FrameRenderer::Prepare): its welding
// when the mesh has none, view, culling, smooth normals and wrinkle buffers.
// Made on any thread, drawn on the GL thread; keeps its storage from frame
// to frame, so a pool of them makes no allocation in steady state.
class PreparedFrame {
 public:
  PreparedFrame();
  ~PreparedFrame();
  PreparedFrame(const PreparedFrame&) = delete;
  PreparedFrame& operator=(const PreparedFrame&) = delete;

 private:
  friend class FrameRenderer;
  struct Data;  // frame_renderer.cc
  std::unique_ptr<Data> data_;
};

// Draws animated meshes into images, headless. The mesh goes through the
// tessellation stages (level 1 where there are no wrinkles). Owns its GL
// objects; use it on the thread where its GpuContext is current.
class FrameRenderer {
 public:
  // `buffer_sets`: how many frames' inputs are kept apart on the GPU (more
  // than the frames a caller keeps in flight: see FrameBufferSet).
  static absl::StatusOr<std::unique_ptr<FrameRenderer>> Create(
      GpuContext* gpu, int buffer_sets = kDefaultBufferSets,
      TargetWork target_work = TargetWork::kAuto);
  static constexpr int kDefaultBufferSets = 2;
  // The tessellation level frames are prepared for: GL 4's minimum of
  // GL_MAX_TESS_GEN_LEVEL, so any context draws any prepared frame.
  static constexpr int kMaxTessellationLevel = 64;
  ~FrameRenderer();

  // Draws `mesh` with `wrinkles` (may be null: none), the wrinkles of this
  // very frame on this mesh (WrinkleTracker::ExportFrame).
  // InvalidArgument for a wrong length, non-finite values, indices or welded
  // ids out of range, wrinkles that fail ValidateFrameWrinkles, or an
  // unsupported size. `stats` (may be null) receives what was drawn.
  absl::StatusOr<image::RgbaImage> Render(const RenderMesh& mesh,
                                          const FrameWrinkles* wrinkles,
                                          const RenderOptions& options,
                                          RenderStats* stats = nullptr);

  // Draws `mesh` (corner_uvs needed) with the amplitude-modulated wrinkle-map
  // model (AmplitudeModel's amplitudes of this frame on this mesh) instead of
  // SCA 2015's wrinkles: bump-mapped, or displaced with wrinkles.displace
  // (docs/algorithm.md, "Drawing the wrinkle-map model"). options.wrinkles and
  // options.displacement are not used. InvalidArgument for a bad mesh (as
  // Render), missing or non-finite corner UVs, or wrinkles that fail
  // ValidatePatternWrinkles. `stats` (may be null) receives the tessellated
  // triangles and draw calls.
  absl::StatusOr<image::RgbaImage> RenderPattern(
      const RenderMesh& mesh, const PatternWrinkles& wrinkles,
      const RenderOptions& options, RenderStats* stats = nullptr);

  // Render and RenderPattern, with the read-back left travelling: the pixels
  // go into a slot of `readback` (readback->Finish(ticket) leases them, rows
  // in the order the target resolves them: ReadbackPixels::rows), so the
  // caller can draw the next frame meanwhile. Errors as
  // Render's, and Start's.
  absl::StatusOr<ReadbackTicket> RenderToReadback(const RenderMesh& mesh,
                                                  const FrameWrinkles* wrinkles,
                                                  const RenderOptions& options,
                                                  PixelReadback* readback,
                                                  RenderStats* stats = nullptr);
  absl::StatusOr<ReadbackTicket> RenderPatternToReadback(
      const RenderMesh& mesh, const PatternWrinkles& wrinkles,
      const RenderOptions& options, PixelReadback* readback,
      RenderStats* stats = nullptr);

  // Render in two halves, so the CPU's can run off the GL thread. Prepare
  // touches no GL and no renderer (any thread; InvalidArgument as Render's
  // for the mesh and wrinkles, which are read only during the call);
  // DrawToReadback draws a prepared frame as RenderToReadback does (errors:
  // an unsupported size, and Start's). `frame` may be refilled once this
  // returns.
  static absl::Status Prepare(const RenderMesh& mesh,
                              const FrameWrinkles* wrinkles,
                              const RenderOptions& options,
                              PreparedFrame* frame);
  absl::StatusOr<ReadbackTicket> DrawToReadback(const PreparedFrame& frame,
                                                PixelReadback* readback,
                                                RenderStats* stats = nullptr);
  // Draws `frames` (at least one; all of one width, height and sample
  // count, their total height at most gl::kMaxImageSide) stacked into one
  // target, frame i in rows [i * height, (i + 1) * height) counted from the
  // bottom, and starts reading them all back in one go: one clear, one
  // resolve and one read-back for the batch instead of one each, the GPU
  // drawing the frames back to back. Split the arrived pixels with
  // ReadbackPixels::Split. InvalidArgument for frames of different sizes or
  // a batch too tall; Start's errors.
  absl::StatusOr<ReadbackTicket> DrawBatchToReadback(
      absl::Span<const PreparedFrame* const> frames, PixelReadback* readback);
  // The largest batch of `height`-row frames DrawBatchToReadback takes.
  static int MaxBatchFrames(int height);
  // Draws a prepared frame and leaves it in the renderer's target, unread:
  // what the drawing alone costs (benchmarks).
  absl::Status Draw(const PreparedFrame& frame, RenderStats* stats = nullptr) {
    return DrawPrepared(frame, stats);
  }

  // The pixels a prepared frame can draw, {x0, y0, x1, y1} with rows
  // counted from the bottom (half-open, maybe past the image's edges): where
  // a target with compute passes clears the depth. Unset: anywhere.
  static std::optional<std::array<int, 4>> DrawnPixelsOf(
      const PreparedFrame& frame);
  // Whether this renderer's targets use the compute passes (TargetWork).
  bool uses_target_passes() const;

  // Frees the framebuffers kept for the last size (the next Render makes
  // them again): after an unusually large image, so that one request does
  // not keep hundreds of MB for the renderer's lifetime.
  absl::Status ReleaseTarget();

 private:
  struct Gl;
  explicit FrameRenderer(GpuContext* gpu);
  // Makes the context current and binds and clears the target for
  // `options`, with the depth test on: the start of every draw. `depth_box`
  // (may be null: all): where the frame can draw.
  absl::Status BindTarget(const RenderOptions& options,
                          const gl::PixelBox* depth_box = nullptr);
  // Everything of Render and RenderPattern but the read-back: the frame is
  // left in the target.
  absl::Status DrawWrinkled(const RenderMesh& mesh,
                            const FrameWrinkles* wrinkles,
                            const RenderOptions& options, RenderStats* stats);
  absl::Status DrawPrepared(const PreparedFrame& frame, RenderStats* stats);
  // DrawPrepared's work after the target is bound: into the current viewport.
  absl::Status DrawIntoBoundTarget(const PreparedFrame& frame,
                                   RenderStats* stats);
  absl::Status DrawPattern(const RenderMesh& mesh,
                           const PatternWrinkles& wrinkles,
                           const RenderOptions& options, RenderStats* stats);
  // The steps of DrawPrepared, in order (Upload takes the next buffer set).
  absl::Status Upload(const PreparedFrame& frame);
  void SetUniforms(const gl::SceneView& view, const RenderOptions& options,
                   bool draw_wrinkles);
  int DrawPatches(int num_patches, int max_level, const RenderOptions& options);

  GpuContext* gpu_;
  std::unique_ptr<Gl> gl_;
  std::unique_ptr<gl::PatternPass> pattern_;  // made on first RenderPattern
};

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_FRAME_RENDERER_H_
