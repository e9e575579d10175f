#include "services/table/bearer_auth.h"

#include <string>
#include <string_view>

namespace banca::table {

absl::StatusOr<auth::Claims> AuthenticateBearer(
    const grpc::ServerContextBase* context, const auth::Key& key,
    int64_t now_seconds) {
  const auto& metadata = context->client_metadata();
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
  return auth::VerifyToken(key, value.substr(kBearer.size()), now_seconds);
}

grpc::Status ToGrpcStatus(const absl::Status& s) {
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()),
                      std::string(s.message()));
}

}  // namespace banca::table
