// The histories of the reporting service (docs/reporting.md, "Histories",
// "Sessions"): real tables (poker, roulette) beside the wallet and the
// reporting service, over gRPC on loopback, on the embedded log and on
// Kafka; who sees which cards, RFD-27's last three spins, HE-67 and
// RFD-29 sessions, and the attacker's requests.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "banca/v1/banked_table.grpc.pb.h"
#include "banca/v1/reporting.grpc.pb.h"
#include "banca/v1/table.grpc.pb.h"
#include "banca/v1/tournament.grpc.pb.h"
#include "libs/projection/projector.h"
#include "libs/projection/reporting_projection.h"
#include "libs/projection/reporting_rebuild.h"
#include "services/reporting/reporting_service.h"
#include "services/table/banked_table_service.h"
#include "services/table/table_service.h"
#include "services/tournament/tournament_service.h"
#include "tests/harness/service_harness.h"
#include "tests/integration/test_keys.h"

namespace banca::testing {
namespace {

using auth::Role;

// The reporting service on a server of its own, beside the harness's.
class ReportingSide {
 public:
  absl::Status Start(eventlog::EventLog& log, const Clock& clock,
                     const std::string& dir) {
    reporting::ReportingServiceOptions o;
    o.projection_dir = dir + "/projections/reporting";
    o.verifier = TestVerifier();
    ASSIGN_OR_RETURN(service_,
                     reporting::ReportingService::Start(log, clock, o));
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    if (server_ == nullptr) return absl::InternalError("no reporting server");
    stub_ = v1::ReportingService::NewStub(grpc::CreateChannel(
        absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials()));
    return absl::OkStatus();
  }
  void Stop() {
    if (server_) server_->Shutdown();
    if (service_) {
      EXPECT_TRUE(service_->Stop().ok());
    }
    server_.reset();
    service_.reset();
  }
  v1::ReportingService::Stub& stub() { return *stub_; }

 private:
  std::unique_ptr<reporting::ReportingService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::ReportingService::Stub> stub_;
};

// The fixtures' common part: the harness (wallet, log, the tables under
// test, which each fixture starts) with the reporting service beside it,
// and what the tests ask it.
class ReportingFixture : public BackendHarness {
 protected:
  using BackendHarness::BackendHarness;

  std::unique_ptr<grpc::ClientContext> Ctx(const std::string& who, Role role) {
    return As(who, role);
  }
  v1::ReportingService::Stub& Reporting() { return reporting_.stub(); }

  // On the embedded log: the projections rebuilt from offset 0 (banca
  // reporting rebuild, the service stopped) hold what the live ones do.
  void ExpectTheRebuildEqualsTheLiveProjections() {
    if (GetParam() != Backend::kEmbedded) return;
    v1::ProjectionStatus status;
    ASSERT_TRUE(Reporting()
                    .GetProjectionStatus(As("aud", Role::kAuditor).get(),
                                         v1::ProjectionStatusRequest(), &status)
                    .ok());
    Shutdown();
    auto log = eventlog::OpenLogBackend("embedded", dir_);
    ASSERT_TRUE(log.ok()) << log.status();
    absl::StatusOr<projection::RebuildResult> rebuilt =
        projection::RebuildReporting(**log, dir_ + "/projections/reporting",
                                     dir_ + "/rebuild");
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
    EXPECT_TRUE(rebuilt->equal());
    EXPECT_EQ(rebuilt->rebuilt_hash, status.state_hash());
    log->reset();
    Start();  // for TearDown
  }

  grpc::Status List(const std::string& who, Role role,
                    const v1::HistoriesRequest& r, v1::HistoriesPage* page) {
    return Reporting().ListHistories(Ctx(who, role).get(), r, page);
  }
  grpc::Status Get(const std::string& who, Role role, v1::ReferenceKind kind,
                   const std::string& id, v1::GameHistory* h) {
    v1::HistoryRequest r;
    r.mutable_reference()->set_kind(kind);
    r.mutable_reference()->set_id(id);
    return Reporting().GetHistory(Ctx(who, role).get(), r, h);
  }
  grpc::Status Sessions(const std::string& who, Role role,
                        const v1::SessionsRequest& r, v1::SessionsPage* page) {
    return Reporting().ListSessions(Ctx(who, role).get(), r, page);
  }
  static v1::HistoriesRequest OfPlayer(const std::string& player,
                                       const std::string& game = "",
                                       int size = 0) {
    v1::HistoriesRequest r;
    r.set_player_id(player);
    r.set_game(game);
    r.set_page_size(size);
    return r;
  }
  static v1::HistoriesRequest OfTable(const std::string& table) {
    v1::HistoriesRequest r;
    r.set_table_id(table);
    return r;
  }

  ReportingSide reporting_;
};

// --- Poker ------------------------------------------------------------------

class PokerHistoryTest : public ReportingFixture {
 protected:
  PokerHistoryTest() : ReportingFixture(wire::kPokerTableTopics, "hist-pk-") {}

  absl::StatusOr<grpc::Service*> StartTables() override {
    table::TableServiceOptions to;
    to.verifier = TestVerifier();
    to.deck_keys = TestDeckKeys();
    to.tick_interval = absl::ZeroDuration();
    to.poll_interval = absl::Milliseconds(1);
    ASSIGN_OR_RETURN(table_, table::TableService::Start(*log_, clock_, to));
    RETURN_IF_ERROR(reporting_.Start(*log_, clock_, dir_));
    return table_.get();
  }
  void ConnectTables(std::shared_ptr<grpc::Channel> channel) override {
    tables_ = v1::TableService::NewStub(channel);
  }
  void StopTables() override {
    reporting_.Stop();
    if (table_) table_->Stop();
  }
  void ReleaseTables() override { table_.reset(); }

