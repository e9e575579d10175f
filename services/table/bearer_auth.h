// Who is calling a table service: the signed token in the call's
// "authorization: Bearer <token>" metadata (libs/auth/token.h), shared by
// the poker and the banked tables so that both apply the same identity
// rules.
#ifndef BANCA_SERVICES_TABLE_BEARER_AUTH_H_
#define BANCA_SERVICES_TABLE_BEARER_AUTH_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "libs/auth/token.h"

namespace banca::table {

// UNAUTHENTICATED when the metadata is missing or malformed, or the token
// is forged or expired at `now_seconds`.
absl::StatusOr<auth::Claims> AuthenticateBearer(
    const grpc::ServerContextBase* context, const auth::Key& key,
    int64_t now_seconds);

// An absl::Status as the gRPC status with the same code and message.
grpc::Status ToGrpcStatus(const absl::Status& status);

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_BEARER_AUTH_H_
