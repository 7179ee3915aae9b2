#include "wrinkle/core/synthetic_animations.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <utility>

#include "wrinkle/core/synthetic_sheet.h"

namespace crease {
namespace {

double Smoothstep(double t) {
  t = std::clamp(t, 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

// A random number in [-1, 1) from a 64-bit key (SplitMix64's finaliser), the
// same on every platform.
double Centred(uint64_t key) {
  key += 0x9e3779b97f4a7c15ull;
  key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9ull;
  key = (key ^ (key >> 27)) * 0x94d049bb133111ebull;
  key ^= key >> 31;
  return static_cast<double>(key >> 11) * 0x1.0p-52 - 1.0;
}

// Linear blend skinning of the straight sleeve `straight` (along +x) with two
// bones: the forearm turns by `angle` about +z through the elbow's centre line
// point, each vertex weighted by a smoothstep of its s over the bend.
void SkinSleeve(const std::vector<float>& straight, double angle,
                const SleeveBendParams& params, std::vector<float>* out) {
  out->resize(straight.size());
  const double c = std::cos(angle), s = std::sin(angle);
  const double start = params.elbow - 0.5 * params.bend_length;
  for (size_t v = 0; 3 * v < straight.size(); ++v) {
    const double x = straight[3 * v], y = straight[3 * v + 1];
    const double w = params.bend_length > 0
                         ? Smoothstep((x - start) / params.bend_length)
                         : (x >= params.elbow ? 1.0 : 0.0);
    const double dx = x - params.elbow;
    const double tx = params.elbow + c * dx - s * y, ty = s * dx + c * y;
    (*out)[3 * v] = static_cast<float>((1 - w) * x + w * tx);
    (*out)[3 * v + 1] = static_cast<float>((1 - w) * y + w * ty);
    (*out)[3 * v + 2] = straight[3 * v + 2];
  }
}

// A tube (MakeOpenCylinder, upright along +y) whose every rest vertex p is
// at move(frame, p) on each of `frames` frames.
template <typename Move>
SyntheticAnimation AnimateTube(double radius, double length, int around,
                               int rings, int frames, Move move) {
  SyntheticAnimation animation;
  animation.rest = MakeOpenCylinder(radius, length, around, rings);
  animation.frames.resize(frames);
  const std::vector<float>& rest = animation.rest.positions;
  for (int f = 0; f < frames; ++f) {
    std::vector<float>& frame = animation.frames[f];
    frame.resize(rest.size());
    for (size_t i = 0; i + 2 < rest.size(); i += 3) {
      const Eigen::Vector3d p =
          move(f, Eigen::Vector3d(rest[i], rest[i + 1], rest[i + 2]));
      for (int k = 0; k < 3; ++k) frame[i + k] = static_cast<float>(p[k]);
    }
  }
  return animation;
}

}  // namespace

double RiseHoldFall::Share(int frame) const {
  const int step = frame - rest;
  if (step < rise) {
    return Smoothstep(static_cast<double>(step) / std::max(rise, 1));
  }
  const int falling = step - rise - held;
  if (fall <= 0) return falling < 0 ? 1.0 : 0.0;
  return 1.0 - Smoothstep(static_cast<double>(falling) / fall);
}

double SleeveBendAngle(const SleeveBendParams& params, int frame) {
  const double full = params.angle_degrees * std::numbers::pi / 180.0;
  const RiseHoldFall schedule{params.rest_frames, params.bend_frames,
                              params.held_frames, params.unbend_frames,
                              params.final_rest_frames};
  return full * schedule.Share(frame);
}

SyntheticAnimation SleeveBendAnimation(const SleeveBendParams& params) {
  SyntheticAnimation animation;
  animation.rest = MakeOpenCylinder(params.radius, params.length, params.around,
                                    params.rings);
  const int frames = params.rest_frames + params.bend_frames +
                     params.held_frames + params.unbend_frames +
                     params.final_rest_frames;
  animation.frames.resize(frames);
  std::vector<float> straight;
  BendSleeve(animation.rest, 0.0, params.elbow, params.bend_length, &straight);
  for (int f = 0; f < frames; ++f) {
    std::vector<float>& frame = animation.frames[f];
    const double angle = SleeveBendAngle(params, f);
    if (params.skinned) {
      SkinSleeve(straight, angle, params, &frame);
    } else {
      BendSleeve(animation.rest, angle, params.elbow, params.bend_length,
                 &frame);
    }
    for (size_t i = 0; params.noise > 0 && i < frame.size(); ++i) {
      const uint64_t key =
          (params.noise_seed * 1000003u + f) * 0x100000000ull + i;
      frame[i] +=
          static_cast<float>(params.noise * params.radius * Centred(key));
    }
  }
  // The rest shape is the sleeve laid straight along +x.
  animation.rest.positions = std::move(straight);
  return animation;
}

SyntheticAnimation GatheredEdgeAnimation(const GatheredEdgeParams& params) {
  SyntheticAnimation animation;
  animation.rest = MakeGridSheet(params.columns, params.rows, 1.0f, 1.0f);
  const int frames = params.gather_frames + params.held_frames;
  animation.frames.resize(frames);
  for (int f = 0; f < frames; ++f) {
    const double t = static_cast<double>(f) / std::max(params.gather_frames, 1);
    GatherSheetEdge(
        animation.rest, params.gather * static_cast<float>(Smoothstep(t)),
        1.0f / params.rows, params.coarse_folds, &animation.frames[f]);
  }
  return animation;
}

double TubeTwistAngle(const TwistedTubeParams& params, int frame) {
  const double full = params.twist_degrees * std::numbers::pi / 180.0;
  return full * params.schedule.Share(frame);
}

SyntheticAnimation PushedSheetAnimation(const PushedSheetParams& params) {
  SyntheticAnimation animation;
  animation.rest = MakeGridSheet(params.columns, params.rows, 1.0f, 1.0f);
  const int frames = params.schedule.frames();
  animation.frames.resize(frames);
  for (int f = 0; f < frames; ++f) {
    const double share = params.schedule.Share(f);
    SqueezeSheetMiddle(animation.rest,
                       static_cast<float>(params.squeeze * share),
                       &animation.frames[f]);
  }
  return animation;
}

CinchedCuffParams BeltedSleeveParams() {
  CinchedCuffParams params;
  params.belt_height = 0.5 * params.length;
  params.band = params.length / (params.rings - 1);
  return params;
}

SyntheticAnimation CinchedCuffAnimation(const CinchedCuffParams& params) {
  return AnimateTube(
      params.radius, params.length, params.around, params.rings,
      params.schedule.frames(), [&](int frame, const Eigen::Vector3d& p) {
        const double cinch = params.cinch * params.schedule.Share(frame);
        const double off = std::abs(p.y() - params.belt_height);
        const double above = params.band > 0 ? Smoothstep(off / params.band)
                                             : (off > 0 ? 1.0 : 0.0);
        const double scale = 1.0 - cinch * (1.0 - above);
        return Eigen::Vector3d(scale * p.x(), p.y(), scale * p.z());
      });
}

SyntheticAnimation TwistedTubeAnimation(const TwistedTubeParams& params) {
  return AnimateTube(
      params.radius, params.length, params.around, params.rings,
      params.schedule.frames(), [&](int frame, const Eigen::Vector3d& p) {
        const double turn =
            TubeTwistAngle(params, frame) * p.y() / params.length;
        return Eigen::Vector3d(
            Eigen::AngleAxisd(turn, Eigen::Vector3d::UnitY()) * p);
      });
}

}  // namespace crease
