// The poker table service's matrix (docs/table-service.md "Who may call
// what", docs/security.md "Tables and hidden cards"), as an attacker tries
// it: every RPC, unary and streaming, by every kind of caller. A caller
// without the right gets UNAUTHENTICATED or PERMISSION_DENIED and the
// table's topic gains nothing; one with it gets past the check (the call
// may still fail on the rules).
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/harness/access_matrix.h"
#include "tests/integration/table_test_fixture.h"

namespace banca::testing {
namespace {

using auth::Role;
using Stub = v1::TableService::Stub;
using Rpc = MatrixRpc<Stub>;

// `now`: the test clock's seconds, for the player token a Relay opens with.
std::vector<Rpc> Rpcs(int64_t now) {
  const std::set<std::string> players = {"player:ana", "player:carl"};
  const std::set<std::string> everyone = {
      "player:ana",  "player:carl",   "operator:op", "finance:fin",
      "auditor:ana", "service:table", "gateway:ana"};
  return {
      {"CreateTable",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::CreateTableRequest r;
         r.set_request_id(absl::StrCat("create-", n));
         r.set_table_id(absl::StrCat("x", n));
         r.set_name("x");
         *r.mutable_config() = Holdem();
         v1::TableInfo out;
         return s.CreateTable(c, r, &out);
       },
       {"operator:op"}},
      {"ListTables",
       [](Stub& s, grpc::ClientContext* c, int) {
         v1::ListTablesResponse out;
         return s.ListTables(c, {}, &out);
       },
       everyone},
      {"Sit",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::SitRequest r;
         r.set_request_id(absl::StrCat("sit-", n));
         r.set_table_id("t1");
         r.set_seat(5);
         r.set_buy_in_minor(10'000);
         v1::SeatResponse out;
         return s.Sit(c, r, &out);
       },
       players},
      {"Rebuy",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::RebuyRequest r;
         r.set_request_id(absl::StrCat("rebuy-", n));
         r.set_table_id("t1");
         r.set_amount_minor(100);
         v1::SeatResponse out;
         return s.Rebuy(c, r, &out);
       },
       players},
      {"Act",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::ActRequest r;
         r.set_request_id(absl::StrCat("act-", n));
         r.set_table_id("t1");
         r.set_hand_number(1);
         r.set_action(v1::POKER_ACTION_TYPE_FOLD);
         v1::TableView out;
         return s.Act(c, r, &out);
       },
       players},
      {"SitOut",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::SitOutRequest r;
         r.set_request_id(absl::StrCat("out-", n));
         r.set_table_id("t1");
         v1::SeatResponse out;
         return s.SitOut(c, r, &out);
       },
       players},
      {"SitIn",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::SitInRequest r;
         r.set_request_id(absl::StrCat("in-", n));
         r.set_table_id("t1");
         v1::SeatResponse out;
         return s.SitIn(c, r, &out);
       },
       players},
      {"GetTableView",
       [](Stub& s, grpc::ClientContext* c, int) {
         v1::WatchTableRequest r;
         r.set_table_id("t1");
         v1::TableView out;
         return s.GetTableView(c, r, &out);
       },
       everyone},
      {"GetLastHand",
       [](Stub& s, grpc::ClientContext* c, int) {
         v1::GetLastHandRequest r;
         r.set_table_id("t1");
         v1::LastHandResponse out;
         return s.GetLastHand(c, r, &out);
       },
       players},
      {"GetSessionSummary",
       [](Stub& s, grpc::ClientContext* c, int) {
         v1::GetSessionSummaryRequest r;
         r.set_table_id("t1");
         v1::SessionSummary out;
         return s.GetSessionSummary(c, r, &out);
       },
       players},
      {"WatchTable",
       [](Stub& s, grpc::ClientContext* c, int) {
         v1::WatchTableRequest r;
         r.set_table_id("t1");
         return FirstMessage<v1::TableView>(*s.WatchTable(c, r), c);
       },
       everyone},
      {"Play",
       [](Stub& s, grpc::ClientContext* c, int) {
         auto stream = s.Play(c);
         v1::PlayRequest join;
         join.mutable_join()->set_table_id("t1");
         stream->Write(join);
         return FirstMessage<v1::PlayUpdate>(*stream, c);
       },
       // A player without a seat joins as a spectator.
       players},
      {"Relay",
       [now](Stub& s, grpc::ClientContext* c, int) {
         auto stream = s.Relay(c);
         v1::RelayRequest open;
         v1::RelayMessage* m = open.add_messages();
         m->set_session(1);
         m->mutable_open()->set_player_token(
             TestToken(Role::kPlayer, "ana", now));
         m->mutable_open()->set_table_id("t1");
         stream->Write(open);
         return FirstMessage<v1::RelayUpdate>(*stream, c);
       },
       {"gateway:ana"}},
      {"Leave",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::LeaveRequest r;
         r.set_request_id(absl::StrCat("leave-", n));
         r.set_table_id("t1");
         v1::LeaveResponse out;
         return s.Leave(c, r, &out);
       },
       players},
      {"VoidHand",
       [](Stub& s, grpc::ClientContext* c, int n) {
         v1::VoidHandRequest r;
         r.set_request_id(absl::StrCat("void-", n));
         r.set_table_id("t1");
         r.set_reason("test");
         v1::TableInfo out;
         return s.VoidHand(c, r, &out);
       },
       {"operator:op"}},
  };
}

class TableAccessTest : public TableServiceTest {};

TEST_F(TableAccessTest, EveryRoleAndRpcPairFollowsTheMatrix) {
  TwoAtTable("t1");
  Fund("carl", 50'000);
  const int64_t now = clock_.NowMicros() / 1'000'000;
  const int refusals =
      ExpectAccessMatrix(*tables_, Rpcs(now), TableCallers(now), TableMatrix());
  EXPECT_GT(refusals, 60);
}

}  // namespace
}  // namespace banca::testing
