#include "wrinkle/io/obj.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "common/status_macros.h"

namespace crease::io {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Splits a line into whitespace-separated tokens without allocating per token.
class Tokenizer {
 public:
  explicit Tokenizer(std::string_view line) : rest_(line) {}
  bool Next(std::string_view* token) {
    size_t i = 0;
    while (i < rest_.size() && IsSpace(rest_[i])) ++i;
    if (i == rest_.size()) return false;
    size_t j = i;
    while (j < rest_.size() && !IsSpace(rest_[j])) ++j;
    *token = rest_.substr(i, j - i);
    rest_ = rest_.substr(j);
    return true;
  }

 private:
  std::string_view rest_;
};

// Whether the faces so far carry texture indices: all of them or none.
enum class FaceUvs { kUnknown, kWith, kWithout };

class ObjParser {
 public:
  explicit ObjParser(std::string_view name) : name_(name) {}

  absl::StatusOr<TriangleMesh> Parse(std::string_view text) {
    size_t pos = 0;
    while (pos < text.size()) {
      ++line_number_;
      size_t end = text.find('\n', pos);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(pos, end - pos);
      pos = end + 1;
      CREASE_RETURN_IF_ERROR(ParseLine(line));
    }
    return std::move(mesh_);
  }

 private:
  absl::Status Error(std::string_view problem) const {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s:%d: %s", name_, line_number_, problem));
  }

  absl::Status ParseLine(std::string_view line) {
    if (size_t hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    Tokenizer tokens(line);
    std::string_view keyword;
    if (!tokens.Next(&keyword)) return absl::OkStatus();
    if (keyword == "v") return ParseVertex(tokens);
    if (keyword == "vt") return ParseTextureVertex(tokens);
    if (keyword == "f") return ParseFace(tokens);
    return absl::OkStatus();  // vn, o, g, s, usemtl, mtllib, l, ...
  }

  absl::Status ParseFloat(std::string_view token, float* value) const {
    const char* last = token.data() + token.size();
    auto [ptr, ec] = std::from_chars(token.data(), last, *value);
    if (ec != std::errc() || ptr != last) {
      return Error(absl::StrFormat("malformed number '%s'", token));
    }
    if (!std::isfinite(*value)) {
      return Error(absl::StrFormat("non-finite coordinate '%s'", token));
    }
    return absl::OkStatus();
  }

  absl::Status ParseVertex(Tokenizer& tokens) {
    float xyz[3];
    std::string_view token;
    for (int k = 0; k < 3; ++k) {
      if (!tokens.Next(&token)) {
        return Error(absl::StrFormat("vertex has %d coordinates, need 3", k));
      }
      CREASE_RETURN_IF_ERROR(ParseFloat(token, &xyz[k]));
    }
    mesh_.positions.insert(mesh_.positions.end(), xyz, xyz + 3);
    return absl::OkStatus();
  }

  // `vt u [v] [w]`: v defaults to 0 as the format says; w is ignored.
  absl::Status ParseTextureVertex(Tokenizer& tokens) {
    float uv[2] = {0, 0};
    std::string_view token;
    if (!tokens.Next(&token)) {
      return Error("texture coordinate has 0 numbers, need u [v]");
    }
    CREASE_RETURN_IF_ERROR(ParseFloat(token, &uv[0]));
    if (tokens.Next(&token)) CREASE_RETURN_IF_ERROR(ParseFloat(token, &uv[1]));
    uvs_.insert(uvs_.end(), uv, uv + 2);
    return absl::OkStatus();
  }

  // A 1-based or negative (relative: -1 is the last defined) index into the
  // `count` vertices or texture coordinates (`noun`) defined so far.
  absl::StatusOr<int32_t> ResolveIndex(std::string_view text,
                                       std::string_view corner,
                                       std::string_view kind,
                                       std::string_view noun,
                                       int64_t count) const {
    int64_t index = 0;
    const char* last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), last, index);
    if (ec != std::errc() || ptr != last || text.empty()) {
      return Error(absl::StrFormat("malformed %s '%s'", kind, corner));
    }
    if (index == 0) {
      return Error(absl::StrFormat("%s 0 (OBJ indices start at 1)", kind));
    }
    const int64_t resolved = index > 0 ? index - 1 : count + index;
    if (resolved < 0 || resolved >= count) {
      return Error(absl::StrFormat("%s %d out of range (%d %s defined so far)",
                                   kind, index, count, noun));
    }
    return static_cast<int32_t>(resolved);
  }

  // One corner, `i`, `i/t`, `i//n` or `i/t/n`: its vertex into `corners_`,
  // its texture coordinate (or -1 when it has none) into `corner_uvs_`.
  absl::Status ParseCorner(std::string_view token) {
    const size_t slash = token.find('/');
    CREASE_ASSIGN_OR_RETURN(
        const int32_t vertex,
        ResolveIndex(token.substr(0, slash), token, "face index", "vertices",
                     mesh_.num_vertices()));
    corners_.push_back(vertex);
    std::string_view texture;
    if (slash != std::string_view::npos) {
      texture = token.substr(slash + 1);
      texture = texture.substr(0, texture.find('/'));
    }
    if (texture.empty()) {
      corner_uvs_.push_back(-1);
      return absl::OkStatus();
    }
    CREASE_ASSIGN_OR_RETURN(
        const int32_t uv, ResolveIndex(texture, token, "face texture index",
                                       "texture coordinates",
                                       static_cast<int64_t>(uvs_.size() / 2)));
    corner_uvs_.push_back(uv);
    return absl::OkStatus();
  }

