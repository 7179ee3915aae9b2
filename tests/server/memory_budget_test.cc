// The memory budget: what a session costs (the estimate checked at Start,
// held against resident memory measured here) and the refusal beyond it.

#include "server/memory_budget.h"

#include <malloc.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/sanitizers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/server/raw_stream.h"
#include "tests/server/service_fixture.h"
#include "wrinkle/core/synthetic_sheet.h"

namespace crease::server {
namespace {

using ::testing::HasSubstr;

// Resident memory an open session of `start` adds once it has answered
// three frames of `sheet`, in MB: three such sessions held open at once,
// over three (the heap trimmed before both readings). One session alone can
// fit in pages an earlier one freed and the heap kept (3 MB was seen).
double MeasureSessionMb(const RunningServer& running,
                        const io::Animation& sheet, const v1::Start& start,
                        bool still = false) {
  constexpr int kSessions = 3;
  malloc_trim(0);
  const double before = ResidentMb();
  auto client = running.Client();
  std::vector<std::unique_ptr<client::SessionStream>> sessions;
  std::vector<float> positions;
  for (int s = 0; s < kSessions; ++s) {
    auto session = client->OpenSession(start);
    EXPECT_TRUE(session.ok()) << session.status();
    if (!session.ok()) return 0;
    for (uint32_t f = 0; f < 3; ++f) {
      if (still) {
        positions = sheet.mesh.positions;
      } else {
        AnimateSheet(sheet.mesh, static_cast<int>(f) * 5, 40, 0.3f, &positions);
      }
      EXPECT_TRUE((*session)->Send(client::FrameOf(positions, f)).ok());
      EXPECT_TRUE((*session)->Receive().ok());
    }
    sessions.push_back(*std::move(session));
  }
  malloc_trim(0);
  const double after = ResidentMb();
  for (auto& session : sessions) session->Cancel();
  sessions.clear();
  WaitFor([&] { return running.server->active_sessions() == 0; });
  return (after - before) / kSessions;
}

// The estimate the server reserves for `start`, read while a session is
// open, covers `measured` MB without asking for more than four times it.
void ExpectEstimateCovers(const RunningServer& running, const char* name,
                          const v1::Start& start, double measured) {
  auto client = running.Client();
  auto session = client->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  const double estimated =
      static_cast<double>(running.server->reserved_memory_bytes()) / (1 << 20);
  (*session)->Cancel();
  session->reset();
  ASSERT_TRUE(WaitFor([&] { return running.server->active_sessions() == 0; }));
  std::fprintf(stderr, "%s: measured %.1f MB, estimated %.1f MB\n", name,
               measured, estimated);
  EXPECT_GE(estimated, measured) << name;
  EXPECT_LE(estimated, 4 * measured) << name;
}

// Each output's estimate covers what the session holds, measured as
// resident memory, without asking for more than four times it (the heap
// measured 80-96 MB a paths-only session over runs). The wrinkle-map model
// counts only its pattern in MemoryBytes; its per-edge and per-vertex arrays
// are the per-triangle allowance's (measured 84 MB, estimated 156 MB).
TEST(MemoryBudgetTest, EstimatesCoverWhatSessionsHold) {
#if defined(CREASE_UNDER_ASAN) || defined(CREASE_UNDER_TSAN)
  GTEST_SKIP()
      << "RSS is meaningless under ASan or TSan (shadow memory, quarantine)";
#endif
  ServerOptions options = LoopbackOptions();
  options.render_threads = 0;
  RunningServer running = RunningServer::Start(options);
  io::Animation sheet;
  sheet.mesh = MakeGridSheet(200, 200, 1.0f, 1.0f);  // 80,000 triangles
  const v1::Start paths = StartFor(sheet);
  v1::Start mesh = paths;
  mesh.mutable_outputs()->mutable_wrinkled_mesh()->set_level(4);
  v1::Start fields = paths;
  fields.mutable_outputs()->set_labels(true);
  fields.mutable_outputs()->set_tensors(true);
  fields.mutable_outputs()->set_vertex_fields(true);
  // The cheap tier on the same sheet with UVs: its per-edge and per-vertex
  // arrays and its default pattern.
  io::Animation sheet_with_uvs = sheet;
  SetSheetUvs(1.0f, 1.0f, &sheet_with_uvs.mesh);
  v1::Start maps = client::StartForMesh(sheet_with_uvs.mesh);
  maps.mutable_parameters()->set_model(v1::WRINKLE_MODEL_AMPLITUDE_MAPS);
  maps.mutable_outputs()->set_vertex_amplitudes(true);
  (void)MeasureSessionMb(running, sheet, paths);  // the first warms the heap
  for (const auto& [name, start] :
       {std::pair{"paths", paths}, std::pair{"wrinkled mesh level 4", mesh},
        std::pair{"fields", fields}, std::pair{"wrinkle maps", maps}}) {
    ExpectEstimateCovers(running, name, start,
                         MeasureSessionMb(running, sheet, start));
  }
  EXPECT_EQ(running.server->reserved_memory_bytes(), 0);
}

// Vertices no triangle uses still cost: a Start may declare the most
// vertices a server allows for one triangle, and every frame carries them
// all. The estimate covers what such a session holds (measured, the Start
// of 200,000 vertices and a triangle: 18 MB a session with paths, 83 MB
// with vertex fields and a level-8 wrinkled mesh, when vertices were not
// counted and 12 KB was estimated).
TEST(MemoryBudgetTest, EstimatesCoverVerticesNoTriangleUses) {
#if defined(CREASE_UNDER_ASAN) || defined(CREASE_UNDER_TSAN)
  GTEST_SKIP()
      << "RSS is meaningless under ASan or TSan (shadow memory, quarantine)";
#endif
  ServerOptions options = LoopbackOptions();
  options.render_threads = 0;
  RunningServer running = RunningServer::Start(options);
  io::Animation points;
  points.mesh.positions.resize(3 * 200'000);
  for (size_t i = 0; i < points.mesh.positions.size(); ++i) {
    points.mesh.positions[i] = static_cast<float>(i % 997) * 1e-3f;
  }
  points.mesh.positions[3] = 1.0f;  // the triangle's corners apart
  points.mesh.positions[7] = 1.0f;
  points.mesh.triangles = {{0, 1, 2}};
  const v1::Start paths = StartFor(points);
  v1::Start outputs = paths;
  outputs.mutable_outputs()->set_vertex_fields(true);
  outputs.mutable_outputs()->mutable_wrinkled_mesh()->set_level(8);
  for (const auto& [name, start] :
       {std::pair{"paths", paths}, std::pair{"vertex outputs", outputs}}) {
    ExpectEstimateCovers(
        running, name, start,
        MeasureSessionMb(running, points, start, /*still=*/true));
  }
}

// An open cylinder of `around` x `rings` vertices (radius 0.1, length 1).
io::Animation Cylinder(int around, int rings) {
  io::Animation a;
  a.mesh = MakeOpenCylinder(0.1, 1.0, around, rings);
  return a;
}

// The buckling model's estimate (its fine mesh, which it holds beyond the
// coarse one) covers what a session with the most fine vertices a server
// allows holds, within four times.
TEST(MemoryBudgetTest, BucklingEstimateCoversItsFineMesh) {
#if defined(CREASE_UNDER_ASAN) || defined(CREASE_UNDER_TSAN)
  GTEST_SKIP()
      << "RSS is meaningless under ASan or TSan (shadow memory, quarantine)";
#endif
  ServerOptions options = LoopbackOptions();
  options.render_threads = 0;
  RunningServer running = RunningServer::Start(options);
  const io::Animation tube = Cylinder(48, 40);
  v1::Start start = StartFor(tube);
  start.mutable_parameters()->set_model(v1::WRINKLE_MODEL_BUCKLING);
  // 12 diamonds around: rows of 3.4 mm, about 228,000 fine vertices.
  start.mutable_parameters()->mutable_buckling()->set_calibration_diamonds(12);
  start.mutable_outputs()->mutable_wrinkled_mesh()->set_level(1);
  (void)MeasureSessionMb(running, tube, StartFor(tube), true);  // warms up
  const double measured = MeasureSessionMb(running, tube, start, true);
  auto session = running.Client()->OpenSession(start);
  ASSERT_TRUE(session.ok()) << session.status();
  const double estimated =
      static_cast<double>(running.server->reserved_memory_bytes()) / (1 << 20);
  (*session)->Cancel();
  session->reset();
  ASSERT_TRUE(WaitFor([&] { return running.server->active_sessions() == 0; }));
  std::fprintf(stderr, "buckling: measured %.1f MB, estimated %.1f MB\n",
               measured, estimated);
  EXPECT_GE(estimated, measured);
  EXPECT_LE(estimated, 4 * measured);
}

// A buckling Start whose fine mesh does not fit is refused before the mesh
// is made: its cost comes from the layout's plan, and the server's memory
// does not move.
TEST(MemoryBudgetTest, BucklingStartsPastTheBudgetMakeNoFineMesh) {
  ServerOptions options = LoopbackOptions();
  options.render_threads = 0;
  options.max_memory_bytes = kServerBaseBytes + (int64_t{60} << 20);
  RunningServer running = RunningServer::Start(options);
  const io::Animation tube = Cylinder(48, 40);
  v1::Start start = StartFor(tube);
  start.mutable_parameters()->set_model(v1::WRINKLE_MODEL_BUCKLING);
  start.mutable_parameters()->mutable_buckling()->set_calibration_diamonds(12);
  auto client = running.Client();
  malloc_trim(0);
  const double before = ResidentMb();
  // The peak from here on (Linux: writing 5 to clear_refs resets VmHWM).
  std::ofstream clear_refs("/proc/self/clear_refs");
  const bool peak_reset = static_cast<bool>(clear_refs << "5" << std::flush);
  for (int i = 0; i < 5; ++i) {
    auto refused = client->OpenSession(start);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
    EXPECT_THAT(refused.status().message(), HasSubstr("the model's"));
  }
  // A made mesh would have taken about 100 MB on the way (not measured under
  // ASan: its shadow memory and quarantine move the resident figure).
#if defined(CREASE_UNDER_ASAN) || defined(CREASE_UNDER_TSAN)
  const bool measurable = false;
#else
  const bool measurable = true;
#endif
  if (peak_reset && measurable) {
    EXPECT_LT(PeakResidentMb() - before, 40.0);
  } else {
    std::fprintf(stderr, "no peak check: ASan, or clear_refs refused\n");
  }
  // With the default calibration (4 diamonds, 6,000 fine vertices) it fits.
  start.mutable_parameters()->mutable_buckling()->clear_calibration_diamonds();
  EXPECT_TRUE(client->OpenSession(start).ok());
}

// A Start past the budget is refused naming its cost and what is free; the
// memory comes back with the session that held it.
TEST(MemoryBudgetTest, StartsPastTheBudgetAreRefused) {
  ServerOptions options = LoopbackOptions();
  options.render_threads = 0;
  options.max_memory_bytes = kServerBaseBytes + (int64_t{150} << 20);
  RunningServer running = RunningServer::Start(options);
  io::Animation sheet;
  sheet.mesh = MakeGridSheet(200, 200, 1.0f, 1.0f);  // about 121 MB
  auto client = running.Client();
  auto first = client->OpenSession(StartFor(sheet));
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = client->OpenSession(StartFor(sheet));
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(second.status().message(),
              HasSubstr("would need about 121 MB (80000 triangles, 40401 "
                        "vertices)"));
  EXPECT_THAT(second.status().message(), HasSubstr("29 MB of the server's"));
  EXPECT_THAT(second.status().message(), HasSubstr("max_memory"));
  // A small session still fits.
  io::Animation small;
  small.mesh = MakeGridSheet(20, 20, 1.0f, 1.0f);
  EXPECT_TRUE(client->OpenSession(StartFor(small)).ok());
  (*first)->Cancel();
  first->reset();
  ASSERT_TRUE(WaitFor([&] { return running.server->active_sessions() == 0; }));
  EXPECT_TRUE(client->OpenSession(StartFor(sheet)).ok());
}

}  // namespace
}  // namespace crease::server
