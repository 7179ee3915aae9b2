// The buckling model's smooth surface P_s, per frame: the control lattice,
// the Phong or spline surface through it, the diamonds' axial threads along
// it, and which way and how far the folds may displace it (docs/algorithm.md,
// "Buckling of tubes"). The rest of BucklingMesh is in buckling_mesh.cc.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "wrinkle/buckling/buckling_mesh.h"
#include "wrinkle/buckling/fine_grid.h"
#include "wrinkle/data/smooth_normals.h"

namespace crease {
namespace {

using fine_grid::GridNormal;
using fine_grid::GridNormals;
using fine_grid::PackedPoint;
using fine_grid::Wrap;

constexpr int kCells = kPrimitiveCells;
// Fine cells per lattice step (the lattice has 2 steps per primitive).
constexpr int kStep = kCells / 2;
// Passes smoothing the surface along its columns (RelaxColumns).
constexpr int kRelaxPasses = 8;

// Catmull-Rom weights of the four taps around a point `q / kStep` of the way
// from tap 1 to tap 2.
struct CatmullRom {
  double w[kStep][4];
  CatmullRom() {
    for (int q = 0; q < kStep; ++q) {
      const double t = static_cast<double>(q) / kStep, t2 = t * t, t3 = t2 * t;
      w[q][0] = 0.5 * (-t3 + 2 * t2 - t);
      w[q][1] = 0.5 * (3 * t3 - 5 * t2 + 2);
      w[q][2] = 0.5 * (-3 * t3 + 4 * t2 + t);
      w[q][3] = 0.5 * (t3 - t2);
    }
  }
};
const CatmullRom kSpline;

}  // namespace

// The coarse mesh's unit smooth normals, for the Phong surface.
void BucklingMesh::CoarseNormals(absl::Span<const float> positions) {
  if (params_.smooth_surface != SmoothSurface::kPhongCoarse) return;
  SumWeldedNormals(positions, coarse_triangles_, coarse_welded_,
                   &coarse_normals_);
  for (size_t w = 0; w < coarse_normals_.size(); w += 3) {
    float* n = &coarse_normals_[w];
    const float length = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    const float scale = length > 0 ? 1 / length : 0;
    for (int k = 0; k < 3; ++k) n[k] *= scale;
  }
  // Phong's patch overshoots across a crease: from 30 degrees between two
  // corners' normals to 60 it gives way to the flat triangle. Per vertex
  // the least of its triangles', interpolated over each triangle, so that
  // the surface stays continuous across coarse edges.
  const double smooth_cos = std::cos(std::numbers::pi / 6),
               crease_cos = std::cos(std::numbers::pi / 3);
  vertex_curved_.assign(coarse_normals_.size() / 3, 1.0);
  for (size_t f = 0; f < coarse_triangles_.size(); ++f) {
    double agree = 1;
    for (int k = 0; k < 3; ++k) {
      agree = std::min(
          agree,
          PackedPoint(coarse_normals_, coarse_welded_[coarse_triangles_[f][k]])
              .dot(PackedPoint(
                  coarse_normals_,
                  coarse_welded_[coarse_triangles_[f][(k + 1) % 3]])));
    }
    const double curved =
        std::clamp((agree - crease_cos) / (smooth_cos - crease_cos), 0.0, 1.0);
    for (int32_t v : coarse_triangles_[f]) {
      double& at = vertex_curved_[coarse_welded_[v]];
      at = std::min(at, curved);
    }
  }
  // Per caller vertex, what the Phong surface reads of it, in one place.
  for (size_t v = 0; v < coarse_corners_.size(); ++v) {
    const int32_t w = coarse_welded_[v];
    coarse_corners_[v] = {PackedPoint(positions, static_cast<int32_t>(v)),
                          PackedPoint(coarse_normals_, w), vertex_curved_[w]};
  }
}

// The control lattice from the coarse positions, with one extrapolated row
// beyond each end for the spline.
void BucklingMesh::Evaluate(int t, absl::Span<const float> positions) {
  TubeGrid& g = grids_[t];
  const TubeLayout& l = layouts_[t];
  const int c = l.lattice_columns(), rows = l.lattice_rows();
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < c; ++k) {
      const SurfacePoint& p = l.lattice[r * c + k];
      Eigen::Vector3d sum = Eigen::Vector3d::Zero();
      for (int m = 0; m < 3; ++m) {
        sum += p.weights[m] * PackedPoint(positions, p.vertices[m]);
      }
      g.lattice[(r + 1) * c + k] = sum;
    }
  }
  for (int k = 0; k < c; ++k) {
    g.lattice[k] = 2 * g.lattice[c + k] - g.lattice[2 * c + k];
    g.lattice[(rows + 1) * c + k] =
        2 * g.lattice[rows * c + k] - g.lattice[(rows - 1) * c + k];
  }
}

