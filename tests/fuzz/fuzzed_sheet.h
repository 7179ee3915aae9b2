#ifndef CREASE_TESTS_FUZZ_FUZZED_SHEET_H_
#define CREASE_TESTS_FUZZ_FUZZED_SHEET_H_

// Small animated sheets decoded from fuzzer bytes, shared by the targets that
// run Sessions: the grid, its holes, extra (possibly degenerate or
// non-manifold) triangles, inconsistent winding, a seam to weld, the
// parameters and every frame's motion all come from the input.

#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <utility>
#include <vector>

#include "tests/fuzz/fuzz_input.h"
#include "wrinkle/io/triangle_mesh.h"
#include "wrinkle/sca2015/session.h"

namespace crease::fuzz {

inline constexpr double kSpacing = 0.05;  // metres between grid vertices

struct Sheet {
  int nx = 0, ny = 0;
  std::vector<io::Triangle> triangles;
  std::vector<float> rest;  // packed xyz
};

inline Sheet MakeSheet(FuzzInput& in, uint8_t flags) {
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

inline SessionParams MakeParams(FuzzInput& in, uint8_t flags) {
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
inline void MakeFrame(FuzzInput& in, const Sheet& sheet,
                      std::vector<float>& out) {
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

// The first bytes of every session-running target's input: the sheet, its
// parameters and how many frames follow.
struct FuzzedAnimation {
  uint8_t flags = 0;
  int frames = 0;
  Sheet sheet;
  std::unique_ptr<Session> session;  // null: Session::Create refused the mesh
};

inline FuzzedAnimation StartFuzzedAnimation(FuzzInput& in) {
  FuzzedAnimation a;
  a.flags = in.Byte();
  a.frames = 1 + in.Below(12);
  a.sheet = MakeSheet(in, a.flags);
  const SessionParams params = MakeParams(in, a.flags);
  const std::vector<float> no_rest;
  absl::StatusOr<std::unique_ptr<Session>> session = Session::Create(
      a.sheet.triangles, (a.flags & 0x04) ? no_rest : a.sheet.rest, params);
  if (session.ok()) a.session = *std::move(session);
  return a;
}

}  // namespace crease::fuzz

#endif  // CREASE_TESTS_FUZZ_FUZZED_SHEET_H_
