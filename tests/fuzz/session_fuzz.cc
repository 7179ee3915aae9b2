// Fuzzes a whole Session on small animated sheets: the grid, its holes, extra
// (possibly degenerate or non-manifold) triangles, inconsistent winding, a
// seam to weld, the parameters and every frame's motion all come from the
// input. Each frame of finite positions must be accepted, and after it the
// outputs must satisfy CheckSessionOutputs.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numbers>
#include <vector>

#include "tests/fuzz/fuzz_input.h"
#include "tests/fuzz/session_invariants.h"
#include "wrinkle/session.h"

namespace crease::fuzz {
namespace {

constexpr double kSpacing = 0.05;  // metres between grid vertices

struct Sheet {
  int nx = 0, ny = 0;
  std::vector<io::Triangle> triangles;
  std::vector<float> rest;  // packed xyz
};

Sheet MakeSheet(FuzzInput& in, uint8_t flags) {
  Sheet sheet;
  sheet.nx = 2 + in.Below(8);
  sheet.ny = 2 + in.Below(8);
  const int n = sheet.nx * sheet.ny;
  const bool tube = flags & 0x40;
  for (int j = 0; j < sheet.ny; ++j) {
    for (int i = 0; i < sheet.nx; ++i) {
      if (tube) {
        // The first and last columns coincide: a seam the session must weld.
        const double angle = 2 * std::numbers::pi * i / (sheet.nx - 1);
        const double radius =
            kSpacing * (sheet.nx - 1) / (2 * std::numbers::pi);
        sheet.rest.insert(sheet.rest.end(),
                          {static_cast<float>(radius * std::cos(angle)),
                           static_cast<float>(kSpacing * j),
                           static_cast<float>(radius * std::sin(angle))});
      } else {
        sheet.rest.insert(sheet.rest.end(),
                          {static_cast<float>(kSpacing * i),
                           static_cast<float>(kSpacing * j), 0.0f});
      }
    }
  }
  const bool drop = flags & 0x01;
  uint8_t drop_bits = 0;
  int triangle = 0;
  for (int j = 0; j + 1 < sheet.ny; ++j) {
    for (int i = 0; i + 1 < sheet.nx; ++i) {
      const int v = j * sheet.nx + i;
      for (io::Triangle t : {io::Triangle{v, v + 1, v + sheet.nx + 1},
                             io::Triangle{v, v + sheet.nx + 1, v + sheet.nx}}) {
        if (drop) {
          if (triangle % 8 == 0) drop_bits = in.Byte();
          if (drop_bits & (1 << (triangle % 8))) {
            ++triangle;
            continue;
          }
        }
        if ((flags & 0x80) && triangle % 2 == 1) std::swap(t[1], t[2]);
        sheet.triangles.push_back(t);
        ++triangle;
      }
    }
  }
  if (flags & 0x02) {
    const int extra = in.Below(8);
    for (int k = 0; k < extra; ++k) {
      sheet.triangles.push_back({in.Below(n), in.Below(n), in.Below(n)});
    }
  }
  return sheet;
}

SessionParams MakeParams(FuzzInput& in, uint8_t flags) {
  SessionParams params;
  constexpr double kMinWidths[] = {0.0, 0.005, 0.05, 1e-4};
  params.wrinkles.min_width = kMinWidths[(flags >> 4) & 3];
  params.retrace_every_frame = flags & 0x08;
  params.wrinkles.max_wrinkles = 1 + in.Below(64);
  params.wrinkles.max_new_per_frame = 1 + in.Below(16);
  params.wrinkles.tracing.tau = 1.01 + in.Below(64) / 32.0;
  params.wrinkles.seed = in.Byte();
  return params;
}

// One frame: the sheet squeezed along x, bent out of plane per vertex; some
// vertices collapse onto vertex 0 (degenerate triangles) or fly far away.
void MakeFrame(FuzzInput& in, const Sheet& sheet, std::vector<float>& out) {
  const double squeeze = 0.5 + in.Byte() / 255.0 * 0.7;
  const double amplitude = 0.002 * (in.Byte() & 15);
  const double scale = (in.Byte() == 0xff) ? 1e6 : 1.0;
  out = sheet.rest;
  for (size_t v = 0; v < out.size() / 3; ++v) {
    const uint8_t b = in.Byte();
    float* p = &out[3 * v];
    if (b == 0x80) {
      p[0] = out[0], p[1] = out[1], p[2] = out[2];
      continue;
    }
    p[0] = static_cast<float>(p[0] * squeeze * scale);
    p[1] = static_cast<float>(p[1] * scale);
    p[2] = static_cast<float>(
        (p[2] + amplitude * static_cast<int8_t>(b) / 16.0) * scale);
  }
}

}  // namespace
}  // namespace crease::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace crease;
  fuzz::FuzzInput in(data, size);
  const uint8_t flags = in.Byte();
  const int frames = 1 + in.Below(12);
  const fuzz::Sheet sheet = fuzz::MakeSheet(in, flags);
  const SessionParams params = fuzz::MakeParams(in, flags);
  const std::vector<float> no_rest;
  absl::StatusOr<std::unique_ptr<Session>> session = Session::Create(
      sheet.triangles, (flags & 0x04) ? no_rest : sheet.rest, params);
  if (!session.ok()) return 0;
  std::vector<float> positions;
  size_t most_wrinkles = 0;
  for (int f = 0; f < frames; ++f) {
    fuzz::MakeFrame(in, sheet, positions);
    CREASE_FUZZ_CHECK((*session)->ProcessFrame(positions).ok());
    fuzz::CheckSessionOutputs(**session);
    most_wrinkles =
        std::max(most_wrinkles, (*session)->wrinkles().wrinkles().size());
  }
  // What the corpus reaches, for whoever curates it.
  if (std::getenv("CREASE_FUZZ_VERBOSE") != nullptr) {
    std::fprintf(stderr, "%d triangles, %d frames, up to %zu wrinkles\n",
                 (*session)->num_triangles(), frames, most_wrinkles);
  }
  return 0;
}
