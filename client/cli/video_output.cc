#include "client/cli/video_output.h"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

extern char** environ;

namespace crease::client {

std::vector<std::string> VideoCommand(const VideoRequest& r) {
  const std::string fps = absl::StrFormat("%g", r.fps);
  const std::string wrinkled =
      absl::StrCat(r.out_dir, "/frame_%04d.", r.extension);
  std::vector<std::string> args = {r.ffmpeg,     "-y", "-loglevel", "error",
                                   "-framerate", fps,  "-i",        wrinkled};
  if (r.pair) {
    const std::string plain =
        absl::StrCat(r.out_dir, "/plain_%04d.", r.extension);
    args.insert(args.end(), {"-framerate", fps, "-i", plain, "-filter_complex",
                             "[1:v][0:v]hstack=inputs=2"});
  }
  // yuv420p: what players take; even sides, which it needs, are the
  // caller's (crease-client's images are, by default).
  args.insert(args.end(), {"-c:v", "libx264", "-pix_fmt", "yuv420p",
                           "-movflags", "+faststart", r.path});
  return args;
}

absl::Status WriteVideo(const VideoRequest& request) {
  const std::vector<std::string> args = VideoCommand(request);
  std::vector<char*> argv;
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned =
      posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
  if (spawned == ENOENT) {
    return absl::FailedPreconditionError(
        absl::StrCat("--video needs the ffmpeg program (apt-get install "
                     "ffmpeg); not found: ",
                     request.ffmpeg));
  }
  if (spawned != 0) {
    return absl::InternalError(
        absl::StrCat("starting ffmpeg: ", std::strerror(spawned)));
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) {
    return absl::InternalError(
        absl::StrCat("waiting for ffmpeg: ", std::strerror(errno)));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError(absl::StrFormat(
        "ffmpeg failed (status %d): %s", status, absl::StrJoin(args, " ")));
  }
  return absl::OkStatus();
}

}  // namespace crease::client
