#include "renderer/gpu_context.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"

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

// EGL hands every caller the same EGLDisplay for a platform and device, and
// eglTerminate ends every context on it: a GL thread that drops its context
// (or a test's second context) must not end the others'. Contexts count
// their display's users; the last one terminates it.
absl::Mutex display_users_mu(absl::kConstInit);
absl::flat_hash_map<EGLDisplay, int>& DisplayUsers() {
  static auto* users = new absl::flat_hash_map<EGLDisplay, int>();
  return *users;
}

bool InitializeDisplay(EGLDisplay display, EGLint* major, EGLint* minor) {
  absl::MutexLock lock(&display_users_mu);
  if (!eglInitialize(display, major, minor)) return false;
  ++DisplayUsers()[display];
  return true;
}

void ReleaseDisplay(EGLDisplay display) {
  absl::MutexLock lock(&display_users_mu);
  auto it = DisplayUsers().find(display);
  if (it != DisplayUsers().end() && --it->second > 0) return;
  if (it != DisplayUsers().end()) DisplayUsers().erase(it);
  eglTerminate(display);
}

// Initialises `display` and makes a 4.5 core context on it current; on failure
// terminates the display and says why.
absl::StatusOr<EGLContext> MakeContext(EGLDisplay display, bool debug,
                                       bool* robust) {
  if (display == EGL_NO_DISPLAY) return absl::UnavailableError("no display");
  EGLint major = 0, minor = 0;
  if (!InitializeDisplay(display, &major, &minor)) {
    return absl::UnavailableError(EglError("eglInitialize"));
  }
  auto fail = [&](std::string why) {
    ReleaseDisplay(display);
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
  // Lose the context on a GPU reset and say so (CheckHealth), where the
  // driver offers it; else an ordinary context.
  EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                 4,
                                 EGL_CONTEXT_MINOR_VERSION,
                                 5,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                 EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                 EGL_CONTEXT_OPENGL_DEBUG,
                                 debug ? EGL_TRUE : EGL_FALSE,
                                 EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
                                 EGL_LOSE_CONTEXT_ON_RESET,
                                 EGL_NONE};
  EGLContext context =
      eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  *robust = context != EGL_NO_CONTEXT;
  if (context == EGL_NO_CONTEXT) {
    context_attributes[8] = EGL_NONE;
    context =
        eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  }
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

// The EGL devices, or false with why not in `why`. EGL_EXT_device_base is
// EGL_EXT_device_enumeration and _query together: NVIDIA's EGL names the
// base alone on some drivers, which a check for enumeration alone took as no
// device platform.
bool QueryDevices(const char* client_extensions,
                  std::vector<EGLDeviceEXT>* devices,
                  std::vector<std::string>* why) {
  const bool enumeration =
      HasExtension(client_extensions, "EGL_EXT_device_enumeration") ||
      HasExtension(client_extensions, "EGL_EXT_device_base");
  if (!HasExtension(client_extensions, "EGL_EXT_platform_device") ||
      !enumeration) {
    why->push_back(absl::StrCat(
        "device platform: EGL_EXT_platform_device or device enumeration "
        "missing from the client extensions (",
        client_extensions == nullptr ? "none" : client_extensions, ")"));
    return false;
  }
  EGLDeviceEXT found[16];
  EGLint count = 0;
  if (!eglQueryDevicesEXT(16, found, &count) || count == 0) {
    why->push_back(count == 0 ? "device platform: no EGL devices"
                              : EglError("eglQueryDevicesEXT"));
    return false;
  }
  devices->assign(found, found + count);
  return true;
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
  bool robust() const { return robust_; }
  int device() const { return device_; }

  // Makes a context on `display`; says why not in tried() if it cannot.
  bool Attempt(const char* platform, EGLDisplay display,
               const std::string& label) {
    absl::StatusOr<EGLContext> context = MakeContext(display, debug_, &robust_);
    if (!context.ok()) {
      tried_.push_back(absl::StrCat(label, ": ", context.status().message()));
      return false;
    }
    display_ = display;
    context_ = *context;
    platform_ = platform;
    return true;
  }

  // 1. EGL device platform: real GPUs without a display server. `only`:
  // that device index and no other (-1: the first that works).
  void TryDevicePlatform(bool allowed, int only) {
    if (!allowed) {
      tried_.push_back("device platform: disabled by the caller");
      return;
    }
    std::vector<EGLDeviceEXT> devices;
    if (!QueryDevices(client_extensions_, &devices, &tried_)) return;
    if (only >= static_cast<int>(devices.size())) {
      tried_.push_back(absl::StrCat("device platform: no device ", only, " (",
                                    devices.size(), " found)"));
      return;
    }
    for (int i = 0; i < static_cast<int>(devices.size()); ++i) {
      if (only >= 0 && i != only) continue;
      const char* extensions =
          eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS);
      const std::string label = absl::StrCat("device platform, device ", i);
      if (HasExtension(extensions, "EGL_MESA_device_software")) {
        tried_.push_back(
            absl::StrCat(label, ": Mesa software device, left to surfaceless"));
        continue;
      }
      if (Attempt("device",
                  eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i],
                                           nullptr),
                  label)) {
        device_ = i;
        return;
      }
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
  bool robust_ = false;
  int device_ = -1;
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
    ReleaseDisplay(egl_->display);
  }
}

absl::StatusOr<std::unique_ptr<GpuContext>> GpuContext::Create(
    const GpuContextOptions& options) {
  std::unique_ptr<GpuContext> gpu(new GpuContext());
  PlatformSearch search(options.debug_output,
                        eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS));
  search.TryDevicePlatform(options.allow_device_platform, options.device);
  if (!search.found() && options.device < 0) search.TrySurfacelessPlatform();
  // 3. Whatever the default display is.
  if (!search.found() && options.device < 0) {
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
  gpu->info_.device = search.device();
  gpu->info_.robust = search.robust();
  gpu->info_.passed_over = absl::StrJoin(search.tried(), "; ");

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

absl::Status GpuContext::CheckHealth() {
  if (info_.robust) {
    const GLenum reset = glGetGraphicsResetStatus();
    if (reset != GL_NO_ERROR) {
      return absl::UnavailableError(absl::StrFormat(
          "the GPU context was lost (reset status 0x%04x)", reset));
    }
  }
  const GLenum error = glGetError();
  if (error == GL_NO_ERROR) return absl::OkStatus();
  // Drain the other flags so the next frame starts clean.
  for (int i = 0; i < 8 && glGetError() != GL_NO_ERROR; ++i) {
  }
  return absl::InternalError(
      absl::StrFormat("GL error 0x%04x while drawing", error));
}

void GpuContext::RaiseGlErrorForTest() { glEnable(GL_INVALID_ENUM); }

std::vector<int> GpuContext::HardwareEglDevices() {
  std::vector<EGLDeviceEXT> devices;
  std::vector<std::string> why;
  std::vector<int> hardware;
  if (!QueryDevices(eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS), &devices,
                    &why)) {
    return hardware;
  }
  for (int i = 0; i < static_cast<int>(devices.size()); ++i) {
    if (!HasExtension(eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS),
                      "EGL_MESA_device_software")) {
      hardware.push_back(i);
    }
  }
  return hardware;
}

}  // namespace crease::renderer
