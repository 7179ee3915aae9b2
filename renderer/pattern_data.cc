#include "renderer/pattern_data.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <numbers>

#include "absl/strings/str_format.h"

namespace crease::renderer {

uint64_t NewPatternId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

namespace {

// UVs closer than this (in UV units) are the same UV: a seam's copies are
// written from one source and agree to the bit, but a tolerance costs nothing.
constexpr float kSameUv = 1e-6f;

Eigen::Vector3f Vertex(absl::Span<const float> positions, int32_t v) {
  return {positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]};
}

Eigen::Vector2f CornerUv(const RenderMesh& mesh, size_t face, int corner) {
  const size_t i = 6 * face + 2 * corner;
  return {mesh.corner_uvs[i], mesh.corner_uvs[i + 1]};
}

uint64_t EdgeKey(int32_t a, int32_t b) {
  if (b < a) std::swap(a, b);
  return (static_cast<uint64_t>(a) << 32) | static_cast<uint32_t>(b);
}

// Texel index `i` of an axis of `n` texels, wrapped or clamped.
int Wrap(int i, int n, bool repeat) {
  return repeat ? ((i % n) + n) % n : std::clamp(i, 0, n - 1);
}

// Pixels between the projections of a and b; infinite when either is behind
// the eye (no cap).
float ScreenLength(const PatternTarget& target, const Eigen::Vector3f& a,
                   const Eigen::Vector3f& b) {
  const Eigen::Vector4f ca = target.view_projection * a.homogeneous();
  const Eigen::Vector4f cb = target.view_projection * b.homogeneous();
  if (ca.w() <= 0 || cb.w() <= 0) return std::numeric_limits<float>::infinity();
  const Eigen::Vector2f pixels(0.5f * target.width, 0.5f * target.height);
  return (ca.head<2>() / ca.w() - cb.head<2>() / cb.w())
      .cwiseProduct(pixels)
      .norm();
}

bool Displaces(const PatternWrinkles& wrinkles, int32_t vertex) {
  const int channels = wrinkles.pattern.channels;
  for (int c = 0; c < channels; ++c) {
    if (wrinkles.amplitudes[channels * vertex + c] != 0.0f) return true;
  }
  return false;
}

// One triangle side: its welded edge, the triangle and the side's slot k
// (corners k and k + 1).
struct Side {
  uint64_t key;
  int32_t face;
  int32_t slot;
};

// Every side, sorted by welded edge (then triangle).
void GroupSides(const RenderMesh& mesh, std::vector<Side>* sides) {
  sides->clear();
  for (size_t f = 0; f < mesh.triangles.size(); ++f) {
    const io::Triangle& t = mesh.triangles[f];
    for (int k = 0; k < 3; ++k) {
      sides->push_back({EdgeKey(mesh.welded[t[k]], mesh.welded[t[(k + 1) % 3]]),
                        static_cast<int32_t>(f), k});
    }
  }
  std::sort(sides->begin(), sides->end(), [](const Side& a, const Side& b) {
    return a.key != b.key ? a.key < b.key : a.face < b.face;
  });
}

// The UVs of a side's ends, in the order of their welded ids.
std::array<Eigen::Vector2f, 2> SideUvs(const RenderMesh& mesh, const Side& s) {
  const io::Triangle& t = mesh.triangles[s.face];
  const int k0 = s.slot, k1 = (s.slot + 1) % 3;
  const bool flip = mesh.welded[t[k1]] < mesh.welded[t[k0]];
  const Eigen::Vector2f a = CornerUv(mesh, s.face, k0);
  const Eigen::Vector2f b = CornerUv(mesh, s.face, k1);
  return flip ? std::array{b, a} : std::array{a, b};
}

}  // namespace

absl::Status ValidatePatternWrinkles(const PatternWrinkles& wrinkles,
                                     size_t num_vertices) {
  const PatternMap& p = wrinkles.pattern;
  if (p.width < 1 || p.width > kMaxPatternMapSize || p.height < 1 ||
      p.height > kMaxPatternMapSize) {
    return absl::InvalidArgumentError(
        absl::StrFormat("pattern: %dx%d texels, need 1..%d a side", p.width,
                        p.height, kMaxPatternMapSize));
  }
  if (p.channels < 1 || p.channels > 3) {
    return absl::InvalidArgumentError(
        absl::StrFormat("pattern: %d channels, need 1..3", p.channels));
  }
  const size_t expected = static_cast<size_t>(p.width) * p.height * p.channels;
  if (p.samples.size() != expected) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "pattern: %d samples, need %dx%dx%d = %d", p.samples.size(), p.width,
        p.height, p.channels, expected));
  }
  for (size_t i = 0; i < p.samples.size(); ++i) {
    if (!(std::abs(p.samples[i]) <= 1.0f)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "pattern: sample %d is %g, outside [-1, 1]", i, p.samples[i]));
    }
  }
  if (wrinkles.amplitudes.size() != num_vertices * p.channels) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "amplitudes: %d floats, need %d channels x %d vertices = %d",
        wrinkles.amplitudes.size(), p.channels, num_vertices,
        num_vertices * p.channels));
  }
  for (size_t i = 0; i < wrinkles.amplitudes.size(); ++i) {
    if (!std::isfinite(wrinkles.amplitudes[i])) {
      return absl::InvalidArgumentError(
          absl::StrFormat("amplitudes: vertex %d channel %d is not finite",
                          i / p.channels, i % p.channels));
    }
  }
  if (!(wrinkles.leading_channel_power >= 0.0f &&
        wrinkles.leading_channel_power <= 64.0f)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("leading_channel_power: %g, need [0, 64]",
                        wrinkles.leading_channel_power));
  }
  return absl::OkStatus();
}

