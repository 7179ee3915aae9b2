#ifndef CREASE_TESTS_SERVER_SERVED_PANTS_FIXTURE_H_
#define CREASE_TESTS_SERVER_SERVED_PANTS_FIXTURE_H_

#include <utility>

#include "gtest/gtest.h"
#include "image/camera.h"
#include "renderer/gpu_context.h"
#include "tests/server/service_fixture.h"
#include "tests/testing/bundled_data.h"
#include "wrinkle/io/animation.h"

namespace crease::server {

// For a suite that holds a server's images or maps to the library's own: a
// loopback server, the trouser knee with planar UVs, and an in-process
// `Renderer` (FrameRenderer, UvMapRenderer: anything with Create(GpuContext*))
// kept for the whole suite, since a context torn down mid-suite takes the
// process's EGL display, and so the server's render contexts, with it.
template <typename Renderer>
class ServedPantsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    running_ = new RunningServer(RunningServer::Start(LoopbackOptions()));
    pants_ = new io::Animation(testing::LoadBundled("cloth_pants_knee"));
    pants_->mesh.corner_uvs = PlanarUvs(pants_->mesh);
    auto gpu = renderer::GpuContext::Create();
    ASSERT_TRUE(gpu.ok()) << gpu.status();
    gpu_ = std::move(gpu).value().release();
    auto made = Renderer::Create(gpu_);
    ASSERT_TRUE(made.ok()) << made.status();
    renderer_ = std::move(made).value().release();
  }
  static void TearDownTestSuite() {
    delete running_;
    delete pants_;
    delete renderer_;
    delete gpu_;
    running_ = nullptr;
    pants_ = nullptr;
    renderer_ = nullptr;
    gpu_ = nullptr;
  }

  // Asks `start` for PNG images of width x height seen from the camera
  // auto-framed on the knee's first frame, which it returns (so a test can
  // draw the same frames in process).
  static image::Camera AskForPngImages(v1::Start* start, int width,
                                       int height) {
    v1::ImageRequest* image = start->mutable_outputs()->mutable_image();
    image->set_format(v1::IMAGE_FORMAT_PNG);
    image->set_width(static_cast<uint32_t>(width));
    image->set_height(static_cast<uint32_t>(height));
    const image::Camera camera = image::AutoFrame(
        pants_->frames.Sample(0), static_cast<float>(width) / height);
    const auto vec = [](const std::array<float, 3>& from, v1::Vec3* to) {
      to->set_x(from[0]);
      to->set_y(from[1]);
      to->set_z(from[2]);
    };
    vec(camera.eye, image->mutable_camera()->mutable_eye());
    vec(camera.target, image->mutable_camera()->mutable_target());
    vec(camera.up, image->mutable_camera()->mutable_up());
    image->mutable_camera()->set_vertical_fov_degrees(
        camera.vertical_fov_degrees);
    return camera;
  }

  static inline RunningServer* running_ = nullptr;
  static inline io::Animation* pants_ = nullptr;
  static inline renderer::GpuContext* gpu_ = nullptr;
  static inline Renderer* renderer_ = nullptr;
};

}  // namespace crease::server

#endif  // CREASE_TESTS_SERVER_SERVED_PANTS_FIXTURE_H_
