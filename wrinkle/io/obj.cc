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
    if (keyword == "f") return ParseFace(tokens);
    return absl::OkStatus();  // vt, vn, o, g, s, usemtl, mtllib, l, ...
  }

  absl::Status ParseVertex(Tokenizer& tokens) {
    float xyz[3];
    std::string_view token;
    for (int k = 0; k < 3; ++k) {
      if (!tokens.Next(&token)) {
        return Error(absl::StrFormat("vertex has %d coordinates, need 3", k));
      }
      const char* first = token.data();
      const char* last = token.data() + token.size();
      auto [ptr, ec] = std::from_chars(first, last, xyz[k]);
      if (ec != std::errc() || ptr != last) {
        return Error(absl::StrFormat("malformed number '%s'", token));
      }
      if (!std::isfinite(xyz[k])) {
        return Error(absl::StrFormat("non-finite coordinate '%s'", token));
      }
    }
    mesh_.positions.insert(mesh_.positions.end(), xyz, xyz + 3);
    return absl::OkStatus();
  }

  absl::Status ParseFace(Tokenizer& tokens) {
    corners_.clear();
    std::string_view token;
    const int64_t num_vertices = mesh_.num_vertices();
    while (tokens.Next(&token)) {
      // Only the position index (before the first '/') matters.
      std::string_view index_text = token.substr(0, token.find('/'));
      int64_t index = 0;
      const char* last = index_text.data() + index_text.size();
      auto [ptr, ec] = std::from_chars(index_text.data(), last, index);
      if (ec != std::errc() || ptr != last || index_text.empty()) {
        return Error(absl::StrFormat("malformed face index '%s'", token));
      }
      if (index == 0) return Error("face index 0 (OBJ indices start at 1)");
      const int64_t resolved = index > 0 ? index - 1 : num_vertices + index;
      if (resolved < 0 || resolved >= num_vertices) {
        return Error(absl::StrFormat(
            "face index %d out of range (%d vertices defined so far)", index,
            num_vertices));
      }
      corners_.push_back(static_cast<int32_t>(resolved));
    }
    if (corners_.size() < 3) {
      return Error(absl::StrFormat("face has %d corners, need at least 3",
                                   corners_.size()));
    }
    for (size_t k = 1; k + 1 < corners_.size(); ++k) {
      mesh_.triangles.push_back({corners_[0], corners_[k], corners_[k + 1]});
    }
    if (corners_.size() > 3) ++mesh_.polygons_triangulated;
    return absl::OkStatus();
  }

  std::string_view name_;
  int64_t line_number_ = 0;
  TriangleMesh mesh_;
  std::vector<int32_t> corners_;
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

std::string FormatObj(const TriangleMesh& mesh) {
  std::string out;
  out.reserve(mesh.positions.size() * 12 + mesh.triangles.size() * 20);
  for (int v = 0; v < mesh.num_vertices(); ++v) {
    absl::StrAppendFormat(&out, "v %.9g %.9g %.9g\n", mesh.positions[3 * v],
                          mesh.positions[3 * v + 1], mesh.positions[3 * v + 2]);
  }
  for (const Triangle& t : mesh.triangles) {
    absl::StrAppendFormat(&out, "f %d %d %d\n", t[0] + 1, t[1] + 1, t[2] + 1);
  }
  return out;
}

absl::Status WriteObj(const std::string& path, const TriangleMesh& mesh) {
  return files::WriteStringToFile(path, FormatObj(mesh));
}

}  // namespace crease::io
