#ifndef CREASE_SERVER_MODELS_WRINKLE_MODEL_H_
#define CREASE_SERVER_MODELS_WRINKLE_MODEL_H_

// The seam between a served session (server/served_session.h) and a wrinkle
// model (docs/architecture.md, "Wrinkle models"). Every session runs the
// shared analysis (wrinkle/sca2015/session.h: welding, and when someone reads
// them the compression field and SCA 2015's traced wrinkles); its model then
// updates on it, fills its part of each answer and says what to draw. The
// server chooses the model in one place, ModelFromStart (models/registry.h).

#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "crease/v1/crease.pb.h"
#include "renderer/frame_renderer.h"
#include "wrinkle/io/triangle_mesh.h"
#include "wrinkle/sca2015/session.h"

namespace crease::server {

// What a model reads of the shared analysis each frame. The served session
// turns off the stages that neither the model nor the asked outputs read.
struct ModelNeeds {
  bool compression_field = false;  // labeling and adaptive references
  bool traced_wrinkles = false;    // SCA 2015's wrinkle paths
};

// One frame as a model sees it: this frame's positions and the Start's
// mesh data (packed xyz per vertex; 6 UV floats per triangle, the rest
// positions and UVs empty when the Start sent none; its triangles).
struct ModelFrame {
  absl::Span<const float> positions;
  absl::Span<const float> rest_positions;
  absl::Span<const float> corner_uvs;
  absl::Span<const io::Triangle> triangles;
};

// One session's model, made from a validated Start. One thread at a time.
class WrinkleModel {
 public:
  virtual ~WrinkleModel() = default;

  virtual ModelNeeds needs() const = 0;
  // INVALID_ARGUMENT naming the field for an output of the Start this model
  // cannot give (checked after the rest of the Start is valid).
  virtual absl::Status CheckOutputs(const v1::Outputs& outputs) const = 0;
  // After `analysis` ran the frame. An error leaves the frame unanswered.
  virtual absl::Status Update(const Session& analysis,
                              const ModelFrame& frame) = 0;
  // The model's own part of the frame's answer (timings included).
  virtual void FillFrame(v1::FrameResult* result) const = 0;
  // What the frame's images draw, borrowing the model's (or the analysis's)
  // storage until the next Update.
  virtual renderer::WrinkleDraw Draw(const Session& analysis) = 0;

  // True when the model gives Outputs.wrinkled_mesh itself, of its own fixed
  // topology (FillStarted, then FillFrame): the served session then neither
  // refines the coarse mesh nor traces wrinkles for it.
  virtual bool GivesWrinkledMesh() const { return false; }
  // The model's part of Started, once.
  virtual void FillStarted(v1::Started* started) const { (void)started; }
  // What the model holds beyond the session's estimate (memory_budget.h),
  // known at the Start.
  virtual int64_t MemoryBytes() const { return 0; }
  // Makes what MemoryBytes counted, once the session's memory is reserved
  // (ServedSession::Create): a Start refused for its cost never allocates
  // it. An error refuses the session.
  virtual absl::Status Prepare() { return absl::OkStatus(); }
};

}  // namespace crease::server

#endif  // CREASE_SERVER_MODELS_WRINKLE_MODEL_H_
