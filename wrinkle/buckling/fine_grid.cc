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

namespace {

// Whether a column turns by more than 30 degrees at the point between steps
// `in` and `out`.
bool TurnsSharply(const Eigen::Vector3d& in, const Eigen::Vector3d& out) {
  constexpr double kSmoothCosSq = 0.75;
  const double along = in.dot(out);
  return along <= 0 ||
         along * along < kSmoothCosSq * in.squaredNorm() * out.squaredNorm();
}

// `passes` [1 2 1] / 4 passes over rows lo..hi of `a` (both kept), through
// `b`; the result in `a`.
void RelaxWindow(int lo, int hi, int passes, std::vector<Eigen::Vector3d>* a,
                 std::vector<Eigen::Vector3d>* b) {
  std::vector<Eigen::Vector3d>*from = a, *to = b;
  (*to)[lo] = (*from)[lo];
  (*to)[hi] = (*from)[hi];
  for (int pass = 0; pass < passes; ++pass) {
    const std::vector<Eigen::Vector3d>& x = *from;
    std::vector<Eigen::Vector3d>& y = *to;
    for (int j = lo + 1; j < hi; ++j) {
      y[j] = 0.5 * x[j] + 0.25 * (x[j - 1] + x[j + 1]);
    }
    std::swap(from, to);
  }
  if (from != a)
    std::copy(b->begin() + lo, b->begin() + hi + 1, a->begin() + lo);
}

}  // namespace

void RelaxColumns(int columns, int rows, int passes,
                  std::vector<Eigen::Vector3d>* field,
                  std::vector<uint8_t>* creased,
                  std::vector<Eigen::Vector3d>* a,
                  std::vector<Eigen::Vector3d>* b) {
  std::vector<Eigen::Vector3d>& f = *field;
  std::vector<Eigen::Vector3d>& c = *a;
  std::vector<uint8_t>& sharp = *creased;
  // The rows a crease's rounding reaches: `passes` rows, and a margin where
  // the kernel would move the column by a small fraction of a row.
  const int reach = passes + 4;
  // The columns beside a creased one are relaxed too: a column that turns by
  // a little less would otherwise keep its crease beside a rounded one.
  constexpr int kBeside = 1;
  // Row by row, in the grid's order.
  bool any = false;
  std::fill(sharp.begin(), sharp.begin() + columns, 0);
  std::fill(sharp.end() - columns, sharp.end(), 0);
  for (int j = 1; j + 1 < rows; ++j) {
    const Eigen::Vector3d* below = &f[static_cast<size_t>(j - 1) * columns];
    const Eigen::Vector3d* at = below + columns;
    const Eigen::Vector3d* above = at + columns;
    uint8_t* flags = &sharp[static_cast<size_t>(j) * columns];
    for (int i = 0; i < columns; ++i) {
      const bool turns = TurnsSharply(at[i] - below[i], above[i] - at[i]);
      flags[i] = turns;
      any = any || turns;
    }
  }
  if (!any) return;
  for (int i = 0; i < columns; ++i) {
    int beside[2 * kBeside + 1];
    for (int d = -kBeside; d <= kBeside; ++d) {
      beside[d + kBeside] = Wrap(i + d, columns);
    }
    const auto creased_near = [&](int j) {
      const uint8_t* row = &sharp[static_cast<size_t>(j) * columns];
      for (int column : beside) {
        if (row[column]) return true;
      }
      return false;
    };
    // Windows of rows around the creases, merged where they overlap or
    // touch, each relaxed with its ends kept; rows past them stay as they
    // are.
    int lo = -1, hi = -1, first = rows, last = -1;
    bool gathered = false;
    for (int j = 1; j + 1 < rows; ++j) {
      if (!creased_near(j)) continue;
      if (!gathered) {
        for (int r = 0; r < rows; ++r) {
          c[r] = f[static_cast<size_t>(r) * columns + i];
        }
        gathered = true;
      }
      const int window_lo = std::max(j - reach, 0);
      const int window_hi = std::min(j + reach, rows - 1);
      if (lo >= 0 && window_lo <= hi) {
        hi = window_hi;
        continue;
      }
      if (lo >= 0) RelaxWindow(lo, hi, passes, a, b);
      lo = window_lo;
      hi = window_hi;
      first = std::min(first, lo);
    }
    if (lo < 0) continue;
    RelaxWindow(lo, hi, passes, a, b);
    last = hi;
    for (int j = first + 1; j < last; ++j) {
      f[static_cast<size_t>(j) * columns + i] = c[j];
    }
  }
}

}  // namespace crease::fine_grid
