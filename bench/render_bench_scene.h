#ifndef CREASE_BENCH_RENDER_BENCH_SCENE_H_
#define CREASE_BENCH_RENDER_BENCH_SCENE_H_

// What render_bench's files share: the GPU context and the bundled scenes,
// each stopped at its most wrinkled frame.

#include <memory>
#include <optional>
#include <string>

#include "renderer/frame_data.h"
#include "renderer/frame_renderer.h"
#include "renderer/gpu_context.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/sca2015/session.h"

namespace crease::renderer {

struct Scene {
  std::unique_ptr<FrameRenderer> renderer;
  io::Animation animation;
  std::unique_ptr<Session> session;
  int frame = 0;
  FrameWrinkles wrinkles;  // the session's at `frame`

  // As the server gives it: the closure found once (ClosedAndConsistent).
  RenderMesh mesh() const {
    RenderMesh mesh{animation.frames.Sample(frame), animation.mesh.triangles,
                    session->topology().weld_map()};
    if (!closed) {
      std::vector<uint64_t> edges;
      closed = ClosedAndConsistent(mesh.triangles, mesh.welded, &edges);
    }
    mesh.closed_and_consistent = closed;
    return mesh;
  }
  mutable std::optional<bool> closed;
};

// One context for the whole program.
GpuContext& Gpu();

// A bundled animation with default Session parameters (but L_min if
// min_width > 0), stopped at the frame with the most wrinkles among its first
// 60.
Scene& SceneOf(const std::string& name, double min_width = 0);

}  // namespace crease::renderer

#endif  // CREASE_BENCH_RENDER_BENCH_SCENE_H_
