// Requests that would cost the server far more decoded than their size, or
// more than the session they belong to needs, refused before they are
// decoded (server/request_shape.h; docs/operations.md, "Memory"). Sent as raw
// bytes, as an attacker would.

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/memory_budget.h"
#include "server/request_shape.h"
#include "tests/server/raw_stream.h"
#include "tests/server/service_fixture.h"
#include "wrinkle/core/synthetic_sheet.h"

namespace crease::server {
namespace {

using ::testing::HasSubstr;

// Protobuf's wire format, by hand: what a well-behaved client's library
// would never write.
std::string Varint(uint64_t value) {
  std::string out;
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
  return out;
}
std::string Field(int number, const std::string& bytes) {  // length-delimited
  return Varint(static_cast<uint64_t>(number) << 3 | 2) + Varint(bytes.size()) +
         bytes;
}
std::string VarintField(int number, uint64_t value) {
  return Varint(static_cast<uint64_t>(number) << 3) + Varint(value);
}

// A valid Start of a 2 x 2 sheet, as bytes of its fields (not yet a request).
std::string SheetStartFields() {
  io::Animation sheet;
  sheet.mesh = MakeGridSheet(2, 2, 1.0f, 1.0f);
  std::string bytes;
  EXPECT_TRUE(StartFor(sheet).SerializeToString(&bytes));
  return bytes;
}

// The request holding a Start of those fields and `extra` bytes of fields.
std::string StartRequest(const std::string& extra) {
  return Field(1, SheetStartFields() + extra);
}

grpc::Status Send(const RunningServer& running, const std::string& bytes) {
  RawStream stream(running.target);
  EXPECT_TRUE(stream.started());
  EXPECT_TRUE(stream.Write(bytes, absl::Seconds(10)));
  return stream.Finish(absl::Seconds(30));
}

// 4 million empty buckling tubes: 8 MB on the wire, about 300 MB decoded (a
// 60 MB one took 4.2 GB). Refused naming the field, and the server's peak
// memory hardly moves.
TEST(RequestShapeTest, AStartOfMillionsOfEmptyTubesIsRefusedUndecoded) {
  RunningServer running = RunningServer::Start(LoopbackOptions());
  std::string tubes;
  tubes.reserve(8 << 20);
  for (int i = 0; i < 4'000'000; ++i) tubes += Field(1, "");
  const std::string parameters =
      VarintField(7, v1::WRINKLE_MODEL_BUCKLING) + Field(9, tubes);
  std::string request = StartRequest(Field(2, parameters));
  tubes.clear();
  tubes.shrink_to_fit();
  const double peak_before = PeakResidentMb();
  const grpc::Status status = Send(running, request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              HasSubstr("request.start.parameters.buckling.tubes: more than "
                        "1024 elements of repeated message fields"));
#if !defined(CREASE_UNDER_ASAN) && !defined(CREASE_UNDER_TSAN)
  // The request's bytes themselves are held twice (here and in gRPC's
  // buffers): 16 MB, and the walk allocates nothing per tube.
  EXPECT_LT(PeakResidentMb() - peak_before, 64);
#endif
  EXPECT_EQ(running.server->reserved_memory_bytes(), 0);
}

// A newer client's few fields are decoded and kept (forward compatible);
// thousands of them, each an entry decoded, are refused.
TEST(RequestShapeTest, UnknownFieldsAreKeptWhenFewRefusedWhenMany) {
  RunningServer running = RunningServer::Start(LoopbackOptions());
  std::string few, many;
  for (int i = 0; i < 10; ++i) few += VarintField(99, 1);
  for (int i = 0; i < 100'000; ++i) many += VarintField(99, 1);
  {
    RawStream stream(running.target);
    ASSERT_TRUE(stream.Write(StartRequest(few), absl::Seconds(10)));
    const auto started = stream.Read(absl::Seconds(10));
    ASSERT_TRUE(started.has_value());
    EXPECT_TRUE(started->has_started());
  }
  const grpc::Status status = Send(running, StartRequest(many));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              HasSubstr("request.start: more than 256 fields this server does "
                        "not know (field 99 of Start)"));
}

// A frame far larger than the session's 9 vertices take (a wrong count by a
// few floats is still answered with a frame error, ServiceTest) ends the
// stream before it is decoded; so does garbage nested in a known field.
TEST(RequestShapeTest, AFrameLargerThanItsSessionNeedsIsRefusedUndecoded) {
  RunningServer running = RunningServer::Start(LoopbackOptions());
  {
    RawStream stream(running.target);
    ASSERT_TRUE(stream.Write(StartRequest(""), absl::Seconds(10)));
    v1::Frame frame;
    frame.set_index(0);
    frame.mutable_positions()->Resize(250'000, 0.5f);
    ASSERT_TRUE(stream.Write(FrameBytes(frame), absl::Seconds(10)));
    const grpc::Status status = stream.Finish(absl::Seconds(30));
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(),
                HasSubstr("frame: 1000008 bytes, more than a frame of 9 "
                          "vertices takes (4204)"));
  }
  // A Start whose Parameters claim 2^31 + 5 bytes: truncated, named.
  const grpc::Status long_claim =
      Send(running,
           StartRequest(Varint(2 << 3 | 2) + Varint(2147483653u) + "\x38\x03"));
  EXPECT_EQ(long_claim.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(long_claim.error_message(),
              HasSubstr("truncated in request.start.parameters)"));
  // Field 2 of a Start (Parameters) holding a truncated varint.
  const grpc::Status garbage = Send(running, StartRequest(Field(2, "\x38")));
  EXPECT_EQ(garbage.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(garbage.error_message(),
              HasSubstr("no crease.v1.SessionRequest (not protobuf, or "
                        "truncated in request.start.parameters)"));
}

// A Start's decoded size is reserved in the memory budget while it is
// decoded and waits: one field of 12 MB (unknown, so kept) takes 60 MB, which
// a server with 40 MB free refuses; 2 MB (10 MB reserved) is served, and the
// reservation is given back for the session's own.
TEST(RequestShapeTest, AStartIsBudgetedWhileItIsDecoded) {
  ServerOptions options = LoopbackOptions();
  options.max_memory_bytes = kServerBaseBytes + (int64_t{40} << 20);
  RunningServer running = RunningServer::Start(options);
  const grpc::Status status =
      Send(running, StartRequest(Field(99, std::string(12 << 20, 'x'))));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(), HasSubstr("being decoded"));
  EXPECT_EQ(running.server->reserved_memory_bytes(), 0);
  RawStream stream(running.target);
  ASSERT_TRUE(stream.Write(StartRequest(Field(99, std::string(2 << 20, 'x'))),
                           absl::Seconds(10)));
  const auto started = stream.Read(absl::Seconds(10));
  ASSERT_TRUE(started.has_value());
  EXPECT_TRUE(started->has_started());
  // Only the session's estimate is left reserved: far under the 10 MB.
  EXPECT_GT(running.server->reserved_memory_bytes(), 0);
  EXPECT_LT(running.server->reserved_memory_bytes(), int64_t{1} << 20);
}

// gRPC refuses a message larger than the largest Start the limits allow
// before our code sees it.
TEST(RequestShapeTest, NoRequestLargerThanTheLimitsNeedIsReceived) {
  ServerOptions options = LoopbackOptions();
  options.limits.max_triangles = 1000;
  options.limits.max_vertices = 1000;
  RunningServer running = RunningServer::Start(options);
  const int64_t most = MaxStartRequestBytes(options.limits);
  EXPECT_EQ(most, 30 * 1000 + 12 * 1000 + 24 * 1000 + (64 << 10));
  const grpc::Status status =
      Send(running, StartRequest(Field(99, std::string(most + 1000, 'x'))));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
      << status.error_message();
}

}  // namespace
}  // namespace crease::server
