#ifndef CREASE_CLIENT_CLI_VIDEO_OUTPUT_H_
#define CREASE_CLIENT_CLI_VIDEO_OUTPUT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace crease::client {

// crease-client --video: the frames it saved (out/frame_NNNN.EXT, and with
// `pair` out/plain_NNNN.EXT beside them: plain | wrinkled) encoded as an H.264
// MP4 at `fps`, by the ffmpeg program (Debian's `ffmpeg`), not libavcodec:
// the frames are already files, and linking libavformat and libavcodec for
// one encode is more code and more libraries than running the tool.
struct VideoRequest {
  std::string out_dir;
  std::string extension;  // "jpg" or "png"
  bool pair = false;
  double fps = 30;
  std::string path;  // FILE.mp4
  std::string ffmpeg = "ffmpeg";
};

// ffmpeg's arguments for `request` (for tests and the error message).
std::vector<std::string> VideoCommand(const VideoRequest& request);

// Runs ffmpeg. FailedPrecondition naming the package when ffmpeg is missing;
// Internal with its exit status otherwise.
absl::Status WriteVideo(const VideoRequest& request);

}  // namespace crease::client

#endif  // CREASE_CLIENT_CLI_VIDEO_OUTPUT_H_
