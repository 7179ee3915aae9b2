#ifndef CREASE_SERVER_REQUEST_SHAPE_H_
#define CREASE_SERVER_REQUEST_SHAPE_H_

// A SessionRequest's bytes checked before they are decoded. Decoding can take
// many times a message's size: an empty element of a repeated message field
// is 2 bytes on the wire and a heap object decoded (a 60 MB Start of empty
// buckling tubes took 4.2 GB), an unknown field an entry of its own. So the
// server reads the wire format first, with the schema, and refuses what it
// would not keep anyway (docs/operations.md, "Memory").

#include <cstdint>

#include "absl/status/status.h"
#include "grpcpp/support/byte_buffer.h"
#include "server/server_options.h"

namespace crease::server {

// A Start decoded holds up to this many bytes per byte received, the
// received bytes included (a 1-byte triangle index becomes a uint32): what
// the memory budget reserves for it while it is decoded and waits.
inline constexpr int64_t kStartBytesHeldPerByte = 5;

// Requests this large make the server give freed heap back to the system
// soon after (malloc keeps it otherwise).
inline constexpr int64_t kLargeRequestBytes = int64_t{4} << 20;

struct RequestCaps {
  // Elements of repeated message fields, over the whole request (the
  // buckling model takes at most 1,024 tubes).
  int max_repeated_messages = 1024;
  // Fields this server's schema does not have (a newer client's), over the
  // whole request; they are decoded and kept, so they are few or refused.
  int max_unknown_fields = 256;
};

// INVALID_ARGUMENT naming the field when the bytes hold more than `caps`
// allow, are no protobuf or nest deeper than the schema; else OK. Reads the
// buffer without changing it; skips packed and string fields whole, so a
// frame's positions cost nothing to check.
absl::Status CheckRequestShape(const grpc::ByteBuffer& request,
                               const RequestCaps& caps);

// The most bytes a Frame of a session with `vertex_count` vertices needs:
// its packed positions, its index and a camera. A larger one is refused
// before it is decoded.
int64_t MaxFrameRequestBytes(int64_t vertex_count);

// The most bytes a Start within `limits` needs (every triangle's indices as
// 5-byte varints, rest positions, corner UVs, tube lists as long as the
// triangle list, parameters and outputs); what the server takes at most in
// one message, with MaxFrameRequestBytes(limits.max_vertices).
int64_t MaxStartRequestBytes(const ServerLimits& limits);

}  // namespace crease::server

#endif  // CREASE_SERVER_REQUEST_SHAPE_H_
