// The tournament service end to end: gRPC on loopback, the real wallet in
// the same process, on an embedded log on disk and (when
// BANCA_KAFKA_BOOTSTRAP names a broker) on Apache Kafka, as in production
// (each Kafka run on topics of its own). Payments go through the saga
// on the log; prizes, bounties and refunds are TournamentMoney the wallet
// posts; a restart rebuilds every tournament from the log; tokens decide
// who may do what, and bad input appends nothing.
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "banca/v1/tournament.grpc.pb.h"
#include "libs/seal/deck_keys.h"
#include "services/audit/hands_export.h"
#include "services/audit/tournament_audit.h"
#include "services/server/server.h"
#include "services/tournament/hosted_tournaments.h"
#include "services/tournament/tournament_service.h"
#include "services/wallet/hosted_wallet.h"
#include "tests/harness/service_harness.h"

namespace banca::testing {
namespace {

class TournamentTest : public BackendHarness {
 protected:
  TournamentTest() : BackendHarness(wire::kTournamentTopics, "tournament-") {}

  absl::StatusOr<grpc::Service*> StartTables() override {
    tournament::TournamentServiceOptions o;
    o.verifier = TestVerifier();
    o.deck_keys = TestDeckKeys();
    o.tick_interval = absl::ZeroDuration();  // the test drives the timers
    o.poll_interval = absl::Milliseconds(1);
    o.payment_wait = payment_wait_;
    ASSIGN_OR_RETURN(service_,
                     tournament::TournamentService::Start(*log_, clock_, o));
    return service_.get();
  }
  void ConnectTables(std::shared_ptr<grpc::Channel> channel) override {
    stub_ = v1::TournamentService::NewStub(channel);
  }
  void StopTables() override {
    if (service_) service_->Stop();
  }
  void ReleaseTables() override { service_.reset(); }

  static v1::TournamentConfig SmallConfig() {
    v1::TournamentConfig c;
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
    l = c.add_levels();
    l->set_small_blind(50);
    l->set_big_blind(100);
    l->set_seconds(600);
    return c;
  }

  grpc::Status Create(const std::string& id, const v1::TournamentConfig& c) {
    v1::CreateTournamentRequest req;
    req.set_request_id("create-" + id);
    req.set_tournament_id(id);
    req.set_name("Tournament " + id);
    *req.mutable_config() = c;
    v1::TournamentInfo info;
    return stub_->CreateTournament(Operator().get(), req, &info);
  }
  grpc::Status Register(const std::string& player, const std::string& id) {
    v1::PlayerTournamentRequest req;
    req.set_request_id("register-" + player + "-" + id);
    req.set_tournament_id(id);
    v1::TournamentInfo info;
    return stub_->Register(As(player).get(), req, &info);
  }
  grpc::Status Operate(const std::string& what, const std::string& id) {
    v1::OperatorTournamentRequest req;
    req.set_request_id(what + "-" + id + "-" + std::to_string(++calls_));
    req.set_tournament_id(id);
    v1::TournamentInfo info;
    if (what == "start") {
      return stub_->StartTournament(Operator().get(), req, &info);
    }
    if (what == "cancel") {
      return stub_->CancelTournament(Operator().get(), req, &info);
    }
    return stub_->NextLevel(Operator().get(), req, &info);
  }
  v1::TournamentInfo Describe(const std::string& id) {
    v1::GetTournamentRequest req;
    req.set_tournament_id(id);
    v1::TournamentInfo info;
    grpc::Status s = stub_->DescribeTournament(As("anyone").get(), req, &info);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return info;
  }
  absl::StatusOr<v1::TournamentTableView> MyTable(const std::string& player,
                                                  const std::string& id) {
    v1::GetTournamentRequest req;
    req.set_tournament_id(id);
    v1::TournamentTableView view;
    grpc::Status s = stub_->GetMyTable(As(player).get(), req, &view);
    if (!s.ok()) return absl::FailedPreconditionError(s.error_message());
    return view;
  }
  grpc::Status Act(const std::string& player, const std::string& id,
                   const v1::TournamentTableView& view,
                   v1::PokerActionType action) {
    v1::TournamentActRequest req;
    req.set_request_id(absl::StrCat("act-", ++calls_));
    req.set_tournament_id(id);
    req.set_table(view.table());
    req.set_hand_number(view.hand_number());
    req.set_action(action);
    v1::TournamentTableView out;
    return stub_->Act(As(player).get(), req, &out);
  }
  int64_t Balance(const std::string& account) {
    return wallet_->ledger().AccountBalance(account);
  }
  int64_t LedgerSum() { return wallet_->ledger().Summarize().sum; }