void BuildPatternLayers(const PatternMap& p, std::vector<float>* out) {
  const size_t layer = static_cast<size_t>(p.width) * p.height * 4;
  out->assign(layer * 2 * p.channels, 0.0f);
  auto h = [&](int x, int y, int c) {
    return p
        .samples[(static_cast<size_t>(Wrap(y, p.height, p.repeat)) * p.width +
                  Wrap(x, p.width, p.repeat)) *
                     p.channels +
                 c];
  };
  for (int c = 0; c < p.channels; ++c) {
    float* values = out->data() + 2 * c * layer;
    float* moments = values + layer;
    for (int y = 0; y < p.height; ++y) {
      for (int x = 0; x < p.width; ++x) {
        // Central differences, per texel.
        const float du = 0.5f * (h(x + 1, y, c) - h(x - 1, y, c));
        const float dv = 0.5f * (h(x, y + 1, c) - h(x, y - 1, c));
        const size_t i = 4 * (static_cast<size_t>(y) * p.width + x);
        values[i] = h(x, y, c);
        values[i + 1] = du;
        values[i + 2] = dv;
        moments[i] = du * du;
        moments[i + 1] = dv * dv;
        moments[i + 2] = du * dv;
      }
    }
  }
}

std::array<float, 3> PatternWavelengths(const PatternMap& p,
                                        absl::Span<const float> layers) {
  std::array<float, 3> wavelengths = {0, 0, 0};
  const size_t layer = static_cast<size_t>(p.width) * p.height * 4;
  for (int c = 0; c < p.channels; ++c) {
    double h2 = 0, slope2 = 0;
    for (size_t i = 0; i < layer; i += 4) {
      const float h = layers[2 * c * layer + i];
      h2 += h * h;
      // Per UV unit.
      slope2 += layers[(2 * c + 1) * layer + i] * p.width * p.width +
                layers[(2 * c + 1) * layer + i + 1] * p.height * p.height;
    }
    if (slope2 > 0) {
      wavelengths[c] =
          static_cast<float>(2 * std::numbers::pi * std::sqrt(h2 / slope2));
    }
  }
  return wavelengths;
}

std::array<float, 3> PatternDetailWavelengths(const PatternMap& p,
                                              absl::Span<const float> layers) {
  std::array<float, 3> wavelengths = {0, 0, 0};
  const size_t layer = static_cast<size_t>(p.width) * p.height * 4;
  const double su = p.width, sv = p.height;  // texels per UV unit
  for (int c = 0; c < p.channels; ++c) {
    const float* values = layers.data() + 2 * c * layer;
    // Component k (1: dh/dx, 2: dh/dy per texel) at texel (x, y), wrapped.
    const auto at = [&](int x, int y, int k) {
      return values[4 * (static_cast<size_t>(Wrap(y, p.height, p.repeat)) *
                             p.width +
                         Wrap(x, p.width, p.repeat)) +
                    k];
    };
    double slope2 = 0, curvature2 = 0;
    for (int y = 0; y < p.height; ++y) {
      for (int x = 0; x < p.width; ++x) {
        const double du = at(x, y, 1) * su, dv = at(x, y, 2) * sv;
        const double uu = 0.5 * (at(x + 1, y, 1) - at(x - 1, y, 1)) * su * su;
        const double uv = 0.5 * (at(x, y + 1, 1) - at(x, y - 1, 1)) * su * sv;
        const double vv = 0.5 * (at(x, y + 1, 2) - at(x, y - 1, 2)) * sv * sv;
        slope2 += du * du + dv * dv;
        curvature2 += uu * uu + 2 * uv * uv + vv * vv;
      }
    }
    if (curvature2 > 0) {
      wavelengths[c] = static_cast<float>(2 * std::numbers::pi *
                                          std::sqrt(slope2 / curvature2));
    }
  }
  return wavelengths;
}

float DisplacementLod(float step, float detail_wavelength) {
  float box = 1.0f;  // of a step
  if (std::isfinite(detail_wavelength) && detail_wavelength > 0 && step > 0) {
    const float steps_a_wavelength = detail_wavelength / step;
    box = 0.25f +
          0.75f * std::clamp((4.0f - steps_a_wavelength) / 2.0f, 0.0f, 1.0f);
  }
  const float texels = step * box;
  return texels > 1.0f ? std::log2(texels) : 0.0f;
}

