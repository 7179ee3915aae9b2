#ifndef CREASE_TESTS_TESTING_SESSION_RUNNER_H_
#define CREASE_TESTS_TESTING_SESSION_RUNNER_H_

// Sessions for tests: created on a mesh, or run over an animation from its
// first frame.

#include <memory>

#include "absl/functional/function_ref.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/io/triangle_mesh.h"
#include "wrinkle/sca2015/session.h"

namespace crease::testing {

// A Session on `mesh` (its positions are the rest positions). nullptr, after a
// non-fatal test failure with the status, if Session::Create fails.
std::unique_ptr<Session> NewSession(const io::TriangleMesh& mesh,
                                    const SessionParams& params = {});

// A Session on `animation` that has processed its frames 0 to `last_frame`
// (inclusive; -1: none), calling `after_frame` after each with the frame's
// index and the session. nullptr, after a test failure, when the session cannot
// be created, `last_frame` is past the animation, a frame is rejected, or
// `after_frame` failed fatally (the frames after that are not run): callers
// ASSERT_NE(session, nullptr) to stop there, as an ASSERT in a hand-written
// loop would.
std::unique_ptr<Session> RunSessionTo(const io::Animation& animation,
                                      int last_frame,
                                      const SessionParams& params = {});
std::unique_ptr<Session> RunSessionTo(
    const io::Animation& animation, int last_frame, const SessionParams& params,
    absl::FunctionRef<void(int frame, const Session& session)> after_frame);

}  // namespace crease::testing

#endif  // CREASE_TESTS_TESTING_SESSION_RUNNER_H_
