#ifndef CREASE_RENDERER_PATTERN_DATA_H_
#define CREASE_RENDERER_PATTERN_DATA_H_

// The CPU half of drawing the amplitude-modulated wrinkle-map model (Volino &
// Magnenat-Thalmann 1999; wrinkle/wrinkle_maps/amplitude_model.h computes it):
// the plain data FrameRenderer takes, the pattern's texture layers, and the
// per-vertex and per-edge data of the displaced variant. No GL: tested without
// a context. docs/algorithm.md, "Drawing the wrinkle-map model".

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "renderer/frame_data.h"

namespace crease::renderer {

// A wrinkle pattern as plain data (crease::WrinklePattern's fields, borrowed):
// heights h_c(uv) in [-1, 1], `channels` (1..3) interleaved per texel, row 0
// at v = 0, texel centres at ((x + 0.5) / width, (y + 0.5) / height).
struct PatternMap {
  int width = 0;
  int height = 0;
  int channels = 0;
  absl::Span<const float> samples;
  bool repeat = true;  // false: clamp to edge
  // Names a pattern its owner never changes (NewPatternId): the renderer
  // then uploads it again only when the id changes, instead of comparing
  // every sample each frame (3 MiB for a 512² tile of 3 channels, on the
  // thread that drives the GPU). 0: compare the samples.
  uint64_t id = 0;
};

// A process-unique pattern id, never 0 and never given twice (so a freed
// pattern's id cannot name a new one).
uint64_t NewPatternId();

// Ours: at each point the channels' amplitudes a_c, interpolated from the
// vertices, are drawn as a_c (a_c / a_max)^power (the positive ones; a_max
// the largest there), so where a coarse triangle's corners lead with
// channels 60° apart each part of it draws its own leader and the two fold
// families meet along a line, where the plain sum crossed them as a
// crosshatch over the whole triangle (docs/algorithm.md, "Drawing the
// wrinkle-map model"). At 8 both show only where the two lie within 30 % of
// each other (a fifth of such a triangle); at 4, within half.
inline constexpr float kLeadingChannelPower = 8.0f;

// One frame of the model: per vertex of the RenderMesh, `pattern.channels`
// amplitudes (AmplitudeModel::vertex_amplitudes(), k s in mesh units). The
// surface is Σ_c ã_c h_c(uv) above the smooth surface, ã the amplitudes at
// the point with the leading channel kept (kLeadingChannelPower).
struct PatternWrinkles {
  PatternMap pattern;
  absl::Span<const float> amplitudes;
  // false (the default) bump-maps the coarse mesh, per-pixel normals
  // filtered by the footprint; true also tessellates it and displaces it by
  // the pattern along the smooth normal.
  bool displace = false;
  // Displaced: zero displacement at vertices on UV seams, which keeps the
  // surface watertight where the two sides sample h at different UVs. false
  // only for tests, to show the cracks it prevents.
  bool seam_fade = true;
  // The power keeping the leading channel per point, [0, 64]; 0 draws the
  // plain sum Σ_c a_c h_c (for tests, to show the crosshatch it removes).
  float leading_channel_power = kLeadingChannelPower;
};

// Per side. The renderer keeps 2 half-float RGBA layers per channel with
// their mip chains: 67 MiB for 3 channels at 1,024², 16 times that at 4,096²
// (which WrinklePattern allows), too much to hold per render thread.
inline constexpr int kMaxPatternMapSize = 1024;

// InvalidArgument naming the field and the numbers: sizes outside
// 1..kMaxPatternMapSize, channels outside 1..3, a sample count other than
// width * height * channels, samples not finite or outside [-1, 1],
// amplitudes other than channels per vertex or not finite, a leading
// channel power outside [0, 64].
absl::Status ValidatePatternWrinkles(const PatternWrinkles& wrinkles,
                                     size_t num_vertices);

// The texture the shaders sample, 2 layers per channel of width * height
// RGBA floats: layer 2c holds (h, dh/dx, dh/dy, 0), layer 2c + 1 the second
// moments (dh/dx², dh/dy², dh/dx dh/dy, 0). Derivatives per texel (so all
// fit half floats; the shader scales them to UV units), by central
// differences (wrapped or clamped as the pattern is). Mip-mapping
// averages all of them, so a footprint's sample is the mean height, the mean
// slope and the mean squared slope over it: what the filtered normal needs.
void BuildPatternLayers(const PatternMap& pattern, std::vector<float>* out);

// Per channel, the pattern's wavelength in UV units, 2π sqrt(E[h²] /
// E[|∇h|²]) over the tile (1 / |f| for a sinusoid of frequency f); 0 for a
// flat channel. Sets where a channel fades out on screen.
std::array<float, 3> PatternWavelengths(const PatternMap& pattern,
                                        absl::Span<const float> layers);

// Per channel, the wavelength of the pattern's finest detail in UV units,
// 2π sqrt(E[|∇h|²] / E[|∇∇h|²]) over the tile (∇∇h the Hessian, its
// Frobenius norm): PatternWavelengths' value for one sinusoid, shorter where
// finer harmonics ride on it; 0 for a flat or planar channel. What
// DisplacementLod must not let alias.
std::array<float, 3> PatternDetailWavelengths(const PatternMap& pattern,
                                              absl::Span<const float> layers);

// Per vertex of the displaced variant: the weight of its displacement and
// the mip level it samples h at; per triangle, the tessellation levels (outer
// levels of edges (0 1), (1 2), (2 0), then the inner level).
struct PatternTessellation {
  std::vector<float> weight;  // per vertex: 0 on UV seams, else 1
  std::vector<float> lod;     // per vertex: DisplacementLod of its step
  std::vector<std::array<float, 4>> levels;
  int max_level = 1;
  int tessellated_triangles = 0;
  int seam_vertices = 0;
  // Per welded id: on a UV seam (when seam_fade), its first vertex, the
  // longest step (texels) of its displaced edges.
  std::vector<uint8_t> welded_seam;
  std::vector<int32_t> representative;
  std::vector<float> welded_step;
};

struct PatternTarget {
  Eigen::Matrix4f view_projection = Eigen::Matrix4f::Identity();
  int width = 640, height = 480;
  float min_edge_pixels = 8.0f;
  int max_level = 64;
  // Zero displacement on UV-seam vertices (the rule that keeps it
  // watertight); false only to show in tests what it prevents.
  bool seam_fade = true;
};

// For `wrinkles` on `mesh` (welded ids and corner UVs set, both validated):
// every edge where the displacement is not zero at both ends gets a level
// from the edge alone (welded ends; its longest UV span over its triangles):
// 4 steps per shortest wavelength, capped so no generated edge is shorter
// than min_edge_pixels on screen; all others 1. A welded vertex on a UV seam
// (an edge whose triangles give its ends different UVs) gets weight 0 when
// seam_fade is on; each vertex samples h at DisplacementLod of its coarsest
// incident step and the finest of `detail_wavelengths`
// (PatternDetailWavelengths).
void FillPatternTessellation(const RenderMesh& mesh,
                             const PatternWrinkles& wrinkles,
                             const std::array<float, 3>& wavelengths,
                             const std::array<float, 3>& detail_wavelengths,
                             const PatternTarget& target,
                             PatternTessellation* out);

// The mip level a displaced vertex samples h at, from its coarsest incident
// step and the finest detail's wavelength (both in texels; the wavelength 0
// or not finite when there is none: then a whole step). Where the steps
// resolve that wavelength (4 or more a wavelength) a box of a quarter step,
// which keeps its height (a whole step's box, then bilinear between texels a
// step apart, keeps 0.64-0.90 of a crest at 4 steps); widening to a whole
// step at 2 steps a wavelength and beyond, where the vertices cannot draw it
// and it must blur out instead of aliasing.
float DisplacementLod(float step, float detail_wavelength);

// Level 1 everywhere, weights 1, lod 0.
void ClearPatternTessellation(size_t num_vertices, size_t num_triangles,
                              PatternTessellation* out);

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_PATTERN_DATA_H_
