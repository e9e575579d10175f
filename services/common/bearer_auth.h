// Who is calling a service: the signed token in the call's
// "authorization: Bearer <token>" metadata (libs/auth/token.h), shared by
// every service so that all apply the same identity rules.
#ifndef BANCA_SERVICES_COMMON_BEARER_AUTH_H_
#define BANCA_SERVICES_COMMON_BEARER_AUTH_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "libs/auth/token.h"

namespace banca::edge {

// UNAUTHENTICATED when the metadata is missing or malformed, or the token
// is forged, expired at `now_seconds`, for another audience or signed by a
// key `verifier` does not hold.
absl::StatusOr<auth::Claims> AuthenticateBearer(
    const grpc::ServerContextBase* context, const auth::Verifier& verifier,
    int64_t now_seconds, std::string_view audience = auth::kDefaultAudience);

// An absl::Status as the gRPC status with the same code and message.
grpc::Status ToGrpcStatus(const absl::Status& status);

}  // namespace banca::edge

#endif  // BANCA_SERVICES_COMMON_BEARER_AUTH_H_
