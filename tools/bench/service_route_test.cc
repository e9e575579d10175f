// The route's limits without a server (tests/integration/bot_routes_test.cc
// runs it against wallet and table groups): the members it accepts, and a
// call to a process that never answers giving up, bounded in attempts and
// in time.
#include "tools/bench/service_route.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "gtest/gtest.h"

namespace banca::bench {
namespace {

TEST(ServiceRoute, ParsesMembers) {
  auto members = ParseRouteMembers("127.0.0.1:1,127.0.0.1:2,db-0.banca:7070");
  ASSERT_TRUE(members.ok()) << members.status();
  EXPECT_EQ(*members, (std::vector<std::string>{"127.0.0.1:1", "127.0.0.1:2",
                                                "db-0.banca:7070"}));
  EXPECT_EQ(MembersOr({}, "a:1"), std::vector<std::string>{"a:1"});
  EXPECT_EQ(MembersOr({"b:2"}, "a:1"), std::vector<std::string>{"b:2"});
}

TEST(ServiceRoute, RefusesBadMembers) {
  std::string seventeen;
  for (int i = 0; i <= kMaxRouteMembers; ++i) {
    absl::StrAppend(&seventeen, i == 0 ? "" : ",", "h:", i);
  }
  for (const std::string& bad :
       {std::string(""), std::string("a:1,"), std::string(",a:1"),
        std::string("a:1,a:1"), std::string("a: 1"), std::string("a:1\n"),
        std::string(kMaxRouteAddressBytes + 1, 'a'), seventeen}) {
    auto members = ParseRouteMembers(bad);
    EXPECT_TRUE(absl::IsInvalidArgument(members.status()))
        << "\"" << bad.substr(0, 40) << "\"";
  }
}

TEST(ServiceRoute, ChecksTargetsGivenAsLists) {
  ServiceTargets t;
  EXPECT_TRUE(CheckServiceTargets(t).ok());
  t.table = {"a:1", "b:2"};
  EXPECT_TRUE(CheckServiceTargets(t).ok());
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"a:1", "a:1"}, std::vector<std::string>{""},
        std::vector<std::string>{"a:1,b:2"},
        std::vector<std::string>(kMaxRouteMembers + 1, "a:1")}) {
    t.wallet = bad;
    EXPECT_TRUE(absl::IsInvalidArgument(CheckServiceTargets(t))) << bad.size();
  }
}

// Nothing listens on the port: every attempt is UNAVAILABLE.
std::string ClosedAddress() { return "127.0.0.1:1"; }

grpc::Status Balance(ServiceRoute& route) {
  v1::GetBalanceRequest req;
  req.set_player_id("ana");
  v1::BalanceResponse out;
  return route.On<v1::WalletService>(
      "token", "ana", [&](v1::WalletService::Stub& w, grpc::ClientContext* c) {
        return w.GetBalance(c, req, &out);
      });
}

TEST(ServiceRoute, GivesUpAfterItsAttempts) {
  RouteLimits limits;
  limits.max_attempts = 3;
  limits.first_backoff = absl::Milliseconds(1);
  ServiceRoute route({ClosedAddress()}, nullptr, limits);
  const grpc::Status s = Balance(route);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_NE(s.error_message().find("(3 attempts, the last at 127.0.0.1:1)"),
            std::string::npos)
      << s.error_message();
  const RouteStats stats = route.stats();
  EXPECT_EQ(stats.calls, 1);
  EXPECT_EQ(stats.retries, 2);
  EXPECT_EQ(stats.gave_up, 1);
}

TEST(ServiceRoute, GivesUpAfterItsWait) {
  RouteLimits limits;
  limits.max_attempts = 1'000'000;
  limits.max_wait = absl::Milliseconds(800);
  limits.max_backoff = absl::Milliseconds(100);
  ServiceRoute route({ClosedAddress(), "127.0.0.1:2"}, nullptr, limits);
  const absl::Time start = absl::Now();
  const grpc::Status s = Balance(route);
  const absl::Duration took = absl::Now() - start;
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_GE(took, absl::Milliseconds(800));
  EXPECT_LT(took, absl::Seconds(10));
  EXPECT_GT(route.stats().retries, 2);  // both members, more than once
}

TEST(ServiceRoute, AnAddressThatIsNoTargetIsRefused) {
  ServiceRoute route({ClosedAddress()}, nullptr);
  v1::GetBalanceRequest req;
  v1::BalanceResponse out;
  const grpc::Status s = route.CallAt(
      "not a target", "token",
      [&](const std::shared_ptr<grpc::Channel>& ch, grpc::ClientContext* c) {
        return v1::WalletService::NewStub(ch)->GetBalance(c, req, &out);
      });
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace banca::bench
