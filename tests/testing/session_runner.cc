#include "tests/testing/session_runner.h"

#include <memory>
#include <utility>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/io/triangle_mesh.h"
#include "wrinkle/sca2015/session.h"

namespace crease::testing {

std::unique_ptr<Session> NewSession(const io::TriangleMesh& mesh,
                                    const SessionParams& params) {
  auto session = Session::Create(mesh.triangles, mesh.positions, params);
  EXPECT_TRUE(session.ok()) << session.status();
  return session.ok() ? *std::move(session) : nullptr;
}

std::unique_ptr<Session> RunSessionTo(const io::Animation& animation,
                                      int last_frame,
                                      const SessionParams& params) {
  return RunSessionTo(animation, last_frame, params,
                      [](int, const Session&) {});
}

std::unique_ptr<Session> RunSessionTo(
    const io::Animation& animation, int last_frame, const SessionParams& params,
    absl::FunctionRef<void(int frame, const Session& session)> after_frame) {
  if (last_frame >= animation.num_frames()) {
    ADD_FAILURE() << "last_frame " << last_frame << " is past the animation ("
                  << animation.num_frames() << " frames)";
    return nullptr;
  }
  std::unique_ptr<Session> session = NewSession(animation.mesh, params);
  if (session == nullptr) return nullptr;
  for (int frame = 0; frame <= last_frame; ++frame) {
    const absl::Status status =
        session->ProcessFrame(animation.frames.Sample(frame));
    if (!status.ok()) {
      ADD_FAILURE() << "frame " << frame << ": " << status;
      return nullptr;
    }
    after_frame(frame, *session);
    if (::testing::Test::HasFatalFailure()) return nullptr;
  }
  return session;
}

}  // namespace crease::testing