  // Every player on their turn checks or calls, and goes all in one
  // decision in five, until the tournament ends; `restart_after` passes
  // in, while it runs, the server restarts.
  void PlayToTheEnd(const std::string& id, const std::vector<std::string>& ps,
                    int restart_after = -1) {
    for (int round = 0; round < 2'000; ++round) {
      if (round == restart_after) {
        Restart();
        restarted_ = true;
      }
      service_->Tick();
      if (Describe(id).phase() != v1::TOURNAMENT_PHASE_RUNNING) {
        // Over before its turn came (a six-way all-in): restarted at the
        // end instead, the finished tournament as the log has it.
        if (restart_after >= 0 && !restarted_) {
          Restart();
          restarted_ = true;
        }
        return;
      }
      for (const std::string& p : ps) {
        absl::StatusOr<v1::TournamentTableView> v = MyTable(p, id);
        if (!v.ok() || v->legal().actions().empty()) continue;
        bool all_in = false;
        bool check = false;
        for (int a : v->legal().actions()) {
          all_in |= a == v1::POKER_ACTION_TYPE_ALL_IN;
          check |= a == v1::POKER_ACTION_TYPE_CHECK;
        }
        v1::PokerActionType action =
            check ? v1::POKER_ACTION_TYPE_CHECK : v1::POKER_ACTION_TYPE_CALL;
        if (all_in && ++decisions_ % 5 == 0) {
          action = v1::POKER_ACTION_TYPE_ALL_IN;
        }
        grpc::Status s = Act(p, id, *v, action);
        ASSERT_TRUE(s.ok()) << p << ": " << s.error_message();
      }
    }
    FAIL() << "the tournament did not finish";
  }

  // Waits until `done` holds (the service and the wallet work on their
  // own threads), for up to 30 s.
  template <typename Done>
  bool Eventually(Done done) {
    for (int i = 0; i < 3'000; ++i) {
      if (done()) return true;
      absl::SleepFor(absl::Milliseconds(10));
    }
    return done();
  }

