#include "wrinkle/buckling/buckling_mesh.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "absl/strings/str_format.h"
#include "wrinkle/buckling/fine_grid.h"

namespace crease {
namespace {

using fine_grid::BoxFilter;
using fine_grid::GridNormals;
using fine_grid::Wrap;

constexpr int kCells = kPrimitiveCells;
// Fine cells per lattice step (the lattice has 2 steps per primitive).
constexpr int kStep = kCells / 2;
// A fold is no deeper than this times the current spacing of the folds
// beside it (a row's height for diamonds, the crest spacing for twists):
// where an animation crushes the cloth, stacked folds would cross.
constexpr double kFoldRoom = 1.0;

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
  mesh.coarse_corners_.resize(mesh.coarse_welded_.size());
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
  grid.axis.resize(grid.rows);
  grid.column[0].resize(grid.rows + 4);
  grid.column[1].resize(grid.rows + 4);
  grid.room.resize(fine);
  grid.rows_since.resize(grid.columns);
  grid.creased.resize(fine);
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
  SmoothSurface(t);
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
    SmoothSurface(t);
    std::fill(grids_[t].displacement.begin(), grids_[t].displacement.end(),
              Eigen::Vector3d::Zero());
    FoldDiamonds(t);
    FoldTwists(t);
    Finish(t);
  }
  return absl::OkStatus();
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
      const double scale = params_.twist_gain * 2 / std::numbers::pi;
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
