#ifndef CREASE_WRINKLE_CORE_SYNTHETIC_ANIMATIONS_H_
#define CREASE_WRINKLE_CORE_SYNTHETIC_ANIMATIONS_H_

// Whole synthetic animations of coarse garments, built from the shapes in
// synthetic_sheet.h: the checks a person makes on cloth nobody tuned on (a
// sleeve bending at the elbow, a gathered edge), for tests, crease-synth and
// the gallery. 30 frames a second.

#include <cstdint>
#include <vector>

#include "wrinkle/io/triangle_mesh.h"

namespace crease {

struct SyntheticAnimation {
  io::TriangleMesh rest;                   // topology and rest positions
  std::vector<std::vector<float>> frames;  // packed xyz, one per frame
};

// The frames of an animation that rests, rises to its full effect with a
// smoothstep, holds it, falls back and rests again.
struct RiseHoldFall {
  int rest = 5, rise = 30, held = 60, fall = 30, final_rest = 25;
  int frames() const { return rest + rise + held + fall + final_rest; }
  int held_from() const { return rest + rise; }  // the first frame held
  int held_to() const { return held_from() + held; }
  // The effect's share at `frame`: 0 at rest, 1 while held (falling at once
  // when `fall` is 0).
  double Share(int frame) const;
};

// A sleeve (MakeOpenCylinder, laid along +x) that rests, bends at its elbow
// to `angle_degrees` with a smoothstep, holds, straightens and rests again
// (BendSleeve).
struct SleeveBendParams {
  double radius = 0.05;  // metres: a 10 cm sleeve
  double length = 0.6;
  int around = 12;  // 12 x 24 quads: 576 triangles
  int rings = 25;
  double elbow = 0.3;          // distance of the bend's middle along it
  double bend_length = 0.175;  // 3.5 radii: the inside shortens to 0.5
  double angle_degrees = 100;  // at the held bend
  int rest_frames = 5, bend_frames = 30, held_frames = 60, unbend_frames = 30,
      final_rest_frames = 25;
  // A game engine's skinning instead of BendSleeve's arc: two rigid bones
  // (upper arm, forearm) rotated about the elbow's axis, blended linearly
  // over bend_length (a smoothstep of s), so the inside of the bend caves in
  // and its rings crowd, as linear blend skinning does.
  bool skinned = false;
  // Each coordinate of each vertex moved by a uniform random amount of up to
  // this fraction of the radius, afresh every frame (a noisy capture or
  // simulation); 0: none.
  double noise = 0;
  uint64_t noise_seed = 1;
};
// The bend in radians at `frame`.
double SleeveBendAngle(const SleeveBendParams& params, int frame);
SyntheticAnimation SleeveBendAnimation(const SleeveBendParams& params);

// A 1 m sheet hung from its edge z = 0, gathered there (GatherSheetEdge) with
// a smoothstep over `gather_frames` and held.
struct GatheredEdgeParams {
  int columns = 24, rows = 16;  // 768 triangles
  float gather = 0.6f;          // the edge to 40 % of its width
  int coarse_folds = 3;         // below the band, the slack's waves
  int gather_frames = 45, held_frames = 75;
};
SyntheticAnimation GatheredEdgeAnimation(const GatheredEdgeParams& params);

// A tube (MakeOpenCylinder, upright along +y) whose bottom ring is held while
// its top ring turns about the axis by `twist_degrees` with a smoothstep,
// holds, turns back and rests, as a wrung towel or a torso turning inside a
// shirt. Each ring turns in proportion to its height, so the surface shears
// uniformly (shear r twist / length) and its rings keep their length: the
// cloth compresses along one diagonal and stretches along the other, and a
// person expects a family of parallel helical folds along the stretched
// diagonal, round the whole tube.
struct TwistedTubeParams {
  double radius = 0.1;  // metres: a 20 cm tube, 40 cm long
  double length = 0.4;
  int around = 16;  // 16 x 16 quads: 512 triangles
  int rings = 17;
  // 150: shear 0.65, compression 1.38 along the squeezed diagonal.
  double twist_degrees = 150;
  RiseHoldFall schedule;  // twisting, held, turning back
};
// A sleeve's end drawn in by an elastic cuff: a tube (MakeOpenCylinder,
// upright along +y) whose radius at its bottom ring shrinks to 1 - `cinch`
// with a smoothstep over time, and back to full `band` above it (a
// smoothstep in height), holds, lets go and rests. Only the band's rings
// shorten: its triangles compress round the tube, most at the border, and a
// person expects a ring of short pleats running up from the cuff, side by
// side all the way round, while it is held.
struct CinchedCuffParams {
  double radius = 0.06;  // metres: a 12 cm sleeve, 30 cm long
  double length = 0.3;
  int around = 16;  // 16 x 12 quads: 384 triangles
  int rings = 13;
  double cinch = 0.5;  // the cuff's ring to half its length
  double band = 0.05;  // two rings' spacing
  // Where the cinch is: 0, the bottom ring (a cuff); inside the tube, a belt
  // drawing it in mid-garment, with the band either side.
  double belt_height = 0;
  RiseHoldFall schedule;  // drawing in, held, letting go
};
// A belt drawing the same sleeve in to half at its middle, with a band one
// ring deep either side: the compression is confined to two rows of
// triangles inside the cloth, and a person expects a ring of short gathers
// across the belt line, all the way round.
CinchedCuffParams BeltedSleeveParams();
SyntheticAnimation CinchedCuffAnimation(const CinchedCuffParams& params);

// A flat sheet pushed together in its own plane, most in its middle
// (SqueezeSheetMiddle, the middle to 1 - `squeeze` of its width) with a
// smoothstep over time, held, let go and left, as a tablecloth pushed across
// a table before it lifts: one wide compressed region with no fold of the
// coarse mesh's own, where a person expects a family of parallel straight
// folds across the push, filling the middle.
struct PushedSheetParams {
  int columns = 24, rows = 24;  // 1,152 triangles, 1 m x 1 m
  float squeeze = 0.4f;         // the middle compressed 1 / 0.6 = 1.67 times
  RiseHoldFall schedule;        // pushing, held, letting go
};
SyntheticAnimation PushedSheetAnimation(const PushedSheetParams& params);

// The top ring's turn in radians at `frame`.
double TubeTwistAngle(const TwistedTubeParams& params, int frame);
SyntheticAnimation TwistedTubeAnimation(const TwistedTubeParams& params);

}  // namespace crease

#endif  // CREASE_WRINKLE_CORE_SYNTHETIC_ANIMATIONS_H_
