// The banked-table service's gRPC test fixture, on the tables' harness
// (tests/harness/service_harness.h: the real wallet in the same process,
// an embedded log on disk, real gRPC on loopback; the test drives the clock
// and the timers), with helpers to create tables, bet, act, watch and read
// what the wallet posted.
#ifndef BANCA_TESTS_INTEGRATION_BANKED_TABLE_FIXTURE_H_
#define BANCA_TESTS_INTEGRATION_BANKED_TABLE_FIXTURE_H_

#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "banca/v1/banked_table.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "libs/common/status_macros.h"
#include "libs/games/roulette/bet.h"
#include "libs/games/roulette/pocket.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/tables/roulette_wire.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "services/audit/banked_audit.h"
#include "services/table/banked_table_service.h"
#include "tests/harness/service_harness.h"
#include "tests/integration/stacked_shoe.h"
#include "tests/integration/test_keys.h"

namespace banca::testing {

// One WatchTable stream read on its own thread: every view it has
// received, and the end of the stream from the client's side (the
// player's equipment going away).
class BankedWatch {
 public:
  BankedWatch(v1::BankedTableService::Stub& stub,
              std::unique_ptr<grpc::ClientContext> context,
              const std::string& table)
      : context_(std::move(context)) {
    v1::GetBankedTableRequest req;
    req.set_table_id(table);
    reader_ = stub.WatchTable(context_.get(), req);
    thread_ = std::thread([this] {
      v1::BankedTableView view;
      while (reader_->Read(&view)) {
        absl::MutexLock lock(&mu_);
        views_.push_back(view);
      }
      absl::MutexLock lock(&mu_);
      status_ = reader_->Finish();
      done_ = true;
    });
  }
  ~BankedWatch() { Cancel(); }

  // Waits up to 5 s for a view `pred` accepts; the last one seen if none.
  template <typename Pred>
  std::optional<v1::BankedTableView> WaitFor(Pred pred) {
    size_t checked = 0;
    const absl::Time deadline = absl::Now() + absl::Seconds(5);
    while (absl::Now() < deadline) {
      {
        absl::MutexLock lock(&mu_);
        for (; checked < views_.size(); ++checked) {
          if (pred(views_[checked])) return views_[checked];
        }
        if (done_) return std::nullopt;
      }
      absl::SleepFor(absl::Milliseconds(5));
    }
    return std::nullopt;
  }
  std::vector<v1::BankedTableView> views() {
    absl::MutexLock lock(&mu_);
    return views_;
  }
  // The client goes away; returns the stream's final status.
  grpc::Status Cancel() {
    if (thread_.joinable()) {
      context_->TryCancel();
      thread_.join();
    }
    absl::MutexLock lock(&mu_);
    return status_;
  }
  // The stream's status once it has ended by itself (up to 5 s).
  std::optional<grpc::Status> Ended() {
    absl::MutexLock lock(&mu_);
    mu_.AwaitWithTimeout(absl::Condition(&done_), absl::Seconds(5));
    if (!done_) return std::nullopt;
    return status_;
  }

 private:
  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<grpc::ClientReader<v1::BankedTableView>> reader_;
  std::thread thread_;
  absl::Mutex mu_;
  std::vector<v1::BankedTableView> views_ ABSL_GUARDED_BY(mu_);
  grpc::Status status_ ABSL_GUARDED_BY(mu_);
  bool done_ ABSL_GUARDED_BY(mu_) = false;
};

class BankedTableTest : public ServiceHarness {
 protected:
  BankedTableTest() : ServiceHarness(wire::kBankedTableTopics, "banked-") {}

  void TearDown() override {
    // Whatever the test did, the audit finds every stake and settlement
    // the tables logged carried out at most once, none missing among
    // those the wallet has read (banca audit verify, tools/banca).
    if (log_) {
      auto audit = audit::AuditBankedTopic(*log_);
      ASSERT_TRUE(audit.ok()) << audit.status();
      EXPECT_TRUE(audit->ok()) << audit->problems.front();
      EXPECT_GT(audit->events, 0);
    }
    Shutdown();
  }

  absl::StatusOr<grpc::Service*> StartTables() override {
    table::BankedTableServiceOptions to;
    to.verifier = TestVerifier();
    to.deck_keys = TestDeckKeys();
    to.tick_interval = absl::ZeroDuration();  // the test drives the timers
    to.poll_interval = absl::Milliseconds(1);
    to.stake_wait = stake_wait_;
    // Tables deal from the system CSPRNG unless a test stacks a shoe.
    to.random_source_for_tests = shoes_.Factory();
    ASSIGN_OR_RETURN(tables_,
                     table::BankedTableService::Start(*log_, clock_, to));
    return tables_.get();
  }
  void ConnectTables(std::shared_ptr<grpc::Channel> channel) override {
    stub_ = v1::BankedTableService::NewStub(channel);
  }
  void BeginTablesShutdown() override {
    if (tables_) tables_->BeginShutdown();
  }
  void StopTables() override {
    if (tables_) tables_->Stop();
  }
  void ReleaseTables() override { tables_.reset(); }

