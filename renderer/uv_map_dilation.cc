#include "renderer/uv_map_dilation.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "common/helper_thread.h"

namespace crease::renderer {
namespace {

// Refill marks changes on blocks of this many texels a side: a piece of a
// few texels dirties one to four blocks, and a 1024² map has 4,096 flags to
// clear a frame.
constexpr int kTile = 16;

// Texel `target` from the mean of `sources`' normals (renormalised) and
// heights; alpha 255.
void Fill(absl::Span<const int32_t> sources, int32_t target, UvMaps* maps) {
  uint8_t* pixels = maps->normal.pixels.data();
  float sum[3] = {0, 0, 0};
  uint32_t height_sum = 0;
  const uint32_t count = static_cast<uint32_t>(sources.size());
  for (const int32_t s : sources) {
    const uint8_t* from = pixels + 4 * static_cast<size_t>(s);
    for (int c = 0; c < 3; ++c) sum[c] += from[c] / 127.5f - 1.0f;
    height_sum += maps->height[s];
  }
  const float len =
      std::sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
  uint8_t* to = pixels + 4 * static_cast<size_t>(target);
  for (int c = 0; c < 3; ++c) {
    const float unit = len > 0.0f ? sum[c] / len : (c == 2 ? 1.0f : 0.0f);
    // Non-negative, so adding a half and truncating rounds to nearest.
    to[c] = static_cast<uint8_t>(
        std::clamp(0.5f * unit + 0.5f, 0.0f, 1.0f) * 255.0f + 0.5f);
  }
  to[3] = 255;
  maps->height[target] =
      static_cast<uint16_t>((height_sum + count / 2) / count);
}

// One bit a texel, alpha 255 set; bits past `size` in a row's last word stay 0.
std::vector<uint64_t> CoverageBits(const UvMaps& maps, int words_per_row) {
  const int size = maps.size;
  std::vector<uint64_t> covered(static_cast<size_t>(size) * words_per_row, 0);
  const uint8_t* alpha = maps.normal.pixels.data() + 3;
  for (int y = 0; y < size; ++y) {
    uint64_t* row = covered.data() + static_cast<size_t>(y) * words_per_row;
    for (int word = 0; word < words_per_row; ++word) {
      const int bits = std::min(64, size - 64 * word);
      uint64_t w = 0;
      for (int b = 0; b < bits; ++b) {
        w |= static_cast<uint64_t>(alpha[4 * b] == 255) << b;
      }
      row[word] = w;
      alpha += 4 * bits;
    }
  }
  return covered;
}

// Uncovered texels with a covered 8-neighbour: the covered bits spread one
// texel sideways (across word boundaries), then one row up and down.
void BorderBits(const std::vector<uint64_t>& covered, int size,
                int words_per_row, std::vector<uint64_t>* border) {
  border->assign(covered.size(), 0);
  const uint64_t last_mask =
      (size & 63) == 0 ? ~uint64_t{0} : (uint64_t{1} << (size & 63)) - 1;
  auto spread = [&](int y, int w) -> uint64_t {
    const uint64_t* row =
        covered.data() + static_cast<size_t>(y) * words_per_row;
    const uint64_t c = row[w];
    const uint64_t below = w > 0 ? row[w - 1] >> 63 : 0;
    const uint64_t above = w + 1 < words_per_row ? row[w + 1] << 63 : 0;
    return c | (c << 1) | below | (c >> 1) | above;
  };
  for (int y = 0; y < size; ++y) {
    for (int w = 0; w < words_per_row; ++w) {
      uint64_t near = spread(y, w);
      if (y > 0) near |= spread(y - 1, w);
      if (y + 1 < size) near |= spread(y + 1, w);
      const size_t i = static_cast<size_t>(y) * words_per_row + w;
      uint64_t bits = near & ~covered[i];
      if (w + 1 == words_per_row) bits &= last_mask;
      (*border)[i] = bits;
    }
  }
}

uint32_t NormalWord(const UvMaps& maps, int32_t texel) {
  uint32_t word;
  std::memcpy(&word, maps.normal.pixels.data() + 4 * static_cast<size_t>(texel),
              sizeof(word));
  return word;
}

bool IsSet(const std::vector<uint64_t>& bits, int words_per_row, int x, int y) {
  return (bits[static_cast<size_t>(y) * words_per_row + x / 64] >> (x & 63)) &
         1;
}

}  // namespace

void DilationPlan::Build(int rings, UvMaps* maps) {
  const int size = maps->size;
  // More rings than texels a side cannot fill anything more.
  rings_ = std::clamp(rings, 0, std::max(size, 0));
  size_ = size;
  targets_.clear();
  target_tiles_.clear();
  ring_begin_.assign(1, 0);
  source_begin_.assign(1, 0);
  sources_.clear();
  source_normals_.clear();
  source_heights_.clear();
  target_normals_.clear();
  target_heights_.clear();
  const int tiles = (std::max(size, 0) + kTile - 1) / kTile;
  dirty_tiles_.assign(static_cast<size_t>(tiles) * tiles, 0);
  if (size <= 0) return;
  const int words_per_row = (size + 63) / 64;
  std::vector<uint64_t> covered = CoverageBits(*maps, words_per_row);
  std::vector<uint64_t> border;
  for (int ring = 0; ring < rings_; ++ring) {
    BorderBits(covered, size, words_per_row, &border);
    const size_t ring_begin = targets_.size();
    for (size_t word = 0; word < border.size(); ++word) {
      for (uint64_t bits = border[word]; bits != 0; bits &= bits - 1) {
        const int x = static_cast<int>(word % words_per_row) * 64 +
                      std::countr_zero(bits);
        const int y = static_cast<int>(word / words_per_row);
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            const int nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
            if (IsSet(covered, words_per_row, nx, ny)) {
              sources_.push_back(ny * size + nx);
            }
          }
        }
        targets_.push_back(y * size + x);
        target_tiles_.push_back((y / kTile) * tiles + x / kTile);
        source_begin_.push_back(static_cast<uint32_t>(sources_.size()));
      }
    }
    if (targets_.size() == ring_begin) break;
    // A ring's sources were all covered before it: made in any order, and
    // seen as they stay.
    for (size_t k = ring_begin; k < targets_.size(); ++k) {
      const int32_t i = targets_[k];
      for (const int32_t source : Sources(k)) {
        source_normals_.push_back(NormalWord(*maps, source));
        source_heights_.push_back(maps->height[source]);
      }
      Fill(Sources(k), i, maps);
      target_normals_.push_back(NormalWord(*maps, i));
      target_heights_.push_back(maps->height[i]);
      covered[static_cast<size_t>(i / size) * words_per_row +
              (i % size) / 64] |= uint64_t{1} << ((i % size) & 63);
    }
    ring_begin_.push_back(targets_.size());
  }
}

