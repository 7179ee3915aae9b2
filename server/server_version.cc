#include "server/server_version.h"

#include <cstdint>

#include "absl/strings/str_format.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace crease::server {

const char* ServerVersion() { return CREASE_VERSION; }

std::string ParametersHash(const v1::Parameters& parameters) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    // Deterministic: the same parameters give the same bytes in any process
    // of one version (map order and unknown fields aside; Parameters has
    // neither).
    coded.SetSerializationDeterministic(true);
    parameters.SerializeToCodedStream(&coded);
  }
  uint64_t hash = 14695981039346656037ull;  // FNV-1a offset basis
  for (const unsigned char c : bytes) {
    hash = (hash ^ c) * 1099511628211ull;  // FNV prime
  }
  return absl::StrFormat("%016x", hash);
}

}  // namespace crease::server
