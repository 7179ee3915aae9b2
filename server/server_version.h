#ifndef CREASE_SERVER_SERVER_VERSION_H_
#define CREASE_SERVER_SERVER_VERSION_H_

#include <string>

#include "crease/v1/crease.pb.h"

namespace crease::server {

// The project's version (CMakeLists.txt), as ServerInfo and Started give it.
const char* ServerVersion();

// 16 lower-case hex digits: FNV-1a (64 bits) of `parameters` serialized
// deterministically (Started.parameters_hash).
std::string ParametersHash(const v1::Parameters& parameters);

}  // namespace crease::server

#endif  // CREASE_SERVER_SERVER_VERSION_H_
