#include "services/common/authorized_channel.h"

#include <sodium.h>

#include <array>
#include <vector>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "grpcpp/support/client_interceptor.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "services/common/transport_security.h"

namespace banca::edge {
namespace {

using grpc::experimental::ClientInterceptorFactoryInterface;
using grpc::experimental::ClientRpcInfo;
using grpc::experimental::InterceptionHookPoints;
using grpc::experimental::InterceptorBatchMethods;

class TokenInterceptor : public grpc::experimental::Interceptor {
 public:
  explicit TokenInterceptor(std::string token) : token_(std::move(token)) {}

  void Intercept(InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::PRE_SEND_INITIAL_METADATA)) {
      auto* metadata = methods->GetSendInitialMetadata();
      if (!token_.empty() &&
          metadata->find("authorization") == metadata->end()) {
        metadata->insert({"authorization", "Bearer " + token_});
      }
    }
    methods->Proceed();
  }

 private:
  const std::string token_;
};

class TokenInterceptorFactory : public ClientInterceptorFactoryInterface {
 public:
  explicit TokenInterceptorFactory(TokenForMethod tokens)
      : tokens_(std::move(tokens)) {}
  grpc::experimental::Interceptor* CreateClientInterceptor(
      ClientRpcInfo* info) override {
    return new TokenInterceptor(tokens_(info->method()));
  }

 private:
  const TokenForMethod tokens_;
};

}  // namespace

std::shared_ptr<grpc::Channel> AuthorizedChannel(
    const std::string& target, TokenForMethod tokens,
    const grpc::ChannelArguments& args,
    std::shared_ptr<grpc::ChannelCredentials> credentials) {
  std::vector<std::unique_ptr<ClientInterceptorFactoryInterface>> factories;
  factories.push_back(
      std::make_unique<TokenInterceptorFactory>(std::move(tokens)));
  return grpc::experimental::CreateCustomChannelWithInterceptors(
      target, OrPlaintext(std::move(credentials)), args, std::move(factories));
}

absl::StatusOr<auth::SigningKey> EphemeralSigningKey() {
  if (sodium_init() < 0) return absl::InternalError("libsodium init failed");
  std::array<unsigned char, auth::kSeedBytes> seed;
  randombytes_buf(seed.data(), seed.size());
  return auth::SigningKey::FromSeed(seed);
}

absl::StatusOr<std::string> DayToken(const auth::SigningKey& key,
                                     auth::Role role, std::string_view name,
                                     int64_t now_seconds) {
  auth::Claims claims;
  claims.subject = auth::Subject(role, name);
  claims.role = role;
  claims.issued_at_unix_seconds =
      now_seconds >= 0 ? now_seconds : absl::ToUnixSeconds(absl::Now());
  claims.expires_unix_seconds = claims.issued_at_unix_seconds + 86'400;
  return auth::IssueToken(key, claims);
}

namespace {

// Which of the back office's roles calls `method`.
std::pair<auth::Role, std::string_view> BackOfficeRole(
    std::string_view method, std::string_view operator_name) {
  for (std::string_view m : {"/Deposit", "/Withdraw"}) {
    if (absl::EndsWith(ToAbsl(method), ToAbsl(m))) {
      return {auth::Role::kService, "payments"};
    }
  }
  for (std::string_view m : {"/PlaceHold", "/CaptureHold", "/ReleaseHold",
                             "/Transfer", "/TransferBatch"}) {
    if (absl::EndsWith(ToAbsl(method), ToAbsl(m))) {
      return {auth::Role::kService, "table"};
    }
  }
  return {auth::Role::kOperator, operator_name};
}

}  // namespace

absl::StatusOr<TokenForMethod> BackOfficeTokens(
    const auth::SigningKey& key, std::string_view operator_name,
    std::function<int64_t()> now_seconds) {
  const std::string op(operator_name);
  if (now_seconds) {
    return TokenForMethod([key, op, now_seconds](std::string_view method) {
      const auto [role, name] = BackOfficeRole(method, op);
      return DayToken(key, role, name, now_seconds()).value_or("");
    });
  }
  ASSIGN_OR_RETURN(std::string operator_token,
                   DayToken(key, auth::Role::kOperator, op));
  ASSIGN_OR_RETURN(std::string payments,
                   DayToken(key, auth::Role::kService, "payments"));
  ASSIGN_OR_RETURN(std::string table,
                   DayToken(key, auth::Role::kService, "table"));
  return TokenForMethod(
      [op, operator_token, payments, table](std::string_view method) {
        const auto [role, name] = BackOfficeRole(method, op);
        if (role == auth::Role::kOperator) return operator_token;
        return name == "payments" ? payments : table;
      });
}

}  // namespace banca::edge
