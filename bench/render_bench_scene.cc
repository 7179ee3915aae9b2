#include "bench/render_bench_scene.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_format.h"
#include "tests/testing/bundled_path.h"

namespace crease::renderer {

GpuContext& Gpu() {
  static GpuContext* gpu = GpuContext::Create()->release();
  return *gpu;
}

Scene& SceneOf(const std::string& name, double min_width) {
  static auto* scenes = new std::map<std::string, std::unique_ptr<Scene>>();
  std::unique_ptr<Scene>& scene =
      (*scenes)[absl::StrFormat("%s@%g", name, min_width)];
  if (scene != nullptr) return *scene;
  scene = std::make_unique<Scene>();
  scene->renderer = *FrameRenderer::Create(&Gpu());
  scene->animation = *io::ReadAnimation(testing::BundledPath(name + ".obj"),
                                        testing::BundledPath(name + ".pc2"));
  const int frames = std::min(60, scene->animation.num_frames());
  size_t most = 0;
  for (int pass = 0; pass < 2; ++pass) {
    SessionParams params;
    if (min_width > 0) params.wrinkles.min_width = min_width;
    scene->session = *Session::Create(scene->animation.mesh.triangles,
                                      scene->animation.mesh.positions, params);
    for (int f = 0; f < frames; ++f) {
      (void)scene->session->ProcessFrame(scene->animation.frames.Sample(f));
      const size_t count = scene->session->tracker().wrinkles().size();
      if (pass == 0 && count > most) {
        most = count;
        scene->frame = f;
      }
      if (pass == 1 && f == scene->frame) break;
    }
  }
  scene->session->tracker().ExportFrame(&scene->wrinkles);
  return *scene;
}

}  // namespace crease::renderer