// P_s and its normals.
void BucklingMesh::SmoothSurface(int t) {
  if (params_.smooth_surface == SmoothSurface::kPhongCoarse) {
    PhongSurface(t);
  } else {
    SplineSurface(t);
  }
  TubeGrid& g = grids_[t];
  MeasureAxialArcs(t);
  fine_grid::RelaxColumns(g.columns, g.rows, kRelaxPasses, &g.smooth,
                          &g.creased, &g.column[0], &g.column[1]);
  // Outward: angle grows counter-clockwise about the axis, rows along it.
  // Radial folds need the smooth surface's normal at a few points only
  // (SmoothNormal).
  if (!params_.radial_folds) {
    GridNormals(g.smooth, g.columns, g.rows, &g.smooth_normal);
  }
  FoldDirections(t);
}

// Each diamond's axial thread measured along the surface (fine column 8 j,
// rows 8 i to 8 i + 8), before the relaxing rounds the coarse creases: where
// the coarse animation has folded the cloth itself (a knee crushed into an
// accordion), the surface keeps the length the straight chord has lost, and
// no fold is owed on top (docs/algorithm.md, "Buckling of tubes").
void BucklingMesh::MeasureAxialArcs(int t) {
  TubeGrid& g = grids_[t];
  const TubeLayout& l = layouts_[t];
  for (int i = 0; i < l.rows; ++i) {
    for (int j = 0; j < l.diamonds; ++j) {
      double arc = 0;
      for (int r = kCells * i; r < kCells * (i + 1); ++r) {
        const size_t f = static_cast<size_t>(r) * g.columns + kCells * j;
        arc += (g.smooth[f + g.columns] - g.smooth[f]).norm();
      }
      g.axial_arc[static_cast<size_t>(i) * l.diamonds + j] = arc;
    }
  }
}

// Which way the folds displace: across the tube's local axis (from the
// centroid of each fine row's ring, the axis through the centroids four rows
// either side), not along the smooth normal. The two agree on a round tube;
// where the animation crushes a tube into an accordion of coarse pleats
// whose sheets face along the axis, the normal would push neighbouring
// sheets into each other, the radial direction slides them along
// themselves (docs/algorithm.md, "Buckling of tubes").
void BucklingMesh::FoldDirections(int t) {
  TubeGrid& g = grids_[t];
  if (!params_.radial_folds) {
    g.fold_dir = g.smooth_normal;
    return;
  }
  for (int j = 0; j < g.rows; ++j) {
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (int i = 0; i < g.columns; ++i) {
      sum += g.smooth[static_cast<size_t>(j) * g.columns + i];
    }
    g.ring_centre[j] = sum / g.columns;
  }
  for (int j = 0; j < g.rows; ++j) {
    Eigen::Vector3d axis = g.ring_centre[std::min(j + kStep, g.rows - 1)] -
                           g.ring_centre[std::max(j - kStep, 0)];
    const double axis_length = axis.norm();
    if (axis_length > 0) axis /= axis_length;
    g.axis[j] = axis;
    for (int i = 0; i < g.columns; ++i) {
      const size_t f = static_cast<size_t>(j) * g.columns + i;
      Eigen::Vector3d radial = g.smooth[f] - g.ring_centre[j];
      radial -= radial.dot(axis) * axis;
      const double length = radial.norm();
      g.fold_dir[f] =
          length > 0 ? Eigen::Vector3d(radial / length) : SmoothNormal(t, i, j);
    }
  }
  FoldRoom(t);
}