  // Every face has texture indices on all its corners, or none has any: a
  // mesh with UVs on some triangles only cannot be mapped.
  absl::Status CheckFaceUvs() {
    const bool with = corner_uvs_[0] >= 0;
    for (int32_t uv : corner_uvs_) {
      if ((uv >= 0) != with) {
        return Error("face mixes corners with and without texture indices");
      }
    }
    const FaceUvs face = with ? FaceUvs::kWith : FaceUvs::kWithout;
    if (face_uvs_ == FaceUvs::kUnknown) {
      face_uvs_ = face;
      first_face_line_ = line_number_;
    } else if (face != face_uvs_) {
      return Error(absl::StrFormat(
          "face %s texture indices but the face on line %d %s (give every "
          "face texture indices, or none)",
          with ? "has" : "has no", first_face_line_,
          with ? "has none" : "has them"));
    }
    return absl::OkStatus();
  }

  absl::Status ParseFace(Tokenizer& tokens) {
    corners_.clear();
    corner_uvs_.clear();
    std::string_view token;
    while (tokens.Next(&token)) CREASE_RETURN_IF_ERROR(ParseCorner(token));
    if (corners_.size() < 3) {
      return Error(absl::StrFormat("face has %d corners, need at least 3",
                                   corners_.size()));
    }
    CREASE_RETURN_IF_ERROR(CheckFaceUvs());
    for (size_t k = 1; k + 1 < corners_.size(); ++k) {
      mesh_.triangles.push_back({corners_[0], corners_[k], corners_[k + 1]});
      if (face_uvs_ != FaceUvs::kWith) continue;
      for (size_t c : {size_t{0}, k, k + 1}) {
        const float* uv = &uvs_[2 * static_cast<size_t>(corner_uvs_[c])];
        mesh_.corner_uvs.insert(mesh_.corner_uvs.end(), uv, uv + 2);
      }
    }
    if (corners_.size() > 3) ++mesh_.polygons_triangulated;
    return absl::OkStatus();
  }

  std::string_view name_;
  int64_t line_number_ = 0;
  TriangleMesh mesh_;
  std::vector<float> uvs_;  // u v per `vt`, in file order
  FaceUvs face_uvs_ = FaceUvs::kUnknown;
  int64_t first_face_line_ = 0;
  // The face being parsed: vertex and texture indices (-1: none) per corner.
  std::vector<int32_t> corners_;
  std::vector<int32_t> corner_uvs_;
};

}  // namespace

absl::StatusOr<TriangleMesh> ParseObj(std::string_view text,
                                      std::string_view name_for_errors) {
  return ObjParser(name_for_errors).Parse(text);
}

absl::StatusOr<TriangleMesh> ReadObj(const std::string& path) {
  CREASE_ASSIGN_OR_RETURN(std::string text, files::ReadFileToString(path));
  return ParseObj(text, path);
}

namespace {

// corner_uvs is empty or has u v for each corner of each triangle.
bool CornerUvsFit(const TriangleMesh& mesh) {
  return mesh.corner_uvs.empty() ||
         mesh.corner_uvs.size() == 6 * mesh.triangles.size();
}

}  // namespace

std::string FormatObj(const TriangleMesh& mesh) {
  CREASE_DCHECK(CornerUvsFit(mesh));
  const bool uvs = mesh.has_uvs() && CornerUvsFit(mesh);
  std::string out;
  out.reserve(mesh.positions.size() * 12 +
              mesh.triangles.size() * (uvs ? 100 : 20));
  for (int v = 0; v < mesh.num_vertices(); ++v) {
    absl::StrAppendFormat(&out, "v %.9g %.9g %.9g\n", mesh.positions[3 * v],
                          mesh.positions[3 * v + 1], mesh.positions[3 * v + 2]);
  }
  if (!uvs) {
    for (const Triangle& t : mesh.triangles) {
      absl::StrAppendFormat(&out, "f %d %d %d\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    return out;
  }
  // One `vt` per corner, in corner order, so texture index = corner + 1.
  for (size_t i = 0; i < mesh.corner_uvs.size(); i += 2) {
    absl::StrAppendFormat(&out, "vt %.9g %.9g\n", mesh.corner_uvs[i],
                          mesh.corner_uvs[i + 1]);
  }
  for (size_t f = 0; f < mesh.triangles.size(); ++f) {
    const Triangle& t = mesh.triangles[f];
    absl::StrAppendFormat(&out, "f %d/%d %d/%d %d/%d\n", t[0] + 1, 3 * f + 1,
                          t[1] + 1, 3 * f + 2, t[2] + 1, 3 * f + 3);
  }
  return out;
}

absl::Status WriteObj(const std::string& path, const TriangleMesh& mesh) {
  if (!CornerUvsFit(mesh)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %d corner_uvs floats for %d triangles, need 6 per triangle or "
        "none",
        path, mesh.corner_uvs.size(), mesh.triangles.size()));
  }
  return files::WriteStringToFile(path, FormatObj(mesh));
}

}  // namespace crease::io
