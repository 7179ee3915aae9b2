#include "renderer/gpu_context.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace crease::renderer {

struct GpuContext::Egl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
};

namespace {

std::string EglError(const char* what) {
  return absl::StrFormat("%s failed (EGL error 0x%04x)", what, eglGetError());
}

bool HasExtension(const char* list, const char* name) {
  if (list == nullptr) return false;
  const size_t n = std::strlen(name);
  for (const char* p = std::strstr(list, name); p != nullptr;
       p = std::strstr(p + 1, name)) {
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
      return true;
  }
  return false;
}

void GLAPIENTRY PrintDebugMessage(GLenum, GLenum type, GLuint, GLenum severity,
                                  GLsizei, const GLchar* message, const void*) {
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
  std::fprintf(stderr, "GL debug (type 0x%x, severity 0x%x): %s\n", type,
               severity, message);
}

// Initialises `display` and makes a 4.5 core context on it current; on failure
// terminates the display and says why.
absl::StatusOr<EGLContext> MakeContext(EGLDisplay display, bool debug) {
  if (display == EGL_NO_DISPLAY) return absl::UnavailableError("no display");
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor)) {
    return absl::UnavailableError(EglError("eglInitialize"));
  }
  auto fail = [&](std::string why) {
    eglTerminate(display);
    return absl::UnavailableError(why);
  };
  if (!eglBindAPI(EGL_OPENGL_API)) return fail(EglError("eglBindAPI(OpenGL)"));
  const EGLint config_attributes[] = {EGL_SURFACE_TYPE,
                                      EGL_PBUFFER_BIT,
                                      EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT,
                                      EGL_RED_SIZE,
                                      8,
                                      EGL_GREEN_SIZE,
                                      8,
                                      EGL_BLUE_SIZE,
                                      8,
                                      EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attributes, &config, 1, &count) ||
      count == 0) {
    return fail(EglError("eglChooseConfig(8-bit RGB, OpenGL)"));
  }
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                       4,
                                       EGL_CONTEXT_MINOR_VERSION,
                                       5,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                       EGL_CONTEXT_OPENGL_DEBUG,
                                       debug ? EGL_TRUE : EGL_FALSE,
                                       EGL_NONE};
  EGLContext context =
      eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  if (context == EGL_NO_CONTEXT)
    return fail(EglError("eglCreateContext(OpenGL 4.5 core)"));
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    eglDestroyContext(display, context);
    return fail(EglError("eglMakeCurrent(surfaceless)"));
  }
  if (epoxy_gl_version() < 45) {
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display, context);
    return fail(absl::StrFormat("OpenGL %d.%d < 4.5", epoxy_gl_version() / 10,
                                epoxy_gl_version() % 10));
  }
  return context;
}

// Looks for an EGL platform that gives an OpenGL 4.5 core context: keeps the
// first context made (current) and why each display tried gave none.
class PlatformSearch {
 public:
  // `client_extensions`: EGL's, queried without a display.
  PlatformSearch(bool debug, const char* client_extensions)
      : debug_(debug), client_extensions_(client_extensions) {}

  bool found() const { return platform_ != nullptr; }
  const char* platform() const { return platform_; }
  EGLDisplay display() const { return display_; }
  EGLContext context() const { return context_; }
  const std::vector<std::string>& tried() const { return tried_; }

  // Makes a context on `display`; says why not in tried() if it cannot.
  bool Attempt(const char* platform, EGLDisplay display,
               const std::string& label) {
    absl::StatusOr<EGLContext> context = MakeContext(display, debug_);
    if (!context.ok()) {
      tried_.push_back(absl::StrCat(label, ": ", context.status().message()));
      return false;
    }
    display_ = display;
    context_ = *context;
    platform_ = platform;
    return true;
  }

