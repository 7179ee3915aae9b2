#include "renderer/pixel_readback.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "renderer/gl/offscreen_target.h"

namespace crease::renderer {

// Which slots are leased: shared with the leases, which may outlive a frame
// on the GL thread and end on an encoding thread.
struct ReadbackPixels::Ring {
  absl::Mutex mu;
  std::vector<int> leased ABSL_GUARDED_BY(mu);  // leases of each slot
  int leases ABSL_GUARDED_BY(mu) = 0;
};

struct PixelReadback::Slot {
  GLuint buffer = 0;
  void* mapped = nullptr;  // persistently mapped for reading
  size_t capacity = 0;
  GLsync fence = nullptr;  // set while in flight
  int width = 0, height = 0;
  bool bottom_up = true;  // the target's resolved rows' order
};

ReadbackPixels::ReadbackPixels(ReadbackPixels&& other) noexcept
    : ring_(std::move(other.ring_)),
      slot_(std::exchange(other.slot_, -1)),
      rows_(other.rows_) {}

ReadbackPixels& ReadbackPixels::operator=(ReadbackPixels&& other) noexcept {
  if (this != &other) {
    Release();
    ring_ = std::move(other.ring_);
    slot_ = std::exchange(other.slot_, -1);
    rows_ = other.rows_;
  }
  return *this;
}

ReadbackPixels::~ReadbackPixels() { Release(); }

void ReadbackPixels::Release() {
  if (ring_ == nullptr || slot_ < 0) return;
  absl::MutexLock lock(&ring_->mu);
  --ring_->leased[slot_];
  --ring_->leases;
  slot_ = -1;
  ring_.reset();
}

image::RgbaImage ReadbackPixels::ToImage() const {
  image::RgbaImage image;
  image.width = rows_.width;
  image.height = rows_.height;
  const size_t row = static_cast<size_t>(rows_.width) * 4;
  image.pixels.resize(row * rows_.height);
  for (int y = 0; y < rows_.height; ++y) {
    const int stored = rows_.bottom_up ? rows_.height - 1 - y : y;
    std::memcpy(image.pixels.data() + row * y, rows_.data + row * stored, row);
  }
  return image;
}

absl::StatusOr<std::vector<ReadbackPixels>> ReadbackPixels::Split(
    int parts) && {
  if (ring_ == nullptr || slot_ < 0) {
    return absl::InvalidArgumentError("splitting an empty lease");
  }
  if (parts < 1 || rows_.height % parts != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%d rows do not split into %d equal parts", rows_.height, parts));
  }
  {
    absl::MutexLock lock(&ring_->mu);
    ring_->leased[slot_] += parts - 1;
    ring_->leases += parts - 1;
  }
  const int height = rows_.height / parts;
  const size_t part_bytes = static_cast<size_t>(rows_.width) * height * 4;
  std::vector<ReadbackPixels> split;
  split.reserve(parts);
  for (int i = 0; i < parts; ++i) {
    // Part i lies i parts up from the bottom: first in memory when the rows
    // run bottom to top, last when they run top to bottom.
    const int stored = rows_.bottom_up ? i : parts - 1 - i;
    const image::RgbaRows rows{
        rows_.width, height, rows_.data + part_bytes * stored, rows_.bottom_up};
    split.push_back(ReadbackPixels(ring_, slot_, rows));
  }
  // This lease's count went to the last part.
  ring_.reset();
  slot_ = -1;
  return split;
}

PixelReadback::PixelReadback(GpuContext* gpu)
    : gpu_(gpu), ring_(std::make_shared<ReadbackPixels::Ring>()) {}

absl::StatusOr<std::unique_ptr<PixelReadback>> PixelReadback::Create(
    GpuContext* gpu, int slots) {
  if (slots < 1) return absl::InvalidArgumentError("read-back slots < 1");
  CREASE_RETURN_IF_ERROR(gpu->MakeCurrent());
  std::unique_ptr<PixelReadback> readback(new PixelReadback(gpu));
  readback->slots_.resize(slots);
  absl::MutexLock lock(&readback->ring_->mu);
  readback->ring_->leased.assign(slots, 0);
  return readback;
}

PixelReadback::~PixelReadback() {
  {
    absl::MutexLock lock(&ring_->mu);
    ring_->mu.Await(absl::Condition(
        +[](ReadbackPixels::Ring* r)
             ABSL_EXCLUSIVE_LOCKS_REQUIRED(r->mu) { return r->leases == 0; },
        ring_.get()));
  }
  if (!gpu_->MakeCurrent().ok()) return;  // the context is gone with them
  for (Slot& slot : slots_) {
    if (slot.fence != nullptr) glDeleteSync(slot.fence);
    if (slot.buffer != 0) {
      glUnmapNamedBuffer(slot.buffer);
      glDeleteBuffers(1, &slot.buffer);
    }
  }
}

absl::Status PixelReadback::EnsureCapacity(Slot& slot, size_t bytes) {
  if (slot.capacity >= bytes) return absl::OkStatus();
  if (slot.buffer != 0) {
    glUnmapNamedBuffer(slot.buffer);
    glDeleteBuffers(1, &slot.buffer);
    slot = Slot();
  }
  // Immutable storage mapped once for the buffer's lifetime; client storage
  // asks the driver to keep it in CPU memory, where read-backs belong.
  const GLbitfield flags =
      GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
  glCreateBuffers(1, &slot.buffer);
  glNamedBufferStorage(slot.buffer, static_cast<GLsizeiptr>(bytes), nullptr,
                       flags | GL_CLIENT_STORAGE_BIT);
  slot.mapped = glMapNamedBufferRange(slot.buffer, 0,
                                      static_cast<GLsizeiptr>(bytes), flags);
  if (slot.mapped == nullptr) {
    glDeleteBuffers(1, &slot.buffer);
    slot = Slot();
    return absl::InternalError(absl::StrFormat(
        "mapping a %d-byte read-back buffer failed (GL error 0x%04x)", bytes,
        glGetError()));
  }
  slot.capacity = bytes;
  return absl::OkStatus();
}

bool PixelReadback::Trim(size_t max_bytes) {
  absl::MutexLock lock(&ring_->mu);
  bool all = true;
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (slot.capacity <= max_bytes) continue;
    if (slot.fence != nullptr || ring_->leased[i]) {
      all = false;
      continue;
    }
    glUnmapNamedBuffer(slot.buffer);
    glDeleteBuffers(1, &slot.buffer);
    slot = Slot();
  }
  return all;
}

