#include "server/memory_budget.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"

namespace crease::server {
namespace {

std::string Mb(int64_t bytes) {
  return absl::StrFormat("%.0f MB", static_cast<double>(bytes) / (1 << 20));
}

// The first line of `path` as a number of bytes, or 0 ("max", missing).
int64_t ReadLimit(const char* path) {
  std::ifstream file(path);
  std::string line;
  if (!std::getline(file, line)) return 0;
  int64_t value = 0;
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(line), &value)) return 0;
  return value;
}

}  // namespace

SessionCost EstimateSessionCost(const SessionSetup& setup) {
  const int64_t triangles = static_cast<int64_t>(setup.triangles.size());
  SessionCost cost;
  const int64_t vertices = setup.vertex_count;
  cost.bytes = triangles * kBytesPerTriangle + vertices * kBytesPerVertex;
  std::vector<std::string> parts = {
      absl::StrCat(triangles, " triangles, ", vertices, " vertices")};
  if (setup.outputs.vertex_fields() || setup.outputs.vertex_amplitudes() ||
      setup.outputs.wrinkled_mesh().level() > 0) {
    cost.bytes += vertices * kBytesPerVertexOfOutputs;
  }
  if (const int64_t level = setup.outputs.wrinkled_mesh().level();
      level > 0 &&
      (setup.model == nullptr || !setup.model->GivesWrinkledMesh())) {
    cost.bytes += level * level * triangles * kBytesPerRefinedTriangle;
    parts.push_back(absl::StrCat("wrinkled mesh level ", level));
  }
  if (setup.outputs.labels() || setup.outputs.tensors() ||
      setup.outputs.vertex_fields() || setup.outputs.vertex_amplitudes()) {
    cost.bytes += triangles * kBytesPerTriangleOfFields;
    parts.push_back("per-triangle or per-vertex fields");
  }
  if (setup.image) {
    cost.bytes += static_cast<int64_t>(setup.render_options.width) *
                  setup.render_options.height * kBytesPerImagePixel;
    parts.push_back(absl::StrFormat("%dx%d images", setup.render_options.width,
                                    setup.render_options.height));
  }
  if (setup.uv_maps) {
    const int64_t size = setup.uv_maps->size;
    cost.bytes += size * size * kBytesPerUvMapTexel;
    parts.push_back(absl::StrCat(size, "² UV maps"));
  }
  if (const int64_t model =
          setup.model != nullptr ? setup.model->MemoryBytes() : 0;
      model > 0) {
    cost.bytes += model;
    parts.push_back(absl::StrCat("the model's ", model, " bytes"));
  }
  cost.what = absl::StrJoin(parts, ", ");
  return cost;
}

int64_t DefaultMaxMemoryBytes() {
  int64_t limit = ReadLimit("/sys/fs/cgroup/memory.max");
  if (limit <= 0)
    limit = ReadLimit("/sys/fs/cgroup/memory/memory.limit_in_bytes");
  const int64_t physical =
      static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  // cgroup v1 reports "no limit" as a huge number.
  if (limit <= 0 || limit > physical) limit = physical;
  return limit / 5 * 4;
}

absl::Status MemoryBudget::Reserve(const SessionCost& cost) {
  absl::MutexLock lock(&mu_);
  const int64_t free = max_bytes_ - kServerBaseBytes - reserved_;
  if (cost.bytes > free) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "this session would need about %s (%s); %s of the server's memory "
        "budget of %s is free (max_memory)",
        Mb(cost.bytes), cost.what, Mb(std::max<int64_t>(free, 0)),
        Mb(max_bytes_)));
  }
  reserved_ += cost.bytes;
  return absl::OkStatus();
}

void MemoryBudget::Release(int64_t bytes) {
  absl::MutexLock lock(&mu_);
  reserved_ -= bytes;
}

int64_t MemoryBudget::reserved() const {
  absl::MutexLock lock(&mu_);
  return reserved_;
}

}  // namespace crease::server
