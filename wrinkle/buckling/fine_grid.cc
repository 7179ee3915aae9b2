#include "wrinkle/buckling/fine_grid.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <utility>

namespace crease::fine_grid {

Eigen::Vector3d GridNormal(const std::vector<Eigen::Vector3d>& p, int columns,
                           int rows, int i, int j) {
  const size_t row = static_cast<size_t>(j) * columns;
  const size_t below = static_cast<size_t>(std::max(j - 1, 0)) * columns;
  const size_t above = static_cast<size_t>(std::min(j + 1, rows - 1)) * columns;
  const int left = i == 0 ? columns - 1 : i - 1;
  const int right = i + 1 == columns ? 0 : i + 1;
  const Eigen::Vector3d n =
      (p[row + right] - p[row + left]).cross(p[above + i] - p[below + i]);
  const double length = n.norm();
  return length > 0 ? Eigen::Vector3d(n / length) : Eigen::Vector3d::Zero();
}

void GridNormals(const std::vector<Eigen::Vector3d>& p, int columns, int rows,
                 std::vector<Eigen::Vector3d>* normals) {
  for (int j = 0; j < rows; ++j) {
    for (int i = 0; i < columns; ++i) {
      (*normals)[static_cast<size_t>(j) * columns + i] =
          GridNormal(p, columns, rows, i, j);
    }
  }
}

void BoxFilter(int columns, int rows, std::vector<Eigen::Vector3d>* field,
               std::vector<Eigen::Vector3d>* scratch) {
  std::vector<Eigen::Vector3d>& f = *field;
  std::vector<Eigen::Vector3d>& s = *scratch;
  for (int j = 0; j < rows; ++j) {
    const size_t row = static_cast<size_t>(j) * columns;
    for (int i = 0; i < columns; ++i) {
      const int left = i == 0 ? columns - 1 : i - 1;
      const int right = i + 1 == columns ? 0 : i + 1;
      s[row + i] = (f[row + left] + f[row + i] + f[row + right]) / 3;
    }
  }
  for (int j = 0; j < rows; ++j) {
    const size_t row = static_cast<size_t>(j) * columns;
    const bool has_below = j > 0, has_above = j + 1 < rows;
    const double weight =
        1.0 / (1 + static_cast<int>(has_below) + static_cast<int>(has_above));
    for (int i = 0; i < columns; ++i) {
      Eigen::Vector3d sum = s[row + i];
      if (has_below) sum += s[row - columns + i];
      if (has_above) sum += s[row + columns + i];
      f[row + i] = weight * sum;
    }
  }
}

void RelaxColumns(int columns, int rows, int passes,
                  std::vector<Eigen::Vector3d>* field,
                  std::vector<Eigen::Vector3d>* a,
                  std::vector<Eigen::Vector3d>* b) {
  std::vector<Eigen::Vector3d>& f = *field;
  // A column that turns by no more than 30 degrees at any row has no crease
  // to round (the kernel would move it by a small fraction of a row).
  constexpr double kSmoothCosSq = 0.75;
  for (int i = 0; i < columns; ++i) {
    std::vector<Eigen::Vector3d>*from = a, *to = b;
    bool creased = false;
    for (int j = 0; j < rows; ++j) {
      (*from)[j] = f[static_cast<size_t>(j) * columns + i];
      if (j < 2 || creased) continue;
      const Eigen::Vector3d in = (*from)[j - 1] - (*from)[j - 2],
                            out = (*from)[j] - (*from)[j - 1];
      const double along = in.dot(out);
      creased = along <= 0 || along * along < kSmoothCosSq * in.squaredNorm() *
                                                  out.squaredNorm();
    }
    if (!creased) continue;
    (*to)[0] = (*from)[0];
    (*to)[rows - 1] = (*from)[rows - 1];
    for (int pass = 0; pass < passes; ++pass) {
      const std::vector<Eigen::Vector3d>& x = *from;
      std::vector<Eigen::Vector3d>& y = *to;
      for (int j = 1; j + 1 < rows; ++j) {
        y[j] = 0.5 * x[j] + 0.25 * (x[j - 1] + x[j + 1]);
      }
      std::swap(from, to);
    }
    for (int j = 1; j + 1 < rows; ++j) {
      f[static_cast<size_t>(j) * columns + i] = (*from)[j];
    }
  }
}

}  // namespace crease::fine_grid
