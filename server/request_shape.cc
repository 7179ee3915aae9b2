#include "server/request_shape.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>
#include <grpcpp/support/proto_buffer_reader.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "crease/v1/crease.pb.h"

namespace crease::server {
namespace {

using ::google::protobuf::Descriptor;
using ::google::protobuf::FieldDescriptor;
using ::google::protobuf::internal::WireFormatLite;
using ::google::protobuf::io::CodedInputStream;

// Deeper than any message of the schema nests.
constexpr int kMaxDepth = 16;
// Room beside the positions for a frame's index and camera.
constexpr int64_t kFrameExtraBytes = 4096;
// Room in a Start for its parameters and outputs.
constexpr int64_t kStartExtraBytes = 64 << 10;

struct Walk {
  const RequestCaps& caps;
  size_t bytes = 0;  // the whole request's
  int repeated_messages = 0;
  int unknown_fields = 0;
};

// Whether protobuf decodes `wire_type` into `field` (repeated scalars
// either packed or not).
bool IsWireTypeOf(const FieldDescriptor& field,
                  WireFormatLite::WireType wire_type) {
  const WireFormatLite::WireType expected =
      WireFormatLite::WireTypeForFieldType(
          static_cast<WireFormatLite::FieldType>(field.type()));
  return wire_type == expected ||
         (field.is_packable() &&
          wire_type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
}

absl::Status Malformed(const std::string& where, size_t bytes) {
  return absl::InvalidArgumentError(absl::StrFormat(
      "request: %d bytes that are no crease.v1.SessionRequest (not protobuf, "
      "or truncated%s)",
      bytes, where.empty() ? "" : absl::StrCat(" in request", where)));
}

// Reads the fields of one message of type `type` to the stream's limit.
absl::Status WalkMessage(const Descriptor& type, const std::string& where,
                         int depth, CodedInputStream& in, Walk& walk) {
  if (depth > kMaxDepth) {
    return absl::InvalidArgumentError(
        absl::StrFormat("request%s: nested deeper than crease.v1 nests (%d)",
                        where, kMaxDepth));
  }
  while (true) {
    const uint32_t tag = in.ReadTag();
    if (tag == 0)
      return in.ConsumedEntireMessage() ? absl::OkStatus()
                                        : Malformed(where, walk.bytes);
    const int number = WireFormatLite::GetTagFieldNumber(tag);
    const FieldDescriptor* field = type.FindFieldByNumber(number);
    const auto wire_type = WireFormatLite::GetTagWireType(tag);
    // A known number with another wire type is kept as an unknown field.
    if (field != nullptr && !IsWireTypeOf(*field, wire_type)) field = nullptr;
    if (field == nullptr) {
      if (++walk.unknown_fields > walk.caps.max_unknown_fields) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "request%s: more than %d fields this server does not know "
            "(field %d of %s)",
            where, walk.caps.max_unknown_fields, number, type.name()));
      }
    } else if (field->type() == FieldDescriptor::TYPE_MESSAGE) {
      const std::string inner = absl::StrCat(where, ".", field->name());
      if (field->is_repeated() &&
          ++walk.repeated_messages > walk.caps.max_repeated_messages) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "request%s: more than %d elements of repeated message fields",
            inner, walk.caps.max_repeated_messages));
      }
      uint32_t length = 0;
      // Longer than the whole request: truncated (and PushLimit takes an int).
      if (!in.ReadVarint32(&length) || length > walk.bytes) {
        return Malformed(inner, walk.bytes);
      }
      const CodedInputStream::Limit limit =
          in.PushLimit(static_cast<int>(length));
      if (absl::Status s =
              WalkMessage(*field->message_type(), inner, depth + 1, in, walk);
          !s.ok()) {
        return s;
      }
      in.PopLimit(limit);
      continue;
    }
    if (!WireFormatLite::SkipField(&in, tag))
      return Malformed(where, walk.bytes);
  }
}

}  // namespace

absl::Status CheckRequestShape(const grpc::ByteBuffer& request,
                               const RequestCaps& caps) {
  // The reader takes a non-const buffer but only reads it.
  grpc::ByteBuffer copy(request);  // shares the slices: no bytes copied
  grpc::ProtoBufferReader reader(&copy);
  CodedInputStream in(&reader);
  in.SetTotalBytesLimit(INT32_MAX);
  Walk walk{caps, request.Length()};
  return WalkMessage(*v1::SessionRequest::descriptor(), "", 0, in, walk);
}

int64_t MaxFrameRequestBytes(int64_t vertex_count) {
  return 12 * vertex_count + kFrameExtraBytes;
}

int64_t MaxStartRequestBytes(const ServerLimits& limits) {
  const int64_t triangles = limits.max_triangles,
                vertices = limits.max_vertices;
  return 2 * 15 * triangles  // indices, and as many again in tube lists
         + 12 * vertices     // rest positions
         + 24 * triangles    // corner UVs
         + kStartExtraBytes;
}

}  // namespace crease::server