int PixelReadback::slots() const { return static_cast<int>(slots_.size()); }

size_t PixelReadback::held_bytes() const {
  size_t bytes = 0;
  for (const Slot& slot : slots_) bytes += slot.capacity;
  return bytes;
}

size_t PixelReadback::largest_slot_bytes() const {
  size_t largest = 0;
  for (const Slot& slot : slots_) largest = std::max(largest, slot.capacity);
  return largest;
}

int PixelReadback::free_slots() const {
  absl::MutexLock lock(&ring_->mu);
  int free = 0;
  for (size_t i = 0; i < slots_.size(); ++i) {
    free += slots_[i].fence == nullptr && !ring_->leased[i];
  }
  return free;
}

absl::StatusOr<ReadbackTicket> PixelReadback::Start(
    const gl::OffscreenTarget& target) {
  int chosen = -1;
  {
    absl::MutexLock lock(&ring_->mu);
    bool any_not_in_flight = false;
    for (const Slot& slot : slots_) any_not_in_flight |= slot.fence == nullptr;
    if (!any_not_in_flight) {
      return absl::FailedPreconditionError(
          "every read-back slot is in flight: finish one first");
    }
    // A slot not in flight is free or leased; wait for a lease if need be.
    auto find_free = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(ring_->mu) {
      for (size_t i = 0; i < slots_.size(); ++i) {
        if (slots_[i].fence == nullptr && !ring_->leased[i]) {
          chosen = static_cast<int>(i);
          return true;
        }
      }
      return false;
    };
    ring_->mu.Await(absl::Condition(&find_free));
  }
  Slot& slot = slots_[chosen];
  const size_t bytes =
      static_cast<size_t>(target.width()) * target.height() * 4;
  CREASE_RETURN_IF_ERROR(EnsureCapacity(slot, bytes));
  target.BindResolvedForRead();
  glBindBuffer(GL_PIXEL_PACK_BUFFER, slot.buffer);
  glReadPixels(0, 0, target.width(), target.height(), GL_RGBA, GL_UNSIGNED_BYTE,
               nullptr);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  slot.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  slot.width = target.width();
  slot.height = target.height();
  slot.bottom_up = !target.rows_top_down();
  if (slot.fence == nullptr) {
    return absl::InternalError(
        absl::StrFormat("glFenceSync failed (GL error 0x%04x)", glGetError()));
  }
  glFlush();  // the GPU starts on it while the caller draws the next frame
  return ReadbackTicket{chosen};
}

bool PixelReadback::Arrived(const ReadbackTicket& ticket) {
  const Slot& slot = slots_[ticket.slot];
  if (slot.fence == nullptr) return false;
  GLint status = GL_UNSIGNALED;
  glGetSynciv(slot.fence, GL_SYNC_STATUS, 1, nullptr, &status);
  return status == GL_SIGNALED;
}

absl::StatusOr<ReadbackPixels> PixelReadback::Finish(
    const ReadbackTicket& ticket, int timeout_ms) {
  if (ticket.slot < 0 || ticket.slot >= slots() ||
      slots_[ticket.slot].fence == nullptr) {
    return absl::InvalidArgumentError("no read-back under way in that slot");
  }
  Slot& slot = slots_[ticket.slot];
  const GLenum waited =
      glClientWaitSync(slot.fence, GL_SYNC_FLUSH_COMMANDS_BIT,
                       static_cast<GLuint64>(timeout_ms) * 1000000);
  glDeleteSync(slot.fence);
  slot.fence = nullptr;
  if (waited == GL_TIMEOUT_EXPIRED) {
    return absl::DeadlineExceededError(absl::StrFormat(
        "the GPU did not finish a frame's read-back in %d ms", timeout_ms));
  }
  if (waited == GL_WAIT_FAILED) {
    return absl::InternalError(absl::StrFormat(
        "waiting for a frame's read-back failed (GL error 0x%04x)",
        glGetError()));
  }
  {
    absl::MutexLock lock(&ring_->mu);
    ring_->leased[ticket.slot] = 1;
    ++ring_->leases;
  }
  const image::RgbaRows rows{slot.width, slot.height,
                             static_cast<const uint8_t*>(slot.mapped),
                             slot.bottom_up};
  return ReadbackPixels(ring_, ticket.slot, rows);
}

}  // namespace crease::renderer
