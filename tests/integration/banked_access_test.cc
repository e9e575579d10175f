// The banked tables' matrix (docs/table-service.md, docs/security.md
// "Tables and hidden cards"), as an attacker tries it: every RPC by every
// kind of caller at a French roulette table. A caller without the right
// gets UNAUTHENTICATED or PERMISSION_DENIED and the banked topic gains
// nothing; one with it gets past the check (the rules may still refuse).
#include <array>
#include <chrono>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/integration/banked_table_fixture.h"

namespace banca::testing {
namespace {

using auth::Role;
using grpc::StatusCode;
using Stub = v1::BankedTableService::Stub;
using Call = std::function<grpc::Status(Stub&, grpc::ClientContext*, int n)>;

struct Rpc {
  std::string name;
  Call call;
  std::set<std::string> allowed;
};

v1::GetBankedTableRequest AtR1() {
  v1::GetBankedTableRequest r;
  r.set_table_id("r1");
  return r;
}

std::vector<Rpc> Rpcs() {
  const std::set<std::string> players = {"player:ana", "player:carl"};
  const std::set<std::string> everyone = {
      "player:ana",  "player:carl",   "operator:op", "finance:fin",
      "auditor:ana", "service:table", "gateway:ana"};
  return {
      {"CreateTable",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::CreateBankedTableRequest r;
         r.set_request_id(absl::StrCat("create-", n));
         r.set_table_id(absl::StrCat("x", n));
         r.set_name("x");
         r.set_game(v1::BANKED_GAME_ROULETTE_FRENCH);
         v1::BankedTableInfo out;
         return s.CreateTable(c, r, &out);
       },
       {"operator:op"}},
      {"ListTables",
       [](Stub& s, grpc::ClientContext* c, int) {
         v1::ListBankedTablesResponse out;
         return s.ListTables(c, {}, &out);
       },
       everyone},
      {"Join",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::JoinBankedTableRequest r;
         r.set_request_id(absl::StrCat("join-", n));
         r.set_table_id("r1");
         v1::BankedTableView out;
         return s.Join(c, r, &out);
       },
       players},
      {"PlaceBet",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::PlaceBankedBetRequest r;
         r.set_request_id(absl::StrCat("bet-", n));
         r.set_table_id("r1");
         r.set_round(1);
         r.set_amount_minor(100);
         r.mutable_roulette()->set_kind("red");
         v1::BankedTableView out;
         return s.PlaceBet(c, r, &out);
       },
       players},
      {"WithdrawBet",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::WithdrawBankedBetRequest r;
         r.set_request_id(absl::StrCat("withdraw-", n));
         r.set_table_id("r1");
         r.set_bet_id("b1");
         v1::BankedTableView out;
         return s.WithdrawBet(c, r, &out);
       },
       players},
      {"Launch",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::LaunchRequest r;
         r.set_request_id(absl::StrCat("launch-", n));
         r.set_table_id("r1");
         r.set_round(1);
         v1::BankedTableView out;
         return s.Launch(c, r, &out);
       },
       players},
      {"Act",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::BankedActRequest r;
         r.set_request_id(absl::StrCat("act-", n));
         r.set_table_id("r1");
         r.set_round(1);
         r.set_action(v1::BLACKJACK_ACTION_TYPE_STAND);
         v1::BankedTableView out;
         return s.Act(c, r, &out);
       },
       players},
      {"GetTableView",
       [](Stub& s, grpc::ClientContext* c, int) {
         v1::BankedTableView out;
         return s.GetTableView(c, AtR1(), &out);
       },
       everyone},
      {"WatchTable",
       [](Stub& s, grpc::ClientContext* c, int) {
         auto reader = s.WatchTable(c, AtR1());
         v1::BankedTableView first;
         if (reader->Read(&first)) c->TryCancel();
         grpc::Status st = reader->Finish();
         return st.error_code() == StatusCode::CANCELLED ? grpc::Status::OK
                                                         : st;
       },
       everyone},
      {"GetLastNumbers",
       [](Stub& s, grpc::ClientContext* c, int) {
         v1::LastNumbersResponse out;
         return s.GetLastNumbers(c, AtR1(), &out);
       },
       everyone},
      {"GetLastRound",
       [](Stub& s, grpc::ClientContext* c, int) {
         v1::BankedRoundRecord out;
         return s.GetLastRound(c, AtR1(), &out);
       },
       players},
      {"GetReplay",
       [](Stub& s, grpc::ClientContext* c, int) {
         v1::BankedReplayResponse out;
         return s.GetReplay(c, AtR1(), &out);
       },
       players},
      {"GetSessionSummary",
       [](Stub& s, grpc::ClientContext* c, int) {
         v1::BankedSessionSummary out;
         return s.GetSessionSummary(c, AtR1(), &out);
       },
       players},
      {"Leave",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::LeaveBankedTableRequest r;
         r.set_request_id(absl::StrCat("leave-", n));
         r.set_table_id("r1");
         v1::BankedSessionSummary out;
         return s.Leave(c, r, &out);
       },
       players},
      {"VoidRound",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::VoidBankedRoundRequest r;
         r.set_request_id(absl::StrCat("void-", n));
         r.set_table_id("r1");
         r.set_reason("test");
         v1::BankedTableInfo out;
         return s.VoidRound(c, r, &out);
       },
       {"operator:op"}},
  };
}

