// The banked tables' matrix (docs/table-service.md, docs/security.md
// "Tables and hidden cards"), as an attacker tries it: every RPC by every
// kind of caller at a French roulette table. A caller without the right
// gets UNAUTHENTICATED or PERMISSION_DENIED and the banked topic gains
// nothing; one with it gets past the check (the rules may still refuse).
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/harness/access_matrix.h"
#include "tests/integration/banked_table_fixture.h"

namespace banca::testing {
namespace {

using Stub = v1::BankedTableService::Stub;
using Rpc = MatrixRpc<Stub>;

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
         return FirstMessage<v1::BankedTableView>(*s.WatchTable(c, AtR1()), c);
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
  const int refusals =
      ExpectAccessMatrix(*stub_, Rpcs(), TableCallers(now), TableMatrix());
  EXPECT_GT(refusals, 60);
}

}  // namespace
}  // namespace banca::testing
