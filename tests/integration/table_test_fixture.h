// The poker table service's gRPC test fixture, on the tables' harness
// (tests/harness/service_harness.h: the table and wallet services in one
// process on loopback, an embedded log on disk, RocksDB projections, a
// manual clock for the timers), with helpers to create, seat, act, play
// and read the ledger to the cent.
#ifndef BANCA_TESTS_INTEGRATION_TABLE_TEST_FIXTURE_H_
#define BANCA_TESTS_INTEGRATION_TABLE_TEST_FIXTURE_H_

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "banca/v1/table.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/event_log.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "services/table/table_service.h"
#include "tests/harness/service_harness.h"
#include "tests/integration/test_keys.h"

namespace banca::testing {

// The tests' Hold'em table: blinds 50/100, buy-ins 5,000 to 20,000.
inline v1::PokerTableConfig Holdem() {
  v1::PokerTableConfig c;
  c.set_variant(v1::POKER_VARIANT_HOLDEM);
  c.set_small_blind_minor(50);
  c.set_big_blind_minor(100);
  c.set_buy_in_min_minor(5'000);
  c.set_buy_in_max_minor(20'000);
  return c;
}

class TableServiceTest : public ServiceHarness {
 protected:
  TableServiceTest() : ServiceHarness(wire::kPokerTableTopics, "") {}

  absl::StatusOr<grpc::Service*> StartTables() override {
    table::TableServiceOptions to;
    to.verifier = TestVerifier();
    to.deck_keys = TestDeckKeys();
    to.tick_interval = absl::ZeroDuration();  // the test drives the timers
    to.poll_interval = outcome_poll_interval_;
    to.sit_wait = sit_wait_;
    ASSIGN_OR_RETURN(table_,
                     table::TableService::Start(TableLog(), clock_, to));
    return table_.get();
  }
  void ConnectTables(std::shared_ptr<grpc::Channel> channel) override {
    tables_ = v1::TableService::NewStub(channel);
  }
  void StopTables() override {
    if (table_) table_->Stop();
  }
  void ReleaseTables() override { table_.reset(); }

  grpc::Status Create(const std::string& id, v1::PokerTableConfig config) {
    v1::CreateTableRequest req;
    req.set_request_id("create-" + id);
    req.set_table_id(id);
    req.set_name("Table " + id);
    *req.mutable_config() = config;
    v1::TableInfo info;
    return tables_->CreateTable(Operator().get(), req, &info);
  }
  grpc::Status Sit(const std::string& player, const std::string& table,
                   int seat, int64_t buy_in, v1::SeatResponse* out = nullptr,
                   const std::string& rid = "") {
    v1::SitRequest req;
    req.set_request_id(rid.empty() ? "sit-" + player : rid);
    req.set_table_id(table);
    req.set_seat(seat);
    req.set_buy_in_minor(buy_in);
    v1::SeatResponse resp;
    return tables_->Sit(As(player).get(), req, out ? out : &resp);
  }
  v1::TableView View(const std::string& player, const std::string& table) {
    v1::WatchTableRequest req;
    req.set_table_id(table);
    v1::TableView view;
    EXPECT_TRUE(tables_->GetTableView(As(player).get(), req, &view).ok());
    return view;
  }
  grpc::Status Act(const std::string& player, const std::string& table,
                   v1::PokerActionType action, int64_t amount = 0,
                   v1::TableView* out = nullptr) {
    v1::TableView before = View(player, table);
    v1::ActRequest req;
    req.set_request_id(absl::StrCat("act-", player, "-", before.hand_number(),
                                    "-", before.version()));
    req.set_table_id(table);
    req.set_hand_number(before.hand_number());
    req.set_action(action);
    req.set_amount_minor(amount);
    v1::TableView resp;
    return tables_->Act(As(player).get(), req, out ? out : &resp);
  }
  // Ana and Bob, funded with 50,000, at a fresh Hold'em table with 10,000
  // each: the first hand is dealt.
  void TwoAtTable(const std::string& table) {
    Fund("ana", 50'000);
    Fund("bob", 50'000);
    ASSERT_TRUE(Create(table, Holdem()).ok());
    ASSERT_TRUE(Sit("ana", table, 1, 10'000).ok());
    ASSERT_TRUE(Sit("bob", table, 2, 10'000).ok());
  }
  // Who sits at `seat` in `v` ("" for nobody).
  static std::string PlayerAt(const v1::TableView& v, int seat) {
    for (const v1::SeatState& s : v.seats()) {
      if (s.seat() == seat) return s.player_id();
    }
    return "";
  }
  int64_t Seat(const std::string& table, const std::string& player) {
    return wallet_->ledger().AccountBalance(
        settlement::SeatAccount(table, player));
  }
  // Every event on the table topic, decoded, partition by partition.
  std::vector<v1::TableEvent> LoggedTableEvents() {
    std::vector<v1::TableEvent> out;
    const int partitions = log_->PartitionCount(wire::kTableTopic).value_or(0);
    for (int p = 0; p < partitions; ++p) {
      auto records = log_->Read(wire::kTableTopic, p, 0, 100'000);
      EXPECT_TRUE(records.ok()) << records.status();
      if (!records.ok()) continue;
      for (const eventlog::StoredRecord& r : *records) {
        auto decoded = wire::DecodeTableRecord(r);
        EXPECT_TRUE(decoded.ok()) << decoded.status();
        if (decoded.ok()) out.push_back(std::move(decoded->event));
      }
    }
    return out;
  }

  // Plays on until `hands` hands have finished: whoever is to act picks a
  // random legal action from their own view (calls and checks mostly, so
  // that hands reach the showdown). Without `all_in` nobody pushes, so
  // nobody busts and the hands go on.
  void PlayHands(const std::string& table, int64_t hands, uint64_t seed,
                 bool all_in = true) {
    std::mt19937_64 rng(seed);
    for (int step = 0; step < 2000; ++step) {
      v1::TableView any = View("op", table);
      if (any.hand_number() > hands ||
          (any.hand_number() == hands && !any.in_hand())) {
        return;
      }
      ASSERT_TRUE(any.in_hand()) << "no hand dealt";
      std::string player;
      for (const v1::SeatState& s : any.seats()) {
        if (s.seat() == any.to_act()) player = s.player_id();
      }
      ASSERT_FALSE(player.empty());
      const v1::TableView mine = View(player, table);
      const v1::LegalActionsView& legal = mine.legal();
      ASSERT_GT(legal.actions_size(), 0);
      auto can = [&](v1::PokerActionType t) {
        for (int a : legal.actions()) {
          if (a == t) return true;
        }
        return false;
      };
      const int roll = static_cast<int>(rng() % 100);
      v1::PokerActionType action = can(v1::POKER_ACTION_TYPE_CHECK)
                                       ? v1::POKER_ACTION_TYPE_CHECK
                                       : v1::POKER_ACTION_TYPE_CALL;
      int64_t amount = 0;
      if (roll < 10 && can(v1::POKER_ACTION_TYPE_FOLD)) {
        action = v1::POKER_ACTION_TYPE_FOLD;
      } else if (roll < 25 && (can(v1::POKER_ACTION_TYPE_BET) ||
                               can(v1::POKER_ACTION_TYPE_RAISE))) {
        action = can(v1::POKER_ACTION_TYPE_BET) ? v1::POKER_ACTION_TYPE_BET
                                                : v1::POKER_ACTION_TYPE_RAISE;
        amount = legal.min_to_minor();
      } else if (roll < 28 && all_in && can(v1::POKER_ACTION_TYPE_ALL_IN)) {
        action = v1::POKER_ACTION_TYPE_ALL_IN;
      } else if (!can(action)) {
        action = static_cast<v1::PokerActionType>(legal.actions(0));
      }
      grpc::Status s = Act(player, table, action, amount);
      ASSERT_TRUE(s.ok()) << player << " " << action << " " << amount << ": "
                          << s.error_message();
    }
    FAIL() << "the hands did not finish";
  }

  // Hooks for the fault and saga tests: the log the table service writes
  // to (a wrapper around log_), and the pace of the two saga readers (zero
  // turns one off; the test then polls it; wallet_requests_interval_ is the
  // wallet's).
  virtual eventlog::EventLog& TableLog() { return *log_; }
  absl::Duration outcome_poll_interval_ = absl::Milliseconds(1);
  absl::Duration sit_wait_ = absl::Seconds(10);

  std::unique_ptr<table::TableService> table_;
  std::unique_ptr<v1::TableService::Stub> tables_;
};

}  // namespace banca::testing

#endif  // BANCA_TESTS_INTEGRATION_TABLE_TEST_FIXTURE_H_
