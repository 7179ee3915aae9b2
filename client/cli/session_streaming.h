#ifndef CREASE_CLIENT_CLI_SESSION_STREAMING_H_
#define CREASE_CLIENT_CLI_SESSION_STREAMING_H_

// crease-client's streaming: the sessions it opens (the wrinkled one and, for
// a contact sheet, its other columns), the frames sent on one thread while
// the answers are received on others, and what came back. No flags: the
// program's choices come in StreamingOptions.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "client/cli/contact_sheet_output.h"
#include "client/cli/gltf_export.h"
#include "client/cli/mesh_output.h"
#include "client/cli/stream_summary.h"
#include "client/crease_client.h"
#include "image/camera.h"
#include "wrinkle/io/animation.h"

namespace crease::client {

// A renderer camera as a crease.v1 one.
v1::Camera ProtoCamera(const image::Camera& camera);

// The wrinkled session, and with a contact sheet the sessions of the sheet's
// other columns: the plain mesh, then with --compare_models the other models.
struct Sessions {
  std::unique_ptr<SessionStream> wrinkled;
  std::vector<std::unique_ptr<SessionStream>> columns;
  // The sheet shows plain | SCA 2015 | wrinkle maps | buckling: where the
  // wrinkled session's column goes among `columns`.
  size_t wrinkled_column = 1;
};

// Opens the wrinkled session and, with `want_sheet`, the plain column's and
// one per other model (ComparisonStarts); a model this mesh cannot take
// leaves its column out, said on stderr unless `quiet`.
absl::StatusOr<Sessions> OpenSessions(CreaseClient& client,
                                      const v1::Start& start, bool want_sheet,
                                      bool quiet);

struct StreamingOptions {
  double fps = 0;            // frame f is sent at begin + f / fps; 0: at once
  bool paths = true;         // wrinkle paths into Received::jsonl
  bool video_pairs = false;  // the plain column's images saved for --video
  bool progress = false;     // a progress line on stderr
};

// What the sender and the receivers share while the frames stream.
struct Streaming {
  const io::Animation& animation;
  const int num_frames;
  const std::vector<int>& sheet_frames;
  const Sessions& sessions;
  GltfExport* gltf_export;  // null without --export
  // --close_up with images: each frame's camera, following the region.
  const std::vector<image::Camera>& close_up;
  std::vector<std::atomic<int64_t>> sent_ns;  // when each frame went out
  const absl::Time begin;
  const StreamingOptions options;
};

// What came back from the wrinkled session.
struct Received {
  StreamSummary summary;
  std::string jsonl;                         // wrinkles.jsonl
  std::vector<std::string> wrinkled_images;  // one per contact sheet row
  // Per Sessions::columns, one per contact sheet row.
  std::vector<std::vector<std::string>> column_images;
  MeshLevelCheck mesh_level;  // whether the wrinkled mesh is fine enough
};

// Streams the frames and collects what comes back, writing each result's
// image and mesh outputs into `out`: the sender and the sheet columns'
// receivers run on threads of their own while this one receives the
// wrinkled session's results. The first failure, if any, is returned once
// every thread is done.
absl::StatusOr<Received> StreamFrames(Streaming& streaming,
                                      const std::string& out);

}  // namespace crease::client

#endif  // CREASE_CLIENT_CLI_SESSION_STREAMING_H_
