#ifndef CREASE_CLIENT_PREVIEW_PREVIEW_MESSAGES_H_
#define CREASE_CLIENT_PREVIEW_PREVIEW_MESSAGES_H_

// What crease-preview sends its page over the WebSocket: one JSON text
// message with both meshes' topology, then one binary message a frame
// (FrameMessage below gives the layout; README.md, "crease-preview", the use).

#include <cstdint>
#include <string>

#include "absl/types/span.h"
#include "crease/v1/crease.pb.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::client::preview {

// "CRPF", little-endian, first in every frame message.
inline constexpr uint32_t kFrameMagic = 0x46505243;

// The page's first message: {"frames", "fps", "coarse": {"triangles"},
// "wrinkled": {"level", "triangles"}, "server_version"}.
std::string InitMessage(const io::TriangleMesh& coarse,
                        const v1::Started& started, int num_frames, double fps);

// One frame (all little-endian):
//   u32 magic, u32 frame, f32 latency ms, u32 V (coarse vertices),
//   u32 W (wrinkled vertices), u32 T (coarse triangles), u32 K (paths),
//   u32 P (path points);
//   f32[3V] coarse positions, f32[3W] wrinkled positions, f32[3W] wrinkled
//   normals, f32[T] labels (TriangleLabel values), f32[T] compression
//   (1 - lambda_min, clamped at 0), u32[K] points per path, f32[3P] points.
// Missing labels or tensors are sent as zeros of their length; a missing
// wrinkled mesh as W = 0 (the page then hides it for that frame).
std::string FrameMessage(uint32_t frame, double latency_ms,
                         absl::Span<const float> coarse_positions,
                         int num_triangles, const v1::FrameResult& result);

}  // namespace crease::client::preview

#endif  // CREASE_CLIENT_PREVIEW_PREVIEW_MESSAGES_H_
