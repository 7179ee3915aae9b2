#ifndef CREASE_RENDERER_PIXEL_READBACK_H_
#define CREASE_RENDERER_PIXEL_READBACK_H_

// Asynchronous read-back of drawn frames: glReadPixels into one of a ring of
// persistently mapped pixel buffers, with a fence, so the GPU goes on drawing
// the next frames while earlier pixels travel, and the CPU reads them (to
// encode them, on any thread) straight from the mapped memory: no copy, no
// flip (rows stay as the target resolved them, bottom to top for GL's blit
// resolve, top to bottom for TargetPasses'; the encoders take either).

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "image/rgba_image.h"
#include "renderer/gpu_context.h"

namespace crease::renderer {
namespace gl {
class OffscreenTarget;  // gl/offscreen_target.h
}  // namespace gl

class PixelReadback;

// One read-back frame's pixels, borrowed from a slot of the ring until this
// lease is destroyed (from any thread); the ring cannot reuse the slot until
// then.
class ReadbackPixels {
 public:
  ReadbackPixels() = default;
  ReadbackPixels(ReadbackPixels&& other) noexcept;
  ReadbackPixels& operator=(ReadbackPixels&& other) noexcept;
  ~ReadbackPixels();

  // RGBA8, rows bottom to top (GL's order) or top to bottom (rows().bottom_up
  // says: the target's OffscreenTarget::rows_top_down).
  const image::RgbaRows& rows() const { return rows_; }
  // A top-down copy, for tests and callers that keep the image.
  image::RgbaImage ToImage() const;
  // Cuts a batch's pixels (FrameRenderer::DrawBatchToReadback) into `parts`
  // leases of height / parts rows each, part i from row i * height / parts
  // up counted from the bottom (GL's order, whichever way the rows run in
  // memory): each frame's own rows, no copy. The slot is free once
  // every part is gone. InvalidArgument unless parts divides the height.
  absl::StatusOr<std::vector<ReadbackPixels>> Split(int parts) &&;

 private:
  friend class PixelReadback;
  struct Ring;
  ReadbackPixels(std::shared_ptr<Ring> ring, int slot, image::RgbaRows rows)
      : ring_(std::move(ring)), slot_(slot), rows_(rows) {}
  void Release();
  std::shared_ptr<Ring> ring_;
  int slot_ = -1;
  image::RgbaRows rows_;
};

// A read-back under way: what Start gave, for Arrived and Finish.
struct ReadbackTicket {
  int slot = -1;
};

// Owned and used on the thread where its GpuContext is current, except the
// leases it hands out.
class PixelReadback {
 public:
  // `slots`: frames that can be in flight or leased at once (>= 1).
  static absl::StatusOr<std::unique_ptr<PixelReadback>> Create(GpuContext* gpu,
                                                               int slots);
  // Waits until every lease is back, then frees the buffers.
  ~PixelReadback();
  PixelReadback(const PixelReadback&) = delete;
  PixelReadback& operator=(const PixelReadback&) = delete;

  // Resolves `target` and starts reading its colour into a free slot. Waits
  // for a lease to come back when every slot not in flight is leased;
  // FailedPrecondition when every slot is in flight (Finish one first).
  absl::StatusOr<ReadbackTicket> Start(const gl::OffscreenTarget& target);
  // Whether the ticket's pixels have arrived (never waits).
  bool Arrived(const ReadbackTicket& ticket);
  // Waits (at most `timeout_ms`) for the pixels and leases them out.
  // DeadlineExceeded or Internal (the fence failed: a lost context) otherwise;
  // the slot is free again either way.
  absl::StatusOr<ReadbackPixels> Finish(const ReadbackTicket& ticket,
                                        int timeout_ms = 5000);
  // Frees the buffers of free slots larger than `max_bytes` (after an
  // unusually large frame, so one request does not keep its buffers); false
  // while such a slot is still in flight or leased (call again later).
  bool Trim(size_t max_bytes);
  // Slots neither in flight nor leased.
  int free_slots() const;
  // Bytes of pixel buffers the slots hold, in all and in the largest.
  size_t held_bytes() const;
  size_t largest_slot_bytes() const;
  int slots() const;

 private:
  struct Slot;
  explicit PixelReadback(GpuContext* gpu);
  absl::Status EnsureCapacity(Slot& slot, size_t bytes);
  GpuContext* gpu_;
  std::vector<Slot> slots_;  // Slot is complete in the .cc only
  std::shared_ptr<ReadbackPixels::Ring> ring_;
};

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_PIXEL_READBACK_H_