  v1::TableView View(const std::string& player) {
    v1::WatchTableRequest req;
    req.set_table_id("pk");
    v1::TableView view;
    EXPECT_TRUE(tables_->GetTableView(As(player).get(), req, &view).ok());
    return view;
  }
  void Sit(const std::string& player, int seat) {
    v1::SitRequest req;
    req.set_request_id("sit-" + player);
    req.set_table_id("pk");
    req.set_seat(seat);
    req.set_buy_in_minor(10'000);
    v1::SeatResponse resp;
    grpc::Status s = tables_->Sit(As(player).get(), req, &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  void Leave(const std::string& player) {
    v1::LeaveRequest req;
    req.set_request_id("leave-" + player);
    req.set_table_id("pk");
    v1::LeaveResponse resp;
    grpc::Status s = tables_->Leave(As(player).get(), req, &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  // Plays hand `hand` to its end: the first `folds` to act fold, the rest
  // check or call. Returns who folded.
  std::vector<std::string> PlayOut(int64_t hand, int folds) {
    std::vector<std::string> folded;
    for (int step = 0; step < 200; ++step) {
      const v1::TableView any = View("op");
      if (any.hand_number() != hand || !any.in_hand()) return folded;
      std::string player;
      for (const v1::SeatState& s : any.seats()) {
        if (s.seat() == any.to_act()) player = s.player_id();
      }
      const v1::TableView mine = View(player);
      v1::PokerActionType action = v1::POKER_ACTION_TYPE_CALL;
      for (int a : mine.legal().actions()) {
        if (a == v1::POKER_ACTION_TYPE_CHECK)
          action = v1::POKER_ACTION_TYPE_CHECK;
      }
      if (static_cast<int>(folded.size()) < folds) {
        action = v1::POKER_ACTION_TYPE_FOLD;
        folded.push_back(player);
      }
      v1::ActRequest req;
      req.set_request_id(absl::StrCat("act-", hand, "-", step));
      req.set_table_id("pk");
      req.set_hand_number(hand);
      req.set_action(action);
      v1::TableView resp;
      grpc::Status s = tables_->Act(As(player).get(), req, &resp);
      EXPECT_TRUE(s.ok()) << s.error_message();
    }
    ADD_FAILURE() << "hand " << hand << " did not end";
    return folded;
  }
  // ana, bob, cy at "pk": hand 1 (ana and bob) ends by a fold; hand 2
  // (all three) has one fold and goes to showdown; hand 3 is in play.
  void ThreeHands() {
    for (const char* p : {"ana", "bob", "cy", "dan"}) Fund(p, 50'000);
    v1::CreateTableRequest create;
    create.set_request_id("create-pk");
    create.set_table_id("pk");
    create.set_name("Table pk");
    v1::PokerTableConfig& c = *create.mutable_config();
    c.set_variant(v1::POKER_VARIANT_HOLDEM);
    c.set_small_blind_minor(50);
    c.set_big_blind_minor(100);
    c.set_buy_in_min_minor(5'000);
    c.set_buy_in_max_minor(20'000);
    v1::TableInfo info;
    ASSERT_TRUE(tables_->CreateTable(Operator().get(), create, &info).ok());
    Sit("ana", 1);
    Sit("bob", 2);
    Sit("cy", 3);
    ASSERT_EQ(View("op").hand_number(), 1);
    clock_.Advance(absl::Seconds(1));  // hand 2 starts a second later
    PlayOut(1, 1);
    ASSERT_EQ(View("op").hand_number(), 2);
    folded_ = PlayOut(2, 1);
    ASSERT_EQ(folded_.size(), 1u);
    ASSERT_EQ(View("op").hand_number(), 3);
    Settle();
  }

  std::unique_ptr<table::TableService> table_;
  std::unique_ptr<v1::TableService::Stub> tables_;
  std::vector<std::string> folded_;
};

const v1::PokerSeatHistory* SeatOf(const v1::GameHistory& h,
                                   const std::string& player) {
  for (const v1::PokerSeatHistory& s : h.poker().seats()) {
    if (s.player_id() == player) return &s;
  }
  return nullptr;
}

TEST_P(PokerHistoryTest, AHandsHistoryShowsOnlyTheCardsTheCallerMaySee) {
  ThreeHands();
  const std::string folder = folded_[0];
  v1::GameHistory full;
  ASSERT_TRUE(
      Get("aud", Role::kAuditor, v1::REFERENCE_KIND_HAND, "pk.h2", &full).ok());
  ASSERT_EQ(full.poker().seats_size(), 3);
  EXPECT_EQ(full.summary().players_size(), 3);
  EXPECT_EQ(full.poker().board_size(), 5);  // to showdown
  EXPECT_FALSE(full.poker().actions().empty());
  EXPECT_FALSE(full.poker().pots().empty());
  EXPECT_EQ(full.currency(), "EUR");
  std::vector<std::string> showdown;
  for (const v1::PokerSeatHistory& s : full.poker().seats()) {
    EXPECT_EQ(s.hole_cards_size(), 2) << s.player_id();  // staff: all
    EXPECT_FALSE(s.cards_hidden());
    if (s.player_id() == folder) {
      EXPECT_TRUE(s.folded());
      EXPECT_FALSE(s.shown());
    } else {
      EXPECT_TRUE(s.shown()) << s.player_id();
      showdown.push_back(s.player_id());
    }
  }
  ASSERT_EQ(showdown.size(), 2u);
  const std::string folder_cards =
      absl::StrJoin(SeatOf(full, folder)->hole_cards(), "");
  EXPECT_NE(full.poker().phh().find("_banca_deck"), std::string::npos);
  EXPECT_NE(full.poker().phh().find(folder_cards), std::string::npos);
  EXPECT_NE(full.poker().phh().find("currency = \"EUR\""), std::string::npos);
  // A showdown player: their own and the other shown hand, not the fold.
  v1::GameHistory mine;
  ASSERT_TRUE(
      Get(showdown[0], Role::kPlayer, v1::REFERENCE_KIND_HAND, "pk.h2", &mine)
          .ok());
  EXPECT_EQ(SeatOf(mine, showdown[0])->hole_cards_size(), 2);
  EXPECT_EQ(SeatOf(mine, showdown[1])->hole_cards_size(), 2);
  EXPECT_TRUE(SeatOf(mine, folder)->hole_cards().empty());
  EXPECT_TRUE(SeatOf(mine, folder)->cards_hidden());
  EXPECT_EQ(mine.poker().phh().find(folder_cards), std::string::npos);
  EXPECT_EQ(mine.poker().phh().find("_banca_deck"), std::string::npos);
  EXPECT_NE(mine.poker().phh().find("????"), std::string::npos);
  // The folder sees their own cards; finance sees only the shown ones.
  v1::GameHistory theirs;
  ASSERT_TRUE(
      Get(folder, Role::kPlayer, v1::REFERENCE_KIND_HAND, "pk.h2", &theirs)
          .ok());
  EXPECT_EQ(SeatOf(theirs, folder)->hole_cards_size(), 2);
  v1::GameHistory fin;
  ASSERT_TRUE(
      Get("fin", Role::kFinance, v1::REFERENCE_KIND_HAND, "pk.h2", &fin).ok());
  EXPECT_TRUE(SeatOf(fin, folder)->cards_hidden());
  EXPECT_EQ(SeatOf(fin, showdown[0])->hole_cards_size(), 2);
  EXPECT_EQ(fin.poker().phh().find(folder_cards), std::string::npos);
  // Hand 3 is in play: no history, not listed.
  v1::GameHistory in_play;
  EXPECT_EQ(
      Get("aud", Role::kAuditor, v1::REFERENCE_KIND_HAND, "pk.h3", &in_play)
          .error_code(),
      grpc::NOT_FOUND);
  v1::HistoriesPage table;
  ASSERT_TRUE(List("op", Role::kOperator, OfTable("pk"), &table).ok());
  ASSERT_EQ(table.histories_size(), 2);
  EXPECT_EQ(table.histories(0).reference().id(), "pk.h2");
  EXPECT_EQ(table.histories(1).reference().id(), "pk.h1");
}

TEST_P(PokerHistoryTest, APlayerRecallsTheirHandsAndSessions_HE_67) {
  ThreeHands();
  v1::HistoriesPage page;
  ASSERT_TRUE(List("cy", Role::kPlayer, OfPlayer("cy"), &page).ok());
  ASSERT_EQ(page.histories_size(), 1);  // cy was dealt in hand 2 only
  EXPECT_EQ(page.histories(0).reference().id(), "pk.h2");
  EXPECT_EQ(page.histories(0).game(), "poker");
  ASSERT_TRUE(List("ana", Role::kPlayer, OfPlayer("ana", "poker"), &page).ok());
  EXPECT_EQ(page.histories_size(), 2);
  // HE-67: cy leaves (after hand 3); the session's totals.
  Leave("cy");
  PlayOut(3, 0);
  Settle();
  v1::SessionsRequest r;
  r.set_player_id("cy");
  v1::SessionsPage sessions;
  ASSERT_TRUE(Sessions("cy", Role::kPlayer, r, &sessions).ok());
  ASSERT_EQ(sessions.sessions_size(), 1);
  const v1::PlayerSession& s = sessions.sessions(0);
  EXPECT_EQ(s.game(), "poker");
  EXPECT_EQ(s.table_id(), "pk");
  EXPECT_EQ(s.bought_in_minor(), 10'000);
  EXPECT_GE(s.rounds(), 2);
  EXPECT_EQ(s.net_minor(), s.won_minor() - s.bet_minor());
  EXPECT_EQ(s.net_minor(), Cash("cy") - 50'000);
  EXPECT_LE(s.started_micros(), s.ended_micros());
  EXPECT_EQ(Sessions("ana", Role::kPlayer, r, &sessions).error_code(),
            grpc::PERMISSION_DENIED);
}

TEST_P(PokerHistoryTest, AttackersGetPreciseErrors) {
  ThreeHands();
  v1::HistoriesPage page;
  v1::GameHistory h;
  grpc::ClientContext none;
  EXPECT_EQ(
      Reporting().ListHistories(&none, OfPlayer("ana"), &page).error_code(),
      grpc::UNAUTHENTICATED);
  // Another player's games, hands and table listings.
  EXPECT_EQ(List("bob", Role::kPlayer, OfPlayer("ana"), &page).error_code(),
            grpc::PERMISSION_DENIED);
  EXPECT_EQ(List("ana", Role::kPlayer, OfTable("pk"), &page).error_code(),
            grpc::PERMISSION_DENIED);
  EXPECT_EQ(Get("dan", Role::kPlayer, v1::REFERENCE_KIND_HAND, "pk.h2", &h)
                .error_code(),
            grpc::PERMISSION_DENIED);
  for (Role role : {Role::kService, Role::kGateway}) {
    EXPECT_EQ(List("svc", role, OfPlayer("ana"), &page).error_code(),
              grpc::PERMISSION_DENIED);
    EXPECT_EQ(
        Get("svc", role, v1::REFERENCE_KIND_HAND, "pk.h2", &h).error_code(),
        grpc::PERMISSION_DENIED);
  }
  // Unknown, malformed, reversed, oversize.
  EXPECT_EQ(List("op", Role::kOperator, OfPlayer("nobody"), &page).error_code(),
            grpc::NOT_FOUND);
  EXPECT_EQ(List("op", Role::kOperator, OfTable("nope"), &page).error_code(),
            grpc::NOT_FOUND);
  EXPECT_EQ(Get("op", Role::kOperator, v1::REFERENCE_KIND_HAND, "pk.h99", &h)
                .error_code(),
            grpc::NOT_FOUND);
  EXPECT_EQ(Get("op", Role::kOperator, v1::REFERENCE_KIND_HAND, "../x", &h)
                .error_code(),
            grpc::INVALID_ARGUMENT);
  EXPECT_EQ(Get("op", Role::kOperator, v1::REFERENCE_KIND_TABLE, "pk", &h)
                .error_code(),
            grpc::INVALID_ARGUMENT);
  EXPECT_EQ(Get("op", Role::kOperator, v1::REFERENCE_KIND_HAND,
                std::string(64, 'a') + "/../pk.h2", &h)
                .error_code(),
            grpc::INVALID_ARGUMENT);
  v1::HistoriesRequest bad = OfPlayer("ana");
  bad.set_from_micros(2);
  bad.set_to_micros(1);
  EXPECT_EQ(List("op", Role::kOperator, bad, &page).error_code(),
            grpc::INVALID_ARGUMENT);
  bad = OfPlayer("ana", "", 101);
  EXPECT_EQ(List("op", Role::kOperator, bad, &page).error_code(),
            grpc::INVALID_ARGUMENT);
  bad = OfPlayer("ana");
  bad.set_table_id("pk");
  EXPECT_EQ(List("op", Role::kOperator, bad, &page).error_code(),
            grpc::INVALID_ARGUMENT);
  bad = OfPlayer("Ana/../bob");
  EXPECT_EQ(List("op", Role::kOperator, bad, &page).error_code(),
            grpc::INVALID_ARGUMENT);
  // Page tokens: forged, or taken to another query.
  ASSERT_TRUE(List("ana", Role::kPlayer, OfPlayer("ana", "", 1), &page).ok());
  ASSERT_EQ(page.histories_size(), 1);
  ASSERT_FALSE(page.next_page_token().empty());
  v1::HistoriesRequest next = OfPlayer("ana", "", 1);
  next.set_page_token(page.next_page_token());
  v1::HistoriesPage second;
  ASSERT_TRUE(List("ana", Role::kPlayer, next, &second).ok());
  ASSERT_EQ(second.histories_size(), 1);
  EXPECT_EQ(second.histories(0).reference().id(), "pk.h1");
  v1::HistoriesRequest moved = OfPlayer("bob", "", 1);
  moved.set_page_token(page.next_page_token());
  EXPECT_EQ(List("op", Role::kOperator, moved, &second).error_code(),
            grpc::INVALID_ARGUMENT);
  moved = OfPlayer("ana", "poker", 1);
  moved.set_page_token(page.next_page_token());
  EXPECT_EQ(List("ana", Role::kPlayer, moved, &second).error_code(),
            grpc::INVALID_ARGUMENT);
  moved = OfPlayer("ana", "", 1);
  moved.set_page_token("aGlzdC9wbGF5ZXIvYW5h");
  EXPECT_EQ(List("ana", Role::kPlayer, moved, &second).error_code(),
            grpc::INVALID_ARGUMENT);
  v1::SessionsRequest sessions;
  sessions.set_player_id("ana");
  sessions.set_page_token(page.next_page_token());
  v1::SessionsPage sp;
  EXPECT_EQ(Sessions("ana", Role::kPlayer, sessions, &sp).error_code(),
            grpc::INVALID_ARGUMENT);
  // Sessions: the same checks.
  sessions.clear_page_token();
  EXPECT_EQ(Sessions("bob", Role::kPlayer, sessions, &sp).error_code(),
            grpc::PERMISSION_DENIED);
  EXPECT_EQ(Sessions("svc", Role::kService, sessions, &sp).error_code(),
            grpc::PERMISSION_DENIED);
  grpc::ClientContext anonymous;
  EXPECT_EQ(Reporting().ListSessions(&anonymous, sessions, &sp).error_code(),
            grpc::UNAUTHENTICATED);
  v1::SessionsRequest reversed = sessions;
  reversed.set_from_micros(5);
  reversed.set_to_micros(4);
  EXPECT_EQ(Sessions("ana", Role::kPlayer, reversed, &sp).error_code(),
            grpc::INVALID_ARGUMENT);
  v1::SessionsRequest oversize = sessions;
  oversize.set_page_size(101);
  EXPECT_EQ(Sessions("ana", Role::kPlayer, oversize, &sp).error_code(),
            grpc::INVALID_ARGUMENT);
  v1::SessionsRequest nobody = sessions;
  nobody.set_player_id("nobody");
  EXPECT_EQ(Sessions("fin", Role::kFinance, nobody, &sp).error_code(),
            grpc::NOT_FOUND);
  // Every game by time: finance and staff, not a player.
  v1::HistoriesRequest all;
  EXPECT_EQ(List("ana", Role::kPlayer, all, &page).error_code(),
            grpc::PERMISSION_DENIED);
  ASSERT_TRUE(List("fin", Role::kFinance, all, &page).ok());
  EXPECT_EQ(page.histories_size(), 2);
}

TEST_P(PokerHistoryTest, ARangeOfStartTimesAndOneGame) {
  ThreeHands();
  v1::GameHistory h2;
  ASSERT_TRUE(
      Get("op", Role::kOperator, v1::REFERENCE_KIND_HAND, "pk.h2", &h2).ok());
  const int64_t second = h2.summary().started_micros();
  v1::HistoriesRequest from = OfPlayer("ana");
  from.set_from_micros(second);
  v1::HistoriesPage page;
  ASSERT_TRUE(List("ana", Role::kPlayer, from, &page).ok());
  ASSERT_EQ(page.histories_size(), 1);
  EXPECT_EQ(page.histories(0).reference().id(), "pk.h2");
  v1::HistoriesRequest before = OfTable("pk");
  before.set_to_micros(second);  // [0, second): hand 1 only
  ASSERT_TRUE(List("aud", Role::kAuditor, before, &page).ok());
  ASSERT_EQ(page.histories_size(), 1);
  EXPECT_EQ(page.histories(0).reference().id(), "pk.h1");
  EXPECT_LT(page.histories(0).started_micros(), second);
  v1::HistoriesRequest other_game = OfTable("pk");
  other_game.set_game("blackjack");
  ASSERT_TRUE(List("aud", Role::kAuditor, other_game, &page).ok());
  EXPECT_EQ(page.histories_size(), 0);
  EXPECT_TRUE(page.next_page_token().empty());
}

TEST_P(PokerHistoryTest, TheHistoriesRebuildToTheSameHashAfterARestart) {
  ThreeHands();
  v1::GameHistory before;
  ASSERT_TRUE(
      Get("aud", Role::kAuditor, v1::REFERENCE_KIND_HAND, "pk.h2", &before)
          .ok());
  // A restart resumes past offset 0: memory is rebuilt from the log and
  // the hand in play (3) ends into the same store.
  Restart();
  v1::GameHistory after;
  ASSERT_TRUE(
      Get("aud", Role::kAuditor, v1::REFERENCE_KIND_HAND, "pk.h2", &after)
          .ok());
  EXPECT_EQ(after.SerializeAsString(), before.SerializeAsString());
  PlayOut(3, 1);
  Settle();
  v1::GameHistory third;
  ASSERT_TRUE(
      Get("aud", Role::kAuditor, v1::REFERENCE_KIND_HAND, "pk.h3", &third)
          .ok());
  EXPECT_EQ(third.poker().seats_size(), 3);
  ExpectTheRebuildEqualsTheLiveProjections();
}

// A projector that fails once, at its `at`-th record, as a log read or a
// store write may fail mid-pass.
class FailOnce : public projection::Projector {
 public:
  FailOnce(projection::Projector& inner, int at) : inner_(inner), at_(at) {}
  std::vector<std::string> Topics() const override { return inner_.Topics(); }
  absl::Status Apply(const eventlog::StoredRecord& record,
                     projection::Txn& txn) override {
    if (++calls_ == at_) return absl::UnavailableError("injected");
    return inner_.Apply(record, txn);
  }

 private:
  projection::Projector& inner_;
  const int at_;
  int calls_ = 0;
};

// A pass that fails after its memory moved past what it committed, then
// goes on: the histories rebuild memory from the log and end as a clean
// pass does, byte for byte.
TEST_P(PokerHistoryTest, APassThatFailsMidwayEndsAsACleanOne) {
  if (GetParam() != Backend::kEmbedded) GTEST_SKIP() << "embedded log only";
  ThreeHands();
  PlayOut(3, 1);
  Settle();
  Shutdown();
  auto log = eventlog::OpenLogBackend("embedded", dir_);
  ASSERT_TRUE(log.ok()) << log.status();
  auto hash = [&](const std::string& dir,
                  int fail_at) -> absl::StatusOr<std::string> {
    ASSIGN_OR_RETURN(auto store, projection::ProjectionStore::Open(dir));
    projection::ReportingProjector projector(log->get());
    FailOnce failing(projector, fail_at);
    projection::CatchUpOptions options;
    options.batch_records = 5;  // commits every five records
    absl::StatusOr<int64_t> first =
        projection::CatchUp(**log, *store, failing, options);
    if (fail_at == 0) {
      RETURN_IF_ERROR(first.status());
      return store->StateHash();
    }
    if (first.ok()) {
      return absl::InternalError("the injected failure did not happen");
    }
    ASSIGN_OR_RETURN(int64_t applied,
                     projection::CatchUp(**log, *store, failing, options));
    if (applied == 0) return absl::InternalError("nothing applied");
    return store->StateHash();
  };
  absl::StatusOr<std::string> clean = hash(dir_ + "/clean", 0);
  ASSERT_TRUE(clean.ok()) << clean.status();
  for (int at : {13, 27, 41}) {
    absl::StatusOr<std::string> failed =
        hash(absl::StrCat(dir_, "/failed-", at), at);
    ASSERT_TRUE(failed.ok()) << failed.status();
    EXPECT_EQ(*failed, *clean) << "failing at record " << at;
  }
  log->reset();
  Start();  // for TearDown
}

INSTANTIATE_TEST_SUITE_P(Backends, PokerHistoryTest,
                         ::testing::Values(Backend::kEmbedded, Backend::kKafka),
                         BackendName);

// --- Roulette ---------------------------------------------------------------

class BankedHistoryTest : public ReportingFixture {
 protected:
  BankedHistoryTest()
      : ReportingFixture(wire::kBankedTableTopics, "hist-bk-") {}

  absl::StatusOr<grpc::Service*> StartTables() override {
    table::BankedTableServiceOptions to;
    to.verifier = TestVerifier();
    to.deck_keys = TestDeckKeys();
    to.tick_interval = absl::ZeroDuration();
    to.poll_interval = absl::Milliseconds(1);
    ASSIGN_OR_RETURN(tables_,
                     table::BankedTableService::Start(*log_, clock_, to));
    RETURN_IF_ERROR(reporting_.Start(*log_, clock_, dir_));
    return tables_.get();
  }
  void ConnectTables(std::shared_ptr<grpc::Channel> channel) override {
    stub_ = v1::BankedTableService::NewStub(channel);
  }
  void BeginTablesShutdown() override {
    if (tables_) tables_->BeginShutdown();
  }
  void StopTables() override {
    reporting_.Stop();
    if (tables_) tables_->Stop();
  }
  void ReleaseTables() override { tables_.reset(); }

  int64_t Round(const std::string& player) {
    v1::GetBankedTableRequest req;
    req.set_table_id("wheel");
    v1::BankedTableView view;
    EXPECT_TRUE(stub_->GetTableView(As(player).get(), req, &view).ok());
    return view.round();
  }
  void Bet(const std::string& player, const std::string& kind, int64_t amount) {
    v1::PlaceBankedBetRequest req;
    req.set_request_id(absl::StrCat("bet-", ++bets_));
    req.set_table_id("wheel");
    req.set_round(Round(player));
    req.set_amount_minor(amount);
    req.mutable_roulette()->set_kind(kind);
    v1::BankedTableView view;
    grpc::Status s = stub_->PlaceBet(As(player).get(), req, &view);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  void Spin() {
    clock_.Advance(absl::Seconds(30));
    tables_->Tick();
    Settle();
  }

  // A one-seat table of `game` with `player` seated.
  void OneSeat(const std::string& table, v1::BankedGame game,
               const std::string& player) {
    v1::CreateBankedTableRequest create;
    create.set_request_id("create-" + table);
    create.set_table_id(table);
    create.set_name(table);
    create.set_game(game);
    create.mutable_blackjack()->set_seats(1);
    create.mutable_stud()->set_seats(1);
    if (game == v1::BANKED_GAME_BLACKJACK) create.clear_stud();
    if (game == v1::BANKED_GAME_STUD_NO_DRAW) create.clear_blackjack();
    v1::BankedTableInfo info;
    grpc::Status s = stub_->CreateTable(Operator().get(), create, &info);
    ASSERT_TRUE(s.ok()) << s.error_message();
    v1::JoinBankedTableRequest join;
    join.set_request_id(absl::StrCat("join-", player, "-", table));
    join.set_table_id(table);
    join.set_seat(1);
    v1::BankedTableView view;
    s = stub_->Join(As(player).get(), join, &view);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  v1::BankedTableView ViewOf(const std::string& player,
                             const std::string& table) {
    v1::GetBankedTableRequest req;
    req.set_table_id(table);
    v1::BankedTableView view;
    EXPECT_TRUE(stub_->GetTableView(As(player).get(), req, &view).ok());
    return view;
  }
  void Stake(const std::string& player, const std::string& table,
             int64_t amount) {
    v1::PlaceBankedBetRequest req;
    req.set_request_id(absl::StrCat("bet-", ++bets_));
    req.set_table_id(table);
    req.set_round(ViewOf(player, table).round());
    req.set_amount_minor(amount);
    v1::BankedTableView view;
    grpc::Status s = stub_->PlaceBet(As(player).get(), req, &view);
    ASSERT_TRUE(s.ok()) << s.error_message();
    tables_->Tick();  // dealt at once
    Settle();
  }
  grpc::Status BankedAct(const std::string& player, const std::string& table,
                         v1::BlackjackActionType bj, v1::StudActionType sd) {
    v1::BankedActRequest req;
    req.set_request_id(absl::StrCat("act-", ++bets_));
    req.set_table_id(table);
    req.set_round(ViewOf(player, table).round());
    req.set_action(bj);
    req.set_stud_action(sd);
    v1::BankedTableView view;
    grpc::Status s = stub_->Act(As(player).get(), req, &view);
    Settle();
    return s;
  }
  // Stands on every blackjack decision (declining insurance) until the
  // round is over.
  void StandOut(const std::string& player, const std::string& table) {
    for (int step = 0; step < 20; ++step) {
      const v1::BankedTableView v = ViewOf(player, table);
      if (!v.blackjack().in_round() || v.blackjack().to_act_seat() != 1) {
        return;
      }
      bool stand = false;
      for (int a : v.blackjack().legal().actions()) {
        stand = stand || a == v1::BLACKJACK_ACTION_TYPE_STAND;
      }
      grpc::Status s = BankedAct(player, table,
                                 stand ? v1::BLACKJACK_ACTION_TYPE_STAND
                                       : v1::BLACKJACK_ACTION_TYPE_INSURANCE,
                                 v1::STUD_ACTION_TYPE_UNSPECIFIED);
      ASSERT_TRUE(s.ok()) << s.error_message();
    }
  }
  void LeaveTable(const std::string& player, const std::string& table) {
    v1::LeaveBankedTableRequest leave;
    leave.set_request_id("leave-" + player + "-" + table);
    leave.set_table_id(table);
    v1::BankedSessionSummary left;
    grpc::Status s = stub_->Leave(As(player).get(), leave, &left);
    ASSERT_TRUE(s.ok()) << s.error_message();
    Settle();
  }

  std::unique_ptr<table::BankedTableService> tables_;
  std::unique_ptr<v1::BankedTableService::Stub> stub_;
  int bets_ = 0;
};

TEST_P(BankedHistoryTest, BlackjackAndSemDescarteRounds_BJ_33_SD_39) {
  Fund("ana", 100'000);
  OneSeat("bj", v1::BANKED_GAME_BLACKJACK, "ana");
  OneSeat("sd", v1::BANKED_GAME_STUD_NO_DRAW, "ana");
  Stake("ana", "bj", 1'000);
  StandOut("ana", "bj");
  clock_.Advance(absl::Seconds(1));
  Stake("ana", "sd", 1'000);
  ASSERT_TRUE(BankedAct("ana", "sd", v1::BLACKJACK_ACTION_TYPE_UNSPECIFIED,
                        v1::STUD_ACTION_TYPE_FOLD)
                  .ok());
  v1::HistoriesPage page;
  ASSERT_TRUE(
      List("ana", Role::kPlayer, OfPlayer("ana", "blackjack"), &page).ok());
  ASSERT_EQ(page.histories_size(), 1);
  EXPECT_EQ(page.histories(0).reference().id(), "bj.r1");
  v1::GameHistory bj;
  ASSERT_TRUE(
      Get("ana", Role::kPlayer, v1::REFERENCE_KIND_ROUND, "bj.r1", &bj).ok());
  ASSERT_EQ(bj.banked().players_size(), 1);
  const v1::BankedRoundRecord& hand = bj.banked().players(0).record();
  EXPECT_GE(hand.dealer_cards_size(), 2);
  ASSERT_GE(hand.hands_size(), 1);
  EXPECT_GE(hand.hands(0).cards_size(), 2);
  EXPECT_GE(hand.stake_results_size(), 1);
  EXPECT_EQ(bj.summary().staked_minor(), hand.staked_minor());
  ASSERT_TRUE(
      List("ana", Role::kPlayer, OfPlayer("ana", "stud_no_draw"), &page).ok());
  ASSERT_EQ(page.histories_size(), 1);
  v1::GameHistory sd;
  ASSERT_TRUE(
      Get("ana", Role::kPlayer, v1::REFERENCE_KIND_ROUND, "sd.r1", &sd).ok());
  ASSERT_EQ(sd.banked().players_size(), 1);
  EXPECT_EQ(sd.banked().players(0).record().my_cards_size(), 5);
  EXPECT_EQ(sd.banked().players(0).record().outcome(), "folded");
  EXPECT_EQ(sd.summary().staked_minor(), 1'000);
  EXPECT_EQ(sd.summary().returned_minor(), 0);
  // Every game, newest first: the sem descarte round, then blackjack.
  ASSERT_TRUE(List("ana", Role::kPlayer, OfPlayer("ana"), &page).ok());
  ASSERT_EQ(page.histories_size(), 2);
  EXPECT_EQ(page.histories(0).game(), "stud_no_draw");
  EXPECT_EQ(page.histories(1).game(), "blackjack");
  // BJ-33, SD-39: each sitting's totals once she leaves.
  LeaveTable("ana", "bj");
  LeaveTable("ana", "sd");
  v1::SessionsRequest r;
  r.set_player_id("ana");
  v1::SessionsPage sessions;
  ASSERT_TRUE(Sessions("ana", Role::kPlayer, r, &sessions).ok());
  ASSERT_EQ(sessions.sessions_size(), 2);
  std::set<std::string> games;
  int64_t net = 0;
  for (const v1::PlayerSession& s : sessions.sessions()) {
    games.insert(s.game());
    EXPECT_EQ(s.rounds(), 1) << s.game();
    net += s.net_minor();
  }
  EXPECT_EQ(games, (std::set<std::string>{"blackjack", "stud_no_draw"}));
  EXPECT_EQ(net, Cash("ana") - 100'000);
  r.set_game("blackjack");
  ASSERT_TRUE(Sessions("ana", Role::kPlayer, r, &sessions).ok());
  ASSERT_EQ(sessions.sessions_size(), 1);
  EXPECT_EQ(sessions.sessions(0).bet_minor(), hand.staked_minor());
}

TEST_P(BankedHistoryTest, TheLastThreeSpinsWithEveryBet_RFD_27_RFD_29) {
  v1::CreateBankedTableRequest create;
  create.set_request_id("create-wheel");
  create.set_table_id("wheel");
  create.set_name("Wheel");
  create.set_game(v1::BANKED_GAME_ROULETTE_FRENCH);
  v1::BankedTableInfo info;
  ASSERT_TRUE(stub_->CreateTable(Operator().get(), create, &info).ok());
  Fund("ana", 10'000);
  Fund("bob", 10'000);
  for (const char* p : {"ana", "bob"}) {
    v1::JoinBankedTableRequest join;
    join.set_request_id(absl::StrCat("join-", p));
    join.set_table_id("wheel");
    v1::BankedTableView view;
    ASSERT_TRUE(stub_->Join(As(p).get(), join, &view).ok());
  }
  for (int spin = 1; spin <= 4; ++spin) {
    Bet("ana", "even", 100 * spin);
    Bet("ana", "red", 100);
    if (spin == 2) Bet("bob", "odd", 100);
    Spin();
  }
  // RFD-27: the last three spins ana took part in, newest first, each
  // with every bet and its result.
  v1::HistoriesPage page;
  ASSERT_TRUE(
      List("ana", Role::kPlayer, OfPlayer("ana", "roulette_french", 3), &page)
          .ok());
  ASSERT_EQ(page.histories_size(), 3);
  for (int i = 0; i < 3; ++i) {
    const v1::HistorySummary& s = page.histories(i);
    const int64_t round = 4 - i;
    EXPECT_EQ(s.number(), round);
    EXPECT_EQ(s.staked_minor(), 100 * round + 100);
    EXPECT_FALSE(s.result().empty());
    v1::GameHistory h;
    ASSERT_TRUE(Get("ana", Role::kPlayer, v1::REFERENCE_KIND_ROUND,
                    s.reference().id(), &h)
                    .ok());
    ASSERT_EQ(h.banked().players_size(), 1);  // her own part only
    const v1::BankedRoundRecord& rec = h.banked().players(0).record();
    EXPECT_EQ(rec.round(), round);
    ASSERT_EQ(rec.bets_size(), 2);
    EXPECT_EQ(rec.number(), s.result());
    EXPECT_EQ(rec.staked_minor(), 100 * round + 100);
  }
  EXPECT_FALSE(page.next_page_token().empty());
  // The operator sees both players' bets of spin 2; bob not ana's spin 3.
  v1::GameHistory spin2;
  ASSERT_TRUE(
      Get("op", Role::kOperator, v1::REFERENCE_KIND_ROUND, "wheel.r2", &spin2)
          .ok());
  EXPECT_EQ(spin2.banked().players_size(), 2);
  EXPECT_EQ(spin2.summary().staked_minor(), 200 + 100 + 100);
  v1::GameHistory h;
  EXPECT_EQ(Get("bob", Role::kPlayer, v1::REFERENCE_KIND_ROUND, "wheel.r3", &h)
                .error_code(),
            grpc::PERMISSION_DENIED);
  // RFD-29: leaving ends the session, with its totals.
  v1::LeaveBankedTableRequest leave;
  leave.set_request_id("leave-ana");
  leave.set_table_id("wheel");
  v1::BankedSessionSummary left;
  ASSERT_TRUE(stub_->Leave(As("ana").get(), leave, &left).ok());
  Settle();
  v1::SessionsRequest r;
  r.set_player_id("ana");
  v1::SessionsPage sessions;
  ASSERT_TRUE(Sessions("fin", Role::kFinance, r, &sessions).ok());
  ASSERT_EQ(sessions.sessions_size(), 1);
  const v1::PlayerSession& s = sessions.sessions(0);
  EXPECT_EQ(s.game(), "roulette_french");
  EXPECT_EQ(s.rounds(), 4);
  EXPECT_EQ(s.bet_minor(), 1'000 + 400);
  EXPECT_EQ(s.net_minor(), Cash("ana") - 10'000);
}

INSTANTIATE_TEST_SUITE_P(Backends, BankedHistoryTest,
                         ::testing::Values(Backend::kEmbedded, Backend::kKafka),
                         BackendName);

// --- A tournament -----------------------------------------------------------

class TournamentHistoryTest : public ReportingFixture {
 protected:
  TournamentHistoryTest()
      : ReportingFixture(wire::kTournamentTopics, "hist-tn-") {}

  absl::StatusOr<grpc::Service*> StartTables() override {
    tournament::TournamentServiceOptions o;
    o.verifier = TestVerifier();
    o.deck_keys = TestDeckKeys();
    o.tick_interval = absl::ZeroDuration();
    o.poll_interval = absl::Milliseconds(1);
    ASSIGN_OR_RETURN(service_,
                     tournament::TournamentService::Start(*log_, clock_, o));
    RETURN_IF_ERROR(reporting_.Start(*log_, clock_, dir_));
    return service_.get();
  }
  void ConnectTables(std::shared_ptr<grpc::Channel> channel) override {
    stub_ = v1::TournamentService::NewStub(channel);
  }
  void StopTables() override {
    reporting_.Stop();
    if (service_) service_->Stop();
  }
  void ReleaseTables() override { service_.reset(); }

  v1::TournamentInfo Describe() {
    v1::GetTournamentRequest req;
    req.set_tournament_id("tn");
    v1::TournamentInfo info;
    EXPECT_TRUE(stub_->DescribeTournament(As("x").get(), req, &info).ok());
    return info;
  }
  // Four players at one table; everyone checks or calls, and goes all in
  // one decision in three, until there is a winner.
  void PlayATournament() {
    v1::CreateTournamentRequest create;
    create.set_request_id("create-tn");
    create.set_tournament_id("tn");
    create.set_name("Sit and go");
    v1::TournamentConfig& c = *create.mutable_config();
    c.set_seats_per_table(6);
    c.set_starting_chips(1'000);
    c.set_buy_in_minor(1'000);
    c.set_fee_bps(1'000);
    c.add_payouts_bps(7'000);
    c.add_payouts_bps(3'000);
    v1::TournamentLevel* l = c.add_levels();
    l->set_small_blind(10);
    l->set_big_blind(20);
    l->set_seconds(600);
    v1::TournamentInfo info;
    ASSERT_TRUE(stub_->CreateTournament(Operator().get(), create, &info).ok());
    for (const std::string& p : players_) {
      Fund(p, 5'000);
      v1::PlayerTournamentRequest reg;
      reg.set_request_id("register-" + p);
      reg.set_tournament_id("tn");
      grpc::Status s = stub_->Register(As(p).get(), reg, &info);
      ASSERT_TRUE(s.ok()) << s.error_message();
    }
    v1::OperatorTournamentRequest start;
    start.set_request_id("start-tn");
    start.set_tournament_id("tn");
    ASSERT_TRUE(stub_->StartTournament(Operator().get(), start, &info).ok());
    int decisions = 0;
    for (int round = 0; round < 2'000; ++round) {
      service_->Tick();
      if (Describe().phase() != v1::TOURNAMENT_PHASE_RUNNING) break;
      for (const std::string& p : players_) {
        v1::GetTournamentRequest req;
        req.set_tournament_id("tn");
        v1::TournamentTableView v;
        if (!stub_->GetMyTable(As(p).get(), req, &v).ok() ||
            v.legal().actions().empty()) {
          continue;
        }
        bool all_in = false, check = false;
        for (int a : v.legal().actions()) {
          all_in |= a == v1::POKER_ACTION_TYPE_ALL_IN;
          check |= a == v1::POKER_ACTION_TYPE_CHECK;
        }
        v1::TournamentActRequest act;
        act.set_request_id(absl::StrCat("act-", ++decisions));
        act.set_tournament_id("tn");
        act.set_table(v.table());
        act.set_hand_number(v.hand_number());
        act.set_action(check ? v1::POKER_ACTION_TYPE_CHECK
                             : v1::POKER_ACTION_TYPE_CALL);
        if (all_in && decisions % 3 == 0) {
          act.set_action(v1::POKER_ACTION_TYPE_ALL_IN);
        }
        v1::TournamentTableView out;
        ASSERT_TRUE(stub_->Act(As(p).get(), act, &out).ok());
      }
    }
    ASSERT_EQ(Describe().phase(), v1::TOURNAMENT_PHASE_FINISHED);
    Quiesce();
  }

  std::unique_ptr<tournament::TournamentService> service_;
  std::unique_ptr<v1::TournamentService::Stub> stub_;
  const std::vector<std::string> players_ = {"ana", "bia", "rui", "teo"};
};

TEST_P(TournamentHistoryTest, ATournamentItsHandsPlacesPrizesAndSessions) {
  PlayATournament();
  // What follows reads the store a restarted service resumed (memory
  // rebuilt from the log).
  Restart();
  const v1::TournamentInfo info = Describe();
  // The tournament: entries, tables, hands, places (the eliminations in
  // reverse), prizes.
  v1::GameHistory t;
  ASSERT_TRUE(
      Get("ana", Role::kPlayer, v1::REFERENCE_KIND_TOURNAMENT, "tn", &t).ok());
  EXPECT_EQ(t.currency(), "EUR");
  EXPECT_EQ(t.tournament().phase(), "finished");
  EXPECT_EQ(t.tournament().hands(), info.hands_played());
  ASSERT_EQ(t.tournament().tables_size(), 1);
  EXPECT_EQ(t.tournament().tables(0), "t1");
  ASSERT_EQ(t.tournament().players_size(), 4);
  int64_t prizes = 0;
  EXPECT_EQ(t.tournament().players(0).place(), 1);
  for (int i = 0; i < 4; ++i) {
    const v1::TournamentPlayerHistory& p = t.tournament().players(i);
    // By place; players out in the same hand with equal stacks share one
    // (TN-51).
    if (i > 0) {
      EXPECT_GE(p.place(), t.tournament().players(i - 1).place());
    }
    EXPECT_EQ(p.payments(), 1);
    EXPECT_EQ(p.paid_minor(), 1'000);
    prizes += p.prize_minor();
  }
  EXPECT_EQ(prizes, t.tournament().prize_pool_minor());
  EXPECT_EQ(t.tournament().players(0).prize_minor(),
            t.tournament().prizes_minor(0));
  EXPECT_EQ(t.summary().staked_minor(), 4'000);
  EXPECT_EQ(t.summary().returned_minor(), prizes);
  // Its hands, newest first, then the tournament itself; in chips.
  v1::HistoriesRequest r;
  r.set_tournament_id("tn");
  r.set_page_size(100);
  v1::HistoriesPage page;
  ASSERT_TRUE(List("aud", Role::kAuditor, r, &page).ok());
  ASSERT_EQ(page.histories_size(), info.hands_played() + 1);
  EXPECT_EQ(page.histories(0).reference().id(),
            absl::StrCat("tn.t1.h", info.hands_played()));
  EXPECT_EQ(page.histories(page.histories_size() - 1).reference().kind(),
            v1::REFERENCE_KIND_TOURNAMENT);
  v1::GameHistory first;
  ASSERT_TRUE(
      Get("aud", Role::kAuditor, v1::REFERENCE_KIND_HAND, "tn.t1.h1", &first)
          .ok());
  EXPECT_EQ(first.currency(), "");  // chips
  EXPECT_EQ(first.summary().tournament_id(), "tn");
  EXPECT_EQ(first.poker().seats_size(), 4);
  for (const v1::PokerSeatHistory& s : first.poker().seats()) {
    EXPECT_EQ(s.start_stack_minor(), 1'000);
    EXPECT_EQ(s.hole_cards_size(), 2);
  }
  EXPECT_EQ(first.poker().phh().find("currency"), std::string::npos);
  // A player's tournament games; who did not play may not read it.
  ASSERT_TRUE(
      List("ana", Role::kPlayer, OfPlayer("ana", "tournament", 100), &page)
          .ok());
  EXPECT_GE(page.histories_size(), 2);
  Fund("dan", 10);
  EXPECT_EQ(Get("dan", Role::kPlayer, v1::REFERENCE_KIND_TOURNAMENT, "tn", &t)
                .error_code(),
            grpc::PERMISSION_DENIED);
  r.set_tournament_id("nope");
  EXPECT_EQ(List("aud", Role::kAuditor, r, &page).error_code(),
            grpc::NOT_FOUND);
  // Each player's session: the buy-in and the prize, as the wallet paid.
  for (const std::string& p : players_) {
    v1::SessionsRequest sr;
    sr.set_player_id(p);
    sr.set_game("tournament");
    v1::SessionsPage sessions;
    ASSERT_TRUE(Sessions(p, Role::kPlayer, sr, &sessions).ok());
    ASSERT_EQ(sessions.sessions_size(), 1) << p;
    const v1::PlayerSession& s = sessions.sessions(0);
    EXPECT_EQ(s.table_id(), "tn");
    EXPECT_EQ(s.bet_minor(), 1'000);
    EXPECT_EQ(s.net_minor(), Cash(p) - 5'000) << p;
    EXPECT_GE(s.rounds(), 1);
  }
  // The rebuild from offset 0 gives the same bytes.
  ExpectTheRebuildEqualsTheLiveProjections();
}

INSTANTIATE_TEST_SUITE_P(Backends, TournamentHistoryTest,
                         ::testing::Values(Backend::kEmbedded, Backend::kKafka),
                         BackendName);

}  // namespace
}  // namespace banca::testing
