#ifndef CREASE_WRINKLE_CLI_WRINKLE_OUTPUT_H_
#define CREASE_WRINKLE_CLI_WRINKLE_OUTPUT_H_

#include <string>

#include "wrinkle/sca2015/session.h"

namespace crease::cli {

// One JSON object on one line for the session's current wrinkles:
// {"frame": F, "wrinkles": [{"id", "age", "width", "height", "max_compression",
//   "crossings": [[edge, t, x, y, z], ...], "refined": [[x, y, z, width,
//   height], ...]}]}
std::string FormatWrinklesJsonLine(int frame, const Session& session);

// The refined wrinkle polylines as OBJ `l` elements (one object per wrinkle),
// to view beside the frame's PLY meshes.
std::string FormatWrinklesObj(const Session& session);

}  // namespace crease::cli

#endif  // CREASE_WRINKLE_CLI_WRINKLE_OUTPUT_H_
