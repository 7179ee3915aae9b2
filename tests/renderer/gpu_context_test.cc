#include "renderer/gpu_context.h"

#include <epoxy/gl.h>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "renderer/gl/gl_objects.h"
#include "renderer/gl/offscreen_target.h"

namespace crease::renderer {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;

class GpuTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto gpu = GpuContext::Create();
    ASSERT_TRUE(gpu.ok()) << gpu.status();
    gpu_ = std::move(gpu).value().release();
  }
  static void TearDownTestSuite() {
    delete gpu_;
    gpu_ = nullptr;
  }
  static GpuContext* gpu_;
};
GpuContext* GpuTest::gpu_ = nullptr;

TEST_F(GpuTest, ReportsAnOpenGl45CoreContextWithTessellation) {
  const GpuInfo& info = gpu_->info();
  EXPECT_THAT(info.platform, AnyOf("device", "surfaceless", "default"));
  EXPECT_FALSE(info.renderer.empty());
  EXPECT_THAT(info.version, AnyOf(HasSubstr("4.5"), HasSubstr("4.6")));
  EXPECT_GE(info.max_tessellation_level, 64);
  EXPECT_GE(info.max_texture_size, 4096);
  ASSERT_TRUE(gpu_->MakeCurrent().ok());
}

TEST_F(GpuTest, ClearReadsBackExactly) {
  for (int samples : {1, 4}) {
    auto target = gl::OffscreenTarget::Create(37, 21, samples);
    ASSERT_TRUE(target.ok()) << target.status();
    target->Bind();
    target->Clear({0.2f, 0.4f, 0.6f, 1.0f});
    const image::RgbaImage image = target->Read();
    ASSERT_EQ(image.width, 37);
    ASSERT_EQ(image.height, 21);
    for (int y = 0; y < image.height; ++y) {
      for (int x = 0; x < image.width; ++x) {
        ASSERT_EQ(image.At(x, y), (std::array<uint8_t, 4>{51, 102, 153, 255}))
            << x << "," << y << " samples " << samples;
      }
    }
  }
}

TEST_F(GpuTest, DrawsUprightImages) {
  // A triangle over the lower-left half of clip space: in the image (rows top
  // to bottom) the bottom-left corner is red and the top-right corner is
  // background.
  auto program = gl::LinkProgram(
      {{GL_VERTEX_SHADER, "triangle.vert",
        "#version 450 core\n"
        "const vec2 corners[3] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, "
        "1));\n"
        "void main() { gl_Position = vec4(corners[gl_VertexID], 0, 1); }\n"},
       {GL_FRAGMENT_SHADER, "red.frag",
        "#version 450 core\nout vec4 color;\nvoid main() { color = vec4(1, 0, "
        "0, 1); }\n"}});
  ASSERT_TRUE(program.ok()) << program.status();
  auto target = gl::OffscreenTarget::Create(64, 48, 4);
  ASSERT_TRUE(target.ok());
  gl::VertexArray vao = gl::MakeVertexArray();
  target->Bind();
  target->Clear({0, 0, 0, 1});
  glUseProgram(program->get());
  glBindVertexArray(vao.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  const image::RgbaImage image = target->Read();
  EXPECT_EQ(image.At(2, 45), (std::array<uint8_t, 4>{255, 0, 0, 255}));
  EXPECT_EQ(image.At(61, 2), (std::array<uint8_t, 4>{0, 0, 0, 255}));
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_F(GpuTest, RejectsBadSizesAndShaders) {
  EXPECT_EQ(gl::OffscreenTarget::Create(0, 10, 1).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(gl::OffscreenTarget::Create(4097, 10, 1).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(gl::OffscreenTarget::Create(10, 10, 1000).status().code(),
            absl::StatusCode::kInvalidArgument);
  const auto broken =
      gl::LinkProgram({{GL_FRAGMENT_SHADER, "broken.frag",
                        "#version 450 core\nvoid main() { nope; }\n"}});
  ASSERT_FALSE(broken.ok());
  EXPECT_THAT(broken.status().message(),
              HasSubstr("shader broken.frag does not compile"));
}

TEST(GpuContextTest, SoftwareOnlyWhenTheDevicePlatformIsDisabled) {
  GpuContextOptions options;
  options.allow_device_platform = false;
  auto gpu = GpuContext::Create(options);
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  EXPECT_THAT((*gpu)->info().platform, AnyOf("surfaceless", "default"));
}

}  // namespace
}  // namespace crease::renderer
