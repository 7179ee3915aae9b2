#ifndef CREASE_RENDERER_UV_MAP_DILATION_H_
#define CREASE_RENDERER_UV_MAP_DILATION_H_
// The UV maps' dilation across seams: the covered region (normal alpha 255)
// grows by `rings` texels, an uncovered texel with covered 8-neighbours taking
// their mean normal (renormalised) and height, ring by ring. Which texel is
// filled from which neighbours depends only on the coverage, and the coverage
// only on the size and the UVs, so a DilationPlan records the fills once and
// a frame re-fills only those near what it drew. No GL.

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "renderer/uv_maps.h"

namespace crease {
class HelperThread;  // common/helper_thread.h
}  // namespace crease

namespace crease::renderer {

// A texel rectangle of the maps, rows top to bottom, bounds inclusive (may
// reach past the maps: clipped).
struct TexelBox {
  int x0 = 0, y0 = 0, x1 = -1, y1 = -1;
};

// Flags (`tiles` x `tiles` of them, row by row, cleared first) the `tile` x
// `tile` blocks of a size x size map that the boxes, grown by `grow` texels
// and clipped to the map, touch; false if none.
bool MarkTiles(absl::Span<const TexelBox> boxes, int size, int tile, int grow,
               std::vector<uint8_t>* flags);

// The fills of one coverage's dilation, in the order its rings make them:
// made once (Build), then re-made per frame only near what the frame drew
// (Refill), so a frame's cost follows its wrinkles, not the islands' outline.
class DilationPlan {
 public:
  // Records the fills that `rings` rings (clamped to 0..size) make on `maps`'
  // coverage, and makes them: `maps` comes out dilated. Allocates; once per
  // coverage.
  void Build(int rings, UvMaps* maps);

  // Makes again, in ring order, every recorded fill within `rings` texels of
  // a box in `changed` (the texels drawn since Build's maps; rows as there;
  // covered texels only; empty boxes are skipped) whose target or sources
  // differ from what Build saw: one whose inputs are all Build's would make
  // Build's value, which its target holds. Every other dilated texel keeps
  // its value, which is then the one Build's rule gives these maps. Maps of
  // another size than Build's are left alone. Does not allocate. With
  // `helper`, each ring's fills are shared with it (a ring's fills read only
  // texels covered before it, so they are independent).
  void Refill(absl::Span<const TexelBox> changed, UvMaps* maps,
              HelperThread* helper = nullptr);

  size_t fills() const { return targets_.size(); }

 private:
  absl::Span<const int32_t> Sources(size_t k) const;
  // Whether fill k's target and sources hold what Build saw.
  bool AsBuilt(size_t k, const UvMaps& maps) const;
  // Refill's work on fills [begin, end) of one ring.
  void RefillFills(size_t begin, size_t end, UvMaps* maps) const;

  // Fill k: texel targets_[k] from sources_[source_begin_[k] ..
  // source_begin_[k + 1]), in the order the rings made them.
  std::vector<int32_t> targets_;
  std::vector<int32_t> target_tiles_;  // targets_' dirty_tiles_ indices
  std::vector<uint32_t> source_begin_;
  std::vector<int32_t> sources_;
  // What Build saw: each source's texel when its fill was made, each
  // target's after (normal RGBA8 as one word, height).
  std::vector<uint32_t> source_normals_, target_normals_;
  std::vector<uint16_t> source_heights_, target_heights_;
  int rings_ = 0;
  int size_ = 0;
  std::vector<size_t> ring_begin_;  // each ring's first fill, then the end
  // Refill's scratch: one flag per kTile x kTile block of texels.
  std::vector<uint8_t> dirty_tiles_;
};

// Dilates `maps` by `rings` rings once (a plan made and dropped).
void DilateUvMaps(int rings, UvMaps* maps);

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_UV_MAP_DILATION_H_