  std::unique_ptr<tournament::TournamentService> service_;
  std::unique_ptr<v1::TournamentService::Stub> stub_;
  absl::Duration payment_wait_ = absl::Seconds(5);
  int calls_ = 0;
  int decisions_ = 0;
  bool restarted_ = false;
};

TEST_P(TournamentTest, SixPlayersPlayToTheEndWithEveryCentAccounted) {
  ASSERT_TRUE(Create("tn1", SmallConfig()).ok());
  const std::vector<std::string> players = {"ana", "bia", "rui",
                                            "teo", "zoe", "gil"};
  for (const std::string& p : players) {
    Fund(p, 5'000);
    grpc::Status s = Register(p, "tn1");
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(Cash(p), 4'000);  // TN-22: taken on registration
  }
  EXPECT_EQ(Balance("house/tournament_fees"), 600);  // TN-18: 10 %
  EXPECT_EQ(Balance("tournament/tn1/prize_pool"), 5'400);
  ASSERT_TRUE(Operate("start", "tn1").ok());
  v1::TournamentInfo info = Describe("tn1");
  EXPECT_EQ(info.phase(), v1::TOURNAMENT_PHASE_RUNNING);
  EXPECT_TRUE(info.prizes_fixed());
  ASSERT_EQ(info.prizes_minor_size(), 2);
  EXPECT_EQ(info.prizes_minor(0), 3'780);
  EXPECT_EQ(info.prizes_minor(1), 1'620);
  PlayToTheEnd("tn1", players, /*restart_after=*/3);
  EXPECT_TRUE(restarted_);
  Quiesce();
  info = Describe("tn1");
  EXPECT_EQ(info.phase(), v1::TOURNAMENT_PHASE_FINISHED);
  EXPECT_EQ(Balance("tournament/tn1/prize_pool"), 0);
  int64_t cash = 0;
  for (const std::string& p : players) cash += Cash(p);
  EXPECT_EQ(cash, 6 * 4'000 + 5'400);
  EXPECT_EQ(LedgerSum(), 0);
  v1::GetTournamentRequest req;
  req.set_tournament_id("tn1");
  v1::TournamentStandings standings;
  ASSERT_TRUE(stub_->GetStandings(As("x").get(), req, &standings).ok());
  ASSERT_EQ(standings.standings_size(), 6);
  EXPECT_EQ(standings.standings(0).place(), 1);
  EXPECT_EQ(standings.standings(0).prize_minor(), 3'780);
  EXPECT_EQ(Cash(standings.standings(0).player_id()), 4'000 + 3'780);
  // Every hand of every table, from the log, as PHH (banca hands export
  // --tournament): the decks open with the tables' key only.
  std::ostringstream phh;
  const seal::DeckKeys keys = TestDeckKeys();
  const audit::HandsExportResult exported = audit::ExportTournamentHands(
      *log_, "tn1", &keys, audit::ExportFormat::kPhh, phh);
  EXPECT_EQ(exported.exit_code, audit::kExportOk) << exported.error;
  EXPECT_EQ(exported.hands_written, info.hands_played());
  EXPECT_NE(phh.str().find("# Chips: tournament hand tn1/t1.h1"),
            std::string::npos);
  absl::StatusOr<seal::DeckKeys> other =
      seal::DeckKeys::FromKeyFileText(std::string(64, 'a'));
  ASSERT_TRUE(other.ok());
  std::ostringstream none;
  EXPECT_EQ(audit::ExportTournamentHands(*log_, "tn1", &*other,
                                         audit::ExportFormat::kPhh, none)
                .exit_code,
            audit::kExportFailed);
  // Without a key: every hand ended and revealed its deck, so the same
  // history comes from the reveals alone.
  std::ostringstream revealed;
  const audit::HandsExportResult from_reveals = audit::ExportTournamentHands(
      *log_, "tn1", nullptr, audit::ExportFormat::kPhh, revealed);
  EXPECT_EQ(from_reveals.exit_code, audit::kExportOk) << from_reveals.error;
  EXPECT_EQ(revealed.str(), phh.str());
  // banca audit verify's check of the tournament, on this log: each money
  // request carried out by the wallet exactly once, the flows adding up,
  // and every hand replayed to the places and prizes the wallet paid.
  absl::StatusOr<audit::TournamentAuditReport> audited =
      audit::AuditTournamentTopic(*log_, &keys);
  ASSERT_TRUE(audited.ok()) << audited.status();
  EXPECT_TRUE(audited->ok()) << audit::ProblemLines(audited->problems);
  EXPECT_EQ(audited->payments, 6);
  EXPECT_EQ(audited->pending, 0);
  EXPECT_EQ(audited->finished, 1);
  EXPECT_EQ(audited->hands, info.hands_played());
  ASSERT_EQ(audited->summaries.size(), 1u);
  const audit::TournamentFlows& flows = audited->summaries[0].flows;
  EXPECT_FALSE(audited->summaries[0].open);
  EXPECT_EQ(flows.paid_in, 6'000);
  EXPECT_EQ(flows.fees_in, 600);
  EXPECT_EQ(flows.pool_in, 5'400);
  EXPECT_EQ(flows.prizes, 5'400);
  EXPECT_EQ(flows.pool_left, 0);
}

TEST_P(TournamentTest, AStartedTournamentIsRebuiltFromTheLogOnRestart) {
  ASSERT_TRUE(Create("tn2", SmallConfig()).ok());
  for (const std::string p : {"ana", "bia", "rui"}) {
    Fund(p, 5'000);
    ASSERT_TRUE(Register(p, "tn2").ok());
  }
  ASSERT_TRUE(Operate("start", "tn2").ok());
  service_->Tick();  // the first hand is dealt
  const v1::TournamentInfo before = Describe("tn2");
  std::map<std::string, v1::TournamentTableView> views;
  for (const std::string p : {"ana", "bia", "rui"}) {
    absl::StatusOr<v1::TournamentTableView> v = MyTable(p, "tn2");
    ASSERT_TRUE(v.ok()) << v.status();
    views[p] = *v;
  }
  Restart();
  const v1::TournamentInfo after = Describe("tn2");
  EXPECT_EQ(after.version(), before.version());
  EXPECT_EQ(after.entrants(), 3);
  EXPECT_EQ(after.prize_pool_minor(), before.prize_pool_minor());
  for (const std::string p : {"ana", "bia", "rui"}) {
    absl::StatusOr<v1::TournamentTableView> v = MyTable(p, "tn2");
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_EQ(v->hand_number(), views[p].hand_number());
    ASSERT_EQ(v->seats_size(), views[p].seats_size());
    for (int i = 0; i < v->seats_size(); ++i) {
      EXPECT_EQ(v->seats(i).stack_minor(), views[p].seats(i).stack_minor());
      // The deck came back from its seal: the player's own cards.
      EXPECT_EQ(v->seats(i).cards_size(), views[p].seats(i).cards_size());
    }
  }
}

// A crash between the payment's request and the wallet's answer: the
// restarted service replays the saga from the log, the wallet carries out
// the request it had not read, the tournament reads the outcome from where
// its reader's group left off, and the player is registered once, charged
// once; a retry of the same request answers from the state.
TEST_P(TournamentTest, ARestartWhileAPaymentIsOnItsWayLosesAndDoublesNothing) {
  ASSERT_TRUE(Create("tn7", SmallConfig()).ok());
  Fund("ana", 5'000);
  // The wallet stops carrying out the tournaments' requests.
  Shutdown();
  wallet_requests_interval_ = absl::ZeroDuration();
  payment_wait_ = absl::Milliseconds(300);
  Start();
  const grpc::Status pending = Register("ana", "tn7");
  EXPECT_EQ(pending.error_code(), grpc::DEADLINE_EXCEEDED)
      << pending.error_message();
  EXPECT_EQ(Cash("ana"), 5'000);
  EXPECT_EQ(Describe("tn7").entrants(), 0);
  // Stopped with the request unread (no Settle), started again with a
  // wallet that reads it.
  Shutdown();
  wallet_requests_interval_ = absl::Milliseconds(1);
  Start();
  EXPECT_TRUE(Eventually([&] { return Describe("tn7").entrants() == 1; }))
      << "the payment was lost over the restart";
  Quiesce();
  EXPECT_EQ(Cash("ana"), 4'000);
  EXPECT_EQ(Balance("house/tournament_fees"), 100);
  EXPECT_EQ(Balance("tournament/tn7/prize_pool"), 900);
  // The client's retry (same id): no second saga, no second charge.
  EXPECT_TRUE(Register("ana", "tn7").ok());
  Quiesce();
  EXPECT_EQ(Describe("tn7").entrants(), 1);
  EXPECT_EQ(Cash("ana"), 4'000);
  // And once more after another restart, from the log alone.
  Restart();
  EXPECT_EQ(Describe("tn7").entrants(), 1);
  EXPECT_EQ(Cash("ana"), 4'000);
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_P(TournamentTest, BadInputIsRefusedPreciselyAndAppendsNothing) {
  ASSERT_TRUE(Create("tn3", SmallConfig()).ok());
  Fund("ana", 5'000);
  Fund("poor", 500);
  ASSERT_TRUE(Register("ana", "tn3").ok());
  Quiesce();
  const int64_t events = TableEvents();
  auto expect = [&](grpc::Status s, grpc::StatusCode code,
                    const std::string& message) {
    EXPECT_EQ(s.error_code(), code) << s.error_message();
    EXPECT_NE(s.error_message().find(message), std::string::npos)
        << s.error_message();
    Quiesce();
  };
  // TN-19: one entry; twice is ALREADY_EXISTS (a new request id).
  {
    v1::PlayerTournamentRequest req;
    req.set_request_id("again");
    req.set_tournament_id("tn3");
    v1::TournamentInfo info;
    expect(stub_->Register(As("ana").get(), req, &info), grpc::ALREADY_EXISTS,
           "TN-19");
  }
  EXPECT_EQ(TableEvents(), events);
  EXPECT_EQ(Cash("ana"), 4'000);
  // TN-21: without the funds the wallet refuses; nothing is taken.
  expect(Register("poor", "tn3"), grpc::FAILED_PRECONDITION, "payment refused");
  EXPECT_EQ(Cash("poor"), 500);
  // The client's retry (same request id) hears the same refusal, not OK.
  expect(Register("poor", "tn3"), grpc::FAILED_PRECONDITION, "payment refused");
  const int64_t after_refusal = TableEvents();
  expect(Register("ana", "nope"), grpc::NOT_FOUND, "no tournament nope");
  expect(Register("ana", "Bad Id!"), grpc::INVALID_ARGUMENT, "");
  // Roles: a player does not create, start or cancel; an operator does not
  // register; no token is UNAUTHENTICATED.
  {
    v1::CreateTournamentRequest req;
    req.set_request_id("c9");
    req.set_tournament_id("tn9");
    *req.mutable_config() = SmallConfig();
    v1::TournamentInfo info;
    expect(stub_->CreateTournament(As("ana").get(), req, &info),
           grpc::PERMISSION_DENIED, "operator");
    v1::OperatorTournamentRequest start;
    start.set_request_id("s9");
    start.set_tournament_id("tn3");
    expect(stub_->StartTournament(As("ana").get(), start, &info),
           grpc::PERMISSION_DENIED, "operator");
    v1::PlayerTournamentRequest reg;
    reg.set_request_id("r9");
    reg.set_tournament_id("tn3");
    expect(stub_->Register(Operator().get(), reg, &info),
           grpc::PERMISSION_DENIED, "only a player");
    grpc::ClientContext none;
    expect(stub_->Register(&none, reg, &info), grpc::UNAUTHENTICATED, "");
  }
  // A configuration outside the rules (TN-18 fee, payouts, TN-6 seats).
  for (auto change : std::vector<void (*)(v1::TournamentConfig&)>{
           [](v1::TournamentConfig& c) { c.set_fee_bps(2'500); },
           [](v1::TournamentConfig& c) { c.add_payouts_bps(100); },
           [](v1::TournamentConfig& c) { c.set_seats_per_table(11); },
           [](v1::TournamentConfig& c) {
             c.mutable_levels(1)->set_big_blind(20);
           }}) {
    v1::TournamentConfig c = SmallConfig();
    change(c);
    expect(Create("tn8", c), grpc::INVALID_ARGUMENT, "");
  }
  // Below min_players the start is refused (TN-7h).
  expect(Operate("start", "tn3"), grpc::FAILED_PRECONDITION, "min_players");
  EXPECT_EQ(TableEvents(), after_refusal);
  // After a restart the retry still hears the refusal, from the log alone.
  Restart();
  expect(Register("poor", "tn3"), grpc::FAILED_PRECONDITION, "payment refused");
  EXPECT_EQ(Cash("poor"), 500);
}

TEST_P(TournamentTest, TN36a_CancellingBeforeTheStartRefundsInFull) {
  ASSERT_TRUE(Create("tn4", SmallConfig()).ok());
  for (const std::string p : {"ana", "bia"}) {
    Fund(p, 5'000);
    ASSERT_TRUE(Register(p, "tn4").ok());
  }
  ASSERT_TRUE(Operate("cancel", "tn4").ok());
  Quiesce();
  EXPECT_EQ(Cash("ana"), 5'000);
  EXPECT_EQ(Cash("bia"), 5'000);
  EXPECT_EQ(Balance("house/tournament_fees"), 0);
  EXPECT_EQ(Balance("tournament/tn4/prize_pool"), 0);
  EXPECT_EQ(Describe("tn4").phase(), v1::TOURNAMENT_PHASE_CANCELLED);
  // TN-36: nothing more to cancel.
  EXPECT_EQ(Operate("cancel", "tn4").error_code(), grpc::FAILED_PRECONDITION);
  EXPECT_EQ(LedgerSum(), 0);
}

// TN-29/30: satellites pay entries to "main" as tickets; a player who won
// two enters main with one and converts what is left, an entry's price at
// a time, to cash; one who won once converts nothing. Attacks beside.
TEST_P(TournamentTest, TN29_TN30_AnEntryWonTwiceConvertsToCash) {
  ASSERT_TRUE(Create("main", SmallConfig()).ok());
  v1::TournamentConfig sat = SmallConfig();
  sat.set_kind(v1::TOURNAMENT_KIND_SATELLITE);
  sat.set_ticket_target("main");
  sat.clear_payouts_bps();
  sat.add_payouts_bps(10'000);  // one place: an 1,800 ticket (2 x 900)
  sat.set_min_players(2);
  sat.set_max_players(2);
  sat.mutable_levels(0)->set_small_blind(100);
  sat.mutable_levels(0)->set_big_blind(200);
  sat.mutable_levels(1)->set_small_blind(200);
  sat.mutable_levels(1)->set_big_blind(400);
  std::map<std::string, int> wins;
  for (const std::string p : {"ana", "bia"}) Fund(p, 3'000);  // once each
  for (const char* id : {"s1", "s2", "s3"}) {
    grpc::Status created = Create(id, sat);
    ASSERT_TRUE(created.ok()) << created.error_message();
    for (const std::string p : {"ana", "bia"}) {
      grpc::Status registered = Register(p, id);
      ASSERT_TRUE(registered.ok())
          << id << " " << p << ": " << registered.error_message();
    }
    ASSERT_TRUE(Operate("start", id).ok());
    PlayToTheEnd(id, {"ana", "bia"});
    ASSERT_EQ(Describe(id).phase(), v1::TOURNAMENT_PHASE_FINISHED);
    v1::GetTournamentRequest req;
    req.set_tournament_id(id);
    v1::TournamentStandings standings;
    ASSERT_TRUE(stub_->GetStandings(As("x").get(), req, &standings).ok());
    ASSERT_EQ(standings.standings(0).place(), 1);
    ++wins[standings.standings(0).player_id()];
  }
  Settle();
  // Three satellites between two players: one won at least two.
  const std::string twice = wins["ana"] >= 2 ? "ana" : "bia";
  const std::string other = twice == "ana" ? "bia" : "ana";
  const std::string tickets = "tournament/main/tickets/" + twice;
  ASSERT_EQ(Balance(tickets), wins[twice] * 1'800);
  auto convert = [&](const std::string& player, const std::string& rid) {
    v1::PlayerTournamentRequest req;
    req.set_request_id(rid);
    req.set_tournament_id("main");
    v1::TournamentInfo info;
    return stub_->ConvertTicket(As(player).get(), req, &info);
  };
  // TN-29: not before the player entered main with an entry won.
  grpc::Status s = convert(twice, "c0");
  EXPECT_EQ(s.error_code(), grpc::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("TN-29"), std::string::npos);
  v1::PlayerTournamentRequest reg;
  reg.set_request_id("register-by-ticket");
  reg.set_tournament_id("main");
  reg.set_use_ticket(true);
  v1::TournamentInfo info;
  ASSERT_TRUE(stub_->Register(As(twice).get(), reg, &info).ok());
  const int64_t cash = Cash(twice);
  const int64_t held = Balance(tickets);
  ASSERT_EQ(held, wins[twice] * 1'800 - 1'000);
  const int64_t events = TableEvents();
  // Attacks: no token, an operator's token, another player's request;
  // nothing appended.
  v1::PlayerTournamentRequest req;
  req.set_request_id("c-attack");
  req.set_tournament_id("main");
  grpc::ClientContext none;
  EXPECT_EQ(stub_->ConvertTicket(&none, req, &info).error_code(),
            grpc::UNAUTHENTICATED);
  EXPECT_EQ(stub_->ConvertTicket(Operator().get(), req, &info).error_code(),
            grpc::PERMISSION_DENIED);
  EXPECT_EQ(convert(other, "c-other").error_code(),
            grpc::FAILED_PRECONDITION);  // not entered with a ticket
  req.set_tournament_id("nope");
  EXPECT_EQ(stub_->ConvertTicket(As(twice).get(), req, &info).error_code(),
            grpc::NOT_FOUND);
  EXPECT_EQ(TableEvents(), events);
  // Converted: an entry's price (1,000), from the tickets to cash; the
  // same request again changes nothing.
  ASSERT_TRUE(convert(twice, "c1").ok());
  ASSERT_TRUE(convert(twice, "c1").ok());
  Settle();
  EXPECT_EQ(Cash(twice), cash + 1'000);
  EXPECT_EQ(Balance(tickets), held - 1'000);
  // TN-30 bound: what is left is less than an entry's price.
  int64_t left = held - 1'000;
  int round = 2;
  while (left >= 1'000) {
    ASSERT_TRUE(convert(twice, absl::StrCat("c", round++)).ok());
    left -= 1'000;
  }
  s = convert(twice, "c-last");
  EXPECT_EQ(s.error_code(), grpc::FAILED_PRECONDITION) << s.error_message();
  Settle();
  EXPECT_EQ(Balance(tickets), left);
  EXPECT_EQ(LedgerSum(), 0);
  // The conversions replay: a restart keeps them, and refuses the same.
  Restart();
  EXPECT_EQ(convert(twice, "c-after").error_code(), grpc::FAILED_PRECONDITION);
  EXPECT_EQ(Balance(tickets), left);
  // The audit sorts the cash-outs into main's flows, every one posted once.
  Settle();
  absl::StatusOr<audit::TournamentAuditReport> audited =
      audit::AuditTournamentTopic(*log_, nullptr);
  ASSERT_TRUE(audited.ok()) << audited.status();
  EXPECT_TRUE(audited->ok()) << audit::ProblemLines(audited->problems);
  EXPECT_EQ(audited->pending, 0);
  for (const audit::TournamentSummary& summary : audited->summaries) {
    if (summary.tournament != "main") continue;
    EXPECT_EQ(summary.flows.tickets_cashed_out, held - left);
    EXPECT_EQ(summary.flows.paid_in, 1'000);  // the entry by ticket
  }
}

TEST_P(TournamentTest, AttacksAtTheTablesGetPreciseErrorsAndAppendNothing) {
  ASSERT_TRUE(Create("tn5", SmallConfig()).ok());
  for (const std::string p : {"ana", "bia", "rui"}) {
    Fund(p, 5'000);
    ASSERT_TRUE(Register(p, "tn5").ok());
  }
  ASSERT_TRUE(Operate("start", "tn5").ok());
  service_->Tick();  // the first hand
  Quiesce();
  std::string to_act, waiting;
  v1::TournamentTableView view;
  for (const std::string p : {"ana", "bia", "rui"}) {
    absl::StatusOr<v1::TournamentTableView> v = MyTable(p, "tn5");
    ASSERT_TRUE(v.ok());
    if (!v->legal().actions().empty()) {
      to_act = p;
      view = *v;
    } else {
      waiting = p;
    }
  }
  ASSERT_FALSE(to_act.empty());
  const int64_t events = TableEvents();
  auto act = [&](const std::string& player, const std::string& id,
                 v1::TournamentActRequest req) {
    req.set_request_id(id);
    req.set_tournament_id("tn5");
    v1::TournamentTableView out;
    return stub_->Act(As(player).get(), req, &out);
  };
  auto expect = [&](grpc::Status s, grpc::StatusCode code,
                    const std::string& message) {
    EXPECT_EQ(s.error_code(), code) << s.error_message();
    EXPECT_NE(s.error_message().find(message), std::string::npos)
        << s.error_message();
    EXPECT_EQ(TableEvents(), events);
  };
  v1::TournamentActRequest fold;
  fold.set_table(view.table());
  fold.set_hand_number(view.hand_number());
  fold.set_action(v1::POKER_ACTION_TYPE_FOLD);
  // Another table than the caller's; not the caller's turn; a hand that
  // is not the one in progress; an action that does not exist.
  v1::TournamentActRequest other = fold;
  other.set_table("t9");
  expect(act(to_act, "a1", other), grpc::PERMISSION_DENIED, "own table");
  expect(act(waiting, "a2", fold), grpc::FAILED_PRECONDITION, "");
  v1::TournamentActRequest late = fold;
  late.set_hand_number(view.hand_number() + 5);
  expect(act(to_act, "a3", late), grpc::FAILED_PRECONDITION, "is over");
  v1::TournamentActRequest unknown = fold;
  unknown.set_action(static_cast<v1::PokerActionType>(99));
  expect(act(to_act, "a4", unknown), grpc::INVALID_ARGUMENT, "");
  // An operator has no seat to read; a name past its limit.
  {
    v1::GetTournamentRequest req;
    req.set_tournament_id("tn5");
    v1::TournamentTableView out;
    expect(stub_->GetMyTable(Operator().get(), req, &out),
           grpc::PERMISSION_DENIED, "only a player");
    v1::CreateTournamentRequest create;
    create.set_request_id("c-long");
    create.set_tournament_id("tn6");
    create.set_name(std::string(129, 'n'));
    *create.mutable_config() = SmallConfig();
    v1::TournamentInfo info;
    expect(stub_->CreateTournament(Operator().get(), create, &info),
           grpc::INVALID_ARGUMENT, "name");
  }
  // A replay: the same id and body answer again and append nothing; the
  // same id with another body is ALREADY_EXISTS.
  ASSERT_TRUE(act(to_act, "a5", fold).ok());
  Quiesce();
  const int64_t after = TableEvents();
  EXPECT_TRUE(act(to_act, "a5", fold).ok());
  v1::TournamentActRequest call = fold;
  call.set_action(v1::POKER_ACTION_TYPE_CALL);
  EXPECT_EQ(act(to_act, "a5", call).error_code(), grpc::ALREADY_EXISTS);
  Quiesce();
  EXPECT_EQ(TableEvents(), after);
}

// `banca serve --partitions=N` makes every topic with N partitions,
// whichever service comes first: the wallet made the tournaments' (and the
// tables') request topics with 8, so a server with the wallet and the
// tournaments at any other count refused to start ("topic
// banca.tournament.requests has 8 partitions, not 4"). A request topic an
// older wallet made with another count is read as it is.
TEST(TournamentServeTest, WalletAndTournamentsShareTopicsOfAnyPartitionCount) {
  server::ServerConfig config;
  config.settings.data_dir = FreshDir("tournament_serve");
  config.settings.partitions = 4;
  config.grpc_address = "127.0.0.1";
  config.grpc_port = 0;
  config.metrics_port = 0;
  server::ServerKeys keys;
  keys.keys.verifier = TestVerifier();
  keys.keys.deck_keys = TestDeckKeys();
  auto serve = [&](std::vector<edge::HostedServiceSpec> services) {
    absl::StatusOr<std::unique_ptr<server::Server>> started =
        server::Server::Start(config, keys, std::move(services));
    if (!started.ok()) return started.status();
    (*started)->Shutdown(absl::ZeroDuration());
    return (*started)->Wait();
  };
  const absl::Status both =
      serve({wallet::HostedWallet(), tournament::HostedTournaments()});
  EXPECT_TRUE(both.ok()) << both;
  {
    auto log = eventlog::OpenLogBackend("embedded", config.settings.data_dir);
    ASSERT_TRUE(log.ok()) << log.status();
    EXPECT_EQ(
        (*log)->PartitionCount(wire::kTournamentRequestsTopic).value_or(0), 4);
    EXPECT_EQ((*log)->PartitionCount(wire::kTableRequestsTopic).value_or(0), 4);
  }
  // A log where an older wallet made the request topics with 8.
  config.settings.data_dir = FreshDir("tournament_serve_older");
  {
    auto log = eventlog::OpenLogBackend("embedded", config.settings.data_dir);
    ASSERT_TRUE(log.ok()) << log.status();
    for (std::string_view topic :
         {wire::kTableRequestsTopic, wire::kBankedRequestsTopic,
          wire::kTournamentRequestsTopic}) {
      ASSERT_TRUE((*log)->EnsureTopic({std::string(topic), 8}).ok());
    }
  }
  const absl::Status alone = serve({wallet::HostedWallet()});
  EXPECT_TRUE(alone.ok()) << alone;
}

INSTANTIATE_TEST_SUITE_P(Backends, TournamentTest,
                         ::testing::Values(Backend::kEmbedded, Backend::kKafka),
                         BackendName);

}  // namespace
}  // namespace banca::testing
