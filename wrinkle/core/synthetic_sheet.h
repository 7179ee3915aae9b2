#ifndef CREASE_WRINKLE_CORE_SYNTHETIC_SHEET_H_
#define CREASE_WRINKLE_CORE_SYNTHETIC_SHEET_H_

#include <vector>

#include "wrinkle/io/triangle_mesh.h"

namespace crease {

// A flat nx x nz grid of quads (2 triangles each, diagonals alternating) in the
// XZ plane, `width` x `depth`, at y = 0. For tests and benchmarks at any size.
io::TriangleMesh MakeGridSheet(int nx, int nz, float width, float depth);

// An open cylinder around +y: `rings` rings of `around` vertices (angle
// counter-clockwise about +y from +x) from y = y0 to y0 + length, wound with
// its normals inward. For the buckling model's tests and benchmarks.
io::TriangleMesh MakeOpenCylinder(double radius, double length, int around,
                                  int rings, double y0 = 0);

// Planar UVs for a sheet made by MakeGridSheet(_, _, width, depth): corner
// uv = (x / width, z / depth), filled into sheet->corner_uvs.
void SetSheetUvs(float width, float depth, io::TriangleMesh* sheet);

// Frame `frame` of a periodic animation of such a sheet: the sheet is squeezed
// along X by up to `max_squeeze` (0.3 = to 70 %), more at larger z, and the
// lost length bulges up in Y, with a period of `period` frames. Writes packed
// xyz into *positions.
void AnimateSheet(const io::TriangleMesh& rest, int frame, int period,
                  float max_squeeze, std::vector<float>* positions);

// A sheet made by MakeGridSheet(_, _, 1, 1) squeezed in its plane along X,
// most in the middle: x' = x - k sin(2 pi (x - 1/2)) / (2 pi), so dx'/dx = 1 -
// k cos(2 pi (x - 1/2)) (to 1 - k at x = 1/2, stretched to 1 + k at the sides).
void SqueezeSheetMiddle(const io::TriangleMesh& rest, float k,
                        std::vector<float>* positions);

// A sheet made by MakeGridSheet(_, _, width, depth) hung from its edge
// z = 0, which is gathered as a waistband or a curtain's heading is: the
// whole sheet is drawn in about its centre line to 1 - `gather` of its width
// (0.6: to 40 %), and from `band` below the edge on, the slack goes into
// `coarse_folds` out-of-plane zigzag waves (y) that keep every edge across
// the sheet its rest length (their corners on vertex columns when the
// columns are a multiple of 2 coarse_folds), as a coarse simulation's own
// folds take it up. The waves' depth grows with a smoothstep from none at
// the edge to full at `band`, so the edge itself is flat and compressed in
// the sheet's plane, and the band's triangles (one row when `band` is the
// row spacing) compress from fully at the edge to none at `band`, turning
// from the edge's plane into the waves' depth: there, folds are the
// wrinkles' to add.
// Writes packed xyz into *positions.
void GatherSheetEdge(const io::TriangleMesh& rest, float gather, float band,
                     int coarse_folds, std::vector<float>* positions);

// Frame of a sleeve bending at its elbow. `rest` is a tube made by
// MakeOpenCylinder(radius, length, around, rings) (axis +y from y = 0); the
// tube is laid along +x (rest y becomes the distance s along it) and its
// centre line bent by `angle` radians about +z, uniformly over the stretch
// `bend_length` long centred at s = `elbow` (a circular arc), towards +y.
// Cross-sections stay round and normal to the centre line, so the side on the
// inside of the bend (rest +x) shortens to 1 - radius angle / bend_length of
// its length, and the outside lengthens as much; the upper arm (s < elbow -
// bend_length / 2) does not move. Laying the tube down swaps rest x and y (a
// mirror), so MakeOpenCylinder's inward winding comes out outward. Writes
// packed xyz.
void BendSleeve(const io::TriangleMesh& rest, double angle, double elbow,
                double bend_length, std::vector<float>* positions);

}  // namespace crease

#endif  // CREASE_WRINKLE_CORE_SYNTHETIC_SHEET_H_
