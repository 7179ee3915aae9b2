#include "client/cli/session_streaming.h"

#include <cstdio>
#include <thread>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "client/cli/model_flags.h"
#include "client/mesh_messages.h"
#include "common/file_util.h"
#include "common/status_macros.h"

namespace crease::client {

// A renderer camera as a crease.v1 one.
v1::Camera ProtoCamera(const image::Camera& camera) {
  v1::Camera out;
  out.mutable_eye()->set_x(camera.eye[0]);
  out.mutable_eye()->set_y(camera.eye[1]);
  out.mutable_eye()->set_z(camera.eye[2]);
  out.mutable_target()->set_x(camera.target[0]);
  out.mutable_target()->set_y(camera.target[1]);
  out.mutable_target()->set_z(camera.target[2]);
  out.mutable_up()->set_x(camera.up[0]);
  out.mutable_up()->set_y(camera.up[1]);
  out.mutable_up()->set_z(camera.up[2]);
  out.set_vertical_fov_degrees(camera.vertical_fov_degrees);
  return out;
}

namespace {

// The sheet's order of a model (UNSPECIFIED is SCA 2015).
int ModelOrder(v1::WrinkleModel model) {
  return model == v1::WRINKLE_MODEL_UNSPECIFIED ? v1::WRINKLE_MODEL_SCA2015
                                                : static_cast<int>(model);
}

}  // namespace

absl::StatusOr<Sessions> OpenSessions(CreaseClient& client,
                                      const v1::Start& start, bool want_sheet,
                                      bool quiet) {
  Sessions sessions;
  CREASE_ASSIGN_OR_RETURN(sessions.wrinkled, client.OpenSession(start));
  if (!want_sheet) return sessions;
  v1::Start plain_start = start;
  const v1::ImageRequest image = start.outputs().image();
  plain_start.mutable_outputs()->Clear();
  *plain_start.mutable_outputs()->mutable_image() = image;
  plain_start.mutable_outputs()->mutable_image()->set_plain(true);
  CREASE_ASSIGN_OR_RETURN(std::unique_ptr<SessionStream> plain,
                          client.OpenSession(plain_start));
  sessions.columns.push_back(std::move(plain));
  CREASE_ASSIGN_OR_RETURN(const std::vector<v1::Start> others,
                          ComparisonStarts(start));
  const int own = ModelOrder(start.parameters().model());
  if (!others.empty() && start.topology().corner_uvs_size() == 0 &&
      own != v1::WRINKLE_MODEL_AMPLITUDE_MAPS && !quiet) {
    std::fprintf(stderr, "--compare_models: no wrinkle-map column (no UVs)\n");
  }
  for (const v1::Start& other : others) {
    absl::StatusOr<std::unique_ptr<SessionStream>> opened =
        client.OpenSession(other);
    // A model this mesh cannot take (no open tube for the buckling model)
    // leaves its column out; other failures end the run.
    if (!opened.ok() &&
        opened.status().code() == absl::StatusCode::kInvalidArgument) {
      if (!quiet) {
        std::fprintf(stderr, "--compare_models: no %s column: %s\n",
                     v1::WrinkleModel_Name(other.parameters().model()).c_str(),
                     std::string(opened.status().message()).c_str());
      }
      continue;
    }
    if (!opened.ok()) return opened.status();
    sessions.columns.push_back(*std::move(opened));
    if (ModelOrder(other.parameters().model()) < own) {
      ++sessions.wrinkled_column;
    }
  }
  return sessions;
}

namespace {

// Sends the frames to every session, paced at options.fps or as fast as the
// window lets it; stops at the first failure, which it returns.
absl::Status SendFrames(Streaming& streaming) {
  SessionStream& session = *streaming.sessions.wrinkled;
  const auto& columns = streaming.sessions.columns;
  const double fps = streaming.options.fps;
  absl::Status send_status;
  for (int f = 0; f < streaming.num_frames && send_status.ok(); ++f) {
    if (fps > 0) {
      absl::SleepFor(streaming.begin + absl::Seconds(f / fps) - absl::Now());
    }
    v1::Frame frame =
        FrameOf(streaming.animation.frames.Sample(f), static_cast<uint32_t>(f));
    if (f > 0 && static_cast<size_t>(f) < streaming.close_up.size()) {
      *frame.mutable_camera() = ProtoCamera(streaming.close_up[f]);
    }
    streaming.sent_ns[f].store(absl::GetCurrentTimeNanos());
    send_status = session.Send(frame);
    for (size_t c = 0; c < columns.size() && send_status.ok(); ++c) {
      send_status = columns[c]->Send(frame);
    }
  }
  (void)session.WritesDone();
  for (const auto& column : columns) (void)column->WritesDone();
  return send_status;
}

// Receives a sheet column's session's results and keeps its images.
// With `save_dir`, also writes every image as save_dir/plain_NNNN.EXT (the
// plain column's, for --video's pairs).
absl::Status ReceiveColumnImages(const Streaming& streaming,
                                 SessionStream& column,
                                 std::vector<std::string>* images,
                                 const std::string& save_dir = "") {
  images->resize(streaming.sheet_frames.size());
  for (int f = 0; f < streaming.num_frames; ++f) {
    absl::StatusOr<v1::FrameResult> result = column.Receive();
    if (!result.ok()) return result.status();
    KeepSheetImage(result->image().data(), f, streaming.sheet_frames, images);
    if (!save_dir.empty() && result->has_image()) {
      const char* ext =
          result->image().format() == v1::IMAGE_FORMAT_PNG ? "png" : "jpg";
      CREASE_RETURN_IF_ERROR(files::WriteStringToFile(
          absl::StrFormat("%s/plain_%04d.%s", save_dir, result->index(), ext),
          result->image().data()));
    }
  }
  return absl::OkStatus();
}

// Appends a result's wrinkle paths to `jsonl` (with --paths) and writes its
// image, if it has one, as out/frame_NNNN.jpg or .png.
absl::Status SaveResult(const v1::FrameResult& result, const std::string& out,
                        bool paths, std::string* jsonl) {
  if (paths) AppendWrinklesJsonLine(result, jsonl);
  if (!result.has_image()) return absl::OkStatus();
  const std::string path = absl::StrFormat(
      "%s/frame_%04d.%s", out, result.index(),
      result.image().format() == v1::IMAGE_FORMAT_PNG ? "png" : "jpg");
  return files::WriteStringToFile(path, result.image().data());
}

// Receives the wrinkled session's results, saves them and adds them to the
// summary; stops at the first failure, which it returns. A frame the server
// failed is reported and counted, not a failure.
absl::Status ReceiveResults(const Streaming& streaming, const std::string& out,
                            bool progress, Received* received) {
  const int num_frames = streaming.num_frames;
  for (int f = 0; f < num_frames; ++f) {
    absl::StatusOr<v1::FrameResult> result =
        streaming.sessions.wrinkled->Receive();
    if (!result.ok()) return result.status();
    if (result->index() >= static_cast<uint32_t>(num_frames)) {
      return absl::InternalError(absl::StrFormat(
          "the server answered frame %d, never sent", result->index()));
    }
    const double latency_ms = (absl::GetCurrentTimeNanos() -
                               streaming.sent_ns[result->index()].load()) *
                              1e-6;
    received->summary.Add(*result, latency_ms);
    if (result->has_error()) {
      std::fprintf(stderr, "\nframe %d: %s\n", result->index(),
                   result->error().message().c_str());
      continue;
    }
    CREASE_RETURN_IF_ERROR(
        SaveResult(*result, out, streaming.options.paths, &received->jsonl));
    CREASE_RETURN_IF_ERROR(
        SaveMeshOutputs(streaming.sessions.wrinkled->started(), *result, out));
    received->mesh_level.Add(streaming.sessions.wrinkled->started(), *result);
    if (streaming.gltf_export != nullptr) {
      CREASE_RETURN_IF_ERROR(streaming.gltf_export->Add(
          streaming.sessions.wrinkled->started(), *result));
    }
    if (result->has_image()) {
      KeepSheetImage(result->image().data(), f, streaming.sheet_frames,
                     &received->wrinkled_images);
    }
    if (progress) PrintProgress(received->summary, num_frames);
  }
  return absl::OkStatus();
}

}  // namespace

// Streams the frames and collects what comes back: the sender and the sheet
// columns' receivers run on threads of their own while this one receives the
// wrinkled session's results. The first failure, if any, is returned once
// every thread is done.
absl::StatusOr<Received> StreamFrames(Streaming& streaming,
                                      const std::string& out) {
  const Sessions& sessions = streaming.sessions;
  absl::Status send_status;
  std::thread sender([&] { send_status = SendFrames(streaming); });
  Received received;
  const size_t num_columns = sessions.columns.size();
  received.column_images.resize(num_columns);
  std::vector<absl::Status> column_status(num_columns);
  std::vector<std::thread> column_receivers;
  for (size_t c = 0; c < num_columns; ++c) {
    column_receivers.emplace_back([&, c] {
      // Column 0 is the plain mesh: its frames make --video's pairs.
      const bool video_pair = c == 0 && streaming.options.video_pairs;
      column_status[c] = ReceiveColumnImages(streaming, *sessions.columns[c],
                                             &received.column_images[c],
                                             video_pair ? out : "");
    });
  }

  received.summary.session_id = sessions.wrinkled->started().session_id();
  received.summary.server_version =
      sessions.wrinkled->started().server_version();
  received.summary.parameters_hash =
      sessions.wrinkled->started().parameters_hash();
  received.wrinkled_images.resize(streaming.sheet_frames.size());
  const bool progress = streaming.options.progress;
  const absl::Status receive_status =
      ReceiveResults(streaming, out, progress, &received);
  if (progress) std::fprintf(stderr, "\n");
  if (!receive_status.ok()) sessions.wrinkled->Cancel();
  if (!receive_status.ok()) {
    for (const auto& column : sessions.columns) column->Cancel();
  }
  sender.join();
  for (std::thread& receiver : column_receivers) receiver.join();
  received.summary.wall_seconds =
      absl::ToDoubleSeconds(absl::Now() - streaming.begin);
  received.summary.bytes_sent = sessions.wrinkled->bytes_sent();
  received.summary.bytes_received = sessions.wrinkled->bytes_received();
  const absl::Status finished = sessions.wrinkled->Finish();
  for (const absl::Status& s : {receive_status, send_status, finished}) {
    if (!s.ok()) return s;
  }
  for (size_t c = 0; c < num_columns; ++c) {
    CREASE_RETURN_IF_ERROR(column_status[c]);
    CREASE_RETURN_IF_ERROR(sessions.columns[c]->Finish());
  }
  return received;
}

}  // namespace crease::client
