#include "services/common/bearer_auth.h"

#include <string>

namespace banca::edge {

absl::StatusOr<auth::Claims> AuthenticateBearer(
    const grpc::ServerContextBase* context, const auth::Verifier& verifier,
    int64_t now_seconds, std::string_view audience) {
  const auto& metadata = context->client_metadata();
  if (metadata.count("authorization") > 1) {
    return absl::UnauthenticatedError("more than one authorization header");
  }
  auto it = metadata.find("authorization");
  if (it == metadata.end()) {
    return absl::UnauthenticatedError(
        "missing \"authorization: Bearer <token>\" metadata");
  }
  const std::string_view value(it->second.data(), it->second.size());
  constexpr std::string_view kBearer = "Bearer ";
  if (value.substr(0, kBearer.size()) != kBearer) {
    return absl::UnauthenticatedError(
        "authorization must be \"Bearer <token>\"");
  }
  return verifier.Verify(value.substr(kBearer.size()), now_seconds, audience);
}

grpc::Status ToGrpcStatus(const absl::Status& s) {
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()),
                      std::string(s.message()));
}

}  // namespace banca::edge
