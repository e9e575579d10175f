// Client channels whose calls carry "authorization: Bearer <token>": the
// back office's tools (the demo workload, the benches) and the tests act in
// several roles at once, so the token is chosen per method. A call that sets
// its own authorization metadata keeps it.
#ifndef BANCA_SERVICES_COMMON_AUTHORIZED_CHANNEL_H_
#define BANCA_SERVICES_COMMON_AUTHORIZED_CHANNEL_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "libs/auth/token.h"

namespace banca::edge {

// The token for a full method name ("/banca.v1.WalletService/Deposit");
// empty: none.
using TokenForMethod = std::function<std::string(std::string_view method)>;

// `credentials`: the transport (transport_security.h); null: plaintext.
std::shared_ptr<grpc::Channel> AuthorizedChannel(
    const std::string& target, TokenForMethod tokens,
    const grpc::ChannelArguments& args = {},
    std::shared_ptr<grpc::ChannelCredentials> credentials = nullptr);

// A fresh random issuer key, for in-process servers (benches).
absl::StatusOr<auth::SigningKey> EphemeralSigningKey();

// A token for `name` in `role`, valid for a day from `now_seconds` (-1:
// the wall clock's now).
absl::StatusOr<std::string> DayToken(const auth::SigningKey& key,
                                     auth::Role role, std::string_view name,
                                     int64_t now_seconds = -1);

// The roles of a back office driving the wallet (docs/security.md):
// accounts as operator:<name>, deposits and withdrawals as
// service:payments, holds and table transfers as service:table, reads as
// operator:<name>. With `now_seconds` (a test's clock) each call gets a
// token issued at that clock's time; without, tokens are made once.
absl::StatusOr<TokenForMethod> BackOfficeTokens(
    const auth::SigningKey& key, std::string_view operator_name,
    std::function<int64_t()> now_seconds = nullptr);

}  // namespace banca::edge

#endif  // BANCA_SERVICES_COMMON_AUTHORIZED_CHANNEL_H_
