#ifndef CREASE_WRINKLE_BUCKLING_LAYOUT_H_
#define CREASE_WRINKLE_BUCKLING_LAYOUT_H_

// The layout of a tube's buckling primitives (Decaudin, Thomaszewski & Cani
// 2005, Section 4; digest ../shared/spec/seed-003-004.md part B): the
// diamond geometry of Eq. 1-5, the approximate unfolding, and rows of
// primitives whose 3 x 3 control points are embedded in the coarse mesh.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "wrinkle/buckling/tube.h"
#include "wrinkle/core/mesh.h"

namespace crease {

// How deep the diamonds fold (docs/algorithm.md, "Buckling of tubes").
enum class DiamondDepth {
  // As deep as keeps the axial threads' rest length: D_d with alpha = 1.
  kDevelopable,
  // The digest's reconstruction: that depth times alpha = clamp(1 - h / h0).
  kCompressionGain,
};

// What the folds are laid on (docs/algorithm.md, "Buckling of tubes").
enum class SmoothSurface {
  // Phong tessellation (alpha 3/4) of the coarse mesh at each fine vertex:
  // through the coarse vertices, never far from the coarse surface.
  kPhongCoarse,
  // The paper's: a Catmull-Rom surface through the control lattice. It
  // overshoots where an animation bunches the lattice (a knee's back).
  kLatticeSpline,
};

struct BucklingParams {
  // The fabric's A of Eq. 3, in square roots of the mesh's length unit; 0:
  // calibrated by Eq. 4 from calibration_diamonds at calibration_radius.
  double fabric_a = 0;
  int calibration_diamonds = 4;   // n0 of Eq. 4, 2..32
  double calibration_radius = 0;  // R0 of Eq. 4; 0: each tube's mean radius
  DiamondDepth diamond_depth = DiamondDepth::kDevelopable;
  SmoothSurface smooth_surface = SmoothSurface::kPhongCoarse;
  // Raise each primitive's centre (the black point inside it) so its threads
  // to the corners keep their rest length too: diamonds fold in and out, not
  // only in (the digest keeps the centre on the coarse surface: false).
  bool centre_ridges = true;
  // The compression the fabric takes in its plane before it buckles (as a
  // fraction of a thread's rest length, 0..0.5): a coarse animation's small
  // shrinks (noise, a sleeve settling) fold nothing.
  double elastic_compression = 0.05;
  double twist_gain = 1;     // scales the twist folds' height, 0..4
  int smoothing_passes = 1;  // 3 x 3 box passes over the displacement, 0..8
  // Folds displace across the tube's local axis (true) or along the smooth
  // surface's normal (the digest's reading of the paper); docs/algorithm.md,
  // "Buckling of tubes", says why radial is the default.
  bool radial_folds = true;
  // The most fine-mesh vertices all tubes may have (RESOURCE_EXHAUSTED
  // past it, before their storage is made).
  int64_t max_fine_vertices = int64_t{1} << 18;
};

// INVALID_ARGUMENT naming the parameter out of its range.
absl::Status ValidateBucklingParams(const BucklingParams& params);

// Eq. 4: A from n0 diamonds seen on a cylinder of radius R0.
double FabricFromCalibration(int diamonds, double radius);
// Eq. 5: diamonds per cross-section of a cylinder of radius R, at least 2
// (and at most 32).
int DiamondsPerSection(double fabric_a, double radius);
// Eq. 2: the chord a diamond spans.
double DiamondWidth(double radius, int diamonds);
// Eq. 3: b from the fabric.
double FabricDiamondHeight(double fabric_a, double radius);
// Eq. 1 with Eq. 2: the height at which n diamonds fold flat, R (1 - cos pi/n)
// (Eq. 3's b with the rounded n of Eq. 5).
double FoldingDiamondHeight(double radius, int diamonds);

// One tube's primitives: `rows` rows of `diamonds` primitives around. The
// control lattice has 2 rows + 1 rows and 2 diamonds columns (periodic around
// the tube); primitive (i, j) has the lattice points (2j..2j+2, 2i..2i+2).
struct TubeLayout {
  int diamonds = 0;
  int rows = 0;
  double fabric_a = 0;
  double radius = 0;                  // the tube's mean radius, Eq. 5's R
  double unfolded_length = 0;         // along the axis, after unfolding
  std::vector<double> row_heights;    // b_i, bottom up, summing to the length
  std::vector<double> row_widths;     // a_i: the row's circumference / n
  std::vector<SurfacePoint> lattice;  // row-major, lattice_rows() x columns
  // The fine grid's points, row-major: cells * rows + 1 rows of cells *
  // diamonds (LayOutTube's `cells` a primitive side; the seam not doubled).
  std::vector<SurfacePoint> fine;

  int lattice_columns() const { return 2 * diamonds; }
  int lattice_rows() const { return 2 * rows + 1; }
};

// Unfolds `tube` at rest and lays out its rows (docs/algorithm.md):
// sections at equal normalised heights give the circumference and the
// axial gaps; rows from the first loop up, each b_i = FoldingDiamondHeight of
// its section's radius, scaled so that they fill the length. `cells`: fine
// grid cells a primitive side (even); `fine_vertices_before`: what the
// tubes laid out before this one took of params.max_fine_vertices. With
// `rows_only` the lattice and fine points are not embedded (lattice and
// fine stay empty): what a layout will cost, for a budget, before it is
// made.
absl::StatusOr<TubeLayout> LayOutTube(const MeshTopology& topology,
                                      absl::Span<const float> rest_positions,
                                      const Tube& tube,
                                      const BucklingParams& params, int cells,
                                      int64_t fine_vertices_before = 0,
                                      bool rows_only = false);

}  // namespace crease

#endif  // CREASE_WRINKLE_BUCKLING_LAYOUT_H_
