// Fuzzes the server's check of a request's bytes before they are decoded
// (server/request_shape.h): any bytes as one SessionRequest. The check must
// return only OK or INVALID_ARGUMENT with a message, and what it lets through
// and protobuf decodes must hold no more repeated-message elements or
// unknown fields than its caps (so the decoded size stays near the bytes').

#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/slice.h>

#include <cstdint>

#include "crease/v1/crease.pb.h"
#include "google/protobuf/reflection.h"
#include "google/protobuf/unknown_field_set.h"
#include "server/request_shape.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using ::google::protobuf::FieldDescriptor;
using ::google::protobuf::Message;

// Elements of repeated message fields and unknown fields, over `message` and
// everything it holds.
void Count(const Message& message, int* repeated, int* unknown) {
  const auto* reflection = message.GetReflection();
  *unknown += reflection->GetUnknownFields(message).field_count();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    if (field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (field->is_repeated()) {
      const int n = reflection->FieldSize(message, field);
      *repeated += n;
      for (int i = 0; i < n; ++i) {
        Count(reflection->GetRepeatedMessage(message, field, i), repeated,
              unknown);
      }
    } else {
      Count(reflection->GetMessage(message, field), repeated, unknown);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace crease;
  grpc::Slice slice(data, size);
  const grpc::ByteBuffer buffer(&slice, 1);
  const server::RequestCaps caps;
  const absl::Status status = server::CheckRequestShape(buffer, caps);
  if (!status.ok()) {
    CREASE_FUZZ_CHECK(absl::IsInvalidArgument(status));
    CREASE_FUZZ_CHECK(!status.message().empty());
    return 0;
  }
  v1::SessionRequest request;
  if (!request.ParseFromArray(data, static_cast<int>(size))) return 0;
  int repeated = 0, unknown = 0;
  Count(request, &repeated, &unknown);
  CREASE_FUZZ_CHECK(repeated <= caps.max_repeated_messages);
  CREASE_FUZZ_CHECK(unknown <= caps.max_unknown_fields);
  return 0;
}
