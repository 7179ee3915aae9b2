#ifndef CREASE_TESTS_FUZZ_SESSION_INVARIANTS_H_
#define CREASE_TESTS_FUZZ_SESSION_INVARIANTS_H_

// What every client of a Session relies on after any frame, whatever the
// input: sizes that match the mesh, finite numbers, indices in range. The
// server copies these straight into FrameResult and the renderer into GPU
// buffers, so a NaN or a stray index here is a bug a fuzzer must report.

#include <cmath>

#include "tests/fuzz/fuzz_check.h"
#include "wrinkle/sca2015/session.h"

namespace crease::fuzz {

inline bool AllFinite(const Eigen::Vector3d& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

inline void CheckSessionOutputs(const Session& session) {
  if (session.frames_processed() == 0) return;
  const int num_triangles = session.num_triangles();
  CREASE_FUZZ_CHECK(static_cast<int>(session.labels().size()) == num_triangles);
  CREASE_FUZZ_CHECK(static_cast<int>(session.compression_field().size()) ==
                    num_triangles);
  for (const StretchTensor& t : session.compression_field()) {
    CREASE_FUZZ_CHECK(std::isfinite(t.lambda_max) &&
                      std::isfinite(t.lambda_min) &&
                      std::isfinite(t.compression));
    CREASE_FUZZ_CHECK(AllFinite(t.compression_dir) && AllFinite(t.wrinkle_dir));
  }

  // A served session whose model and outputs read no wrinkle paths turns
  // the tracing off (ServedSession): the tracker is never initialised.
  if (!session.params().trace_wrinkles) return;
  const WrinkleTracker& tracker = session.tracker();
  const int num_edges = session.topology().num_edges();
  CREASE_FUZZ_CHECK(tracker.wrinkles().size() == tracker.shapes().size());
  CREASE_FUZZ_CHECK(std::isfinite(tracker.min_width()) &&
                    tracker.min_width() > 0);
  for (size_t w = 0; w < tracker.wrinkles().size(); ++w) {
    const WrinklePath& path = tracker.wrinkles()[w];
    CREASE_FUZZ_CHECK(path.points.size() >= 2);
    CREASE_FUZZ_CHECK(path.faces.size() + 1 == path.points.size());
    for (const EdgePoint& p : path.points) {
      CREASE_FUZZ_CHECK(p.edge >= 0 && p.edge < num_edges);
      CREASE_FUZZ_CHECK(p.t >= 0 && p.t <= 1);
    }
    for (int32_t face : path.faces) {
      CREASE_FUZZ_CHECK(face >= 0 && face < num_triangles);
    }
    const WrinkleShape& shape = tracker.shapes()[w];
    CREASE_FUZZ_CHECK(!shape.refined.empty());
    for (const RefinedPoint& r : shape.refined) {
      CREASE_FUZZ_CHECK(AllFinite(r.position));
      CREASE_FUZZ_CHECK(std::isfinite(r.width) && r.width > 0);
      CREASE_FUZZ_CHECK(std::isfinite(r.height) && r.height >= 0);
    }
  }

  const std::vector<int32_t>& offsets = tracker.range_offsets();
  CREASE_FUZZ_CHECK(static_cast<int>(offsets.size()) == num_triangles + 1);
  CREASE_FUZZ_CHECK(offsets.front() == 0);
  CREASE_FUZZ_CHECK(offsets.back() ==
                    static_cast<int32_t>(tracker.ranges().size()));
  for (int f = 0; f < num_triangles; ++f) {
    CREASE_FUZZ_CHECK(offsets[f] <= offsets[f + 1]);
  }
  for (const TriangleWrinkleRange& range : tracker.ranges()) {
    CREASE_FUZZ_CHECK(range.wrinkle >= 0 &&
                      range.wrinkle <
                          static_cast<int32_t>(tracker.wrinkles().size()));
    const int segments = tracker.wrinkles()[range.wrinkle].num_segments();
    CREASE_FUZZ_CHECK(0 <= range.first_segment &&
                      range.first_segment <= range.last_segment &&
                      range.last_segment < segments);
  }
}

}  // namespace crease::fuzz

#endif  // CREASE_TESTS_FUZZ_SESSION_INVARIANTS_H_
