#ifndef CREASE_WRINKLE_BUCKLING_BUCKLING_MESH_H_
#define CREASE_WRINKLE_BUCKLING_BUCKLING_MESH_H_

// The buckling model's fine mesh (Decaudin, Thomaszewski & Cani 2005, Eq. 6,
// in the digest's wrapper mode: driven by the client's coarse animation, no
// simulation of its own). Per tube, 128 triangles a primitive on a fixed
// grid; per frame the control lattice follows the coarse mesh, a smooth
// surface is laid over it (Phong on the coarse mesh, or the paper's
// Catmull-Rom through the lattice; smooth_surface.cc), diamonds fold in (and
// their centres out) as far as the axial compression takes, twist folds rise
// on the stretched diagonal of sheared primitives, where the surface has room
// for them, and a box filter rounds the creases (docs/algorithm.md,
// "Buckling of tubes").

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "wrinkle/buckling/layout.h"
#include "wrinkle/buckling/tube.h"
#include "wrinkle/core/mesh.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease {

// Fine grid cells per primitive side (8 x 8 quads: 128 triangles).
inline constexpr int kPrimitiveCells = 8;
// The largest coordinate the model takes (model units).
inline constexpr double kMaxCoordinate = 1e12;

// What the last frame folded, for tests and the frame's answer.
struct BucklingFrameStats {
  double max_diamond_depth = 0;  // deepest fold of a diamond centre
  double max_twist_height = 0;   // highest twist fold crest
  // The farthest a fine vertex moved off the smooth surface, after the
  // smoothing and where the surface has no room (FoldRoom).
  double max_fold_offset = 0;
  int compressed_primitives = 0;  // with a diamond folding at all
  // The least ratio of a diamond's axial thread to its rest length, as the
  // coarse surface has it (1: nothing compressed).
  double min_axial_ratio = 1;
};

class BucklingMesh {
 public:
  // Lays out every tube (LayOutTube) on the rest pose and builds the fine
  // grids. INVALID_ARGUMENT for bad parameters or a tube that cannot be laid
  // out.
  static absl::StatusOr<BucklingMesh> Create(
      const MeshTopology& topology, absl::Span<const float> rest_positions,
      std::vector<Tube> tubes, const BucklingParams& params);

  // The fine vertices Create would make for these tubes, laid out as far as
  // their rows only (no fine mesh is made): what a budget needs to know
  // first. Create's errors.
  static absl::StatusOr<int64_t> PlanFineVertices(
      const MeshTopology& topology, absl::Span<const float> rest_positions,
      absl::Span<const Tube> tubes, const BucklingParams& params);

  // One frame of the coarse animation (packed xyz per caller vertex, as
  // many as the rest pose). INVALID_ARGUMENT for a wrong length or values
  // that are not finite or beyond kMaxCoordinate (then nothing changes).
  // Allocates nothing.
  absl::Status Update(absl::Span<const float> positions);

  // The fine mesh of every tube, in order: fixed triangles and UVs (u
  // around, v along the unfolded tube; the seam column is doubled), and this
  // frame's positions and unit normals (packed xyz).
  absl::Span<const io::Triangle> triangles() const { return triangles_; }
  absl::Span<const float> uvs() const { return uvs_; }
  absl::Span<const float> positions() const { return positions_; }
  absl::Span<const float> normals() const { return normals_; }
  int num_vertices() const { return static_cast<int>(uvs_.size() / 2); }
  // The coarse triangles in no tube (drawn and exported as they are).
  absl::Span<const int32_t> uncovered_triangles() const {
    return uncovered_triangles_;
  }
  const std::vector<Tube>& tubes() const { return tubes_; }
  const std::vector<TubeLayout>& layouts() const { return layouts_; }
  int num_primitives() const;
  const BucklingFrameStats& stats() const { return stats_; }
  // Fine vertex index of grid point (column, row) of tube t (column taken
  // around the tube, 0..8 n).
  int32_t FineVertex(int tube, int column, int row) const;

