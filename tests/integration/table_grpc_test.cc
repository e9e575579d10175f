// The table service end to end: gRPC on loopback, the wallet in the same
// process, an embedded log on disk, RocksDB projections. Buy-ins go through
// the saga on the log; hands settle in the ledger; tokens decide who may do
// what.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "banca/v1/table.grpc.pb.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "google/protobuf/text_format.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "libs/auth/token.h"
#include "libs/common/clock.h"
#include "libs/eventlog/log_backend.h"
#include "libs/hand_history/hands.h"
#include "libs/ledger/account.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/wire/table_codec.h"
#include "nlohmann/json.hpp"
#include "services/audit/hands_export.h"
#include "services/table/table_service.h"
#include "services/wallet/wallet_service.h"
#include "tests/integration/table_test_fixture.h"
#include "tests/integration/wallet_test_util.h"
#include "tests/run_banca.h"

namespace banca::testing {
namespace {

TEST_F(TableServiceTest, BuyInIsAHoldCapturedIntoTheSeatThroughTheLog_HE8) {
  Fund("ana", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  v1::SeatResponse seat;
  grpc::Status s = Sit("ana", "t1", 3, 10'000, &seat);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(seat.seat(), 3);
  EXPECT_EQ(seat.stack_minor(), 10'000);
  Settle();
  EXPECT_EQ(Cash("ana"), 40'000);
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
  EXPECT_EQ(wallet_->ledger().Summarize().open_holds, 0);
}

TEST_F(TableServiceTest, BuyInBeyondTheCashIsRefusedAndSeatsNobody) {
  Fund("bea", 3'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  grpc::Status s = Sit("bea", "t1", 1, 5'000);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("buy-in refused"), std::string::npos)
      << s.error_message();
  EXPECT_EQ(View("bea", "t1").my_seat(), 0);
  Settle();
  EXPECT_EQ(Cash("bea"), 3'000);
  // A corrected retry with a new id works once the cash is there.
  v1::DepositRequest dep;
  dep.set_request_id("dep2-bea");
  dep.set_player_id("bea");
  dep.set_amount_minor(5'000);
  dep.set_payment_ref("psp2");
  v1::TransactionResponse tx;
  grpc::ClientContext c;
  ASSERT_TRUE(wallet_stub_->Deposit(&c, dep, &tx).ok());
  EXPECT_TRUE(Sit("bea", "t1", 1, 5'000, nullptr, "sit-bea-2").ok());
}

// Every call that names a table looks it up the same way (the table
// host's FindOrNotFound): a malformed id is INVALID_ARGUMENT, an unknown
// one NOT_FOUND naming it, and neither appends anything.
TEST_F(TableServiceTest, AMalformedOrUnknownTableIdIsRefusedByEveryCall) {
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  const int64_t before = TableEvents();
  for (const auto& [id, code] :
       {std::pair<std::string, grpc::StatusCode>{
            "Bad Id", grpc::StatusCode::INVALID_ARGUMENT},
        {"nope", grpc::StatusCode::NOT_FOUND}}) {
    v1::LeaveRequest leave;
    leave.set_request_id("leave-" + std::to_string(code));
    leave.set_table_id(id);
    v1::LeaveResponse left;
    EXPECT_EQ(tables_->Leave(As("ana").get(), leave, &left).error_code(), code)
        << id;
    v1::WatchTableRequest watch;
    watch.set_table_id(id);
    v1::TableView view;
    grpc::Status s = tables_->GetTableView(As("ana").get(), watch, &view);
    EXPECT_EQ(s.error_code(), code) << id;
    if (code == grpc::StatusCode::NOT_FOUND) {
      EXPECT_NE(s.error_message().find("no table nope"), std::string::npos)
          << s.error_message();
    }
  }
  EXPECT_EQ(TableEvents(), before);
}

TEST_F(TableServiceTest, BadInputIsRejectedPreciselyAndAppendsNothing) {
  Fund("ana", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  const int64_t before = TableEvents();
  // Outside the buy-in range (HE-8), a seat that does not exist, no table.
  EXPECT_EQ(Sit("ana", "t1", 1, 100).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Sit("ana", "t1", 11, 10'000, nullptr, "r2").error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Sit("ana", "nope", 1, 10'000, nullptr, "r3").error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Sit("ana", "Bad Id", 1, 10'000, nullptr, "r4").error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // A player may not create tables; a bad config names the field.
  {
    v1::CreateTableRequest req;
    req.set_request_id("c2");
    req.set_table_id("t2");
    *req.mutable_config() = Holdem();
    v1::TableInfo info;
    EXPECT_EQ(tables_->CreateTable(As("ana").get(), req, &info).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
    v1::PokerTableConfig bad = Holdem();
    bad.set_seats(11);
    grpc::Status s = Create("t3", bad);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(s.error_message().find("seat"), std::string::npos);
  }
  // No token, a forged token.
  {
    v1::SitRequest req;
    req.set_request_id("r5");
    req.set_table_id("t1");
    req.set_seat(1);
    req.set_buy_in_minor(10'000);
    v1::SeatResponse resp;
    grpc::ClientContext none;
    EXPECT_EQ(tables_->Sit(&none, req, &resp).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
    grpc::ClientContext forged;
    std::string token = Token("ana");
    token.back() = token.back() == '0' ? '1' : '0';
    forged.AddMetadata("authorization", "Bearer " + token);
    EXPECT_EQ(tables_->Sit(&forged, req, &resp).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  // Acting with no hand in progress.
  EXPECT_EQ(Act("ana", "t1", v1::POKER_ACTION_TYPE_CHECK).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(TableEvents(), before);
}

TEST_F(TableServiceTest, HandSettlesInTheLedgerAndViewsHideOtherCards_HE2d) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  // Two players: the hand is dealt at once.
  v1::TableView ana = View("ana", "t1");
  v1::TableView bob = View("bob", "t1");
  ASSERT_TRUE(ana.in_hand());
  EXPECT_EQ(ana.hand_number(), 1);
  for (const v1::SeatState& s : ana.seats()) {
    EXPECT_EQ(s.cards_size(), s.player_id() == "ana" ? 2 : 0) << s.player_id();
  }
  for (const v1::SeatState& s : bob.seats()) {
    EXPECT_EQ(s.cards_size(), s.player_id() == "bob" ? 2 : 0) << s.player_id();
  }
  // Whoever is to act folds: the other wins the blinds (HE-36).
  const std::string first =
      ana.to_act() == ana.my_seat() ? std::string("ana") : std::string("bob");
  // Only the player to act may act; another's turn is refused.
  const std::string second = first == "ana" ? "bob" : "ana";
  EXPECT_EQ(Act(second, "t1", v1::POKER_ACTION_TYPE_FOLD).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  ASSERT_TRUE(Act(first, "t1", v1::POKER_ACTION_TYPE_FOLD).ok());
  Settle();
  EXPECT_EQ(Seat("t1", "ana") + Seat("t1", "bob"), 20'000);
  EXPECT_NE(Seat("t1", "ana"), 10'000);
  EXPECT_EQ(wallet_->ledger().AccountBalance(settlement::PotAccount("t1")), 0);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
  // HE-65: the last hand, from the caller's side.
  v1::GetLastHandRequest lr;
  lr.set_table_id("t1");
  v1::LastHandResponse last;
  ASSERT_TRUE(tables_->GetLastHand(As(first).get(), lr, &last).ok());
  EXPECT_EQ(last.hand_number(), 1);
  EXPECT_TRUE(last.folded());
}

TEST_F(TableServiceTest, LeaveMidHandFoldsThenPaysTheStackBack_HE10_HE67) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  ASSERT_TRUE(View("ana", "t1").in_hand());
  v1::LeaveRequest req;
  req.set_request_id("leave-ana");
  req.set_table_id("t1");
  v1::LeaveResponse resp;
  ASSERT_TRUE(tables_->Leave(As("ana").get(), req, &resp).ok());
  // Folded at her turn (at once if it was hers), gone after the hand.
  if (!resp.left()) {
    ASSERT_TRUE(Act("bob", "t1", v1::POKER_ACTION_TYPE_CALL).ok() ||
                Act("bob", "t1", v1::POKER_ACTION_TYPE_CHECK).ok());
  }
  Settle();
  EXPECT_EQ(View("ana", "t1").my_seat(), 0);
  EXPECT_EQ(Seat("t1", "ana"), 0);
  EXPECT_EQ(Cash("ana") + Cash("bob") + Seat("t1", "bob"), 100'000);
  v1::GetSessionSummaryRequest sr;
  sr.set_table_id("t1");
  v1::SessionSummary summary;
  ASSERT_TRUE(tables_->GetSessionSummary(As("ana").get(), sr, &summary).ok());
  EXPECT_EQ(summary.bought_in_minor(), 10'000);
  EXPECT_EQ(summary.net_minor(), Cash("ana") - 50'000);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
}

TEST_F(TableServiceTest, TimeoutChecksElseFolds_HE45) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  v1::TableView v = View("ana", "t1");
  ASSERT_TRUE(v.in_hand());
  table_->Tick();  // starts the decision timer
  clock_.Advance(absl::Seconds(29));
  table_->Tick();
  EXPECT_EQ(View("ana", "t1").hand_number(), 1);  // 29 s: still thinking
  clock_.Advance(absl::Seconds(2));
  table_->Tick();  // 31 s: the player to act facing the big blind folds
  EXPECT_EQ(View("ana", "t1").hand_number(), 2);
  Settle();
  EXPECT_EQ(Seat("t1", "ana") + Seat("t1", "bob"), 20'000);
}

TEST_F(TableServiceTest, OperatorVoidsAHandAndEveryBetGoesBack_HE72) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  v1::VoidHandRequest req;
  req.set_request_id("void-1");
  req.set_table_id("t1");
  req.set_reason("dealer server fault");
  v1::TableInfo info;
  EXPECT_EQ(tables_->VoidHand(As("ana").get(), req, &info).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(
      tables_->VoidHand(As("op", auth::Role::kOperator).get(), req, &info)
          .ok());
  Settle();
  EXPECT_EQ(Seat("t1", "ana"), 10'000);
  EXPECT_EQ(Seat("t1", "bob"), 10'000);
}

TEST_F(TableServiceTest, RestartReplaysTablesAndRetriesStayIdempotent) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  const v1::TableView before = View("ana", "t1");
  Settle();
  Shutdown();
  Start();
  const v1::TableView after = View("ana", "t1");
  EXPECT_EQ(after.hand_number(), before.hand_number());
  EXPECT_EQ(after.to_act(), before.to_act());
  ASSERT_EQ(after.seats_size(), before.seats_size());
  for (int i = 0; i < after.seats_size(); ++i) {
    EXPECT_EQ(after.seats(i).DebugString(), before.seats(i).DebugString());
  }
  const int64_t events = TableEvents();
  EXPECT_TRUE(Sit("ana", "t1", 1, 10'000).ok());  // the same request again
  EXPECT_EQ(TableEvents(), events);
  Settle();
  EXPECT_EQ(Cash("ana"), 40'000);
}

// A rebuy asked during a hand waits for its end (HE-11b); if the player
// wins meanwhile and the stack plus the rebuy would pass the table maximum
// (HE-12), the rebuy is paid back to cash instead of breaking the table.
TEST_F(TableServiceTest, RebuyThatNoLongerFitsAfterTheHandIsPaidBack_HE12) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  ASSERT_TRUE(View("ana", "t1").in_hand());
  v1::RebuyRequest req;
  req.set_request_id("rebuy-ana");
  req.set_table_id("t1");
  req.set_amount_minor(10'000);  // 10,000 + 10,000 = the maximum
  v1::SeatResponse seat;
  ASSERT_TRUE(tables_->Rebuy(As("ana").get(), req, &seat).ok());
  EXPECT_EQ(seat.pending_rebuy_minor(), 10'000);
  // Bob folds at his turn, Ana checks or calls: she wins his blind.
  while (View("ana", "t1").hand_number() == 1) {
    const v1::TableView v = View("ana", "t1");
    if (v.to_act() == v.my_seat()) {
      ASSERT_TRUE(Act("ana", "t1", v1::POKER_ACTION_TYPE_CALL).ok() ||
                  Act("ana", "t1", v1::POKER_ACTION_TYPE_CHECK).ok());
    } else {
      grpc::Status s = Act("bob", "t1", v1::POKER_ACTION_TYPE_FOLD);
      ASSERT_TRUE(s.ok()) << s.error_message();
    }
  }
  Settle();
  const int64_t stack = Seat("t1", "ana");
  EXPECT_GT(stack, 10'000);
  EXPECT_LE(stack, 20'000);
  EXPECT_EQ(Cash("ana"), 40'000);  // the rebuy came back
  EXPECT_EQ(Seat("t1", "ana") + Seat("t1", "bob"), 20'000);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
  EXPECT_EQ(wallet_->ledger().Summarize().open_holds, 0);
  // The table replays to the same state.
  const v1::TableView before = View("ana", "t1");
  Shutdown();
  Start();
  const v1::TableView after = View("ana", "t1");
  EXPECT_EQ(after.hand_number(), before.hand_number());
  ASSERT_EQ(after.seats_size(), before.seats_size());
  for (int i = 0; i < after.seats_size(); ++i) {
    EXPECT_EQ(after.seats(i).DebugString(), before.seats(i).DebugString());
  }
}

// Every view names what the player to act may do (to_act_legal): public
// information (stacks, bets, the round), so an Act's answer tells the next
// player their options without another call. `legal` stays the caller's
// own, and nobody sees another's hole cards.
TEST_F(TableServiceTest, ViewsAndActAnswersCarryTheNextPlayersOptions) {
  for (const char* p : {"ana", "bob", "cid"}) Fund(p, 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  ASSERT_TRUE(Sit("cid", "t1", 3, 10'000).ok());
  v1::TableView any = View("op", "t1");
  ASSERT_TRUE(any.in_hand());
  ASSERT_GT(any.to_act(), 0);
  EXPECT_EQ(any.legal().actions_size(), 0);  // the operator has no seat
  std::string actor;
  for (const v1::SeatState& s : any.seats()) {
    if (s.seat() == any.to_act()) actor = s.player_id();
    EXPECT_EQ(s.cards_size(), 0) << s.player_id();
  }
  const v1::TableView own = View(actor, "t1");
  ASSERT_GT(own.legal().actions_size(), 0);
  EXPECT_EQ(any.to_act_legal().DebugString(), own.legal().DebugString());
  EXPECT_EQ(own.to_act_legal().DebugString(), own.legal().DebugString());
  // The actor calls; the answer names the next player and their options,
  // which are what that player's own view offers.
  v1::TableView answer;
  ASSERT_TRUE(Act(actor, "t1", v1::POKER_ACTION_TYPE_CALL, 0, &answer).ok());
  ASSERT_TRUE(answer.in_hand());
  ASSERT_NE(answer.to_act(), answer.my_seat());
  EXPECT_EQ(answer.legal().actions_size(), 0);  // no longer the caller's turn
  std::string next;
  for (const v1::SeatState& s : answer.seats()) {
    if (s.seat() == answer.to_act()) next = s.player_id();
    EXPECT_EQ(s.cards_size(), s.player_id() == actor ? 2 : 0) << s.player_id();
  }
  const v1::TableView theirs = View(next, "t1");
  EXPECT_EQ(answer.to_act_legal().DebugString(), theirs.legal().DebugString());
}

// A retry of an Act inside the window (its hand is the current or the
// previous one) gets the first answer and appends nothing; the same id with
// another body is ALREADY_EXISTS. The answers of older hands are dropped,
// so the index stays bounded; a retry for such a hand is refused
// (FAILED_PRECONDITION) and appends nothing.
TEST_F(TableServiceTest, ActRetriesGetTheSameAnswerInsideABoundedWindow) {
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  const v1::TableView v = View("op", "t1");
  ASSERT_TRUE(v.in_hand());
  std::string actor;
  for (const v1::SeatState& s : v.seats()) {
    if (s.seat() == v.to_act()) actor = s.player_id();
  }
  v1::ActRequest req;
  req.set_request_id("call-1");
  req.set_table_id("t1");
  req.set_hand_number(v.hand_number());
  req.set_action(v1::POKER_ACTION_TYPE_CALL);
  v1::TableView first;
  ASSERT_TRUE(tables_->Act(As(actor).get(), req, &first).ok());
  const int64_t events = TableEvents();
  v1::TableView again;
  ASSERT_TRUE(tables_->Act(As(actor).get(), req, &again).ok());
  EXPECT_EQ(again.SerializeAsString(), first.SerializeAsString());
  EXPECT_EQ(TableEvents(), events);
  v1::ActRequest other = req;
  other.set_action(v1::POKER_ACTION_TYPE_FOLD);
  EXPECT_EQ(tables_->Act(As(actor).get(), other, &again).error_code(),
            grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(TableEvents(), events);
  // After a restart the retry is still recognised (replay rebuilds the
  // window) and appends nothing.
  Shutdown();
  Start();
  ASSERT_TRUE(tables_->Act(As(actor).get(), req, &again).ok());
  EXPECT_EQ(TableEvents(), events);
  EXPECT_EQ(again.hand_number(), first.hand_number());
  // Hand 1 ends, then hands 2 and 3 are played: hand 1 leaves the window.
  PlayHands("t1", 3, 7, /*all_in=*/false);
  const size_t kept = table_->act_answers("t1");
  EXPECT_GT(kept, 0u);
  const int64_t later = TableEvents();
  grpc::Status s = tables_->Act(As(actor).get(), req, &again);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION)
      << s.error_message();
  EXPECT_EQ(TableEvents(), later);
  EXPECT_EQ(table_->act_answers("t1"), kept);
  // Many more hands: what is kept stays bounded by two hands' actions.
  PlayHands("t1", 12, 8, /*all_in=*/false);
  EXPECT_LE(table_->act_answers("t1"), 2u * 40u);
  Settle();
  EXPECT_EQ(Seat("t1", "ana") + Seat("t1", "bob"), 20'000);
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
}

// Many Acts at once on many tables (the callback path, answers sent from
// the log's completion thread): every answer arrives, every action is in
// the log, and a restart replays to the same tables.
TEST_F(TableServiceTest, ConcurrentTablesReplayToTheSameState) {
  constexpr int kTables = 6;
  std::vector<std::thread> players;
  for (int t = 0; t < kTables; ++t) {
    const std::string id = absl::StrCat("c", t);
    const std::string a = absl::StrCat("a", t), b = absl::StrCat("b", t);
    Fund(a, 50'000);
    Fund(b, 50'000);
    ASSERT_TRUE(Create(id, Holdem()).ok());
    ASSERT_TRUE(Sit(a, id, 1, 10'000).ok());
    ASSERT_TRUE(Sit(b, id, 2, 10'000).ok());
  }
  for (int t = 0; t < kTables; ++t) {
    players.emplace_back(
        [this, t] { PlayHands(absl::StrCat("c", t), 5, 100 + t, false); });
  }
  for (std::thread& p : players) p.join();
  std::vector<std::string> before;
  for (int t = 0; t < kTables; ++t) {
    before.push_back(
        View(absl::StrCat("a", t), absl::StrCat("c", t)).DebugString());
  }
  Settle();
  EXPECT_EQ(wallet_->ledger().Summarize().sum, 0);
  Shutdown();
  Start();
  for (int t = 0; t < kTables; ++t) {
    v1::TableView after = View(absl::StrCat("a", t), absl::StrCat("c", t));
    v1::TableView was;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(before[t], &was));
    // The version counts applied events, and replay also applies the
    // derived ones: compare the table, not the counter.
    for (v1::TableView* v : {&after, &was}) {
      v->set_action_deadline_micros(0);
      v->set_version(0);
    }
    EXPECT_EQ(after.DebugString(), was.DebugString()) << t;
  }
}

// --- banca hands export (docs/hand-histories.md) ---------------------------

using Output = ::banca::testing::BancaOutput;
using ::banca::testing::RunBanca;

std::vector<nlohmann::json> JsonLines(const std::string& text) {
  std::vector<nlohmann::json> out;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (line.empty()) continue;
    out.push_back(nlohmann::json::parse(std::string(line), nullptr,
                                        /*allow_exceptions=*/false));
  }
  return out;
}

class HandsExportTest : public TableServiceTest {
 protected:
  // Three players, five hands played, the sixth voided by the operator
  // (HE-72), the seventh in progress; pot rake on.
  void PlayTable() {
    for (const char* p : {"ana", "bob", "cal"}) Fund(p, 50'000);
    v1::PokerTableConfig c = Holdem();
    c.set_rake_mode(v1::RAKE_MODE_SETTING_POT);
    c.set_rake_bps(500);
    c.set_rake_cap_minor(100);
    ASSERT_TRUE(Create("t1", c).ok());
    ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
    ASSERT_TRUE(Sit("bob", "t1", 3, 8'000).ok());
    ASSERT_TRUE(Sit("cal", "t1", 5, 12'000).ok());
    PlayHands("t1", 5, 7);
    if (::testing::Test::HasFatalFailure()) return;
    ASSERT_EQ(View("op", "t1").hand_number(), 6);
    v1::VoidHandRequest req;
    req.set_request_id("void-6");
    req.set_table_id("t1");
    req.set_reason("test: dealer fault");
    v1::TableInfo info;
    ASSERT_TRUE(
        tables_->VoidHand(As("op", auth::Role::kOperator).get(), req, &info)
            .ok());
    ASSERT_EQ(View("op", "t1").hand_number(), 7);
    Settle();
  }
};

TEST_F(HandsExportTest, PhhHasEveryHandAndReplaysToTheLedgersStacks) {
  PlayTable();
  if (HasFatalFailure()) return;
  std::ostringstream phh;
  const audit::HandsExportResult r =
      audit::ExportTableHands(*log_, "t1", audit::ExportFormat::kPhh, phh);
  ASSERT_EQ(r.exit_code, audit::kExportOk) << r.error;
  EXPECT_EQ(r.hands_written, 6);
  EXPECT_EQ(r.hand_in_progress, 7);
  EXPECT_TRUE(r.skipped.empty());
  EXPECT_NE(phh.str().find("every player's hole cards"), std::string::npos);
  // `banca hands replay`'s library: one JSON line per hand, each replayed by
  // the engine to the finishing stacks the file states.
  const hand_history::HandsRun run = hand_history::ReplayHandText(phh.str());
  ASSERT_EQ(run.exit_code, hand_history::kHandsOk) << run.error;
  const std::vector<nlohmann::json> hands = JsonLines(run.json);
  ASSERT_EQ(hands.size(), 6u) << run.json;
  int64_t rake = 0;
  for (size_t i = 0; i < hands.size(); ++i) {
    EXPECT_EQ(hands[i]["section"], std::to_string(i + 1));
    EXPECT_EQ(hands[i]["matches_file"], true) << hands[i].dump();
    rake += hands[i]["rake"].get<int64_t>();
  }
  EXPECT_EQ(hands[5]["voided"], true);
  // The last finished hand's stacks are what the ledger holds in the seats
  // (hand 7's bets settle when it ends), and the rake is the house's.
  for (const nlohmann::json& p : hands[5]["players"]) {
    EXPECT_EQ(p["finishing_stack"].get<int64_t>(),
              Seat("t1", p["player"].get<std::string>()))
        << p.dump();
  }
  EXPECT_EQ(rake, wallet_->ledger().AccountBalance("house/rake"));
}

TEST_F(HandsExportTest, TextShowsHandIdsHoleCardsAndTheVoid) {
  PlayTable();
  if (HasFatalFailure()) return;
  std::ostringstream text;
  const audit::HandsExportResult r =
      audit::ExportTableHands(*log_, "t1", audit::ExportFormat::kText, text);
  ASSERT_EQ(r.exit_code, audit::kExportOk) << r.error;
  const std::string t = text.str();
  EXPECT_NE(t.find("every player's hole cards are shown"), std::string::npos);
  for (int h = 1; h <= 6; ++h) {
    EXPECT_NE(t.find(absl::StrCat("Hand t1.h", h, "\n")), std::string::npos)
        << h;
    EXPECT_NE(t.find(absl::StrCat("Ledger: reference HAND t1.h", h)),
              std::string::npos)
        << h;
  }
  EXPECT_EQ(t.find("Hand t1.h7"), std::string::npos);
  EXPECT_NE(t.find("Dealt to ana (seat 1): "), std::string::npos);
  EXPECT_NE(t.find("*** VOID ***"), std::string::npos);
  EXPECT_NE(t.find("*** MONEY ***"), std::string::npos);
  EXPECT_NE(t.find("hand 7 in progress (not written)"), std::string::npos);
}

TEST_F(HandsExportTest, TheCommandWritesAFileThatHandsReplayAccepts) {
  PlayTable();
  if (HasFatalFailure()) return;
  Shutdown();  // the embedded log is one process's at a time
  const std::string file = dir_ + "/t1.phhs";
  Output out = RunBanca(absl::StrCat(
      "hands export --table t1 --format phh --log=", dir_, " --out=", file));
  ASSERT_EQ(out.exit_code, 0) << out.stderr_text;
  EXPECT_NE(out.stderr_text.find("table t1: 6 hands written to"),
            std::string::npos)
      << out.stderr_text;
  out = RunBanca(absl::StrCat("hands replay ", file));
  ASSERT_EQ(out.exit_code, 0) << out.stderr_text << out.stdout_text;
  const std::vector<nlohmann::json> hands = JsonLines(out.stdout_text);
  ASSERT_EQ(hands.size(), 6u);
  for (const nlohmann::json& h : hands) EXPECT_EQ(h["matches_file"], true);
  // Text on stdout, the log named by its own directory.
  out = RunBanca(absl::StrCat(
      "hands export --table=t1 --format=text --log=", dir_, "/log"));
  ASSERT_EQ(out.exit_code, 0) << out.stderr_text;
  EXPECT_NE(out.stdout_text.find("Hand t1.h6"), std::string::npos);
}

TEST_F(HandsExportTest, BadInputGivesAPreciseMessageAndExitCode) {
  Fund("ana", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  // In process: an unknown table.
  std::ostringstream sink;
  audit::HandsExportResult r =
      audit::ExportTableHands(*log_, "nope", audit::ExportFormat::kPhh, sink);
  EXPECT_EQ(r.exit_code, audit::kExportNoTable);
  EXPECT_NE(r.error.find("no table \"nope\""), std::string::npos) << r.error;
  EXPECT_EQ(sink.str(), "");
  Shutdown();
  const std::string file = dir_ + "/never.phhs";
  Output out = RunBanca(
      absl::StrCat("hands export --table=nope --log=", dir_, " --out=", file));
  EXPECT_EQ(out.exit_code, 3);
  EXPECT_NE(out.stderr_text.find("no table \"nope\" in the log"),
            std::string::npos)
      << out.stderr_text;
  EXPECT_FALSE(std::filesystem::exists(file));  // nothing half written
  out = RunBanca(
      absl::StrCat("hands export --table=t1 --format=xml --log=", dir_));
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.stderr_text.find("--format must be phh or text, got \"xml\""),
            std::string::npos)
      << out.stderr_text;
  out = RunBanca(absl::StrCat("hands export --log=", dir_));
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(
      out.stderr_text.find("one of --table=ID or --tournament=ID is required"),
      std::string::npos);
  out = RunBanca(absl::StrCat("hands export --table=Bad_Id --log=", dir_));
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.stderr_text.find("a table id is 1-32 of [a-z0-9-]"),
            std::string::npos)
      << out.stderr_text;
  out = RunBanca(
      absl::StrCat("hands export --table=t1 --log=", dir_, "/missing"));
  EXPECT_EQ(out.exit_code, 1);
  EXPECT_NE(out.stderr_text.find("no event log at " + dir_ + "/missing"),
            std::string::npos)
      << out.stderr_text;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/missing"));
  out = RunBanca("hands export --table=t1");
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.stderr_text.find("--log=DIR|kafka://HOST:PORT or --data-dir"),
            std::string::npos)
      << out.stderr_text;
  // A live embedded log is refused, not raced.
  Start();
  out = RunBanca(absl::StrCat("hands export --table=t1 --log=", dir_));
  EXPECT_EQ(out.exit_code, 1);
  EXPECT_NE(out.stderr_text.find("is open elsewhere"), std::string::npos)
      << out.stderr_text;
}

}  // namespace
}  // namespace banca::testing
