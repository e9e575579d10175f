// An attacker's matrix (docs/security.md): every RPC of a service called by
// every kind of caller. A caller that is not authenticated gets
// UNAUTHENTICATED; one without the right gets PERMISSION_DENIED; neither
// appends anything to the log. A caller with the right gets past both
// checks (the call may still fail on the rules). The wallet's, the poker
// tables' and the banked tables' access tests run their matrices here.
#ifndef BANCA_TESTS_HARNESS_ACCESS_MATRIX_H_
#define BANCA_TESTS_HARNESS_ACCESS_MATRIX_H_

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "libs/auth/token.h"
#include "services/common/authorized_channel.h"
#include "tests/integration/test_keys.h"

namespace banca::testing {

struct Caller {
  std::string label;  // "no token", "forged", "<role>:<name>", ...
  std::string token;  // the authorization header's; empty: none
  bool authenticated = true;
};

// One RPC of `Stub`: how to call it (`n` numbers the call, for fresh
// request ids) and the callers (labels) allowed past the check.
template <typename Stub>
struct MatrixRpc {
  std::string name;
  std::function<grpc::Status(Stub&, grpc::ClientContext*, int n)> call;
  std::set<std::string> allowed;
};

// The callers the table services' matrices try, with tokens issued at
// `now` (the test clock's seconds): no token, a token signed by another
// key, two players, and one of every other role; none of the others is
// the player ana, though some are named like her.
inline std::vector<Caller> TableCallers(int64_t now) {
  using auth::Role;
  std::array<unsigned char, auth::kSeedBytes> other_seed;
  other_seed.fill(3);
  return {
      {"no token", "", false},
      {"forged",
       *edge::DayToken(*auth::SigningKey::FromSeed(other_seed), Role::kOperator,
                       "op", now),
       false},
      {"player:ana", TestToken(Role::kPlayer, "ana", now)},
      {"player:carl", TestToken(Role::kPlayer, "carl", now)},
      {"operator:op", TestToken(Role::kOperator, "op", now)},
      {"finance:fin", TestToken(Role::kFinance, "fin", now)},
      {"auditor:ana", TestToken(Role::kAuditor, "ana", now)},
      {"service:table", TestToken(Role::kService, "table", now)},
      {"gateway:ana", TestToken(Role::kGateway, "ana", now)},
  };
}

// A streaming call's answer: the stream's first message, after which the
// caller goes away (the CANCELLED that follows is its own doing: OK), or
// the status the stream ended with before any.
template <typename Message, typename Stream>
grpc::Status FirstMessage(Stream& stream, grpc::ClientContext* context) {
  Message first;
  if (stream.Read(&first)) context->TryCancel();
  const grpc::Status s = stream.Finish();
  return s.error_code() == grpc::StatusCode::CANCELLED ? grpc::Status::OK : s;
}

struct MatrixOptions {
  // Records in the log so far: a refused call must add none.
  std::function<int64_t()> events;
  // Runs before every call (to let what an allowed call set going finish).
  std::function<void()> before_each = [] {};
  // Each call's deadline; none when unset.
  std::optional<absl::Duration> deadline;
};

// Calls every rpc as every caller, each on its own context, and expects
// the matrix's answer (see the top); returns how many calls were refused.
template <typename Stub>
int ExpectAccessMatrix(Stub& stub, const std::vector<MatrixRpc<Stub>>& rpcs,
                       const std::vector<Caller>& callers,
                       const MatrixOptions& options) {
  int n = 0;
  int refusals = 0;
  for (const MatrixRpc<Stub>& rpc : rpcs) {
    for (const Caller& who : callers) {
      grpc::ClientContext ctx;
      if (options.deadline) {
        ctx.set_deadline(absl::ToChronoTime(absl::Now() + *options.deadline));
      }
      if (!who.token.empty()) {
        ctx.AddMetadata("authorization", "Bearer " + who.token);
      }
      options.before_each();
      const int64_t before = options.events();
      const grpc::Status s = rpc.call(stub, &ctx, ++n);
      const std::string what = rpc.name + " by " + who.label;
      if (!who.authenticated) {
        EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED)
            << what << ": " << s.error_message();
      } else if (rpc.allowed.count(who.label) == 0) {
        EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED)
            << what << ": " << s.error_message();
      } else {
        EXPECT_NE(s.error_code(), grpc::StatusCode::PERMISSION_DENIED)
            << what << ": " << s.error_message();
        EXPECT_NE(s.error_code(), grpc::StatusCode::UNAUTHENTICATED)
            << what << ": " << s.error_message();
        continue;
      }
      ++refusals;
      EXPECT_EQ(options.events(), before) << what << " appended an event";
    }
  }
  return refusals;
}

}  // namespace banca::testing

#endif  // BANCA_TESTS_HARNESS_ACCESS_MATRIX_H_
