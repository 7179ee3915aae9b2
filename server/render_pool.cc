#include "server/render_pool.h"

#include <malloc.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/helper_thread.h"
#include "common/status_macros.h"
#include "image/image_encoding.h"
#include "renderer/gpu_context.h"
#include "renderer/uv_map_renderer.h"

namespace crease::server {
namespace {

// Images larger than this (1080p; the framebuffers are ~40 bytes a pixel with
// 4x MSAA, depth and the resolve) are drawn in framebuffers made for them and
// freed right after, with the heap's free pages given back: one 4096x4096
// request used to keep ~600 MB per render thread until a smaller one came.
constexpr int64_t kKeptTargetPixels = 1920 * 1080;

}  // namespace

absl::StatusOr<std::unique_ptr<RenderPool>> RenderPool::Create(int threads) {
  if (threads < 1) return absl::InvalidArgumentError("render threads < 1");
  std::unique_ptr<RenderPool> pool(new RenderPool());
  for (int i = 0; i < threads; ++i) {
    pool->threads_.emplace_back([p = pool.get(), i] { p->Run(i); });
  }
  absl::Status startup;
  {
    absl::MutexLock lock(&pool->mu_);
    RenderPool* p = pool.get();
    pool->mu_.Await(absl::Condition(
        +[](RenderPool* p) ABSL_EXCLUSIVE_LOCKS_REQUIRED(p->mu_) {
          return p->ready_ == static_cast<int>(p->threads_.size());
        },
        p));
    startup = pool->startup_;
  }
  if (!startup.ok()) return startup;  // the destructor joins the threads
  return pool;
}

RenderPool::~RenderPool() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  for (std::thread& t : threads_) t.join();
}

void RenderPool::Submit(RenderJob job,
                        absl::AnyInvocable<void(RenderOutcome) &&> done) {
  absl::MutexLock lock(&mu_);
  queue_.push_back({std::move(job), std::move(done), Stopwatch()});
}

struct RenderPool::ThreadRenderers {
  renderer::GpuContext* gpu = nullptr;
  renderer::FrameRenderer* frame = nullptr;
  // Made on the first job that asks for UV maps: a paths-and-images server
  // never compiles its shaders.
  std::unique_ptr<renderer::UvMapRenderer> uv_maps;
  renderer::UvMaps uv_scratch;
  // Encodes the normal map's PNG while this thread encodes the height map's:
  // made on the first job that asks for PNG maps.
  std::unique_ptr<HelperThread> encoder;
};

namespace {

// The maps encoded as the wire carries them. PNGs: the normal map (two
// thirds of the bytes) on `helper`, the height map here.
absl::StatusOr<EncodedUvMaps> EncodeUvMaps(const renderer::UvMaps& maps,
                                           bool raw, HelperThread* helper) {
  EncodedUvMaps out;
  out.size = maps.size;
  out.height_range = maps.height_range;
  if (raw) {
    out.normal_map.assign(maps.normal.pixels.begin(), maps.normal.pixels.end());
    out.height_map.resize(2 * maps.height.size());
    for (size_t i = 0; i < maps.height.size(); ++i) {
      out.height_map[2 * i] = static_cast<char>(maps.height[i] & 0xff);
      out.height_map[2 * i + 1] = static_cast<char>(maps.height[i] >> 8);
    }
    return out;
  }
  absl::StatusOr<std::string> normal;
  absl::StatusOr<std::string> height;
  {
    HelperJob normal_job(helper, [&maps, &normal] {
      normal = image::EncodePng(maps.normal, 1, image::PngFilter::kSub);
    });
    height = image::EncodePngGray16(maps.size, maps.size, maps.height, 1,
                                    image::PngFilter::kSub);
  }  // waits for the normal map
  CREASE_ASSIGN_OR_RETURN(out.normal_map, std::move(normal));
  CREASE_ASSIGN_OR_RETURN(out.height_map, std::move(height));
  return out;
}

}  // namespace

