#include "wrinkle/core/field_smoothing.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "wrinkle/core/double2.h"

namespace crease {
namespace {

constexpr uint8_t kFar = 255;
// Rings smoothed at most: further out than this many passes' reach changes
// nothing the caller keeps.
constexpr int kMaxRings = 255;

// Each triangle's neighbours by corner, itself included, each once with the
// number of corners it shares (3 for itself, 2 across an edge): the kernel
// weighs the nearer more. CSR, built once (the topology is fixed for a
// session).
void BuildNeighbours(const MeshTopology& topology,
                     FieldSmoothingScratch& scratch) {
  const int32_t n = topology.num_triangles();
  scratch.neighbour_offsets.assign(1, 0);
  scratch.neighbours.clear();
  scratch.shared_corners.clear();
  for (int32_t f = 0; f < n; ++f) {
    const size_t first = scratch.neighbours.size();
    for (int32_t v : topology.triangles()[f]) {
      for (int32_t g : topology.vertex_faces(topology.welded_vertex(v))) {
        const auto at = std::find(scratch.neighbours.begin() + first,
                                  scratch.neighbours.end(), g);
        if (at != scratch.neighbours.end()) {
          ++scratch.shared_corners[at - scratch.neighbours.begin()];
          continue;
        }
        scratch.neighbours.push_back(g);
        scratch.shared_corners.push_back(1);
      }
    }
    scratch.neighbour_offsets.push_back(
        static_cast<int32_t>(scratch.neighbours.size()));
  }
  // The per-frame lists never outgrow these: no allocation once warm.
  scratch.targets.reserve(n);
  scratch.queue.reserve(static_cast<size_t>(n) + 1);
  scratch.tensor.reserve(n);
  scratch.axis.reserve(n);
  scratch.pair_offsets.reserve(static_cast<size_t>(n) + 1);
  // Left uninitialised (not value-initialised as a vector's resize would):
  // a frame writes only its pulling pairs, so a large mesh with few
  // compressed triangles touches, and keeps resident, only those pages.
  scratch.pair_faces.reset(new int32_t[scratch.neighbours.size()]);
  scratch.pair_weights.reset(new double[scratch.neighbours.size()]);
}

// The triangles the passes smooth: those compressed beyond
// `min_compression` (ring 0) and the `rings` rings of corner neighbours
// around them (at most passes - 1). A triangle r rings out reaches ring 0
// only through r passes, so it is smoothed in the first `passes` - r only;
// with rings = passes - 1, ring 0 ends as if every triangle were smoothed.
// Into scratch.targets (those with a direction, ring by ring: a pass smooths
// a prefix of them), scratch.ring_ends (targets.size() after each ring) and
// scratch.ring.
void FindTargets(const MeshTopology& topology,
                 absl::Span<const StretchTensor> field, int passes, int rings,
                 double min_compression, FieldSmoothingScratch& scratch) {
  const int32_t n = topology.num_triangles();
  // Written by index, a slot filled whether or not it is kept (no branch the
  // predictor would miss): every triangle, and the slot after the last.
  scratch.ring.assign(n, kFar);
  scratch.queue.resize(static_cast<size_t>(n) + 1);
  uint8_t* const ring = scratch.ring.data();
  int32_t* const queue = scratch.queue.data();
  const double* const weight = scratch.weight.data();
  const int32_t* const offsets = scratch.neighbour_offsets.data();
  const int32_t* const neighbours = scratch.neighbours.data();
  int32_t size = 0;
  for (int32_t f = 0; f < n; ++f) {
    const bool followed =
        (weight[f] > 0.0) & (field[f].compression > min_compression);
    ring[f] = followed ? 0 : kFar;
    queue[size] = f;
    size += followed;
  }
  const int last_ring =
      std::clamp(std::min(passes - 1, rings), 0, kMaxRings - 1);
  for (int32_t next = 0; next < size; ++next) {
    const int32_t f = queue[next];
    const uint8_t out = ring[f] + 1;
    if (out > last_ring) continue;
    const int32_t end = offsets[f + 1];
    for (int32_t k = offsets[f]; k < end; ++k) {
      const int32_t g = neighbours[k];
      const bool reached = ring[g] == kFar;
      ring[g] = reached ? out : ring[g];
      queue[size] = g;
      size += reached;
    }
  }
  // The queue is in ring order; a Jacobi pass's result does not depend on
  // the order its targets are visited in.
  scratch.targets.clear();
  scratch.ring_ends.assign(kMaxRings, 0);
  for (int32_t next = 0; next < size; ++next) {
    const int32_t f = queue[next];
    if (weight[f] > 0.0) scratch.targets.push_back(f);
    scratch.ring_ends[ring[f]] = static_cast<int32_t>(scratch.targets.size());
  }
  for (int r = 1; r < kMaxRings; ++r) {
    scratch.ring_ends[r] =
        std::max(scratch.ring_ends[r], scratch.ring_ends[r - 1]);
  }
}

// Each target's pulling neighbours, once a frame (the creases do not move
// between passes): the passes then visit only those. Written by index
// without a branch on whether a neighbour pulls (which the branch predictor
// cannot guess): the slot is written either way and kept when it pulls. Raw
// pointers: through the vectors, every store (the byte-sized corner counts
// alias anything) made the compiler reload the loop's bounds.
void ListPullingPairs(double crease_degrees, FieldSmoothingScratch& scratch) {
  const double min_cos = std::cos(crease_degrees * std::numbers::pi / 180.0);
  const size_t targets = scratch.targets.size();
  scratch.pair_offsets.resize(targets + 1);
  const int32_t* const target = scratch.targets.data();
  const int32_t* const offsets = scratch.neighbour_offsets.data();
  const int32_t* const neighbours = scratch.neighbours.data();
  const uint8_t* const shared_corners = scratch.shared_corners.data();
  const double* const weight = scratch.weight.data();
  const Eigen::Vector3d* const normal = scratch.normal.data();
  int32_t* const pair_faces = scratch.pair_faces.get();
  double* const pair_weights = scratch.pair_weights.get();
  int32_t* const pair_offsets = scratch.pair_offsets.data();
  int32_t pairs = 0;
  pair_offsets[0] = 0;
  for (size_t t = 0; t < targets; ++t) {
    const int32_t f = target[t];
    const Eigen::Vector3d n = normal[f];
    const int32_t end = offsets[f + 1];
    for (int32_t k = offsets[f]; k < end; ++k) {
      const int32_t g = neighbours[k];
      const double w = weight[g];
      pair_faces[pairs] = g;
      pair_weights[pairs] = shared_corners[k] * w;
      pairs += static_cast<int32_t>(w != 0.0) &
               static_cast<int32_t>(n.dot(normal[g]) >= min_cos);
    }
    pair_offsets[t + 1] = pairs;
  }
}

// Each of the first `smoothed` targets' structure tensor in its own frame,
// from the pass before's directions, into scratch.tensor.
void SumTensors(absl::Span<const LocalFrame> frames, int32_t smoothed,
                FieldSmoothingScratch& scratch) {
  // Two pairs at a time, one to each lane of an SSE register.
  const int32_t* const target = scratch.targets.data();
  const int32_t* const offsets = scratch.pair_offsets.data();
  const int32_t* const pair_faces = scratch.pair_faces.get();
  const double* const pair_weights = scratch.pair_weights.get();
  const Eigen::Vector3d* const dir = scratch.compression_dir.data();
  std::array<double, 3>* const tensor = scratch.tensor.data();
  for (int32_t t = 0; t < smoothed; ++t) {
    const LocalFrame& frame = frames[target[t]];
    const double x0 = frame.x_axis.x(), x1 = frame.x_axis.y(),
                 x2 = frame.x_axis.z();
    const double y0 = frame.y_axis.x(), y1 = frame.y_axis.y(),
                 y2 = frame.y_axis.z();
    Double2 xx2 = {0, 0}, xy2 = {0, 0}, yy2 = {0, 0};
    int32_t k = offsets[t];
    const int32_t end = offsets[t + 1];
    for (; k + 1 < end; k += 2) {
      // Projected, not renormalised: a neighbour tilted out of the target's
      // plane pulls by the square of the cosine of its tilt.
      const Eigen::Vector3d& a = dir[pair_faces[k]];
      const Eigen::Vector3d& b = dir[pair_faces[k + 1]];
      const Double2 dx = {a.x(), b.x()}, dy = {a.y(), b.y()},
                    dz = {a.z(), b.z()};
      const Double2 x = dx * x0 + dy * x1 + dz * x2;
      const Double2 y = dx * y0 + dy * y1 + dz * y2;
      const Double2 w = {pair_weights[k], pair_weights[k + 1]};
      const Double2 wx = w * x;
      xx2 += wx * x;
      xy2 += wx * y;
      yy2 += w * y * y;
    }
    double xx = xx2[0] + xx2[1], xy = xy2[0] + xy2[1], yy = yy2[0] + yy2[1];
    if (k < end) {
      const Eigen::Vector3d& d = dir[pair_faces[k]];
      const double x = d.x() * x0 + d.y() * x1 + d.z() * x2;
      const double y = d.x() * y0 + d.y() * y1 + d.z() * y2;
      const double w = pair_weights[k];
      xx += w * x * x;
      xy += w * x * y;
      yy += w * y * y;
    }
    tensor[t] = {xx, xy, yy};
  }
}

// Each of the first `smoothed` targets' direction set to its tensor's main
// axis. The axes are computed for all targets before any is written, two
// targets to an SSE register and without a branch: no target's square roots
// wait on the one before's.
void SetMainAxes(absl::Span<const LocalFrame> frames, int32_t smoothed,
                 FieldSmoothingScratch& scratch,
                 absl::Span<StretchTensor> field) {
  const std::array<double, 3>* const tensor = scratch.tensor.data();
  std::array<double, 2>* const axis = scratch.axis.data();
  // Two targets to a register; an odd count's last fills both lanes.
  for (int32_t t = 0; t < smoothed; t += 2) {
    const int32_t next = std::min(t + 1, smoothed - 1);
    const Double2 xx = {tensor[t][0], tensor[next][0]};
    const Double2 xy = {tensor[t][1], tensor[next][1]};
    const Double2 yy = {tensor[t][2], tensor[next][2]};
    // The main axis of [xx xy; xy yy] is at half the angle theta2 of (a, b),
    // r = |(a, b)|: along (r + a, b) = 2 cos(theta) (cos, sin) and along
    // (b, r - a) = 2 sin(theta) (cos, sin). Their sum with the second's sign
    // made that of cos(theta) >= 0, 2 (cos + |sin|) (cos, sin), never
    // vanishes where either alone cancels (a near -r, a near r).
    const Double2 a = xx - yy, b = 2.0 * xy;
    const Double2 r = Sqrt(a * a + b * b);
    const Double2 u = (r + a) + Abs(b);
    const Double2 v = b + CopySign(r - a, b);
    // Signed as the axis was before this form (a <= 0: along (b, r - a)),
    // which is all the same to a fold but keeps which way a trace leaves a
    // seed. An isotropic tensor has no axis: 0 / 0, caught below.
    const Double2 sign = a > 0.0 ? Broadcast(1.0) : CopySign(Broadcast(1.0), b);
    const Double2 inverse_length = sign / Sqrt(u * u + v * v);
    const Double2 x = u * inverse_length, y = v * inverse_length;
    axis[t] = {x[0], y[0]};
    axis[next] = {x[1], y[1]};
  }
  for (int32_t t = 0; t < smoothed; ++t) {
    const auto& [x, y] = axis[t];
    // No direction: the triangle's own stays.
    if (!std::isfinite(x) || !std::isfinite(y)) continue;
    const int32_t f = scratch.targets[t];
    const Eigen::Vector3d compression_dir =
        x * frames[f].x_axis + y * frames[f].y_axis;
    field[f].compression_dir = compression_dir;
    field[f].wrinkle_dir = scratch.normal[f].cross(compression_dir);
  }
}

}  // namespace

void SmoothFieldDirections(const MeshTopology& topology,
                           absl::Span<const LocalFrame> frames,
                           absl::Span<const Eigen::Matrix2d> edge_matrices,
                           const FieldSmoothingParams& params,
                           double min_compression,
                           FieldSmoothingScratch& scratch,
                           absl::Span<StretchTensor> field) {
  if (params.passes <= 0) return;
  const int32_t n = topology.num_triangles();
  if (scratch.neighbour_offsets.size() != static_cast<size_t>(n) + 1) {
    BuildNeighbours(topology, scratch);
  }
  scratch.compression_dir.resize(n);
  scratch.weight.resize(n);
  scratch.normal.resize(n);
  for (int32_t f = 0; f < n; ++f) {
    const StretchTensor& t = field[f];
    scratch.normal[f] = frames[f].x_axis.cross(frames[f].y_axis);
    // Twice the area: the edge matrix is upper triangular.
    const double area =
        std::abs(edge_matrices[f](0, 0) * edge_matrices[f](1, 1));
    const bool directed =
        !t.degenerate && t.compression > 1.0 && t.lambda_max > t.lambda_min;
    scratch.weight[f] =
        directed
            ? (t.compression - 1.0) * (1.0 - t.lambda_min / t.lambda_max) * area
            : 0.0;
  }
  FindTargets(topology, field, params.passes, params.rings, min_compression,
              scratch);
  ListPullingPairs(params.crease_degrees, scratch);
  scratch.tensor.resize(scratch.targets.size());
  scratch.axis.resize(scratch.targets.size());
  int32_t smoothed = 0;  // the targets the pass before wrote
  for (int pass = 0; pass < params.passes; ++pass) {
    // Jacobi: every target reads the pass before's directions.
    if (pass == 0) {
      for (int32_t f = 0; f < n; ++f)
        scratch.compression_dir[f] = field[f].compression_dir;
    } else {
      for (int32_t t = 0; t < smoothed; ++t) {
        const int32_t f = scratch.targets[t];
        scratch.compression_dir[f] = field[f].compression_dir;
      }
    }
    // The rings this pass can still carry to ring 0.
    const int last_ring = params.passes - 1 - pass;
    smoothed = last_ring < kMaxRings
                   ? scratch.ring_ends[last_ring]
                   : static_cast<int32_t>(scratch.targets.size());
    SumTensors(frames, smoothed, scratch);
    SetMainAxes(frames, smoothed, scratch, field);
  }
}

}  // namespace crease
