#ifndef CREASE_SERVER_MEMORY_BUDGET_H_
#define CREASE_SERVER_MEMORY_BUDGET_H_

// The server's memory budget: each session's cost is estimated from its mesh
// and outputs at Start and reserved until it ends; a Start that would go past
// the budget is refused (RESOURCE_EXHAUSTED naming its cost and what is
// free). Costs per triangle and per output are docs/operations.md's, held to
// measured resident memory by tests/server/memory_budget_test.cc.

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "server/session_setup.h"

namespace crease::server {

// Estimated bytes, from resident memory measured on 80,000-triangle sheets
// (three frames answered, the heap trimmed; MemoryBudgetTest): a paths-only
// session 80-96 MB (of which the field smoothing's scratch, neighbour lists
// and pulling pairs, is about 300 bytes a triangle), a level-4 wrinkled mesh
// 100-167 MB more, labels + tensors + vertex fields 15-37 MB more.
inline constexpr int64_t kBytesPerTriangle = 1500;
inline constexpr int64_t kBytesPerRefinedTriangle = 160;  // level² per one
inline constexpr int64_t kBytesPerTriangleOfFields = 500;
inline constexpr int64_t kBytesPerImagePixel = 12;  // pixels + encoded
// Per vertex, whether triangles use it or not (a Start may declare 200,000
// vertices for one triangle): a frame's bytes, decoded positions and the
// session's copies; with per-vertex outputs (vertex fields or amplitudes, a
// wrinkled mesh) their arrays and answers too.
inline constexpr int64_t kBytesPerVertex = 160;
inline constexpr int64_t kBytesPerVertexOfOutputs = 480;
inline constexpr int64_t kBytesPerUvMapTexel = 16;  // maps, base, PNGs
// What the server holds before any session (threads, EGL, llvmpipe, gRPC).
inline constexpr int64_t kServerBaseBytes = int64_t{256} << 20;

struct SessionCost {
  int64_t bytes = 0;
  std::string what;  // "80000 triangles, wrinkled mesh level 4, ..."
};
SessionCost EstimateSessionCost(const SessionSetup& setup);

// 80 % of the memory this process may use: the cgroup's limit (v2
// memory.max, or v1 memory.limit_in_bytes) where one is set, else the
// machine's memory.
int64_t DefaultMaxMemoryBytes();

class MemoryBudget {
 public:
  // `max_bytes`: all the server may use, kServerBaseBytes included.
  explicit MemoryBudget(int64_t max_bytes) : max_bytes_(max_bytes) {}
  // RESOURCE_EXHAUSTED naming the cost, what is free and the budget when
  // `cost` does not fit; else reserves it.
  absl::Status Reserve(const SessionCost& cost);
  void Release(int64_t bytes);
  int64_t reserved() const;
  int64_t max_bytes() const { return max_bytes_; }

 private:
  const int64_t max_bytes_;
  mutable absl::Mutex mu_;
  int64_t reserved_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_MEMORY_BUDGET_H_
