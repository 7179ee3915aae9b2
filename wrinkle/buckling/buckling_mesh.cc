#include "wrinkle/buckling/buckling_mesh.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "wrinkle/data/smooth_normals.h"

namespace crease {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr int kCells = kPrimitiveCells;
// Fine cells per lattice step (the lattice has 2 steps per primitive).
constexpr int kStep = kCells / 2;
// A fold is no deeper than this times the current spacing of the folds
// beside it (a row's height for diamonds, the crest spacing for twists):
// where an animation crushes the cloth, stacked folds would cross.
constexpr double kFoldRoom = 1.0;
// Passes smoothing the surface along its columns (RelaxColumns).
constexpr int kRelaxPasses = 8;

Eigen::Vector3d Vertex(absl::Span<const float> p, int32_t v) {
  return {p[3 * static_cast<size_t>(v)], p[3 * static_cast<size_t>(v) + 1],
          p[3 * static_cast<size_t>(v) + 2]};
}

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

int Wrap(int i, int n) { return ((i % n) + n) % n; }

// Lattice point (row, column) of a tube's padded lattice (one extrapolated
// row below the first), the column taken around the tube.
const Eigen::Vector3d& LatticePoint(const std::vector<Eigen::Vector3d>& lattice,
                                    int columns, int row, int column) {
  return lattice[static_cast<size_t>(row + 1) * columns +
                 Wrap(column, columns)];
}

// A primitive's shape from its corners: U and V its mean circumferential and
// axial edges, its two diagonals ("/" = U + V, "\" = V - U) and the
// diagonal it would have unsheared, sqrt(|U|^2 + |V_n|^2) with V_n the part
// of V perpendicular to U (0 when U is).
struct PrimitiveShape {
  Eigen::Vector3d u, v;
  double rising = 0, falling = 0, unsheared = 0;