// Where a fold has room: a fold displaces across the axis, so it keeps each
// point's height along the axis, and where a column climbs the axis row by
// row the surface stays one sheet over the tube's chart, which no such fold
// can make cross itself. Where the coarse animation has folded a column
// back (the knee crushed into an accordion whose sheets face along the
// axis), sheets share heights and a fold would push one through the next:
// there the room is 0, rising to 1 over a primitive's rows and columns
// either side. A row step climbs when it runs within 60 degrees of the axis
// (docs/algorithm.md, "Buckling of tubes").
void BucklingMesh::FoldRoom(int t) {
  TubeGrid& g = grids_[t];
  const double climb_sq = 0.25;  // cos^2 60 degrees
  // Per column, rows from the nearest step that does not climb: up the
  // rows, then down (row by row, so the grid is read in its order).
  std::vector<int>& since = g.rows_since;
  std::fill(since.begin(), since.end(), kCells);
  for (int j = 0; j < g.rows; ++j) {
    const size_t row = static_cast<size_t>(j) * g.columns;
    for (int i = 0; i < g.columns; ++i) {
      if (j + 1 < g.rows) {
        const Eigen::Vector3d step =
            g.smooth[row + g.columns + i] - g.smooth[row + i];
        const double rise = step.dot(g.axis[j]);
        if (rise <= 0 || rise * rise <= climb_sq * step.squaredNorm()) {
          since[i] = -1;
        }
      }
      g.room[row + i] = std::max(since[i], 0);
      ++since[i];
    }
  }
  std::fill(since.begin(), since.end(), kCells);
  for (int j = g.rows - 1; j >= 0; --j) {
    const size_t row = static_cast<size_t>(j) * g.columns;
    double least = 1;
    for (int i = 0; i < g.columns; ++i) {
      double& room = g.room[row + i];
      if (room == 0) since[i] = 0;
      room = std::min({room, static_cast<double>(since[i]),
                       static_cast<double>(kCells)}) /
             kCells;
      least = std::min(least, room);
      ++since[i];
    }
    if (least >= 1) continue;  // room everywhere round this row
    // Around the tube too: no more room than a column beside it has, plus
    // 1 / kCells a column (twice round, each way, for the wrap).
    double* room = &g.room[row];
    constexpr double kStepAround = 1.0 / kCells;
    for (int lap = 0; lap < 2; ++lap) {
      room[0] = std::min(room[0], room[g.columns - 1] + kStepAround);
      for (int i = 1; i < g.columns; ++i) {
        room[i] = std::min(room[i], room[i - 1] + kStepAround);
      }
    }
    for (int lap = 0; lap < 2; ++lap) {
      room[g.columns - 1] =
          std::min(room[g.columns - 1], room[0] + kStepAround);
      for (int i = g.columns - 2; i >= 0; --i) {
        room[i] = std::min(room[i], room[i + 1] + kStepAround);
      }
    }
  }
}

