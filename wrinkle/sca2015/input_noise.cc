#include "wrinkle/sca2015/input_noise.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace crease {
namespace {

// A third difference's deviation under white noise of deviation 1, times the
// median of |x| for a unit normal x.
constexpr double kMedianPerSigma = 3.0164;  // 0.6745 * sqrt(20)

// The histogram's bins: kBinsPerOctave a factor of two, from 2^-kOctaves
// (below: the first bin) to 1 (above: the last). A bin is an eighth of an
// octave (6.7-12.5 % of its start); the median is interpolated within it.
constexpr int kBinsPerOctave = 8;
constexpr int kOctaves = 24;

// The bin of v >= 0: its float's exponent and top three mantissa bits, so no
// log is taken.
int BinOf(double v) {
  // 1 and above (and NaN) land in the last bin; clamped first, as a double
  // past float's range has no float to convert to.
  const uint32_t bits =
      std::bit_cast<uint32_t>(static_cast<float>(v < 1.0 ? v : 1.0));
  const int exponent = static_cast<int>(bits >> 23) - (127 - kOctaves);
  const int key =
      exponent * kBinsPerOctave + static_cast<int>((bits >> 20) & 7);
  return std::clamp(key, 0, InputNoiseEstimate::kBins - 1);
}

// The lower edge of bin b.
double BinStart(int b) {
  return std::ldexp(1.0 + (b % kBinsPerOctave) / double{kBinsPerOctave},
                    b / kBinsPerOctave - kOctaves);
}

}  // namespace

static_assert(InputNoiseEstimate::kBins == kBinsPerOctave * kOctaves);

InputNoiseEstimate::InputNoiseEstimate(size_t num_triangles)
    : stride_(
          std::max<size_t>(1, (num_triangles + kMaxSampled - 1) / kMaxSampled)),
      history_((num_triangles + stride_ - 1) / stride_) {}

void InputNoiseEstimate::AddFrame(
    absl::Span<const Eigen::Matrix2d> edge_matrices,
    absl::Span<const uint8_t> degenerate) {
  counts_.fill(0);
  int total = 0;
  for (size_t i = 0; i < history_.size(); ++i) {
    const size_t f = i * stride_;
    History& h = history_[i];
    if (degenerate[f]) {
      h.valid_frames = 0;
      continue;
    }
    // Squared lengths, not logs (a log per edge was a tenth of a small
    // mesh's frame): for small changes the third difference of q = l^2
    // over 2 q is that of log l.
    const Eigen::Matrix2d& m = edge_matrices[f];
    const std::array<double, 2> q = {m(0, 0) * m(0, 0),
                                     m(0, 1) * m(0, 1) + m(1, 1) * m(1, 1)};
    auto& past = h.squared_lengths;
    if (h.valid_frames >= 3) {
      for (int e = 0; e < 2; ++e) {
        ++counts_[BinOf(
            std::abs(q[e] - 3 * past[0][e] + 3 * past[1][e] - past[2][e]) /
            (2 * q[e]))];
        ++total;
      }
    }
    past[2] = past[1];
    past[1] = past[0];
    past[0] = q;
    h.valid_frames = std::min(h.valid_frames + 1, 3);
  }
  if (total == 0) return;
  // The median from the histogram (a selection over the values themselves was
  // a fifth of a small mesh's frame): the bin holding the middle value, then
  // linearly within it.
  const int middle = total / 2;
  int below = 0, b = 0;
  while (below + counts_[b] <= middle) below += counts_[b++];
  const double within = (middle - below + 0.5) / counts_[b];
  const double median =
      b == 0 ? 0.0 : BinStart(b) + within * (BinStart(b + 1) - BinStart(b));
  // Over frames: a cut, a loop's seam or one bad frame moves every triangle
  // at once, but for only three or four frames. So the median of the last
  // kWindow frames' values; before there are that many, the least of them
  // (a low reading, not a transient's), from kFirstValues on.
  recent_[next_] = median / kMedianPerSigma;
  next_ = (next_ + 1) % kWindow;
  frames_ = std::min(frames_ + 1, kWindow);
  if (frames_ < kFirstValues) return;
  if (frames_ < kWindow) {
    sigma_ = *std::min_element(recent_.begin(), recent_.begin() + frames_);
    return;
  }
  std::array<double, kWindow> sorted = recent_;
  std::nth_element(sorted.begin(), sorted.begin() + kWindow / 2, sorted.end());
  sigma_ = sorted[kWindow / 2];
}

}  // namespace crease