  // 1. EGL device platform: real GPUs without a display server.
  void TryDevicePlatform(bool allowed) {
    if (!allowed) {
      tried_.push_back("device platform: disabled by the caller");
      return;
    }
    if (!HasExtension(client_extensions_, "EGL_EXT_platform_device") ||
        !HasExtension(client_extensions_, "EGL_EXT_device_enumeration")) {
      tried_.push_back(
          "device platform: EGL_EXT_platform_device not available");
      return;
    }
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (!eglQueryDevicesEXT(16, devices, &count) || count == 0) {
      tried_.push_back("device platform: no EGL devices");
    }
    bool ok = false;
    for (EGLint i = 0; i < count && !ok; ++i) {
      const char* extensions =
          eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS);
      const std::string label = absl::StrCat("device platform, device ", i);
      if (HasExtension(extensions, "EGL_MESA_device_software")) {
        tried_.push_back(
            absl::StrCat(label, ": Mesa software device, left to surfaceless"));
        continue;
      }
      ok = Attempt("device",
                   eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i],
                                            nullptr),
                   label);
    }
  }

  // 2. Mesa's surfaceless platform (llvmpipe without a GPU).
  void TrySurfacelessPlatform() {
    if (HasExtension(client_extensions_, "EGL_MESA_platform_surfaceless")) {
      Attempt("surfaceless",
              eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA,
                                       EGL_DEFAULT_DISPLAY, nullptr),
              "surfaceless platform");
    } else {
      tried_.push_back(
          "surfaceless platform: EGL_MESA_platform_surfaceless not available");
    }
  }

 private:
  const bool debug_;  // GpuContextOptions::debug_output
  const char* const client_extensions_;
  const char* platform_ = nullptr;  // where the context is; null: none yet
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  std::vector<std::string> tried_;
};

// The current context's vendor, renderer, version and limits.
void QueryGlInfo(GpuInfo* info) {
  info->vendor = reinterpret_cast<const char*>(glGetString(GL_VENDOR));
  info->renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  info->version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  glGetIntegerv(GL_MAX_TESS_GEN_LEVEL, &info->max_tessellation_level);
  glGetIntegerv(GL_MAX_SAMPLES, &info->max_samples);
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &info->max_texture_size);
}

}  // namespace

GpuContext::GpuContext() : egl_(std::make_unique<Egl>()) {}

GpuContext::~GpuContext() {
  if (egl_->display != EGL_NO_DISPLAY) {
    eglMakeCurrent(egl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                   EGL_NO_CONTEXT);
    if (egl_->context != EGL_NO_CONTEXT)
      eglDestroyContext(egl_->display, egl_->context);
    eglTerminate(egl_->display);
  }
}

absl::StatusOr<std::unique_ptr<GpuContext>> GpuContext::Create(
    const GpuContextOptions& options) {
  std::unique_ptr<GpuContext> gpu(new GpuContext());
  PlatformSearch search(options.debug_output,
                        eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS));
  search.TryDevicePlatform(options.allow_device_platform);
  if (!search.found()) search.TrySurfacelessPlatform();
  // 3. Whatever the default display is.
  if (!search.found()) {
    search.Attempt("default", eglGetDisplay(EGL_DEFAULT_DISPLAY),
                   "default display");
  }
  if (!search.found()) {
    return absl::FailedPreconditionError(
        absl::StrCat("no EGL platform gave an OpenGL 4.5 core context; tried: ",
                     absl::StrJoin(search.tried(), "; ")));
  }
  gpu->egl_->display = search.display();
  gpu->egl_->context = search.context();
  gpu->info_.platform = search.platform();

  QueryGlInfo(&gpu->info_);
  if (options.debug_output) {
    glEnable(GL_DEBUG_OUTPUT);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback(PrintDebugMessage, nullptr);
  }
  return gpu;
}

absl::Status GpuContext::MakeCurrent() {
  if (!eglMakeCurrent(egl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                      egl_->context)) {
    return absl::InternalError(EglError("eglMakeCurrent"));
  }
  return absl::OkStatus();
}

}  // namespace crease::renderer
