#include "wrinkle/cli/wrinkle_output.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace crease::cli {

std::string FormatWrinklesJsonLine(int frame, const Session& session) {
  const WrinkleTracker& tracker = session.tracker();
  const SurfaceFrame& surface = session.surface();
  std::string out = absl::StrFormat("{\"frame\": %d, \"wrinkles\": [", frame);
  for (size_t w = 0; w < tracker.wrinkles().size(); ++w) {
    const WrinklePath& path = tracker.wrinkles()[w];
    const WrinkleShape& shape = tracker.shapes()[w];
    absl::StrAppendFormat(
        &out,
        "%s{\"id\": %d, \"age\": %d, \"width\": %.6g, \"height\": %.6g, "
        "\"max_compression\": %.6g, \"crossings\": [",
        w > 0 ? ", " : "", path.id, path.age, shape.mid_width, shape.mid_height,
        shape.max_compression);
    for (size_t i = 0; i < path.points.size(); ++i) {
      const Eigen::Vector3d p = surface.Position(path.points[i]);
      absl::StrAppendFormat(&out, "%s[%d, %.9g, %.7g, %.7g, %.7g]",
                            i > 0 ? ", " : "", path.points[i].edge,
                            path.points[i].t, p.x(), p.y(), p.z());
    }
    absl::StrAppend(&out, "], \"refined\": [");
    for (size_t i = 0; i < shape.refined.size(); ++i) {
      const RefinedPoint& r = shape.refined[i];
      absl::StrAppendFormat(&out, "%s[%.7g, %.7g, %.7g, %.6g, %.6g]",
                            i > 0 ? ", " : "", r.position.x(), r.position.y(),
                            r.position.z(), r.width, r.height);
    }
    absl::StrAppend(&out, "]}");
  }
  absl::StrAppend(&out, "]}\n");
  return out;
}

std::string FormatWrinklesObj(const Session& session) {
  const WrinkleTracker& tracker = session.tracker();
  std::string out =
      "# Crease wrinkle paths (refined), one object per wrinkle\n";
  int base = 1;
  for (size_t w = 0; w < tracker.wrinkles().size(); ++w) {
    const WrinkleShape& shape = tracker.shapes()[w];
    absl::StrAppendFormat(&out, "o wrinkle_%d\n", tracker.wrinkles()[w].id);
    for (const RefinedPoint& r : shape.refined) {
      absl::StrAppendFormat(&out, "v %.7g %.7g %.7g\n", r.position.x(),
                            r.position.y(), r.position.z());
    }
    absl::StrAppend(&out, "l");
    for (size_t i = 0; i < shape.refined.size(); ++i)
      absl::StrAppend(&out, " ", base + i);
    absl::StrAppend(&out, "\n");
    base += static_cast<int>(shape.refined.size());
  }
  return out;
}

}  // namespace crease::cli
