#ifndef CREASE_SERVER_MODELS_BUCKLING_MODEL_H_
#define CREASE_SERVER_MODELS_BUCKLING_MODEL_H_

// The buckling model of a session (Decaudin, Thomaszewski & Cani 2005;
// Parameters.model WRINKLE_MODEL_BUCKLING, docs/protocol.md "Buckling
// model"): the tubes found or described, laid out on the Start's rest
// positions, folded every frame; the images draw its mesh and the wrinkled
// mesh output is that mesh (the coarse triangles in no tube, then the fine
// ones).

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "crease/v1/crease.pb.h"
#include "server/models/registry.h"
#include "server/models/wrinkle_model.h"
#include "wrinkle/buckling/buckling_mesh.h"

namespace crease::server {

class BucklingModel : public WrinkleModel {
 public:
  // INVALID_ARGUMENT naming the field: no rest positions, a parameter out of
  // its range, a tube description that is not a tube (or, with none, a mesh
  // with no open tube); RESOURCE_EXHAUSTED when the tubes need more fine
  // vertices than kMaxFineVertices or than half a message holds.
  static absl::StatusOr<std::unique_ptr<WrinkleModel>> FromStart(
      const ModelStart& in, v1::Parameters* effective);
  static constexpr int64_t kMaxFineVertices = int64_t{1} << 18;
  // What a session holds a fine vertex: the grid's buffers (surface point,
  // smooth surface and normal, displacement, scratch), positions, normals
  // and UVs, the drawn mesh's copies, two triangles' indices and corner UVs,
  // and the messages that carry them. MemoryBudgetTest measured 94-105 MB
  // for a session of 228,000 fine vertices (410-460 bytes each, with the
  // coarse session's own).
  static constexpr int64_t kBytesPerFineVertex = 520;

  // Lays out the tubes and makes their fine mesh (FromStart only planned
  // it): the errors of BucklingMesh::Create, named as FromStart's.
  absl::Status Prepare() override;

  ModelNeeds needs() const override { return {false, false}; }
  // UV maps and vertex amplitudes are other models' outputs.
  absl::Status CheckOutputs(const v1::Outputs& outputs) const override;
  absl::Status Update(const Session& analysis,
                      const ModelFrame& frame) override;
  void FillFrame(v1::FrameResult* result) const override;
  renderer::WrinkleDraw Draw(const Session& analysis) override;
  bool GivesWrinkledMesh() const override { return true; }
  void FillStarted(v1::Started* started) const override;
  int64_t MemoryBytes() const override;

 private:
  // From the Start until Prepare.
  int64_t planned_vertices_ = 0;
  BucklingParams params_;
  std::vector<Tube> tubes_;
  std::optional<MeshTopology> coarse_;
  std::vector<float> rest_positions_, corner_uvs_;
  // From Prepare on.
  std::optional<BucklingMesh> mesh_;
  int coarse_vertices_ = 0;
  bool wrinkled_mesh_ = false;  // Outputs.wrinkled_mesh asked for
  CombinedMesh drawn_;  // what the images draw and the mesh output sends
  std::vector<float> normals_;
  std::vector<float> normal_sums_;  // per welded coarse vertex
  double update_ms_ = 0;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_MODELS_BUCKLING_MODEL_H_
