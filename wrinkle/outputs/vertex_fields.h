#ifndef CREASE_WRINKLE_OUTPUTS_VERTEX_FIELDS_H_
#define CREASE_WRINKLE_OUTPUTS_VERTEX_FIELDS_H_

// Per-vertex weights for engines that blend authored wrinkle maps: the
// compression field and the labels, which the Session computes per triangle,
// carried to the vertices. docs/algorithm.md, "Per-vertex fields", has the
// definition and its reasons.

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "wrinkle/core/stretch.h"
#include "wrinkle/sca2015/labeling.h"

namespace crease {

struct VertexFields {
  // Per vertex: c = 1 / mu_min, mu_min the smaller eigenvalue of the
  // area-weighted mean of the incident triangles' stretch tensors, each
  // turned into the vertex's tangent plane. > 1: compressed; 1 at rest.
  std::vector<float> compression;
  // xyz per vertex: the eigenvector of mu_min, a unit world-space vector in
  // the vertex's tangent plane (perpendicular to its smooth normal). Axial
  // (d and -d mean the same): the sign makes its largest component positive.
  // Zero where the mean tensor is the same in every direction (within 1e-6)
  // or no incident triangle has area.
  std::vector<float> directions;
  // Per vertex: the shares of the incident triangles' area labelled
  // compress, rest and stretch, in that order (sum 1; 0 1 0 when the
  // triangles have no area).
  std::vector<float> label_weights;
};

// Fills VertexFields frame after frame; storage (its own and the output's)
// is reused, so after the first frame nothing allocates.
class VertexFieldBuilder {
 public:
  // `positions` packed xyz per vertex; `welded` per vertex its welded id
  // (MeshTopology::weld_map), so vertices split at seams get one value;
  // `field` and `labels` per triangle (Session::compression_field, labels).
  // Preconditions (checked in debug builds): sizes agree.
  void Compute(absl::Span<const float> positions,
               absl::Span<const std::array<int32_t, 3>> triangles,
               absl::Span<const int32_t> welded,
               absl::Span<const StretchTensor> field,
               absl::Span<const Label> labels, VertexFields* out);

 private:
  // The steps of Compute: per welded id the normal, label areas and tangent
  // frame; the turned tensors; the fields per vertex.
  void SumNormalsAndLabels(absl::Span<const float> positions,
                           absl::Span<const std::array<int32_t, 3>> triangles,
                           absl::Span<const int32_t> welded,
                           absl::Span<const Label> labels);
  void SumTensors(absl::Span<const std::array<int32_t, 3>> triangles,
                  absl::Span<const int32_t> welded,
                  absl::Span<const StretchTensor> field);
  void WriteFields(absl::Span<const int32_t> welded, VertexFields* out) const;

  // Per welded id: the area-weighted normal (3), the tangent-plane tensor sum
  // in the id's tangent basis (3: xx, xy, yy), its area, the label areas (3).
  static constexpr int kStride = 10;
  std::vector<double> sums_;
  // Per triangle: (b - a) x (c - a). Per welded id: unit normal, tangent
  // basis t1, t2.
  std::vector<Eigen::Vector3d> face_normals_;
  std::vector<std::array<Eigen::Vector3d, 3>> frames_;
};

}  // namespace crease

#endif  // CREASE_WRINKLE_OUTPUTS_VERTEX_FIELDS_H_