void ClearPatternTessellation(size_t num_vertices, size_t num_triangles,
                              PatternTessellation* out) {
  out->weight.assign(num_vertices, 1.0f);
  out->lod.assign(num_vertices, 0.0f);
  out->levels.assign(num_triangles, {1, 1, 1, 1});
  out->max_level = 1;
  out->tessellated_triangles = 0;
  out->seam_vertices = 0;
}

void FillPatternTessellation(const RenderMesh& mesh,
                             const PatternWrinkles& wrinkles,
                             const std::array<float, 3>& wavelengths,
                             const std::array<float, 3>& detail_wavelengths,
                             const PatternTarget& target,
                             PatternTessellation* out) {
  const size_t num_vertices = mesh.positions.size() / 3;
  ClearPatternTessellation(num_vertices, mesh.triangles.size(), out);
  std::vector<Side> sides;
  GroupSides(mesh, &sides);
  // Seams: an edge whose sides disagree on its ends' UVs.
  out->welded_seam.assign(num_vertices, 0);
  for (size_t i = 0; i < sides.size();) {
    size_t j = i + 1;
    const auto first = SideUvs(mesh, sides[i]);
    bool seam = false;
    for (; j < sides.size() && sides[j].key == sides[i].key; ++j) {
      const auto uvs = SideUvs(mesh, sides[j]);
      seam |= (uvs[0] - first[0]).norm() > kSameUv ||
              (uvs[1] - first[1]).norm() > kSameUv;
    }
    if (seam && target.seam_fade) {
      out->welded_seam[sides[i].key >> 32] = 1;
      out->welded_seam[sides[i].key & 0xffffffffu] = 1;
    }
    i = j;
  }
  out->representative.assign(num_vertices, -1);
  for (size_t v = num_vertices; v-- > 0;) {
    out->representative[mesh.welded[v]] = static_cast<int32_t>(v);
  }
  float shortest = std::numeric_limits<float>::infinity();
  for (int c = 0; c < wrinkles.pattern.channels; ++c) {
    if (wavelengths[c] > 0) shortest = std::min(shortest, wavelengths[c]);
  }
  float finest = std::numeric_limits<float>::infinity();
  for (int c = 0; c < wrinkles.pattern.channels; ++c) {
    if (detail_wavelengths[c] > 0) {
      finest = std::min(finest, detail_wavelengths[c]);
    }
  }
  // Per welded vertex: the coarsest step (texels) of its displaced edges.
  std::vector<float>& step = out->welded_step;
  step.assign(num_vertices, 0.0f);
  const float texels = static_cast<float>(
      std::max(wrinkles.pattern.width, wrinkles.pattern.height));
  auto moves = [&](int32_t welded_id) {
    const int32_t v = out->representative[welded_id];
    return !out->welded_seam[welded_id] && Displaces(wrinkles, v);
  };
  for (size_t i = 0; i < sides.size();) {
    const int32_t a = static_cast<int32_t>(sides[i].key >> 32);
    const int32_t b = static_cast<int32_t>(sides[i].key & 0xffffffffu);
    float uv_length = 0;
    size_t j = i;
    for (; j < sides.size() && sides[j].key == sides[i].key; ++j) {
      const auto uvs = SideUvs(mesh, sides[j]);
      uv_length = std::max(uv_length, (uvs[1] - uvs[0]).norm());
    }
    float level = 1;
    if ((moves(a) || moves(b)) && std::isfinite(shortest)) {
      const float wanted = std::ceil(4.0f * uv_length / shortest);
      const float cap = std::ceil(
          ScreenLength(target, Vertex(mesh.positions, out->representative[a]),
                       Vertex(mesh.positions, out->representative[b])) /
          target.min_edge_pixels);
      level = std::clamp(std::min(wanted, cap), 1.0f,
                         static_cast<float>(target.max_level));
      const float edge_step = uv_length * texels / level;
      step[a] = std::max(step[a], edge_step);
      step[b] = std::max(step[b], edge_step);
    }
    for (; i < j; ++i) out->levels[sides[i].face][sides[i].slot] = level;
  }
  for (size_t v = 0; v < num_vertices; ++v) {
    const int32_t w = mesh.welded[v];
    out->weight[v] = out->welded_seam[w] ? 0.0f : 1.0f;
    out->seam_vertices += out->welded_seam[w];
    out->lod[v] = DisplacementLod(step[w], finest * texels);
  }
  for (std::array<float, 4>& l : out->levels) {
    l[3] = std::max({l[0], l[1], l[2]});
    out->max_level = std::max(out->max_level, static_cast<int>(l[3]));
    out->tessellated_triangles += l[3] > 1.0f;
  }
}

}  // namespace crease::renderer
