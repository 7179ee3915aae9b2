#include "client/preview/preview_messages.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace crease::client::preview {
namespace {

// Appends `count` 4-byte values from `values` (or zeros past its end).
template <typename T>
void Append(std::string* out, absl::Span<const T> values, size_t count) {
  static_assert(sizeof(T) == 4);
  const size_t at = out->size();
  out->resize(at + 4 * count, '\0');
  const size_t given = std::min(count, values.size());
  // An empty span's data() may be null, which memcpy must not see.
  if (given > 0) std::memcpy(out->data() + at, values.data(), 4 * given);
}

// `text` as a JSON string literal's contents.
std::string JsonEscaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += absl::StrFormat("\\u%04x", static_cast<int>(c));
    } else {
      out += c;
    }
  }
  return out;
}

void AppendU32(std::string* out, uint32_t value) {
  Append<uint32_t>(out, absl::MakeConstSpan(&value, 1), 1);
}

}  // namespace

std::string InitMessage(const io::TriangleMesh& coarse,
                        const v1::Started& started, int num_frames,
                        double fps) {
  std::vector<int32_t> coarse_indices;
  coarse_indices.reserve(3 * coarse.triangles.size());
  for (const io::Triangle& t : coarse.triangles) {
    coarse_indices.insert(coarse_indices.end(), t.begin(), t.end());
  }
  const v1::WrinkledMeshTopology& wrinkled = started.wrinkled_mesh();
  return absl::StrCat(
      "{\"frames\":", num_frames, ",\"fps\":", fps, ",\"server_version\":\"",
      JsonEscaped(started.server_version()),
      "\",\"coarse\":{\"vertices\":", coarse.num_vertices(), ",\"triangles\":[",
      absl::StrJoin(coarse_indices, ","),
      "]},\"wrinkled\":{\"level\":", wrinkled.level(),
      ",\"vertices\":", wrinkled.vertex_count(), ",\"triangles\":[",
      absl::StrJoin(wrinkled.triangles(), ","), "]}}");
}

std::string FrameMessage(uint32_t frame, double latency_ms,
                         absl::Span<const float> coarse_positions,
                         int num_triangles, const v1::FrameResult& result) {
  const size_t vertices = coarse_positions.size() / 3;
  const v1::WrinkledMesh& mesh = result.wrinkled_mesh();
  const size_t wrinkled = static_cast<size_t>(mesh.positions_size()) / 3;
  const size_t triangles = static_cast<size_t>(num_triangles);
  size_t points = 0;
  for (const v1::Wrinkle& w : result.wrinkles()) points += w.points_size() / 3;
  std::string out;
  out.reserve(32 + 4 * (3 * vertices + 6 * wrinkled + 2 * triangles +
                        result.wrinkles_size() + 3 * points));
  AppendU32(&out, kFrameMagic);
  AppendU32(&out, frame);
  const float latency = static_cast<float>(latency_ms);
  Append<float>(&out, absl::MakeConstSpan(&latency, 1), 1);
  for (size_t n : {vertices, wrinkled, triangles,
                   static_cast<size_t>(result.wrinkles_size()), points}) {
    AppendU32(&out, static_cast<uint32_t>(n));
  }
  Append<float>(&out, coarse_positions, 3 * vertices);
  Append<float>(&out, absl::MakeConstSpan(mesh.positions()), 3 * wrinkled);
  Append<float>(&out, absl::MakeConstSpan(mesh.normals()), 3 * wrinkled);
  std::vector<float> per_triangle(triangles, 0.0f);
  const std::string& labels = result.labels();
  for (size_t t = 0; t < std::min(triangles, labels.size()); ++t) {
    per_triangle[t] = static_cast<float>(static_cast<uint8_t>(labels[t]));
  }
  Append<float>(&out, absl::MakeConstSpan(per_triangle), triangles);
  std::fill(per_triangle.begin(), per_triangle.end(), 0.0f);
  for (size_t t = 0;
       t < triangles && 8 * t + 1 < static_cast<size_t>(result.tensors_size());
       ++t) {
    per_triangle[t] = std::max(0.0f, 1.0f - result.tensors(8 * t + 1));
  }
  Append<float>(&out, absl::MakeConstSpan(per_triangle), triangles);
  for (const v1::Wrinkle& w : result.wrinkles()) {
    AppendU32(&out, static_cast<uint32_t>(w.points_size() / 3));
  }
  for (const v1::Wrinkle& w : result.wrinkles()) {
    Append<float>(&out, absl::MakeConstSpan(w.points()),
                  static_cast<size_t>(w.points_size() / 3) * 3);
  }
  return out;
}

}  // namespace crease::client::preview
