#ifndef CREASE_WRINKLE_SCA2015_INPUT_NOISE_H_
#define CREASE_WRINKLE_SCA2015_INPUT_NOISE_H_

#include <Eigen/Core>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace crease {

// How much an animation's triangles jitter from frame to frame, as opposed to
// how they deform: the standard deviation s of white noise on the log of edge
// lengths (0.01: edges jitter by about 1 % of their length each frame).
//
// Per triangle, two edges' log lengths L; their third differences over four
// frames, L_t - 3 L_{t-1} + 3 L_{t-2} - L_{t-3}, have a deviation of
// sqrt(20) s under white noise (computed as the third difference of the
// squared length over twice it, the same to first order without a log), while a
// deformation that changes smoothly (skinned or simulated) leaves them near 0.
// Per frame, s = the median of their magnitudes over the mesh / (0.6745
// sqrt(20)) (the median of |x| for a normal x is 0.6745 of its deviation; taken
// from a histogram with bins 9 % wide, interpolated within its bin): a few
// triangles jerked by a seam in the animation cannot raise it. Over frames,
// the median of the last kWindow frames' values (the least of the first
// ones): a cut, a loop's seam or a bad frame moves every triangle at once,
// but for only three or four frames (an exponential mean read a whole sheet
// squeezed in one frame as noise).
// It reads a sample of at most kMaxSampled triangles spread evenly over the
// mesh (every k-th): plenty for a median, and a bounded cost and memory
// (under 60 KB) however large the mesh.
// Measured on the bundled sets: at most 0.32 % on any frame (the skirt);
// per-coordinate noise of 1 / 2 / 3 % of a sleeve's radius reads 1.45 / 2.9 /
// 4.35 % (crease-analyze's input_noise).
class InputNoiseEstimate {
 public:
  static constexpr size_t kMaxSampled = 1024;
  static constexpr int kBins = 192;  // of the per-frame histogram
  // Frames whose values the estimate is the median of (a bad frame moves
  // four, under half); before there are so many, the least of them, from
  // kFirstValues on.
  static constexpr int kWindow = 9;
  static constexpr int kFirstValues = 4;

  explicit InputNoiseEstimate(size_t num_triangles);

  // One frame's edge matrices (EdgeMatrix) and which triangles are
  // degenerate (skipped); frames in order. Allocates nothing.
  void AddFrame(absl::Span<const Eigen::Matrix2d> edge_matrices,
                absl::Span<const uint8_t> degenerate);

  // 0 until 3 + kFirstValues frames (seven) have been added.
  double sigma() const { return sigma_; }

 private:
  struct History {
    // Squared lengths of edges x1 - x0 and x2 - x0, newest first.
    std::array<std::array<double, 2>, 3> squared_lengths{};
    int valid_frames = 0;  // consecutive non-degenerate frames seen, up to 3
  };
  size_t stride_ = 1;             // every stride_-th triangle is sampled
  std::vector<History> history_;  // per sampled triangle
  // Scratch: one frame's |third differences| / 2 q, counted in log-spaced
  // bins (the median of a frame from them, without sorting).
  std::array<int, kBins> counts_{};
  std::array<double, kWindow> recent_{};  // the last frames' values, a ring
  int next_ = 0;                          // where the next value goes
  int frames_ = 0;  // frames with a value so far, up to kWindow
  double sigma_ = 0;
};

}  // namespace crease

#endif  // CREASE_WRINKLE_SCA2015_INPUT_NOISE_H_