void DilationPlan::Refill(absl::Span<const TexelBox> changed, UvMaps* maps,
                          HelperThread* helper) {
  if (targets_.empty() || maps->size != size_) return;
  // A fill reads texels one ring nearer the islands: a change reaches
  // `rings_` texels out.
  const bool any = MarkTiles(changed, size_, kTile, rings_, &dirty_tiles_);
  if (!any) return;
  // Ring after ring; a ring's second half on the helper, when one is given
  // and the ring is worth the hand-over.
  constexpr size_t kMinShared = 4096;
  for (size_t r = 0; r + 1 < ring_begin_.size(); ++r) {
    const size_t begin = ring_begin_[r], end = ring_begin_[r + 1];
    if (helper == nullptr || end - begin < kMinShared) {
      RefillFills(begin, end, maps);
      continue;
    }
    // Two captures: std::function holds them without allocating.
    struct Half {
      size_t begin, end;
      UvMaps* maps;
    } half{begin + (end - begin) / 2, end, maps};
    HelperJob second(helper, [this, &half] {
      RefillFills(half.begin, half.end, half.maps);
    });
    RefillFills(begin, half.begin, maps);
    second.Wait();
  }
}

void DilationPlan::RefillFills(size_t begin, size_t end, UvMaps* maps) const {
  for (size_t k = begin; k < end; ++k) {
    if (!dirty_tiles_[target_tiles_[k]] || AsBuilt(k, *maps)) continue;
    Fill(Sources(k), targets_[k], maps);
  }
}

bool MarkTiles(absl::Span<const TexelBox> boxes, int size, int tile, int grow,
               std::vector<uint8_t>* flags) {
  const int tiles = (size + tile - 1) / tile;
  flags->assign(static_cast<size_t>(tiles) * tiles, 0);
  bool any = false;
  for (const TexelBox& box : boxes) {
    if (box.x1 < box.x0 || box.y1 < box.y0) continue;
    // 64-bit: a box may lie anywhere.
    const int64_t x0 = std::max<int64_t>(int64_t{box.x0} - grow, 0);
    const int64_t y0 = std::max<int64_t>(int64_t{box.y0} - grow, 0);
    const int64_t x1 = std::min<int64_t>(int64_t{box.x1} + grow, size - 1);
    const int64_t y1 = std::min<int64_t>(int64_t{box.y1} + grow, size - 1);
    if (x0 > x1 || y0 > y1) continue;
    for (int64_t ty = y0 / tile; ty <= y1 / tile; ++ty) {
      for (int64_t tx = x0 / tile; tx <= x1 / tile; ++tx) {
        (*flags)[static_cast<size_t>(ty) * tiles + tx] = 1;
        any = true;
      }
    }
  }
  return any;
}

bool DilationPlan::AsBuilt(size_t k, const UvMaps& maps) const {
  const int32_t target = targets_[k];
  if (NormalWord(maps, target) != target_normals_[k] ||
      maps.height[target] != target_heights_[k]) {
    return false;
  }
  for (uint32_t j = source_begin_[k]; j < source_begin_[k + 1]; ++j) {
    if (NormalWord(maps, sources_[j]) != source_normals_[j] ||
        maps.height[sources_[j]] != source_heights_[j]) {
      return false;
    }
  }
  return true;
}

absl::Span<const int32_t> DilationPlan::Sources(size_t k) const {
  return absl::MakeConstSpan(sources_.data() + source_begin_[k],
                             source_begin_[k + 1] - source_begin_[k]);
}

void DilateUvMaps(int rings, UvMaps* maps) {
  DilationPlan plan;
  plan.Build(rings, maps);
}

}  // namespace crease::renderer