  grpc::Status Create(const std::string& id, v1::BankedGame game,
                      v1::RouletteTableConfig config = {}) {
    v1::CreateBankedTableRequest req;
    req.set_request_id("create-" + id);
    req.set_table_id(id);
    req.set_name("Roulette " + id);
    req.set_game(game);
    *req.mutable_roulette() = config;
    v1::BankedTableInfo info;
    return stub_->CreateTable(Operator().get(), req, &info);
  }
  grpc::Status Join(const std::string& player, const std::string& table) {
    v1::JoinBankedTableRequest req;
    req.set_request_id("join-" + player + "-" + table);
    req.set_table_id(table);
    v1::BankedTableView view;
    return stub_->Join(As(player).get(), req, &view);
  }
  v1::BankedTableView View(const std::string& player,
                           const std::string& table) {
    v1::GetBankedTableRequest req;
    req.set_table_id(table);
    v1::BankedTableView view;
    grpc::Status s = stub_->GetTableView(As(player).get(), req, &view);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return view;
  }
  static v1::RouletteBet Bet(const std::string& kind,
                             std::vector<std::string> numbers = {},
                             std::vector<int> index = {}, int count = 0) {
    v1::RouletteBet b;
    b.set_kind(kind);
    for (const std::string& n : numbers) b.add_numbers(n);
    for (int i : index) b.add_index(i);
    b.set_count(count);
    return b;
  }
  grpc::Status PlaceBet(const std::string& player, const std::string& table,
                        const v1::RouletteBet& bet, int64_t amount,
                        int64_t round = 0, const std::string& rid = "",
                        v1::BankedTableView* out = nullptr) {
    v1::PlaceBankedBetRequest req;
    req.set_request_id(rid.empty() ? absl::StrCat("bet-", ++bets_) : rid);
    req.set_table_id(table);
    req.set_round(round == 0 ? View(player, table).round() : round);
    req.set_amount_minor(amount);
    *req.mutable_roulette() = bet;
    v1::BankedTableView view;
    return stub_->PlaceBet(As(player).get(), req, out ? out : &view);
  }
  v1::BankedRoundRecord LastRound(const std::string& player,
                                  const std::string& table) {
    v1::GetBankedTableRequest req;
    req.set_table_id(table);
    v1::BankedRoundRecord rec;
    grpc::Status s = stub_->GetLastRound(As(player).get(), req, &rec);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return rec;
  }

