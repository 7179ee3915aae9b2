#ifndef CREASE_WRINKLE_BUCKLING_FINE_GRID_H_
#define CREASE_WRINKLE_BUCKLING_FINE_GRID_H_

// Operations on a tube's fine grid of points: `columns` around (periodic),
// `rows` along, row-major.

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace crease::fine_grid {

inline int Wrap(int i, int n) { return ((i % n) + n) % n; }

// Point v of packed xyz floats.
inline Eigen::Vector3d PackedPoint(absl::Span<const float> p, int32_t v) {
  return {p[3 * static_cast<size_t>(v)], p[3 * static_cast<size_t>(v) + 1],
          p[3 * static_cast<size_t>(v) + 2]};
}

// The unit normal at (i, j) by central differences (one-sided at the first
// and last rows); zero where degenerate.
Eigen::Vector3d GridNormal(const std::vector<Eigen::Vector3d>& p, int columns,
                           int rows, int i, int j);

// GridNormal at every point.
void GridNormals(const std::vector<Eigen::Vector3d>& p, int columns, int rows,
                 std::vector<Eigen::Vector3d>* normals);

// One 3 x 3 box pass over `field` (periodic around, clamped at the ends),
// separably, through `scratch` (as large as `field`).
void BoxFilter(int columns, int rows, std::vector<Eigen::Vector3d>* field,
               std::vector<Eigen::Vector3d>* scratch);

// `passes` [1 2 1] / 4 passes along each column around the creases (rows
// where it, or a column up to 2 beside it, turns by more than 30 degrees):
// over the rows within passes + 4 of one, the window's end rows kept; the
// rest of the column is left as it is. `creased` holds a flag per point,
// `a` and `b` `rows` points each.
void RelaxColumns(int columns, int rows, int passes,
                  std::vector<Eigen::Vector3d>* field,
                  std::vector<uint8_t>* creased,
                  std::vector<Eigen::Vector3d>* a,
                  std::vector<Eigen::Vector3d>* b);

}  // namespace crease::fine_grid

#endif  // CREASE_WRINKLE_BUCKLING_FINE_GRID_H_