 private:
  // Rest measures of one primitive.
  struct PrimitiveRest {
    double diagonal_ratio[2];  // |U+V| / |U+V_n|, |V-U| / |U+V_n|
  };
  struct TubeGrid {
    int first_vertex = 0;
    int columns = 0;  // fine columns around, 8 n (the seam column is extra)
    int rows = 0;     // fine vertex rows, 8 rows + 1
    std::vector<PrimitiveRest> primitives;  // rows x n
    std::vector<double> diamond_height;     // rest |c(2j,2i) - c(2j,2i+2)|
    // Per-frame scratch, sized once.
    std::vector<Eigen::Vector3d> lattice;  // (lattice rows + 2) x 2n
    std::vector<Eigen::Vector3d> along;    // (lattice rows + 2) x columns
    std::vector<Eigen::Vector3d> smooth, smooth_normal, displacement, scratch;
    std::vector<Eigen::Vector3d> fold_dir;     // FoldDirections'
    std::vector<Eigen::Vector3d> ring_centre;  // per fine row
    std::vector<Eigen::Vector3d> axis;         // per fine row, unit
    std::vector<double> room;                  // FoldRoom's, per fine vertex
    std::vector<int> rows_since;               // FoldRoom's, per column
    std::vector<Eigen::Vector3d> column[2];    // RelaxColumns' scratch
    std::vector<uint8_t> creased;              // RelaxColumns', per point
    std::vector<double> twist[2];              // per primitive: "/" and "\"
    std::vector<double> diamond_depth;         // per primitive, this frame
    // Per primitive, its left axial thread's length along the smooth
    // surface: this frame's and at rest.
    std::vector<double> axial_arc, rest_arc;
  };

  TubeGrid AddGrid(const TubeLayout& layout);
  void CoarseNormals(absl::Span<const float> positions);
  void Evaluate(int t, absl::Span<const float> positions);
  void MeasureAxialArcs(int t);
  void SmoothSurface(int t);
  void SplineSurface(int t);
  void PhongSurface(int t);
  // The smooth surface's unit normal at fine vertex (column, row).
  Eigen::Vector3d SmoothNormal(int t, int column, int row) const;
  void FoldDirections(int t);
  void FoldRoom(int t);
  void FoldDiamonds(int t);
  void FoldTwists(int t);
  // FoldTwists' heights per primitive ("/" and "\\"); false when none folds.
  bool TwistHeights(int t);
  // The deepest fold at fine vertex (column, row) of tube t towards sign * N
  // that keeps the offset surface short of its centre of curvature there:
  // half the radius of the smooth surface's sharpest bend that way (no
  // limit, a large number, where it bends away).
  double CurvatureLimit(int t, int column, int row, double sign) const;
  void Finish(int t);
  void MeasureRest(int t, absl::Span<const float> rest_positions);

  BucklingParams params_;
  std::vector<Tube> tubes_;
  std::vector<TubeLayout> layouts_;
  std::vector<TubeGrid> grids_;
  // The coarse mesh, for its smooth normals.
  std::vector<io::Triangle> coarse_triangles_;
  std::vector<int32_t> coarse_welded_;
  std::vector<float> coarse_normals_;  // per welded vertex, summed
  // Per welded coarse vertex, how far the Phong surface curves around it
  // (1: as Phong, 0: flat, beside a crease).
  std::vector<double> vertex_curved_;
  // Per caller vertex, this frame: its position, unit smooth normal and
  // vertex_curved_ (CoarseNormals), what PhongSurface reads.
  struct CoarseCorner {
    Eigen::Vector3d position, normal;
    double curved = 1;
  };
  std::vector<CoarseCorner> coarse_corners_;
  std::vector<io::Triangle> triangles_;
  std::vector<float> uvs_, positions_, normals_;
  std::vector<int32_t> uncovered_triangles_;
  int num_coarse_vertices_ = 0;
  BucklingFrameStats stats_;
};

// The mesh that images and exports draw: the coarse vertices (same ids), then
// the fine ones; the coarse triangles in no tube, then the fine triangles.
struct CombinedMesh {
  std::vector<io::Triangle> triangles;
  // Per vertex: coarse ones `coarse_welded`'s id, fine ones their own index,
  // the seam column's copies their first column's (one smooth surface).
  std::vector<int32_t> welded;
  // Per corner of `triangles`: `coarse_uvs`' (zeros when empty), then the
  // fine mesh's.
  std::vector<float> corner_uvs;
  std::vector<float> positions;  // Fill's: the frame's, then the fine mesh's

  // Sets triangles, welded and corner_uvs for `mesh` over the coarse mesh.
  static CombinedMesh Of(const BucklingMesh& mesh,
                         absl::Span<const io::Triangle> coarse_triangles,
                         absl::Span<const int32_t> coarse_welded,
                         absl::Span<const float> coarse_uvs);
  // This frame's positions (`coarse`: the frame's, as many as
  // coarse_welded); no allocation after the first.
  void Fill(const BucklingMesh& mesh, absl::Span<const float> coarse);
};

}  // namespace crease

#endif  // CREASE_WRINKLE_BUCKLING_BUCKLING_MESH_H_
