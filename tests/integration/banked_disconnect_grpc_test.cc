// The player's own disconnection at the banked tables (RFD-25/26,
// BJ-29/30, SD-34..36), over real gRPC on loopback: the service learns of
// a seated player's connection from its WatchTable streams. The last one
// ending records the disconnection on the log (PlayerConnection) and
// applies the game's rule; a new stream records the return.
#include "tests/integration/banked_table_fixture.h"

namespace banca::testing {
namespace {

// The stream's views, as they arrive, never hold a card the rules have
// not turned yet (DESIGN 7).
void ExpectNoHiddenCard(const std::vector<v1::BankedTableView>& views) {
  for (const v1::BankedTableView& v : views) {
    if (v.blackjack().in_round()) {
      EXPECT_TRUE(v.blackjack().hole_card_hidden());
      EXPECT_LE(v.blackjack().dealer_cards_size(), 1);
    }
    if (v.stud().phase() == "BETTING" || v.stud().phase() == "DECISIONS") {
      EXPECT_EQ(v.stud().bank_cards_size(), 0);
    }
  }
}

TEST_F(BankedTableTest, WatchTableStreamsTheCallersViewOnEveryChange) {
  ASSERT_TRUE(Create("w1", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Join("ana", "w1").ok());
  auto watch = Watch("ana", "w1");
  ASSERT_TRUE(watch->WaitFor([](const v1::BankedTableView& v) {
    return v.joined() && !v.disconnected();
  }));
  ASSERT_TRUE(PlaceBet("ana", "w1", Bet("red"), 500).ok());
  // The captured bet reaches the stream without asking.
  EXPECT_TRUE(watch->WaitFor([](const v1::BankedTableView& v) {
    return v.roulette().my_bets_size() == 1;
  }));
  Spin();
  EXPECT_TRUE(watch->WaitFor([](const v1::BankedTableView& v) {
    return v.round() == 2 && v.roulette().last_numbers_size() == 1;
  }));
  // Versions only go up: a view is sent for a change, never twice.
  const std::vector<v1::BankedTableView> views = watch->views();
  for (size_t i = 1; i < views.size(); ++i) {
    EXPECT_GT(views[i].version(), views[i - 1].version());
  }
}

TEST_F(BankedTableTest, WatchTableBadInputIsRefusedAndAppendsNothing) {
  ASSERT_TRUE(Create("w2", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  const int64_t events = TableEvents();
  auto ended = [&](std::unique_ptr<grpc::ClientContext> ctx,
                   const std::string& table) {
    BankedWatch w(*stub_, std::move(ctx), table);
    std::optional<grpc::Status> s = w.Ended();
    EXPECT_TRUE(s.has_value());
    return s.value_or(grpc::Status::OK).error_code();
  };
  EXPECT_EQ(ended(std::make_unique<grpc::ClientContext>(), "w2"),
            grpc::UNAUTHENTICATED);
  EXPECT_EQ(ended(As("ana"), "nope"), grpc::NOT_FOUND);
  EXPECT_EQ(ended(As("ana"), "Bad Id!"), grpc::INVALID_ARGUMENT);
  // Watching without a session, or as the operator, is no connection the
  // rules speak of: its end records nothing.
  auto stranger = Watch("bob", "w2");
  ASSERT_TRUE(stranger->WaitFor(
      [](const v1::BankedTableView& v) { return !v.joined(); }));
  stranger->Cancel();
  auto op = std::make_unique<BankedWatch>(*stub_, Operator(), "w2");
  ASSERT_TRUE(op->WaitFor([](const v1::BankedTableView&) { return true; }));
  op->Cancel();
  absl::SleepFor(absl::Milliseconds(500));  // past the server's next look
  EXPECT_EQ(TableEvents(), events);
}

TEST_F(BankedTableTest,
       RFD25_RFD26_DisconnectedPlayersBetStaysValidAndIsSettled) {
  ASSERT_TRUE(Create("rd1", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Join("ana", "rd1").ok());
  auto watch = Watch("ana", "rd1");
  ASSERT_TRUE(
      watch->WaitFor([](const v1::BankedTableView& v) { return v.joined(); }));
  const v1::RouletteBet red = Bet("red");
  ASSERT_TRUE(PlaceBet("ana", "rd1", red, 1'000).ok());
  EXPECT_EQ(CountEvents(v1::BankedTableEvent::kConnection), 0);
  // RFD-25: ana's equipment goes away before the result.
  watch->Cancel();
  ASSERT_TRUE(WaitDisconnected("ana", "rd1"));
  EXPECT_EQ(CountEvents(v1::BankedTableEvent::kConnection), 1);
  v1::BankedTableView view = View("ana", "rd1");
  EXPECT_EQ(view.roulette().my_bets_size(), 1);  // the bet stands
  Spin();
  // RFD-26: the round is valid: the win is paid, the loss collected.
  const v1::BankedRoundRecord last = LastRound("ana", "rd1");
  EXPECT_EQ(last.round(), 1);
  EXPECT_EQ(last.staked_minor(), 1'000);
  const int64_t returned =
      Returned(games::roulette::WheelKind::kFrench, red, 1'000, last.number());
  EXPECT_EQ(last.returned_minor(), returned);
  EXPECT_EQ(Cash("ana"), 10'000 - 1'000 + returned);
  EXPECT_EQ(Bank(), 1'000 - returned);
  EXPECT_EQ(Wagers("rd1"), 0);
  EXPECT_EQ(LedgerSum(), 0);
  // The audit matches the stake and the settlement with the wallet's
  // postings, once each.
  auto audit = audit::AuditBankedTopic(*log_);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_TRUE(audit->ok());
  EXPECT_EQ(audit->stakes, 1);
  EXPECT_EQ(audit->carried_out, audit->stakes + audit->transactions);
  EXPECT_EQ(audit->pending, 0);
  // The disconnection is on the log: a restart brings it back.
  Restart();
  EXPECT_TRUE(View("ana", "rd1").disconnected());
  // A new stream is the reconnection (RFD-27: the result is there to see).
  auto again = Watch("ana", "rd1");
  ASSERT_TRUE(WaitDisconnected("ana", "rd1", false));
  EXPECT_EQ(CountEvents(v1::BankedTableEvent::kConnection), 2);
  EXPECT_TRUE(again->WaitFor([](const v1::BankedTableView& v) {
    return !v.disconnected() && v.roulette().last_numbers_size() == 1;
  }));
}

TEST_F(BankedTableTest, ServerShutdownIsNotThePlayersDisconnection) {
  ASSERT_TRUE(Create("rd2", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Join("ana", "rd2").ok());
  auto watch = Watch("ana", "rd2");
  ASSERT_TRUE(
      watch->WaitFor([](const v1::BankedTableView& v) { return v.joined(); }));
  // A second stream: the first one ending leaves ana connected.
  auto second = Watch("ana", "rd2");
  ASSERT_TRUE(
      second->WaitFor([](const v1::BankedTableView& v) { return v.joined(); }));
  second->Cancel();
  absl::SleepFor(absl::Milliseconds(500));
  EXPECT_FALSE(View("ana", "rd2").disconnected());
  Restart();  // the server goes away with ana's stream open
  EXPECT_TRUE(watch->Ended().has_value());
  EXPECT_EQ(CountEvents(v1::BankedTableEvent::kConnection), 0);
  EXPECT_FALSE(View("ana", "rd2").disconnected());
}

TEST_F(BankedTableTest,
       BJ29_BJ30_DisconnectedHandStandsAtTheTimeoutAndSettles) {
  v1::BlackjackTableConfig config;
  config.set_seats(1);
  ASSERT_TRUE(CreateBlackjack("bd1", config).ok());
  Fund("ana", 100'000);
  ASSERT_TRUE(Sit("ana", "bd1", 1).ok());
  auto watch = Watch("ana", "bd1");
  ASSERT_TRUE(
      watch->WaitFor([](const v1::BankedTableView& v) { return v.joined(); }));
  // Deal until a round waits for ana (a blackjack at the deal ends it).
  int64_t staked_before = 0;
  int64_t returned_before = 0;
  v1::BankedTableView view;
  for (int round = 1; round <= 20; ++round) {
    ASSERT_TRUE(PlaceBet("ana", "bd1", {}, 1'000).ok());
    tables_->Tick();
    view = View("ana", "bd1");
    if (view.blackjack().in_round()) break;
    Settle();
    const v1::BankedRoundRecord r = LastRound("ana", "bd1");
    staked_before += r.staked_minor();
    returned_before += r.returned_minor();
  }
  ASSERT_TRUE(view.blackjack().in_round());
  const int64_t round = view.round();
  ASSERT_TRUE(watch->WaitFor([&](const v1::BankedTableView& v) {
    return v.round() == round && v.blackjack().in_round();
  }));
  // BJ-29: ana's equipment fails mid-round, after the bet.
  watch->Cancel();
  ASSERT_TRUE(WaitDisconnected("ana", "bd1"));
  ExpectNoHiddenCard(watch->views());
  EXPECT_TRUE(View("ana", "bd1").blackjack().in_round());  // not void
  // The decision time runs out (insurance declined, the hand stands).
  for (int i = 0; i < 5 && View("ana", "bd1").blackjack().in_round(); ++i) {
    clock_.Advance(absl::Seconds(31));
    tables_->Tick();
  }
  ASSERT_FALSE(View("ana", "bd1").blackjack().in_round());
  Settle();
  // BJ-30: the round is valid, settled like any other.
  const v1::BankedRoundRecord last = LastRound("ana", "bd1");
  EXPECT_EQ(last.round(), round);
  EXPECT_FALSE(last.voided());
  EXPECT_EQ(last.staked_minor(), 1'000);
  EXPECT_GE(last.dealer_cards_size(), 2);
  const int64_t staked = staked_before + 1'000;
  const int64_t returned = returned_before + last.returned_minor();
  EXPECT_EQ(Cash("ana"), 100'000 - staked + returned);
  EXPECT_EQ(Bank(), staked - returned);
  EXPECT_EQ(Wagers("bd1"), 0);
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_F(BankedTableTest, SD35_DisconnectAfterAnteBeforeBetFoldsAndLosesAnte) {
  v1::StudTableConfig config;
  config.set_seats(1);
  ASSERT_TRUE(CreateStud("sx1", config).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Sit("ana", "sx1", 1).ok());
  auto watch = Watch("ana", "sx1");
  ASSERT_TRUE(
      watch->WaitFor([](const v1::BankedTableView& v) { return v.joined(); }));
  ASSERT_TRUE(PlaceBet("ana", "sx1", {}, 200).ok());
  tables_->Tick();  // SD-15: dealt at once
  ASSERT_TRUE(watch->WaitFor([](const v1::BankedTableView& v) {
    return v.stud().phase() == "DECISIONS";
  }));
  watch->Cancel();
  ExpectNoHiddenCard(watch->views());
  ASSERT_TRUE(WaitDisconnected("ana", "sx1"));
  Settle();
  // SD-35: deemed to have folded; the ante goes to the bank.
  const v1::BankedTableView view = View("ana", "sx1");
  EXPECT_EQ(view.stud().phase(), "FINISHED");
  ASSERT_NE(StudSeat(view, 1), nullptr);
  EXPECT_EQ(StudSeat(view, 1)->outcome(), "folded");
  EXPECT_EQ(Cash("ana"), 9'800);
  EXPECT_EQ(Bank(), 200);
  EXPECT_EQ(Wagers("sx1"), 0);
  EXPECT_EQ(LedgerSum(), 0);
  // No new ante while the line is down: refused, nothing appended.
  const int64_t events = TableEvents();
  EXPECT_EQ(PlaceBet("ana", "sx1", {}, 200).error_code(),
            grpc::FAILED_PRECONDITION);
  EXPECT_EQ(TableEvents(), events);
  EXPECT_EQ(Cash("ana"), 9'800);
  // Back (a new stream): the next round takes the ante again.
  auto again = Watch("ana", "sx1");
  ASSERT_TRUE(WaitDisconnected("ana", "sx1", false));
  EXPECT_TRUE(PlaceBet("ana", "sx1", {}, 200).ok());
  EXPECT_EQ(Cash("ana"), 9'600);
}

TEST_F(BankedTableTest, SD35_DisconnectBeforeTheDealGetsNoCardsAndLosesAnte) {
  v1::StudTableConfig config;
  config.set_seats(3);
  ASSERT_TRUE(CreateStud("sx2", config).ok());
  Fund("ana", 10'000);
  Fund("bob", 10'000);
  ASSERT_TRUE(Sit("ana", "sx2", 1).ok());
  ASSERT_TRUE(Sit("bob", "sx2", 2).ok());
  auto watch = Watch("ana", "sx2");
  ASSERT_TRUE(
      watch->WaitFor([](const v1::BankedTableView& v) { return v.joined(); }));
  ASSERT_TRUE(PlaceBet("ana", "sx2", {}, 300).ok());
  ASSERT_TRUE(PlaceBet("bob", "sx2", {}, 500).ok());
  watch->Cancel();  // within the betting period (SD-14)
  ASSERT_TRUE(WaitDisconnected("ana", "sx2"));
  clock_.Advance(absl::Seconds(15));
  tables_->Tick();
  v1::BankedTableView bob = View("bob", "sx2");
  ASSERT_EQ(bob.stud().phase(), "DECISIONS");
  ASSERT_TRUE(StudAct("bob", "sx2", v1::STUD_ACTION_TYPE_FOLD).ok());
  Settle();
  const v1::BankedTableView ana = View("ana", "sx2");
  EXPECT_EQ(ana.stud().phase(), "FINISHED");
  EXPECT_EQ(StudSeat(ana, 1)->cards_size(), 0);
  EXPECT_EQ(StudSeat(ana, 1)->outcome(), "folded");
  EXPECT_EQ(Cash("ana"), 9'700);
  EXPECT_EQ(Cash("bob"), 9'500);
  EXPECT_EQ(Bank(), 800);
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_F(BankedTableTest, SD36_DisconnectAfterTheBetStaysInAndIsSettled) {
  v1::StudTableConfig config;
  config.set_seats(3);
  ASSERT_TRUE(CreateStud("sx3", config).ok());
  Fund("ana", 10'000);
  Fund("bob", 10'000);
  ASSERT_TRUE(Sit("ana", "sx3", 1).ok());
  ASSERT_TRUE(Sit("bob", "sx3", 2).ok());
  auto watch = Watch("ana", "sx3");
  ASSERT_TRUE(
      watch->WaitFor([](const v1::BankedTableView& v) { return v.joined(); }));
  ASSERT_TRUE(PlaceBet("ana", "sx3", {}, 300).ok());
  ASSERT_TRUE(PlaceBet("bob", "sx3", {}, 500).ok());
  clock_.Advance(absl::Seconds(15));
  tables_->Tick();
  ASSERT_EQ(View("ana", "sx3").stud().phase(), "DECISIONS");
  ASSERT_TRUE(StudAct("ana", "sx3", v1::STUD_ACTION_TYPE_BET).ok());
  watch->Cancel();
  ASSERT_TRUE(WaitDisconnected("ana", "sx3"));
  // Still in, and the bank's cards stay hidden until bob decides.
  v1::BankedTableView ana = View("ana", "sx3");
  EXPECT_EQ(ana.stud().phase(), "DECISIONS");
  EXPECT_EQ(StudSeat(ana, 1)->decision(), "continued");
  EXPECT_EQ(ana.stud().bank_cards_size(), 0);
  ASSERT_TRUE(StudAct("bob", "sx3", v1::STUD_ACTION_TYPE_FOLD).ok());
  Settle();
  ana = View("ana", "sx3");
  ASSERT_EQ(ana.stud().phase(), "FINISHED");
  // SD-36: settled per SD-28: a win paid, a loss to the bank.
  const v1::BankedRoundRecord last = LastRound("ana", "sx3");
  EXPECT_NE(last.outcome(), "folded");
  EXPECT_NE(last.outcome(), "void");
  EXPECT_EQ(last.staked_minor(), 900);
  EXPECT_EQ(Cash("ana"), 10'000 - 900 + last.returned_minor());
  EXPECT_EQ(Cash("bob"), 9'500);
  EXPECT_EQ(Bank(), 900 - last.returned_minor() + 500);
  EXPECT_EQ(Wagers("sx3"), 0);
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_F(BankedTableTest, SD36_BetInFlightWhenTheLineGoesDownStands) {
  Shutdown();
  // The test decides when the wallet answers.
  wallet_requests_interval_ = absl::ZeroDuration();
  stake_wait_ = absl::Milliseconds(50);
  Start();
  // The wallet carries out what the tables asked, and the tables read its
  // answers, until `done`.
  auto wallet_until = [&](auto done) {
    for (int i = 0; i < 1000 && !done(); ++i) {
      EXPECT_TRUE(wallet_->PollBankedRequests().ok());
      absl::SleepFor(absl::Milliseconds(2));
    }
    return done();
  };
  v1::StudTableConfig config;
  config.set_seats(3);
  ASSERT_TRUE(CreateStud("sx4", config).ok());
  Fund("ana", 10'000);
  Fund("bob", 10'000);
  ASSERT_TRUE(Sit("ana", "sx4", 1).ok());
  ASSERT_TRUE(Sit("bob", "sx4", 2).ok());
  auto watch = Watch("ana", "sx4");
  ASSERT_TRUE(
      watch->WaitFor([](const v1::BankedTableView& v) { return v.joined(); }));
  for (const auto& [player, ante] : {std::pair{"ana", 300}, {"bob", 500}}) {
    EXPECT_EQ(PlaceBet(player, "sx4", {}, ante).error_code(),
              grpc::DEADLINE_EXCEEDED);
  }
  ASSERT_TRUE(wallet_until([&] {
    const v1::BankedTableView v = View("bob", "sx4");
    return StudSeat(v, 1) && StudSeat(v, 1)->ante_minor() == 300 &&
           StudSeat(v, 2) && StudSeat(v, 2)->ante_minor() == 500;
  }));
  clock_.Advance(absl::Seconds(15));
  tables_->Tick();
  ASSERT_EQ(View("ana", "sx4").stud().phase(), "DECISIONS");
  // ana bets; the line goes down while the wallet has not answered yet.
  EXPECT_EQ(StudAct("ana", "sx4", v1::STUD_ACTION_TYPE_BET).error_code(),
            grpc::DEADLINE_EXCEEDED);
  watch->Cancel();
  ASSERT_TRUE(WaitDisconnected("ana", "sx4"));
  EXPECT_EQ(StudSeat(View("ana", "sx4"), 1)->decision(), "pending");
  // The bet lands: it was made before the line went down (SD-36), so ana
  // stays in rather than being folded (SD-35).
  ASSERT_TRUE(wallet_until([&] {
    return StudSeat(View("ana", "sx4"), 1)->decision() == "continued";
  }));
  ASSERT_TRUE(StudAct("bob", "sx4", v1::STUD_ACTION_TYPE_FOLD).ok());
  ASSERT_TRUE(wallet_until([&] { return Wagers("sx4") == 0; }));
  const v1::BankedRoundRecord last = LastRound("ana", "sx4");
  EXPECT_NE(last.outcome(), "folded");
  EXPECT_EQ(last.staked_minor(), 900);
  EXPECT_EQ(Cash("ana"), 10'000 - 900 + last.returned_minor());
  EXPECT_EQ(Cash("bob"), 9'500);
  EXPECT_EQ(LedgerSum(), 0);
}

}  // namespace
}  // namespace banca::testing