  PrimitiveShape(const Eigen::Vector3d& c00, const Eigen::Vector3d& c20,
                 const Eigen::Vector3d& c02, const Eigen::Vector3d& c22)
      : u(0.5 * ((c20 - c00) + (c22 - c02))),
        v(0.5 * ((c02 - c00) + (c22 - c20))) {
    rising = (u + v).norm();
    falling = (v - u).norm();
    const double u_norm = u.norm();
    if (!(u_norm > 0)) return;
    const Eigen::Vector3d vn = v - v.dot(u / u_norm) * (u / u_norm);
    unsheared = std::sqrt(u.squaredNorm() + vn.squaredNorm());
  }
};

double SignedFraction(double x) { return x - std::round(x); }

// The twist folds' profile, cos^2(pi d) for d the signed distance (in
// primitive units) to the nearest crest line, at the fine grid's steps: a
// crest line through primitive corners passes every kCells fine cells.
struct RidgeProfile {
  double at[kCells];
  RidgeProfile() {
    for (int k = 0; k < kCells; ++k) {
      const double c = std::cos(
          std::numbers::pi * SignedFraction(static_cast<double>(k) / kCells));
      at[k] = c * c;
    }
  }
};
const RidgeProfile kRidge;

// The unit normal of a grid of points, periodic around (columns), at (i, j)
// by central differences (one-sided at the first and last rows); zero where
// degenerate.
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

// GridNormal at every point.
void GridNormals(const std::vector<Eigen::Vector3d>& p, int columns, int rows,
                 std::vector<Eigen::Vector3d>* normals) {
  for (int j = 0; j < rows; ++j) {
    for (int i = 0; i < columns; ++i) {
      (*normals)[static_cast<size_t>(j) * columns + i] =
          GridNormal(p, columns, rows, i, j);
    }
  }
}

// One 3 x 3 box pass over `field` (periodic around, clamped at the ends),
// separably, through `scratch`.
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

// kRelaxPasses [1 2 1] / 4 passes along each column of a grid that has a
// crease (a binomial kernel of 2 rows' deviation), its two end rows kept.
// `a` and `b` hold a column each.
void RelaxColumns(int columns, int rows, std::vector<Eigen::Vector3d>* field,
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
    for (int pass = 0; pass < kRelaxPasses; ++pass) {
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

// Adds a fold of `depth` along the smooth normal at fine vertex (ci, cj):
// the diamond's tent (its facets' weight of the white point there), or with
// `pyramid` the primitive's (its facets' weight of the centre).
void AddFold(int columns, const std::vector<Eigen::Vector3d>& normals, int ci,
             int cj, double depth, bool pyramid,
             std::vector<Eigen::Vector3d>* displacement) {
  if (depth == 0) return;
  const Eigen::Vector3d n =
      depth * normals[static_cast<size_t>(cj) * columns + Wrap(ci, columns)];
  for (int dj = -kStep; dj <= kStep; ++dj) {
    for (int di = -kStep; di <= kStep; ++di) {
      const int from_centre = pyramid ? std::max(std::abs(di), std::abs(dj))
                                      : std::abs(di) + std::abs(dj);
      const double weight = 1.0 - static_cast<double>(from_centre) / kStep;
      if (weight <= 0) continue;
      (*displacement)[static_cast<size_t>(cj + dj) * columns +
                      Wrap(ci + di, columns)] += weight * n;
    }
  }
}

}  // namespace

absl::StatusOr<BucklingMesh> BucklingMesh::Create(
    const MeshTopology& topology, absl::Span<const float> rest_positions,
    std::vector<Tube> tubes, const BucklingParams& params) {
  if (absl::Status s = ValidateBucklingParams(params); !s.ok()) return s;
  if (rest_positions.size() !=
      3 * static_cast<size_t>(topology.num_vertices())) {
    return absl::InvalidArgumentError("rest positions: wrong length");
  }
  BucklingMesh mesh;
  mesh.params_ = params;
  mesh.num_coarse_vertices_ = topology.num_vertices();
  mesh.coarse_triangles_ = topology.triangles();
  mesh.coarse_welded_ = topology.weld_map();
  mesh.coarse_curved_.resize(mesh.coarse_triangles_.size());
  std::vector<bool> covered(topology.num_triangles(), false);
  for (size_t t = 0; t < tubes.size(); ++t) {
    absl::StatusOr<TubeLayout> layout =
        LayOutTube(topology, rest_positions, tubes[t], params, kCells,
                   mesh.num_vertices());
    if (!layout.ok()) {
      return absl::Status(layout.status().code(),
                          absl::StrFormat("tube %d cannot be laid out: %s", t,
                                          layout.status().message()));
    }
    for (int32_t f : tubes[t].triangles) covered[f] = true;
    TubeGrid grid = mesh.AddGrid(*layout);
    mesh.tubes_.push_back(std::move(tubes[t]));
    mesh.layouts_.push_back(*std::move(layout));
    mesh.grids_.push_back(std::move(grid));
    mesh.MeasureRest(static_cast<int>(t), rest_positions);
  }
  for (int32_t f = 0; f < topology.num_triangles(); ++f) {
    if (!covered[f]) mesh.uncovered_triangles_.push_back(f);
  }
  mesh.positions_.resize(3 * static_cast<size_t>(mesh.num_vertices()));
  mesh.normals_.resize(mesh.positions_.size());
  if (absl::Status s = mesh.Update(rest_positions); !s.ok()) return s;
  return mesh;
}

// The per-frame storage of a tube laid out as `layout`, and its fine
// topology and UVs appended to the mesh's: quads split along the facets'
// creases.
absl::StatusOr<int64_t> BucklingMesh::PlanFineVertices(
    const MeshTopology& topology, absl::Span<const float> rest_positions,
    absl::Span<const Tube> tubes, const BucklingParams& params) {
  if (absl::Status s = ValidateBucklingParams(params); !s.ok()) return s;
  int64_t total = 0;
  for (size_t t = 0; t < tubes.size(); ++t) {
    absl::StatusOr<TubeLayout> layout = LayOutTube(
        topology, rest_positions, tubes[t], params, kCells, total, true);
    if (!layout.ok()) {
      return absl::Status(layout.status().code(),
                          absl::StrFormat("tube %d cannot be laid out: %s", t,
                                          layout.status().message()));
    }
    total += (int64_t{kCells} * layout->rows + 1) *
             (int64_t{kCells} * layout->diamonds + 1);
  }
  return total;
}

BucklingMesh::TubeGrid BucklingMesh::AddGrid(const TubeLayout& layout) {
  TubeGrid grid;
  grid.first_vertex = num_vertices();
  grid.columns = kCells * layout.diamonds;
  grid.rows = kCells * layout.rows + 1;
  const int lattice_size =
      (layout.lattice_rows() + 2) * layout.lattice_columns();
  const size_t fine = static_cast<size_t>(grid.columns) * grid.rows;
  grid.lattice.resize(lattice_size);
  grid.along.resize(static_cast<size_t>(layout.lattice_rows() + 2) *
                    grid.columns);
  for (auto* v : {&grid.smooth, &grid.smooth_normal, &grid.fold_dir,
                  &grid.displacement, &grid.scratch}) {
    v->resize(fine);
  }
  grid.ring_centre.resize(grid.rows);
  // Each fine point's coarse triangle (its three vertices, in any order).
  absl::flat_hash_map<std::array<int32_t, 3>, int32_t> triangle_of;
  for (size_t f = 0; f < coarse_triangles_.size(); ++f) {
    std::array<int32_t, 3> key = coarse_triangles_[f];
    std::sort(key.begin(), key.end());
    triangle_of.emplace(key, static_cast<int32_t>(f));
  }
  grid.fine_triangle.reserve(layout.fine.size());
  for (const SurfacePoint& p : layout.fine) {
    std::array<int32_t, 3> key = {p.vertices[0], p.vertices[1], p.vertices[2]};
    std::sort(key.begin(), key.end());
    const auto it = triangle_of.find(key);
    grid.fine_triangle.push_back(it == triangle_of.end() ? -1 : it->second);
  }
  grid.axis.resize(grid.rows);
  grid.column[0].resize(grid.rows + 4);
  grid.column[1].resize(grid.rows + 4);
  grid.room.resize(fine);
  const size_t primitives = static_cast<size_t>(layout.rows) * layout.diamonds;
  grid.twist[0].resize(primitives);
  grid.twist[1].resize(primitives);
  grid.diamond_depth.resize(primitives);
  grid.axial_arc.resize(primitives);
  // Fine topology: quads split along the facets' creases.
  const int stride = grid.columns + 1;
  for (int j = 0; j < grid.rows; ++j) {
    for (int i = 0; i <= grid.columns; ++i) {
      uvs_.push_back(static_cast<float>(i) / grid.columns);
      uvs_.push_back(static_cast<float>(j) / (grid.rows - 1));
    }
  }
  for (int j = 0; j + 1 < grid.rows; ++j) {
    for (int i = 0; i < grid.columns; ++i) {
      const int32_t v00 = grid.first_vertex + j * stride + i;
      const int32_t v10 = v00 + 1, v01 = v00 + stride, v11 = v01 + 1;
      const bool rising = (i % kCells < kStep) == (j % kCells < kStep);
      if (rising) {
        triangles_.push_back({v00, v10, v11});
        triangles_.push_back({v00, v11, v01});
      } else {
        triangles_.push_back({v00, v10, v01});
        triangles_.push_back({v10, v11, v01});
      }
    }
  }
  return grid;
}

int BucklingMesh::num_primitives() const {
  int sum = 0;
  for (const TubeLayout& l : layouts_) sum += l.rows * l.diamonds;
  return sum;
}

int32_t BucklingMesh::FineVertex(int tube, int column, int row) const {
  const TubeGrid& g = grids_[tube];
  return g.first_vertex + row * (g.columns + 1) + column;
}

void BucklingMesh::MeasureRest(int t, absl::Span<const float> rest_positions) {
  CoarseNormals(rest_positions);
  Evaluate(t, rest_positions);
  SmoothSurface(t, rest_positions);
  TubeGrid& g = grids_[t];
  g.rest_arc = g.axial_arc;
  const TubeLayout& l = layouts_[t];
  const int c = l.lattice_columns();
  const auto at = [&](int row, int col) -> const Eigen::Vector3d& {
    return LatticePoint(g.lattice, c, row, col);
  };
  g.primitives.resize(static_cast<size_t>(l.rows) * l.diamonds);
  g.diamond_height.resize(g.primitives.size());
  for (int i = 0; i < l.rows; ++i) {
    for (int j = 0; j < l.diamonds; ++j) {
      const Eigen::Vector3d &c00 = at(2 * i, 2 * j),
                            &c20 = at(2 * i, 2 * j + 2),
                            &c02 = at(2 * i + 2, 2 * j),
                            &c22 = at(2 * i + 2, 2 * j + 2);
      PrimitiveRest& p = g.primitives[i * l.diamonds + j];
      const PrimitiveShape shape(c00, c20, c02, c22);
      const double dn = std::max(shape.unsheared, 1e-300);
      p.diagonal_ratio[0] = shape.rising / dn;
      p.diagonal_ratio[1] = shape.falling / dn;
      g.diamond_height[i * l.diamonds + j] = (c02 - c00).norm();
    }
  }
}

absl::Status BucklingMesh::Update(absl::Span<const float> positions) {
  if (positions.size() != 3 * static_cast<size_t>(num_coarse_vertices_)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("positions: %d floats for %d vertices",
                        positions.size(), num_coarse_vertices_));
  }
  for (float x : positions) {
    // Beyond this, float sums of normals overflow and every value turns NaN.
    if (!(std::abs(x) <= kMaxCoordinate)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "positions: %g is not finite or beyond %g", x, kMaxCoordinate));
    }
  }
  stats_ = {};
  CoarseNormals(positions);
  for (int t = 0; t < static_cast<int>(grids_.size()); ++t) {
    Evaluate(t, positions);
    SmoothSurface(t, positions);
    std::fill(grids_[t].displacement.begin(), grids_[t].displacement.end(),
              Eigen::Vector3d::Zero());
    FoldDiamonds(t);
    FoldTwists(t);
    Finish(t);
  }
  return absl::OkStatus();
}

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
  // corners' normals to 60 it gives way to the flat triangle.
  const double smooth_cos = std::cos(kPi / 6), crease_cos = std::cos(kPi / 3);
  for (size_t f = 0; f < coarse_triangles_.size(); ++f) {
    double agree = 1;
    for (int k = 0; k < 3; ++k) {
      agree = std::min(
          agree,
          Vertex(coarse_normals_, coarse_welded_[coarse_triangles_[f][k]])
              .dot(Vertex(coarse_normals_,
                          coarse_welded_[coarse_triangles_[f][(k + 1) % 3]])));
    }
    coarse_curved_[f] =
        std::clamp((agree - crease_cos) / (smooth_cos - crease_cos), 0.0, 1.0);
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
        sum += p.weights[m] * Vertex(positions, p.vertices[m]);
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
void BucklingMesh::SmoothSurface(int t, absl::Span<const float> positions) {
  if (params_.smooth_surface == SmoothSurface::kPhongCoarse) {
    PhongSurface(t, positions);
  } else {
    SplineSurface(t);
  }
  TubeGrid& g = grids_[t];
  MeasureAxialArcs(t);
  if (params_.relax_surface) {
    RelaxColumns(g.columns, g.rows, &g.smooth, &g.column[0], &g.column[1]);
  }
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
// there the room is 0, rising to 1 over a primitive's rows either side. A
// row step climbs when it runs within 60 degrees of the axis
// (docs/algorithm.md, "Buckling of tubes").
void BucklingMesh::FoldRoom(int t) {
  TubeGrid& g = grids_[t];
  const double climb_sq = 0.25;  // cos^2 60 degrees
  for (int i = 0; i < g.columns; ++i) {
    // Rows from the nearest step that does not climb: up, then down.
    int since = kCells;
    for (int j = 0; j < g.rows; ++j) {
      const size_t f = static_cast<size_t>(j) * g.columns + i;
      if (j + 1 < g.rows) {
        const Eigen::Vector3d step = g.smooth[f + g.columns] - g.smooth[f];
        const double rise = step.dot(g.axis[j]);
        if (rise <= 0 || rise * rise <= climb_sq * step.squaredNorm()) {
          since = -1;
        }
      }
      g.room[f] = std::max(since, 0);
      ++since;
    }
    since = kCells;
    for (int j = g.rows - 1; j >= 0; --j) {
      const size_t f = static_cast<size_t>(j) * g.columns + i;
      since = g.room[f] == 0 ? 0 : since;
      g.room[f] = std::min({g.room[f], static_cast<double>(since),
                            static_cast<double>(kCells)}) /
                  kCells;
      ++since;
    }
  }
}

// Phong tessellation (Boubekeur & Alexa 2008, alpha 3/4) of the coarse mesh
// at each fine vertex.
void BucklingMesh::PhongSurface(int t, absl::Span<const float> positions) {
  TubeGrid& g = grids_[t];
  const TubeLayout& l = layouts_[t];
  constexpr double kAlpha = 0.75;
  for (size_t f = 0; f < l.fine.size(); ++f) {
    const SurfacePoint& s = l.fine[f];
    Eigen::Vector3d corner[3], normal[3], flat = Eigen::Vector3d::Zero();
    for (int k = 0; k < 3; ++k) {
      corner[k] = Vertex(positions, s.vertices[k]);
      normal[k] = Vertex(coarse_normals_, coarse_welded_[s.vertices[k]]);
      flat += s.weights[k] * corner[k];
    }
    Eigen::Vector3d projected = Eigen::Vector3d::Zero();
    for (int k = 0; k < 3; ++k) {
      projected +=
          s.weights[k] * (flat - (flat - corner[k]).dot(normal[k]) * normal[k]);
    }
    const int32_t under = g.fine_triangle[f];
    const double curved = under >= 0 ? coarse_curved_[under] : 1.0;
    g.smooth[f] = flat + kAlpha * curved * (projected - flat);
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

// D_d: each diamond centre (a white point, between two primitives) sinks by
// as much as keeps its axial threads' rest length; each primitive's centre
// rises by as much as keeps its threads to the corners (centre_ridges).
void BucklingMesh::FoldDiamonds(int t) {
  TubeGrid& g = grids_[t];
  const TubeLayout& l = layouts_[t];
  const int c = l.lattice_columns();
  const auto at = [&](int row, int col) -> const Eigen::Vector3d& {
    return LatticePoint(g.lattice, c, row, col);
  };
  const auto gain = [&](double now, double rest) {
    if (params_.diamond_depth == DiamondDepth::kDevelopable) return 1.0;
    return rest > 0 ? std::clamp(1 - now / rest, 0.0, 1.0) : 0.0;
  };
  const auto add = [&](int ci, int cj, double depth, bool pyramid) {
    AddFold(g.columns, g.fold_dir, ci, cj, depth, pyramid, &g.displacement);
  };
  // The depth that gives an axial thread of rest length h0, now h, its
  // length back, past what the fabric takes in its plane.
  const double keep = 1 - params_.elastic_compression;
  const auto depth = [&](double h, double h0) {
    return 0.5 * std::sqrt(std::max(h0 * h0 * keep * keep - h * h, 0.0)) *
           gain(h, h0 * keep);
  };
  for (int i = 0; i < l.rows; ++i) {
    for (int j = 0; j < l.diamonds; ++j) {
      const size_t p = static_cast<size_t>(i) * l.diamonds + j;
      const double h = (at(2 * i + 2, 2 * j) - at(2 * i, 2 * j)).norm();
      stats_.min_axial_ratio =
          std::min(stats_.min_axial_ratio, h / g.diamond_height[p]);
      // The fold owed is what the surface's own length along the thread
      // has lost; no deeper than the folds beside it are apart, nor than
      // the surface's bend allows.
      const double arc = g.axial_arc[p], arc0 = g.rest_arc[p];
      const double sink =
          std::min({depth(arc, arc0), kFoldRoom * h,
                    CurvatureLimit(t, kCells * j, kCells * i + kStep, -1)});
      add(kCells * j, kCells * i + kStep, -sink, false);
      g.diamond_depth[p] = sink;
      stats_.max_diamond_depth = std::max(stats_.max_diamond_depth, sink);
      if (sink > 0) ++stats_.compressed_primitives;
      if (!params_.centre_ridges) continue;
      // The centre rises as far as the diamonds beside it sink (the
      // primitive's two axial edges), so its threads to the corners keep
      // their length under axial compression (docs/algorithm.md).
      const size_t right =
          static_cast<size_t>(i) * l.diamonds + Wrap(j + 1, l.diamonds);
      const double h_right =
          (at(2 * i + 2, 2 * j + 2) - at(2 * i, 2 * j + 2)).norm();
      const double h_mean = 0.5 * (h + h_right);
      const double arc_mean = 0.5 * (arc + g.axial_arc[right]);
      const double arc0_mean = 0.5 * (arc0 + g.rest_arc[right]);
      const double rise = std::min(
          {depth(arc_mean, arc0_mean), kFoldRoom * h_mean,
           CurvatureLimit(t, kCells * j + kStep, kCells * i + kStep, 1)});
      add(kCells * j + kStep, kCells * i + kStep, rise, true);
      g.diamond_depth[p] = std::max(sink, rise);
      stats_.max_diamond_depth = std::max(stats_.max_diamond_depth, rise);
    }
  }
}

// D_t: a sheared primitive's compressed diagonal buckles into a fold whose
// crest runs along the other diagonal, as high as gives the crossing thread
// back the length the shear took; the heights are interpolated between
// primitive centres and the crests run on the lines through the primitives'
// corners, so neighbouring folds join.
bool BucklingMesh::TwistHeights(int t) {
  TubeGrid& g = grids_[t];
  const TubeLayout& l = layouts_[t];
  const int c = l.lattice_columns();
  const auto at = [&](int row, int col) -> const Eigen::Vector3d& {
    return LatticePoint(g.lattice, c, row, col);
  };
  bool any = false;
  for (int i = 0; i < l.rows; ++i) {
    for (int j = 0; j < l.diamonds; ++j) {
      const size_t p = static_cast<size_t>(i) * l.diamonds + j;
      const Eigen::Vector3d &c00 = at(2 * i, 2 * j),
                            &c20 = at(2 * i, 2 * j + 2),
                            &c02 = at(2 * i + 2, 2 * j),
                            &c22 = at(2 * i + 2, 2 * j + 2);
      const PrimitiveShape shape(c00, c20, c02, c22);
      g.twist[0][p] = g.twist[1][p] = 0;
      if (!(shape.unsheared > 0) || params_.twist_gain == 0) continue;
      const double dn = shape.unsheared;
      const double rising = shape.rising, falling = shape.falling;
      double lost_rising = dn * g.primitives[p].diagonal_ratio[0] - rising;
      double lost_falling = dn * g.primitives[p].diagonal_ratio[1] - falling;
      const double scale = params_.twist_gain * 2 / kPi;
      // As high as a crossing thread needs, up to half the row (where its
      // folds would touch) and the surface's bend.
      const double area = shape.u.cross(shape.v).norm();
      const double limit = std::min(
          {0.5 * l.row_heights[i],
           kFoldRoom * area / std::max({rising, falling, 1e-300}),
           CurvatureLimit(t, kCells * j + kStep, kCells * i + kStep, 1)});
      // One buckling mode a primitive: the twist fold only rises above
      // the diamonds' depth (both at once crossed each other on the knee).
      const double folded = g.diamond_depth[p];
      const double slack = params_.elastic_compression * dn;
      lost_rising -= slack;
      lost_falling -= slack;
      if (lost_falling > std::max(lost_rising, 0.0)) {  // crest on "/"
        g.twist[0][p] = std::max(
            std::min(scale * std::sqrt(falling * lost_falling), limit) - folded,
            0.0);
      } else if (lost_rising > 0) {  // crest on "\"
        g.twist[1][p] = std::max(
            std::min(scale * std::sqrt(rising * lost_rising), limit) - folded,
            0.0);
      }
      stats_.max_twist_height =
          std::max({stats_.max_twist_height, g.twist[0][p], g.twist[1][p]});
      any = any || g.twist[0][p] > 0 || g.twist[1][p] > 0;
    }
  }
  return any;
}

void BucklingMesh::FoldTwists(int t) {
  if (!TwistHeights(t)) return;
  TubeGrid& g = grids_[t];
  const TubeLayout& l = layouts_[t];
  for (int jj = 0; jj < g.rows; ++jj) {
    const double y = static_cast<double>(jj) / kCells;  // in primitives
    const double yc = std::clamp(y - 0.5, 0.0, l.rows - 1.0);
    const int i0 = std::min(static_cast<int>(yc), l.rows - 1);
    const int i1 = std::min(i0 + 1, l.rows - 1);
    const double fy = yc - i0;
    for (int ii = 0; ii < g.columns; ++ii) {
      const double x = static_cast<double>(ii) / kCells;
      const double xc = x - 0.5;
      const int j0 = static_cast<int>(std::floor(xc));
      const double fx = xc - j0;
      const int ja = Wrap(j0, l.diamonds), jb = Wrap(j0 + 1, l.diamonds);
      double height[2];
      for (int k = 0; k < 2; ++k) {
        const std::vector<double>& h = g.twist[k];
        height[k] = (1 - fy) * ((1 - fx) * h[i0 * l.diamonds + ja] +
                                fx * h[i0 * l.diamonds + jb]) +
                    fy * ((1 - fx) * h[i1 * l.diamonds + ja] +
                          fx * h[i1 * l.diamonds + jb]);
      }
      const double lift = height[0] * kRidge.at[Wrap(ii - jj, kCells)] +
                          height[1] * kRidge.at[(ii + jj) % kCells];
      const size_t f = static_cast<size_t>(jj) * g.columns + ii;
      g.displacement[f] += lift * g.fold_dir[f];
    }
  }
}

// The box filter over the displacement, then positions and normals.
void BucklingMesh::Finish(int t) {
  TubeGrid& g = grids_[t];
  for (int pass = 0; pass < params_.smoothing_passes; ++pass) {
    BoxFilter(g.columns, g.rows, &g.displacement, &g.scratch);
  }
  // The boundary loops stay on the coarse surface, where a described tube
  // meets the rest of the mesh (the filter and the twists reach them).
  const size_t last_row = static_cast<size_t>(g.rows - 1) * g.columns;
  for (int i = 0; i < g.columns; ++i) {
    g.displacement[i] = g.displacement[last_row + i] = Eigen::Vector3d::Zero();
  }
  std::vector<Eigen::Vector3d>& final_positions = g.scratch;
  double farthest_sq = 0;
  for (size_t f = 0; f < g.smooth.size(); ++f) {
    const Eigen::Vector3d d =
        params_.radial_folds ? Eigen::Vector3d(g.room[f] * g.displacement[f])
                             : g.displacement[f];
    farthest_sq = std::max(farthest_sq, d.squaredNorm());
    final_positions[f] = g.smooth[f] + d;
  }
  stats_.max_fold_offset =
      std::max(stats_.max_fold_offset, std::sqrt(farthest_sq));
  // The displacement's storage holds the normals now (refilled each frame).
  std::vector<Eigen::Vector3d>& final_normals = g.displacement;
  GridNormals(final_positions, g.columns, g.rows, &final_normals);
  const int stride = g.columns + 1;
  for (int j = 0; j < g.rows; ++j) {
    for (int i = 0; i <= g.columns; ++i) {
      const size_t f =
          static_cast<size_t>(j) * g.columns + (i == g.columns ? 0 : i);
      const Eigen::Vector3d& n = final_normals[f];
      const Eigen::Vector3d& p = final_positions[f];
      const size_t v = 3 * static_cast<size_t>(g.first_vertex + j * stride + i);
      const bool flat = n.squaredNorm() == 0;
      for (int k = 0; k < 3; ++k) {
        positions_[v + k] = static_cast<float>(p[k]);
        normals_[v + k] =
            flat ? (k == 1 ? 1.0f : 0.0f) : static_cast<float>(n[k]);
      }
    }
  }
}

CombinedMesh CombinedMesh::Of(const BucklingMesh& mesh,
                              absl::Span<const io::Triangle> coarse_triangles,
                              absl::Span<const int32_t> coarse_welded,
                              absl::Span<const float> coarse_uvs) {
  CombinedMesh out;
  for (int32_t f : mesh.uncovered_triangles()) {
    out.triangles.push_back(coarse_triangles[f]);
    for (int k = 0; k < 6; ++k) {
      out.corner_uvs.push_back(
          coarse_uvs.empty() ? 0.0f
                             : coarse_uvs[6 * static_cast<size_t>(f) + k]);
    }
  }
  const int32_t first = static_cast<int32_t>(coarse_welded.size());
  out.welded.assign(coarse_welded.begin(), coarse_welded.end());
  for (int32_t v = 0; v < mesh.num_vertices(); ++v) {
    out.welded.push_back(first + v);
  }
  for (size_t t = 0; t < mesh.layouts().size(); ++t) {
    const TubeLayout& l = mesh.layouts()[t];
    for (int row = 0; row <= kPrimitiveCells * l.rows; ++row) {
      const int tube = static_cast<int>(t);
      out.welded[first +
                 mesh.FineVertex(tube, kPrimitiveCells * l.diamonds, row)] =
          first + mesh.FineVertex(tube, 0, row);
    }
  }
  for (const io::Triangle& t : mesh.triangles()) {
    out.triangles.push_back({t[0] + first, t[1] + first, t[2] + first});
    for (int32_t v : t) {
      out.corner_uvs.push_back(mesh.uvs()[2 * static_cast<size_t>(v)]);
      out.corner_uvs.push_back(mesh.uvs()[2 * static_cast<size_t>(v) + 1]);
    }
  }
  return out;
}

void CombinedMesh::Fill(const BucklingMesh& mesh,
                        absl::Span<const float> coarse) {
  positions.resize(coarse.size() + mesh.positions().size());
  std::copy(coarse.begin(), coarse.end(), positions.begin());
  std::copy(mesh.positions().begin(), mesh.positions().end(),
            positions.begin() + static_cast<std::ptrdiff_t>(coarse.size()));
}

}  // namespace crease