void RenderPool::RenderOne(Queued& item, ThreadRenderers& renderers,
                           RenderOutcome* outcome) {
  const RenderJob& job = item.job;
  Stopwatch stage;
  if (job.screen) {
    absl::StatusOr<image::RgbaImage> image =
        job.pattern
            ? renderers.frame->RenderPattern(job.mesh, *job.pattern,
                                             job.options)
            : renderers.frame->Render(job.mesh, job.wrinkles, job.options);
    outcome->render_ms = stage.Lap();
    if (!image.ok()) {
      outcome->encoded = image.status();
    } else {
      outcome->encoded = job.encoding == ImageEncoding::kPng
                             ? image::EncodePng(*image)
                             : image::EncodeJpeg(*image, job.jpeg_quality);
      outcome->encode_ms = stage.Lap();
    }
  }
  if (!job.uv_maps) return;
  if (renderers.uv_maps == nullptr) {
    absl::StatusOr<std::unique_ptr<renderer::UvMapRenderer>> made =
        renderer::UvMapRenderer::Create(renderers.gpu);
    if (!made.ok()) {
      outcome->uv_maps = made.status();
      return;
    }
    renderers.uv_maps = *std::move(made);
  }
  if (!job.uv_maps_raw && renderers.encoder == nullptr) {
    renderers.encoder = std::make_unique<HelperThread>();
  }
  absl::Status drawn = renderers.uv_maps->Render(
      job.mesh, job.wrinkles, *job.uv_maps, &renderers.uv_scratch);
  outcome->uv_maps = drawn.ok()
                         ? EncodeUvMaps(renderers.uv_scratch, job.uv_maps_raw,
                                        renderers.encoder.get())
                         : absl::StatusOr<EncodedUvMaps>(drawn);
  outcome->uv_maps_ms = stage.Lap();
}

void RenderPool::Run(int index) {
  // The context is current on this thread only; it and the renderers live
  // and die here.
  absl::StatusOr<std::unique_ptr<renderer::GpuContext>> gpu =
      renderer::GpuContext::Create();
  absl::StatusOr<std::unique_ptr<renderer::FrameRenderer>> frame_renderer =
      gpu.ok() ? renderer::FrameRenderer::Create(gpu->get())
               : absl::StatusOr<std::unique_ptr<renderer::FrameRenderer>>(
                     gpu.status());
  {
    absl::MutexLock lock(&mu_);
    if (!frame_renderer.ok()) {
      startup_.Update(frame_renderer.status());
    } else if (index == 0) {
      // Which EGL platform was found tells an operator whether the GPU is in
      // use (device) or software rendering (surfaceless).
      renderer_name_ = absl::StrCat((*gpu)->info().renderer, " via EGL ",
                                    (*gpu)->info().platform, " platform");
    }
    ++ready_;
    if (!frame_renderer.ok()) return;
  }
  ThreadRenderers renderers;
  renderers.gpu = gpu->get();
  renderers.frame = frame_renderer->get();
  while (true) {
    Queued item;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(
          +[](RenderPool* p) ABSL_EXCLUSIVE_LOCKS_REQUIRED(p->mu_) {
            return p->stopping_ || !p->queue_.empty();
          },
          this));
      if (queue_.empty()) break;
      item = std::move(queue_.front());
      queue_.pop_front();
    }
    RenderOutcome outcome;
    outcome.queue_ms = item.queued.Lap();
    if (item.job.abandoned != nullptr && item.job.abandoned->load()) {
      outcome.encoded = absl::CancelledError("the call was cancelled");
      std::move(item.done)(std::move(outcome));
      continue;
    }
    const bool large =
        item.job.screen &&
        static_cast<int64_t>(item.job.options.width) * item.job.options.height >
            kKeptTargetPixels;
    RenderOne(item, renderers, &outcome);
    std::move(item.done)(std::move(outcome));
    if (large) {
      (void)renderers.frame->ReleaseTarget();  // an error: kept, no harm
      malloc_trim(0);
    }
  }
  renderers.uv_maps.reset();
  frame_renderer->reset();  // GL objects go before their context
  gpu->reset();
}

}  // namespace crease::server
