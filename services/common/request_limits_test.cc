#include "services/common/request_limits.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "gtest/gtest.h"
#include "testing/grpc_health_client.grpc.pb.h"

namespace banca::edge {
namespace {

// gRPC's health service reads raw bytes, not protobuf messages: the
// interceptor leaves it alone (it would crash on them), even where, as
// here, the process knows the health messages' descriptors.
TEST(RequestLimits, GrpcsOwnHealthServiceStillAnswers) {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  ApplyRequestLimits(builder);
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &port);
  v1::WalletService::Service unimplemented;  // a server serves something
  builder.RegisterService(&unimplemented);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ASSERT_NE(server, nullptr);
  auto health = grpc::health::v1::Health::NewStub(grpc::CreateChannel(
      absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials()));
  grpc::health::v1::HealthCheckRequest req;
  req.GetReflection()->MutableUnknownFields(&req)->AddLengthDelimited(
      1000, std::string(1000, 'u'));
  grpc::health::v1::HealthCheckResponse resp;
  grpc::ClientContext ctx;
  const grpc::Status s = health->Check(&ctx, req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.status(), grpc::health::v1::HealthCheckResponse::SERVING);
  server->Shutdown();
}

}  // namespace
}  // namespace banca::edge