// Phong tessellation (Boubekeur & Alexa 2008, alpha 3/4) of the coarse mesh
// at each fine vertex.
void BucklingMesh::PhongSurface(int t) {
  TubeGrid& g = grids_[t];
  const TubeLayout& l = layouts_[t];
  constexpr double kAlpha = 0.75;
  for (size_t f = 0; f < l.fine.size(); ++f) {
    const SurfacePoint& s = l.fine[f];
    const CoarseCorner* corner[3];
    Eigen::Vector3d flat = Eigen::Vector3d::Zero();
    double curved = 0;
    for (int k = 0; k < 3; ++k) {
      corner[k] = &coarse_corners_[s.vertices[k]];
      flat += s.weights[k] * corner[k]->position;
      curved += s.weights[k] * corner[k]->curved;
    }
    // The weights sum to 1: the mean of the projections onto the corners'
    // tangent planes is the flat point less the mean offset along them.
    Eigen::Vector3d offset = Eigen::Vector3d::Zero();
    for (int k = 0; k < 3; ++k) {
      offset += s.weights[k] *
                (flat - corner[k]->position).dot(corner[k]->normal) *
                corner[k]->normal;
    }
    g.smooth[f] = flat - kAlpha * curved * offset;
  }
}

// The paper's P_s: the Catmull-Rom surface through the lattice, around then
// along.
void BucklingMesh::SplineSurface(int t) {
  TubeGrid& g = grids_[t];
  const TubeLayout& l = layouts_[t];
  const int c = l.lattice_columns(), padded = l.lattice_rows() + 2;
  for (int r = 0; r < padded; ++r) {
    for (int i = 0; i < g.columns; ++i) {
      const double* w = kSpline.w[i % kStep];
      const int k = i / kStep;
      Eigen::Vector3d sum = Eigen::Vector3d::Zero();
      for (int tap = 0; tap < 4; ++tap) {
        sum += w[tap] * g.lattice[r * c + Wrap(k - 1 + tap, c)];
      }
      g.along[static_cast<size_t>(r) * g.columns + i] = sum;
    }
  }
  for (int j = 0; j < g.rows; ++j) {
    const double* w = kSpline.w[j % kStep];
    const int k = j / kStep + 1;  // padded row of the lattice row at or below
    for (int i = 0; i < g.columns; ++i) {
      Eigen::Vector3d sum = Eigen::Vector3d::Zero();
      for (int tap = 0; tap < 4; ++tap) {
        if (w[tap] == 0) continue;
        const int r = std::min(k - 1 + tap, padded - 1);
        sum += w[tap] * g.along[static_cast<size_t>(r) * g.columns + i];
      }
      g.smooth[static_cast<size_t>(j) * g.columns + i] = sum;
    }
  }
}

Eigen::Vector3d BucklingMesh::SmoothNormal(int t, int column, int row) const {
  const TubeGrid& g = grids_[t];
  if (!params_.radial_folds) {
    return g.smooth_normal[static_cast<size_t>(row) * g.columns + column];
  }
  return GridNormal(g.smooth, g.columns, g.rows, column, row);
}

double BucklingMesh::CurvatureLimit(int t, int column, int row,
                                    double sign) const {
  const TubeGrid& g = grids_[t];
  const auto p = [&](int i, int j) -> const Eigen::Vector3d& {
    return g
        .smooth[static_cast<size_t>(std::clamp(j, 0, g.rows - 1)) * g.columns +
                Wrap(i, g.columns)];
  };
  const Eigen::Vector3d n =
      sign * SmoothNormal(t, Wrap(column, g.columns), row);
  double curvature = 0;
  for (const auto& [di, dj] : {std::pair{kStep, 0}, std::pair{0, kStep}}) {
    const Eigen::Vector3d &before = p(column - di, row - dj),
                          &after = p(column + di, row + dj);
    const double half_chord_sq = 0.25 * (after - before).squaredNorm();
    if (!(half_chord_sq > 0)) continue;
    // The circle through the three points bends towards n by this much.
    const double bend = (before + after - 2 * p(column, row)).dot(n);
    curvature = std::max(curvature, 2 * bend / (half_chord_sq + 1e-300));
  }
  return curvature > 0 ? 0.5 / curvature : 1e300;
}

}  // namespace crease