class BankedAccessTest : public BankedTableTest {};

TEST_F(BankedAccessTest, EveryRoleAndRpcPairFollowsTheMatrix) {
  Fund("ana", 50'000);
  Fund("carl", 50'000);
  ASSERT_TRUE(Create("r1", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  ASSERT_TRUE(Join("ana", "r1").ok());
  const int64_t now = clock_.NowMicros() / 1'000'000;
  std::array<unsigned char, auth::kSeedBytes> other_seed;
  other_seed.fill(3);
  const std::vector<std::pair<std::string, std::string>> callers = {
      {"no token", ""},
      {"forged", *edge::DayToken(*auth::SigningKey::FromSeed(other_seed),
                                 Role::kOperator, "op", now)},
      {"player:ana", TestToken(Role::kPlayer, "ana", now)},
      {"player:carl", TestToken(Role::kPlayer, "carl", now)},
      {"operator:op", TestToken(Role::kOperator, "op", now)},
      {"finance:fin", TestToken(Role::kFinance, "fin", now)},
      {"auditor:ana", TestToken(Role::kAuditor, "ana", now)},
      {"service:table", TestToken(Role::kService, "table", now)},
      {"gateway:ana", TestToken(Role::kGateway, "ana", now)},
  };
  int n = 0;
  int refusals = 0;
  for (const Rpc& rpc : Rpcs()) {
    for (const auto& [label, token] : callers) {
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(20));
      if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
      Quiesce();  // what an earlier, allowed call set going is done
      const int64_t before = TableEvents();
      const grpc::Status s = rpc.call(*stub_, &ctx, ++n);
      const std::string what = rpc.name + " by " + label;
      if (label == "no token" || label == "forged") {
        EXPECT_EQ(s.error_code(), StatusCode::UNAUTHENTICATED)
            << what << ": " << s.error_message();
      } else if (rpc.allowed.count(label) == 0) {
        EXPECT_EQ(s.error_code(), StatusCode::PERMISSION_DENIED)
            << what << ": " << s.error_message();
      } else {
        EXPECT_NE(s.error_code(), StatusCode::PERMISSION_DENIED)
            << what << ": " << s.error_message();
        EXPECT_NE(s.error_code(), StatusCode::UNAUTHENTICATED)
            << what << ": " << s.error_message();
        continue;
      }
      ++refusals;
      EXPECT_EQ(TableEvents(), before) << what << " appended an event";
    }
  }
  EXPECT_GT(refusals, 60);
}

}  // namespace
}  // namespace banca::testing