  int64_t Bank() {
    return wallet_->ledger().AccountBalance(
        std::string(settlement::kBankAccount));
  }
  int64_t Wagers(const std::string& table) {
    return wallet_->ledger().AccountBalance(settlement::WagersAccount(table));
  }
  int64_t LedgerSum() { return wallet_->ledger().Summarize().sum; }
  // Every banked event of `kind` in the log so far.
  int CountEvents(v1::BankedTableEvent::KindCase kind) {
    int n = 0;
    const int partitions = log_->PartitionCount(wire::kBankedTopic).value_or(0);
    for (int p = 0; p < partitions; ++p) {
      auto records = log_->Read(wire::kBankedTopic, p, 0, 100'000);
      if (!records.ok()) continue;
      for (const auto& r : *records) {
        auto d = wire::DecodeBankedRecord(r);
        if (d.ok() && d->event.kind_case() == kind) ++n;
      }
    }
    return n;
  }
  // Every transaction the wallet posted for `round` of `table` (stakes,
  // settlements, refunds), in log order.
  std::vector<v1::LedgerTransaction> Posted(const std::string& table,
                                            int64_t round) {
    std::vector<v1::LedgerTransaction> out;
    const std::string ref = settlement::RoundId(table, round);
    const int partitions = log_->PartitionCount(wire::kWalletTopic).value_or(0);
    for (int p = 0; p < partitions; ++p) {
      auto records = log_->Read(wire::kWalletTopic, p, 0, 100'000);
      if (!records.ok()) continue;
      for (const auto& r : *records) {
        auto d = wire::DecodeWalletRecord(r);
        if (d.ok() && d->event.has_transaction_posted() &&
            d->event.transaction_posted().tx().reference().id() == ref) {
          out.push_back(d->event.transaction_posted().tx());
        }
      }
    }
    return out;
  }
  // The one posted transaction of `reason` on `bet_id` (a failed test and
  // an empty one when there is not exactly one).
  static v1::LedgerTransaction PostedFor(
      const std::vector<v1::LedgerTransaction>& posted,
      const std::string& bet_id, v1::PostingReason reason) {
    const v1::LedgerTransaction* found = nullptr;
    int n = 0;
    for (const v1::LedgerTransaction& tx : posted) {
      if (tx.bet_id() == bet_id && tx.reason() == reason) {
        found = &tx;
        ++n;
      }
    }
    EXPECT_EQ(n, 1) << bet_id << " " << v1::PostingReason_Name(reason);
    return found == nullptr ? v1::LedgerTransaction{} : *found;
  }
  // What `tx` posts to `account` (0 when nothing).
  static int64_t PostingTo(const v1::LedgerTransaction& tx,
                           const std::string& account) {
    int64_t sum = 0;
    for (const v1::Posting& p : tx.postings()) {
      if (p.account() == account) sum += p.amount_minor();
    }
    return sum;
  }

  // What `bet` returns on `number` by the engine's own layout (RFD-12).
  static int64_t Returned(games::roulette::WheelKind wheel,
                          const v1::RouletteBet& bet, int64_t amount,
                          const std::string& number) {
    auto request = tables::RouletteBetFromProto(wheel, bet, amount);
    EXPECT_TRUE(request.ok()) << request.status();
    auto chips = games::roulette::LayOut(wheel, *request);
    EXPECT_TRUE(chips.ok()) << chips.status();
    const games::roulette::Pocket pocket =
        *games::roulette::ParsePocket(wheel, number);
    int64_t total = 0;
    for (const games::roulette::Chip& chip : *chips)
      total += games::roulette::ChipReturn(chip, pocket);
    return total;
  }
  // Closes the window and spins (the service draws the number).
  void Spin() {
    clock_.Advance(absl::Seconds(30));
    tables_->Tick();
    Settle();
  }

  grpc::Status CreateBlackjack(const std::string& id,
                               v1::BlackjackTableConfig config) {
    v1::CreateBankedTableRequest req;
    req.set_request_id("create-" + id);
    req.set_table_id(id);
    req.set_name("Blackjack " + id);
    req.set_game(v1::BANKED_GAME_BLACKJACK);
    *req.mutable_blackjack() = config;
    v1::BankedTableInfo info;
    return stub_->CreateTable(Operator().get(), req, &info);
  }
  grpc::Status Sit(const std::string& player, const std::string& table,
                   int seat) {
    v1::JoinBankedTableRequest req;
    req.set_request_id(absl::StrCat("sit-", player, "-", table, "-", seat));
    req.set_table_id(table);
    req.set_seat(seat);
    v1::BankedTableView view;
    return stub_->Join(As(player).get(), req, &view);
  }
  grpc::Status Act(const std::string& player, const std::string& table,
                   v1::BlackjackActionType action, int64_t amount = 0,
                   int64_t round = 0) {
    v1::BankedActRequest req;
    req.set_request_id(absl::StrCat("act-", ++bets_));
    req.set_table_id(table);
    req.set_round(round == 0 ? View(player, table).round() : round);
    req.set_action(action);
    req.set_amount_minor(amount);
    v1::BankedTableView view;
    return stub_->Act(As(player).get(), req, &view);
  }
  static bool Can(const v1::BankedTableView& view,
                  v1::BlackjackActionType action) {
    for (int a : view.blackjack().legal().actions()) {
      if (a == action) return true;
    }
    return false;
  }

  grpc::Status CreateStud(const std::string& id, v1::StudTableConfig config) {
    v1::CreateBankedTableRequest req;
    req.set_request_id("create-" + id);
    req.set_table_id(id);
    req.set_name("Póquer sem descarte " + id);
    req.set_game(v1::BANKED_GAME_STUD_NO_DRAW);
    *req.mutable_stud() = config;
    v1::BankedTableInfo info;
    return stub_->CreateTable(Operator().get(), req, &info);
  }
  grpc::Status StudAct(const std::string& player, const std::string& table,
                       v1::StudActionType action, int64_t round = 0) {
    v1::BankedActRequest req;
    req.set_request_id(absl::StrCat("stud-", ++bets_));
    req.set_table_id(table);
    req.set_round(round == 0 ? View(player, table).round() : round);
    req.set_stud_action(action);
    v1::BankedTableView view;
    return stub_->Act(As(player).get(), req, &view);
  }
  // Opens a WatchTable stream as `player`.
  std::unique_ptr<BankedWatch> Watch(const std::string& player,
                                     const std::string& table) {
    return std::make_unique<BankedWatch>(*stub_, As(player), table);
  }
  // Waits (up to 5 s) until the table has recorded `player` as
  // disconnected (or connected again).
  bool WaitDisconnected(const std::string& player, const std::string& table,
                        bool disconnected = true) {
    for (int i = 0; i < 1000; ++i) {
      if (View(player, table).disconnected() == disconnected) return true;
      absl::SleepFor(absl::Milliseconds(5));
    }
    return false;
  }
  static const v1::StudSeatView* StudSeat(const v1::BankedTableView& view,
                                          int seat) {
    for (const v1::StudSeatView& s : view.stud().seats()) {
      if (s.seat() == seat) return &s;
    }
    return nullptr;
  }

  std::unique_ptr<table::BankedTableService> tables_;
  std::unique_ptr<v1::BankedTableService::Stub> stub_;
  int bets_ = 0;
  StackedShoes shoes_;
  absl::Duration stake_wait_ = absl::Seconds(10);
};

}  // namespace banca::testing

#endif  // BANCA_TESTS_INTEGRATION_BANKED_TABLE_FIXTURE_H_
