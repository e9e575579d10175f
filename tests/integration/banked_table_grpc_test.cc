// The banked-table service (roulette) end to end: gRPC on loopback, the
// real wallet in the same process, an embedded log on disk, RocksDB
// projections. Stakes go through the saga on the log; rounds settle in the
// ledger between the player's cash, game/<table>/wagers and house/bank;
// tokens decide who may do what.
#include <atomic>

#include "gmock/gmock.h"
#include "tests/integration/banked_table_fixture.h"

namespace banca::testing {
namespace {

namespace rl = games::roulette;
using ::testing::HasSubstr;

TEST_F(BankedTableTest, FrenchRoundEndToEndToTheCent) {
  ASSERT_TRUE(Create("rf1", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Join("ana", "rf1").ok());
  struct Placed {
    v1::RouletteBet bet;
    int64_t amount;
  };
  const std::vector<Placed> placed = {
      {Bet("straight", {"17"}), 100}, {Bet("red"), 200},
      {Bet("voisins"), 900},  // 9 chips of 100 (RF-8a)
      {Bet("dozen", {}, {2}), 300},   {Bet("neighbours", {"0"}, {}, 2), 300},
  };
  v1::BankedTableView view;
  for (const Placed& p : placed) {
    grpc::Status s = PlaceBet("ana", "rf1", p.bet, p.amount, 0, "", &view);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  // Shown as placed only once captured: all five, and the cash is down.
  ASSERT_EQ(view.roulette().my_bets_size(), 5);
  EXPECT_EQ(view.roulette().my_bets(2).chips_size(), 7);  // 2 of them ×2
  EXPECT_EQ(Cash("ana"), 10'000 - 1'800);
  EXPECT_EQ(Wagers("rf1"), 1'800);
  // The number does not exist before the window closes (DESIGN 7).
  EXPECT_EQ(CountEvents(v1::BankedTableEvent::kSpin), 0);
  clock_.Advance(absl::Seconds(29));
  tables_->Tick();
  EXPECT_EQ(CountEvents(v1::BankedTableEvent::kSpin), 0);
  Spin();
  ASSERT_EQ(CountEvents(v1::BankedTableEvent::kSpin), 1);

  const v1::BankedRoundRecord last = LastRound("ana", "rf1");
  EXPECT_EQ(last.round(), 1);
  int64_t returned = 0;
  for (const Placed& p : placed) {
    returned +=
        Returned(rl::WheelKind::kFrench, p.bet, p.amount, last.number());
  }
  EXPECT_EQ(last.staked_minor(), 1'800);
  EXPECT_EQ(last.returned_minor(), returned) << "number " << last.number();
  EXPECT_EQ(Cash("ana"), 10'000 - 1'800 + returned);
  EXPECT_EQ(Bank(), 1'800 - returned);
  EXPECT_EQ(Wagers("rf1"), 0);
  EXPECT_EQ(LedgerSum(), 0);

  const v1::BankedTableView after = View("ana", "rf1");
  EXPECT_EQ(after.round(), 2);
  EXPECT_EQ(after.roulette().my_bets_size(), 0);
  ASSERT_EQ(after.roulette().last_numbers_size(), 1);
  EXPECT_EQ(after.roulette().last_numbers(0).number(), last.number());
  EXPECT_EQ(after.session().total_bet_minor(), 1'800);
  EXPECT_EQ(after.session().total_returned_minor(), returned);
  EXPECT_EQ(after.session().net_minor(), returned - 1'800);

  v1::LeaveBankedTableRequest leave;
  leave.set_request_id("leave-ana");
  leave.set_table_id("rf1");
  v1::BankedSessionSummary summary;
  ASSERT_TRUE(stub_->Leave(As("ana").get(), leave, &summary).ok());
  EXPECT_EQ(summary.rounds(), 1);
  EXPECT_EQ(summary.net_minor(), returned - 1'800);
}

TEST_F(BankedTableTest, AmericanDoubleZeroRoundToTheCent) {
  ASSERT_TRUE(Create("ra1", v1::BANKED_GAME_ROULETTE_AMERICAN).ok());
  Fund("bia", 5'000);
  ASSERT_TRUE(Join("bia", "ra1").ok());
  const v1::RouletteBet zz = Bet("straight", {"00"});
  const v1::RouletteBet split = Bet("split", {"0", "00"});
  const v1::RouletteBet black = Bet("black");
  ASSERT_TRUE(PlaceBet("bia", "ra1", zz, 100).ok());
  ASSERT_TRUE(PlaceBet("bia", "ra1", split, 200).ok());
  ASSERT_TRUE(PlaceBet("bia", "ra1", black, 500).ok());
  Spin();
  const v1::BankedRoundRecord last = LastRound("bia", "ra1");
  const rl::WheelKind wheel = rl::WheelKind::kAmericanDoubleZero;
  const int64_t returned = Returned(wheel, zz, 100, last.number()) +
                           Returned(wheel, split, 200, last.number()) +
                           Returned(wheel, black, 500, last.number());
  EXPECT_EQ(last.returned_minor(), returned);
  EXPECT_EQ(Cash("bia"), 5'000 - 800 + returned);
  EXPECT_EQ(Bank(), 800 - returned);
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_F(BankedTableTest, BadInputsAreRefusedPreciselyAndAppendNothing) {
  ASSERT_TRUE(Create("rf2", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  Fund("ana", 100'000);
  Fund("bob", 100'000);
  ASSERT_TRUE(Join("ana", "rf2").ok());
  ASSERT_TRUE(PlaceBet("ana", "rf2", Bet("red"), 1'000).ok());
  const int64_t events = TableEvents();
  const int64_t cash = Cash("ana");
  auto expect = [&](grpc::Status s, grpc::StatusCode code,
                    const std::string& message) {
    EXPECT_EQ(s.error_code(), code) << s.error_message();
    EXPECT_NE(s.error_message().find(message), std::string::npos)
        << s.error_message();
    EXPECT_EQ(TableEvents(), events);
    EXPECT_EQ(Cash("ana"), cash);
  };
  expect(PlaceBet("ana", "nope", Bet("red"), 100, 1), grpc::NOT_FOUND,
         "no banked table nope");
  // RFD-10: below the minimum; RFD-11: a straight-up takes at most 30×.
  expect(PlaceBet("ana", "rf2", Bet("straight", {"5"}), 50),
         grpc::INVALID_ARGUMENT, "minimum");
  expect(PlaceBet("ana", "rf2", Bet("straight", {"5"}), 3'100),
         grpc::INVALID_ARGUMENT, "maximum");
  // A call bet's amount must divide into its chips (voisins: 9).
  expect(PlaceBet("ana", "rf2", Bet("voisins"), 1'000), grpc::INVALID_ARGUMENT,
         "");
  expect(PlaceBet("ana", "rf2", Bet("straight", {"37"}), 100),
         grpc::INVALID_ARGUMENT, "roulette.numbers[0]");
  expect(PlaceBet("ana", "rf2", Bet("split", {"1", "9"}), 100),
         grpc::INVALID_ARGUMENT, "");
  expect(PlaceBet("ana", "rf2", Bet("pleno"), 100), grpc::INVALID_ARGUMENT,
         "roulette.kind");
  expect(PlaceBet("ana", "rf2", Bet("red"), 0), grpc::INVALID_ARGUMENT,
         "amount_minor must be positive");
  expect(PlaceBet("ana", "rf2", Bet("red"), 100, 7), grpc::FAILED_PRECONDITION,
         "round 7 is not taking bets");
  // bob has not joined; an operator does not bet; no token, forged token.
  {
    v1::PlaceBankedBetRequest req;
    req.set_request_id("x1");
    req.set_table_id("rf2");
    req.set_round(1);
    req.set_amount_minor(100);
    *req.mutable_roulette() = Bet("red");
    v1::BankedTableView view;
    expect(stub_->PlaceBet(As("bob").get(), req, &view),
           grpc::FAILED_PRECONDITION, "bob has not joined");
    expect(stub_->PlaceBet(Operator().get(), req, &view),
           grpc::PERMISSION_DENIED, "only a player");
    grpc::ClientContext none;
    expect(stub_->PlaceBet(&none, req, &view), grpc::UNAUTHENTICATED,
           "authorization");
    grpc::ClientContext forged;
    forged.AddMetadata("authorization", "Bearer v1.ana.player.9999999999.AA");
    expect(stub_->PlaceBet(&forged, req, &view), grpc::UNAUTHENTICATED, "");
  }
  // bob cannot take ana's bet off the board, and players create no tables.
  {
    ASSERT_TRUE(Join("bob", "rf2").ok());
    const int64_t joined = TableEvents();
    v1::WithdrawBankedBetRequest w;
    w.set_request_id("w-bob");
    w.set_table_id("rf2");
    w.set_bet_id(View("ana", "rf2").roulette().my_bets(0).bet_id());
    v1::BankedTableView view;
    grpc::Status s = stub_->WithdrawBet(As("bob").get(), w, &view);
    EXPECT_EQ(s.error_code(), grpc::NOT_FOUND) << s.error_message();
    v1::CreateBankedTableRequest c;
    c.set_request_id("c-bob");
    c.set_table_id("mine");
    c.set_game(v1::BANKED_GAME_ROULETTE_FRENCH);
    v1::BankedTableInfo info;
    s = stub_->CreateTable(As("bob").get(), c, &info);
    EXPECT_EQ(s.error_code(), grpc::PERMISSION_DENIED) << s.error_message();
    // RFD-13: a window shorter than 30 s is refused.
    c.set_request_id("c-op");
    c.mutable_roulette()->set_betting_seconds(20);
    s = stub_->CreateTable(Operator().get(), c, &info);
    EXPECT_EQ(s.error_code(), grpc::INVALID_ARGUMENT) << s.error_message();
    EXPECT_EQ(TableEvents(), joined);
  }
  // RFD-14: once the window has run its course no bet is taken, even
  // before the service has launched the ball.
  clock_.Advance(absl::Seconds(30));
  const int64_t before_late = TableEvents();
  grpc::Status late = PlaceBet("ana", "rf2", Bet("black"), 100, 1);
  EXPECT_EQ(late.error_code(), grpc::FAILED_PRECONDITION);
  EXPECT_NE(late.error_message().find("no more bets"), std::string::npos)
      << late.error_message();
  EXPECT_EQ(TableEvents(), before_late);
}

TEST_F(BankedTableTest, StakeWithoutFundsIsRefusedAndNothingIsPlaced) {
  ASSERT_TRUE(Create("rf3", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  Fund("cai", 150);
  ASSERT_TRUE(Join("cai", "rf3").ok());
  grpc::Status s = PlaceBet("cai", "rf3", Bet("odd"), 200);
  EXPECT_EQ(s.error_code(), grpc::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("stake refused"), std::string::npos)
      << s.error_message();
  EXPECT_EQ(View("cai", "rf3").roulette().my_bets_size(), 0);
  Settle();
  EXPECT_EQ(Cash("cai"), 150);
  EXPECT_EQ(Wagers("rf3"), 0);
  // A stake within the cash still works afterwards.
  ASSERT_TRUE(PlaceBet("cai", "rf3", Bet("odd"), 100).ok());
  EXPECT_EQ(Cash("cai"), 50);
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_F(BankedTableTest, VoidRoundRefundsEveryStakeVisibly) {
  ASSERT_TRUE(Create("rf4", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  Fund("ana", 2'000);
  Fund("bob", 2'000);
  ASSERT_TRUE(Join("ana", "rf4").ok());
  ASSERT_TRUE(Join("bob", "rf4").ok());
  ASSERT_TRUE(PlaceBet("ana", "rf4", Bet("straight", {"3"}), 100).ok());
  ASSERT_TRUE(PlaceBet("bob", "rf4", Bet("tiers"), 600).ok());
  v1::VoidBankedRoundRequest v;
  v.set_request_id("void-1");
  v.set_table_id("rf4");
  v.set_reason("RNG server down");
  v1::BankedTableInfo info;
  grpc::Status player_try = stub_->VoidRound(As("ana").get(), v, &info);
  EXPECT_EQ(player_try.error_code(), grpc::PERMISSION_DENIED);
  ASSERT_TRUE(stub_->VoidRound(Operator().get(), v, &info).ok());
  EXPECT_EQ(info.round(), 2);
  Settle();
  EXPECT_EQ(Cash("ana"), 2'000);
  EXPECT_EQ(Cash("bob"), 2'000);
  EXPECT_EQ(Bank(), 0);
  EXPECT_EQ(Wagers("rf4"), 0);
  EXPECT_EQ(LedgerSum(), 0);
  // The refunds are VOID_REFUND transactions naming the bet and round, on
  // bob's statement (the projection follows the log: poll a little).
  bool refunded = false;
  for (int i = 0; i < 500 && !refunded; ++i) {
    v1::ListTransactionsRequest list;
    list.set_player_id("bob");
    v1::ListTransactionsResponse txs;
    grpc::ClientContext ctx;
    ASSERT_TRUE(wallet_stub_->ListTransactions(&ctx, list, &txs).ok());
    for (const v1::StatementEntry& e : txs.entries()) {
      if (e.reason() == v1::POSTING_REASON_VOID_REFUND) {
        refunded = true;
        EXPECT_EQ(e.reference().id(), "rf4.r1");
        EXPECT_EQ(e.amount_minor(), 600);
        EXPECT_NE(e.memo().find("void"), std::string::npos) << e.memo();
      }
    }
    if (!refunded) absl::SleepFor(absl::Milliseconds(4));
  }
  EXPECT_TRUE(refunded);
}

TEST_F(BankedTableTest, WithdrawnBetGoesBackWhole) {
  ASSERT_TRUE(Create("rf5", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  Fund("ana", 1'000);
  ASSERT_TRUE(Join("ana", "rf5").ok());
  v1::BankedTableView view;
  ASSERT_TRUE(PlaceBet("ana", "rf5", Bet("low"), 400, 0, "", &view).ok());
  v1::WithdrawBankedBetRequest w;
  w.set_request_id("w1");
  w.set_table_id("rf5");
  w.set_bet_id(view.roulette().my_bets(0).bet_id());
  ASSERT_TRUE(stub_->WithdrawBet(As("ana").get(), w, &view).ok());
  EXPECT_EQ(view.roulette().my_bets_size(), 0);
  Settle();
  EXPECT_EQ(Cash("ana"), 1'000);
  EXPECT_EQ(Wagers("rf5"), 0);
}

TEST_F(BankedTableTest, RestartRebuildsTheTableAndRetriesAppendNothing) {
  ASSERT_TRUE(Create("rf6", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Join("ana", "rf6").ok());
  ASSERT_TRUE(PlaceBet("ana", "rf6", Bet("red"), 1'000).ok());
  Spin();
  ASSERT_TRUE(
      PlaceBet("ana", "rf6", Bet("column", {}, {1}), 600, 2, "keep").ok());
  const v1::BankedTableView before = View("ana", "rf6");
  const int64_t cash = Cash("ana");
  Restart();
  const v1::BankedTableView after = View("ana", "rf6");
  EXPECT_EQ(after.round(), 2);
  EXPECT_EQ(after.roulette().my_bets_size(), 1);
  EXPECT_EQ(after.roulette().last_numbers(0).number(),
            before.roulette().last_numbers(0).number());
  EXPECT_EQ(after.session().total_bet_minor(), 1'000);
  EXPECT_EQ(after.roulette().betting_closes_at_micros(),
            before.roulette().betting_closes_at_micros());
  // The retry of the bet answers and appends nothing.
  const int64_t events = TableEvents();
  ASSERT_TRUE(
      PlaceBet("ana", "rf6", Bet("column", {}, {1}), 600, 2, "keep").ok());
  EXPECT_EQ(TableEvents(), events);
  EXPECT_EQ(Cash("ana"), cash);
  Spin();
  const v1::BankedRoundRecord last = LastRound("ana", "rf6");
  EXPECT_EQ(last.round(), 2);
  const int64_t returned = Returned(rl::WheelKind::kFrench,
                                    Bet("column", {}, {1}), 600, last.number());
  EXPECT_EQ(Cash("ana"), cash + returned);
  EXPECT_EQ(LedgerSum(), 0);
}

// A table's commands are decided under its lock and made durable off it,
// by the log's group commit: players betting at once all get their answers,
// each answer shows the player's bets so far, and every bet answered is
// still there after a restart.
TEST_F(BankedTableTest, ConcurrentBetsAtOneTableAreDurableBeforeTheirAnswers) {
  ASSERT_TRUE(Create("rf9", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  constexpr int kPlayers = 8;
  const std::vector<std::string> kinds = {"red", "black", "even", "odd", "low"};
  auto name = [](int i) { return absl::StrCat("p", i); };
  for (int i = 0; i < kPlayers; ++i) {
    Fund(name(i), 10'000);
    ASSERT_TRUE(Join(name(i), "rf9").ok());
  }
  std::atomic<int> answered{0};
  std::atomic<int> shown{0};
  std::vector<std::thread> players;
  for (int i = 0; i < kPlayers; ++i) {
    players.emplace_back([&, i] {
      for (size_t b = 0; b < kinds.size(); ++b) {
        v1::BankedTableView view;
        if (!PlaceBet(name(i), "rf9", Bet(kinds[b]), 100, 1,
                      absl::StrCat(name(i), "-", b), &view)
                 .ok()) {
          continue;
        }
        ++answered;
        if (view.roulette().my_bets_size() == static_cast<int>(b) + 1) {
          ++shown;
        }
      }
    });
  }
  for (std::thread& t : players) t.join();
  const int bets = kPlayers * static_cast<int>(kinds.size());
  EXPECT_EQ(answered.load(), bets);
  EXPECT_EQ(shown.load(), bets);
  Settle();
  EXPECT_EQ(Wagers("rf9"), bets * 100);
  Restart();
  for (int i = 0; i < kPlayers; ++i) {
    EXPECT_EQ(View(name(i), "rf9").roulette().my_bets_size(),
              static_cast<int>(kinds.size()))
        << name(i);
  }
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_F(BankedTableTest, IndividualWheelLaunchedByThePlayerReplaysThreeRounds) {
  v1::RouletteTableConfig config;
  config.set_individual(true);
  config.set_player_launches(true);
  ASSERT_TRUE(Create("solo", v1::BANKED_GAME_ROULETTE_FRENCH, config).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Join("ana", "solo").ok());
  grpc::Status second = Join("bob", "solo");
  EXPECT_EQ(second.error_code(), grpc::FAILED_PRECONDITION);
  EXPECT_NE(second.error_message().find("RF-4"), std::string::npos);
  for (int round = 1; round <= 4; ++round) {
    ASSERT_TRUE(PlaceBet("ana", "solo", Bet("even"), 100 * round).ok());
    v1::LaunchRequest launch;
    launch.set_request_id(absl::StrCat("launch-", round));
    launch.set_table_id("solo");
    launch.set_round(round);
    v1::BankedTableView view;
    grpc::Status s = stub_->Launch(As("ana").get(), launch, &view);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(view.round(), round + 1);
  }
  Settle();
  v1::GetBankedTableRequest req;
  req.set_table_id("solo");
  v1::BankedReplayResponse replay;
  ASSERT_TRUE(stub_->GetReplay(As("ana").get(), req, &replay).ok());
  // RFD-27: the last three, most recent first.
  ASSERT_EQ(replay.rounds_size(), 3);
  EXPECT_EQ(replay.rounds(0).round(), 4);
  EXPECT_EQ(replay.rounds(2).round(), 2);
  EXPECT_EQ(replay.rounds(0).staked_minor(), 400);
  int64_t returned = 0;
  v1::LastNumbersResponse numbers;
  ASSERT_TRUE(stub_->GetLastNumbers(As("ana").get(), req, &numbers).ok());
  ASSERT_EQ(numbers.numbers_size(), 4);
  for (int i = 0; i < 4; ++i) {
    returned += Returned(rl::WheelKind::kFrench, Bet("even"), 100 * (4 - i),
                         numbers.numbers(i).number());
  }
  EXPECT_EQ(Cash("ana"), 10'000 - 1'000 + returned);
  EXPECT_EQ(Bank(), 1'000 - returned);
  // A timed wheel is not launched by a player.
  ASSERT_TRUE(Create("timed", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  v1::LaunchRequest launch;
  launch.set_request_id("launch-timed");
  launch.set_table_id("timed");
  launch.set_round(1);
  v1::BankedTableView view;
  EXPECT_EQ(stub_->Launch(As("ana").get(), launch, &view).error_code(),
            grpc::FAILED_PRECONDITION);
}

TEST_F(BankedTableTest, StakeTheWalletAnswersTooLateIsPaidBack) {
  ASSERT_TRUE(Create("rf7", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  Fund("ana", 1'000);
  ASSERT_TRUE(Join("ana", "rf7").ok());
  Restart();
  Shutdown();
  // The wallet is "slow": nobody reads the stakes.
  wallet_requests_interval_ = absl::ZeroDuration();
  stake_wait_ = absl::Milliseconds(50);
  Start();
  grpc::Status s = PlaceBet("ana", "rf7", Bet("red"), 200, 1, "late");
  EXPECT_EQ(s.error_code(), grpc::DEADLINE_EXCEEDED) << s.error_message();
  EXPECT_EQ(View("ana", "rf7").roulette().my_bets_size(), 0);
  // The client retries: the stake is still on its way, so the retry
  // waits for it again (the same answer) and requests no second stake.
  const int64_t events = TableEvents();
  s = PlaceBet("ana", "rf7", Bet("red"), 200, 1, "late");
  EXPECT_EQ(s.error_code(), grpc::DEADLINE_EXCEEDED) << s.error_message();
  EXPECT_EQ(TableEvents(), events);
  // The table gives up after saga_timeout: the bet is off the board.
  clock_.Advance(absl::Seconds(11));
  tables_->Tick();
  EXPECT_EQ(CountEvents(v1::BankedTableEvent::kStakeRefused), 1);
  // A retry now is answered by the refusal, not by an OK for a bet that is
  // not on the board (a client that took it for placed waited for a round
  // that never came: tools/run-chaos-e2e), and appends nothing.
  const int64_t refused_events = TableEvents();
  s = PlaceBet("ana", "rf7", Bet("red"), 200, 1, "late");
  EXPECT_EQ(s.error_code(), grpc::FAILED_PRECONDITION) << s.error_message();
  EXPECT_THAT(s.error_message(), HasSubstr("did not answer in time"));
  EXPECT_EQ(TableEvents(), refused_events);
  // Now the wallet takes the stake; the table sees the late capture and
  // asks for it back (BankedMoney "compensation"); the wallet pays it.
  ASSERT_TRUE(wallet_->PollBankedRequests().ok());
  EXPECT_EQ(Cash("ana"), 800);
  for (int i = 0; i < 1000 && Cash("ana") != 1'000; ++i) {
    ASSERT_TRUE(wallet_->PollBankedRequests().ok());
    absl::SleepFor(absl::Milliseconds(2));
  }
  EXPECT_EQ(Cash("ana"), 1'000);
  EXPECT_EQ(Wagers("rf7"), 0);
  EXPECT_EQ(View("ana", "rf7").roulette().my_bets_size(), 0);
  EXPECT_EQ(LedgerSum(), 0);
}

// Blackjack ------------------------------------------------------------

TEST_F(BankedTableTest, BlackjackRoundsWithInsuranceAndDoublesToTheCent) {
  v1::BlackjackTableConfig config;
  config.set_seats(1);  // individual: dealt as soon as the bet is captured
  ASSERT_TRUE(CreateBlackjack("bj1", config).ok());
  Fund("ana", 100'000);
  ASSERT_TRUE(Sit("ana", "bj1", 1).ok());
  int64_t staked = 0;
  int64_t returned = 0;
  bool doubled = false;
  bool insured = false;
  for (int round = 1; round <= 30 && !(doubled && round > 3); ++round) {
    v1::BankedTableView view;
    ASSERT_TRUE(PlaceBet("ana", "bj1", {}, 1'000, 0, "", &view).ok());
    EXPECT_EQ(view.blackjack().seats(0).pending_bet_minor(), 1'000);
    tables_->Tick();  // the deal, from a freshly shuffled shoe
    view = View("ana", "bj1");
    // A blackjack (the player's, or the dealer's found by the peek) ends
    // the round at the deal.
    ASSERT_EQ(view.round(), view.blackjack().in_round() ? round : round + 1);
    if (view.blackjack().in_round()) {
      // DESIGN 7: the hole card stays on the server while play goes on.
      EXPECT_TRUE(view.blackjack().hole_card_hidden());
      EXPECT_EQ(view.blackjack().dealer_cards_size(), 1);
    }
    for (int step = 0; step < 20 && view.blackjack().in_round(); ++step) {
      ASSERT_EQ(view.blackjack().to_act_seat(), 1);
      grpc::Status s;
      if (Can(view, v1::BLACKJACK_ACTION_TYPE_INSURANCE)) {
        s = Act("ana", "bj1", v1::BLACKJACK_ACTION_TYPE_INSURANCE, 500);
        insured = true;
      } else if (Can(view, v1::BLACKJACK_ACTION_TYPE_DOUBLE)) {
        s = Act("ana", "bj1", v1::BLACKJACK_ACTION_TYPE_DOUBLE);
        doubled = true;
      } else {
        s = Act("ana", "bj1", v1::BLACKJACK_ACTION_TYPE_STAND);
      }
      ASSERT_TRUE(s.ok()) << s.error_message();
      view = View("ana", "bj1");
    }
    ASSERT_FALSE(view.blackjack().in_round());
    Settle();
    const v1::BankedRoundRecord last = LastRound("ana", "bj1");
    EXPECT_EQ(last.round(), round);
    EXPECT_GE(last.dealer_cards_size(), 2);  // revealed once the round ends
    staked += last.staked_minor();
    returned += last.returned_minor();
    int64_t bets = 0;
    for (const v1::BlackjackBetView& b : last.stake_results()) {
      bets += b.stake_minor();
    }
    EXPECT_EQ(bets, last.staked_minor());
    EXPECT_EQ(Cash("ana"), 100'000 - staked + returned) << "round " << round;
    EXPECT_EQ(Bank(), staked - returned);
    EXPECT_EQ(Wagers("bj1"), 0);
    EXPECT_EQ(LedgerSum(), 0);
  }
  EXPECT_TRUE(doubled);
  const v1::BankedTableView view = View("ana", "bj1");
  EXPECT_EQ(view.session().total_bet_minor(), staked);
  EXPECT_EQ(view.session().total_returned_minor(), returned);
  (void)insured;  // taken whenever the dealer showed an ace
}

TEST_F(BankedTableTest, BlackjackBadInputsAppendNothing) {
  v1::BlackjackTableConfig config;
  config.set_seats(3);
  config.set_min_bet_minor(500);
  config.set_max_bet_minor(5'000);
  ASSERT_TRUE(CreateBlackjack("bj2", config).ok());
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Sit("ana", "bj2", 1).ok());
  ASSERT_TRUE(Sit("bob", "bj2", 2).ok());
  const int64_t events = TableEvents();
  auto expect = [&](grpc::Status s, grpc::StatusCode code,
                    const std::string& message) {
    EXPECT_EQ(s.error_code(), code) << s.error_message();
    EXPECT_NE(s.error_message().find(message), std::string::npos)
        << s.error_message();
  };
  expect(PlaceBet("ana", "bj2", {}, 400), grpc::INVALID_ARGUMENT, "");
  expect(PlaceBet("ana", "bj2", {}, 5'100), grpc::INVALID_ARGUMENT, "");
  expect(PlaceBet("ana", "bj2", {}, 1'000, 9), grpc::FAILED_PRECONDITION,
         "round 9");
  expect(Sit("cai", "bj2", 2), grpc::FAILED_PRECONDITION, "");
  expect(Sit("cai", "bj2", 4), grpc::INVALID_ARGUMENT, "");
  expect(Act("ana", "bj2", v1::BLACKJACK_ACTION_TYPE_HIT, 0, 1),
         grpc::FAILED_PRECONDITION, "not in play");
  EXPECT_EQ(TableEvents(), events);
  ASSERT_TRUE(PlaceBet("ana", "bj2", {}, 1'000).ok());
  ASSERT_TRUE(PlaceBet("bob", "bj2", {}, 1'000).ok());
  clock_.Advance(absl::Seconds(15));  // the betting time from the first bet
  tables_->Tick();
  v1::BankedTableView view = View("ana", "bj2");
  ASSERT_TRUE(view.blackjack().in_round() || view.round() == 2);
  if (view.blackjack().in_round()) {
    EXPECT_TRUE(view.blackjack().hole_card_hidden());
    const int to_act = view.blackjack().to_act_seat();
    const std::string other = to_act == 1 ? "bob" : "ana";
    const int64_t before = TableEvents();
    // Out of turn; an operator acting; another round; a bet mid-round.
    expect(Act(other, "bj2", v1::BLACKJACK_ACTION_TYPE_HIT),
           grpc::FAILED_PRECONDITION, "");
    v1::BankedActRequest req;
    req.set_request_id("op-act");
    req.set_table_id("bj2");
    req.set_round(1);
    req.set_action(v1::BLACKJACK_ACTION_TYPE_STAND);
    v1::BankedTableView out;
    expect(stub_->Act(Operator().get(), req, &out), grpc::PERMISSION_DENIED,
           "only a player");
    expect(Act(to_act == 1 ? "ana" : "bob", "bj2",
               v1::BLACKJACK_ACTION_TYPE_STAND, 0, 2),
           grpc::FAILED_PRECONDITION, "round 2 is not in play");
    expect(PlaceBet("ana", "bj2", {}, 1'000, 1), grpc::FAILED_PRECONDITION, "");
    expect(Act(to_act == 1 ? "ana" : "bob", "bj2",
               v1::BLACKJACK_ACTION_TYPE_UNSPECIFIED),
           grpc::INVALID_ARGUMENT, "action must be");
    EXPECT_EQ(TableEvents(), before);
    // Nobody acts: the decision time runs out and every hand stands.
    for (int i = 0; i < 10 && View("ana", "bj2").blackjack().in_round(); ++i) {
      clock_.Advance(absl::Seconds(30));
      tables_->Tick();
    }
    EXPECT_FALSE(View("ana", "bj2").blackjack().in_round());
  }
  Settle();
  const v1::BankedRoundRecord a = LastRound("ana", "bj2");
  const v1::BankedRoundRecord b = LastRound("bob", "bj2");
  EXPECT_EQ(Cash("ana"), 50'000 - a.staked_minor() + a.returned_minor());
  EXPECT_EQ(Cash("bob"), 50'000 - b.staked_minor() + b.returned_minor());
  EXPECT_EQ(Bank(), a.staked_minor() + b.staked_minor() - a.returned_minor() -
                        b.returned_minor());
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_F(BankedTableTest, BlackjackVoidRoundRefundsAndRestartResumesTheRound) {
  v1::BlackjackTableConfig config;
  config.set_seats(1);
  ASSERT_TRUE(CreateBlackjack("bj3", config).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Sit("ana", "bj3", 1).ok());
  // Deal until a round waits for a decision (a blackjack ends at once).
  v1::BankedTableView view;
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(PlaceBet("ana", "bj3", {}, 1'000).ok());
    tables_->Tick();
    view = View("ana", "bj3");
    if (view.blackjack().in_round()) break;
  }
  ASSERT_TRUE(view.blackjack().in_round());
  Settle();
  const int64_t cash = Cash("ana");
  Restart();
  const v1::BankedTableView after = View("ana", "bj3");
  EXPECT_TRUE(after.blackjack().in_round());
  EXPECT_EQ(after.round(), view.round());
  EXPECT_EQ(after.blackjack().dealer_cards(0),
            view.blackjack().dealer_cards(0));
  EXPECT_EQ(after.blackjack().seats(0).hands(0).cards(0),
            view.blackjack().seats(0).hands(0).cards(0));
  EXPECT_TRUE(after.blackjack().hole_card_hidden());
  // BJ-27/28: the system fails: the round is void and the stake returned.
  v1::VoidBankedRoundRequest v;
  v.set_request_id("void-bj");
  v.set_table_id("bj3");
  v1::BankedTableInfo info;
  ASSERT_TRUE(stub_->VoidRound(Operator().get(), v, &info).ok());
  Settle();
  EXPECT_EQ(Cash("ana"), cash + 1'000);
  EXPECT_EQ(Wagers("bj3"), 0);
  EXPECT_EQ(LedgerSum(), 0);
  EXPECT_TRUE(LastRound("ana", "bj3").voided());
}

TEST_F(BankedTableTest, BlackjackIdlePlayerInvitedWarnedThenEnded_BJ_35a_36) {
  v1::BlackjackTableConfig config;
  config.set_seats(1);
  ASSERT_TRUE(CreateBlackjack("bj4", config).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Sit("ana", "bj4", 1).ok());
  clock_.Advance(absl::Seconds(181));
  tables_->Tick();
  EXPECT_EQ(View("ana", "bj4").notice(), "invited");
  clock_.Advance(absl::Seconds(61));
  tables_->Tick();
  EXPECT_EQ(View("ana", "bj4").notice(), "warned");
  clock_.Advance(absl::Seconds(61));
  tables_->Tick();
  const v1::BankedTableView view = View("ana", "bj4");
  EXPECT_EQ(view.notice(), "ended");
  EXPECT_FALSE(view.joined());
}

// Póquer sem descarte --------------------------------------------------

TEST_F(BankedTableTest, StudRoundAnteAndBetToTheCent_SD_15_SD_23) {
  v1::StudTableConfig config;
  config.set_seats(1);
  ASSERT_TRUE(CreateStud("sd1", config).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Sit("ana", "sd1", 1).ok());
  ASSERT_TRUE(PlaceBet("ana", "sd1", {}, 200).ok());
  EXPECT_EQ(Cash("ana"), 9'800);
  tables_->Tick();  // SD-15: alone at the table, the cards come at once
  v1::BankedTableView view = View("ana", "sd1");
  ASSERT_EQ(view.stud().phase(), "DECISIONS");
  // DESIGN 7: the caller's five cards and the bank's up card, nothing else.
  ASSERT_NE(StudSeat(view, 1), nullptr);
  EXPECT_EQ(StudSeat(view, 1)->cards_size(), 5);
  EXPECT_FALSE(view.stud().bank_up_card().empty());
  EXPECT_EQ(view.stud().bank_cards_size(), 0);
  EXPECT_TRUE(view.stud().can_bet());
  EXPECT_EQ(view.stud().bet_minor(), 400);  // SD-23: twice the ante
  // The deck is in the log sealed while the round is on (docs/security.md,
  // "Sealed decks"), and shown once it is over.
  EXPECT_EQ(CountEvents(v1::BankedTableEvent::kRevealed), 0);
  ASSERT_TRUE(StudAct("ana", "sd1", v1::STUD_ACTION_TYPE_BET).ok());
  Settle();
  EXPECT_EQ(CountEvents(v1::BankedTableEvent::kRevealed), 1);
  view = View("ana", "sd1");
  EXPECT_EQ(view.stud().phase(), "FINISHED");
  EXPECT_EQ(view.stud().bank_cards_size(), 5);  // SD-24: revealed now
  const v1::BankedRoundRecord last = LastRound("ana", "sd1");
  EXPECT_EQ(last.staked_minor(), 600);
  EXPECT_EQ(last.my_cards_size(), 5);
  EXPECT_FALSE(last.outcome().empty());
  EXPECT_EQ(Cash("ana"), 10'000 - 600 + last.returned_minor());
  EXPECT_EQ(Bank(), 600 - last.returned_minor());
  EXPECT_EQ(Wagers("sd1"), 0);
  EXPECT_EQ(LedgerSum(), 0);
  EXPECT_EQ(view.session().total_bet_minor(), 600);
}

TEST_F(BankedTableTest, StudFoldAndTimeoutWithWarning_SD_22_SD_31_SD_32) {
  v1::StudTableConfig config;
  config.set_seats(3);
  ASSERT_TRUE(CreateStud("sd2", config).ok());
  Fund("ana", 10'000);
  Fund("bob", 10'000);
  ASSERT_TRUE(Sit("ana", "sd2", 1).ok());
  ASSERT_TRUE(Sit("bob", "sd2", 2).ok());
  ASSERT_TRUE(PlaceBet("ana", "sd2", {}, 300).ok());
  ASSERT_TRUE(PlaceBet("bob", "sd2", {}, 500).ok());
  tables_->Tick();
  EXPECT_EQ(View("ana", "sd2").stud().phase(), "BETTING");  // SD-14
  clock_.Advance(absl::Seconds(15));
  tables_->Tick();
  v1::BankedTableView bob = View("bob", "sd2");
  ASSERT_EQ(bob.stud().phase(), "DECISIONS");
  // bob never sees ana's cards (DESIGN 7).
  EXPECT_EQ(StudSeat(bob, 1)->cards_size(), 0);
  EXPECT_EQ(StudSeat(bob, 2)->cards_size(), 5);
  ASSERT_TRUE(StudAct("ana", "sd2", v1::STUD_ACTION_TYPE_FOLD).ok());
  // bob does not decide: SD-31 warns and grants the extra time, SD-32 folds.
  clock_.Advance(absl::Seconds(30));
  tables_->Tick();
  bob = View("bob", "sd2");
  EXPECT_TRUE(bob.stud().warned());
  EXPECT_EQ(bob.stud().phase(), "DECISIONS");
  clock_.Advance(absl::Seconds(15));
  tables_->Tick();
  Settle();
  bob = View("bob", "sd2");
  EXPECT_EQ(bob.stud().phase(), "FINISHED");
  EXPECT_EQ(StudSeat(bob, 2)->outcome(), "folded");
  EXPECT_EQ(Cash("ana"), 9'700);
  EXPECT_EQ(Cash("bob"), 9'500);
  EXPECT_EQ(Bank(), 800);
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_F(BankedTableTest, StudBadInputsAppendNothing) {
  v1::StudTableConfig bad;
  bad.set_min_ante_minor(100);
  bad.set_max_ante_minor(2'600);  // SD-18: at most 25 × the minimum
  grpc::Status created = CreateStud("sdx", bad);
  EXPECT_EQ(created.error_code(), grpc::INVALID_ARGUMENT);
  v1::StudTableConfig config;
  config.set_seats(2);
  ASSERT_TRUE(CreateStud("sd3", config).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Sit("ana", "sd3", 1).ok());
  const int64_t events = TableEvents();
  auto expect = [&](grpc::Status s, grpc::StatusCode code) {
    EXPECT_EQ(s.error_code(), code) << s.error_message();
  };
  expect(PlaceBet("ana", "sd3", {}, 50), grpc::INVALID_ARGUMENT);     // SD-16
  expect(PlaceBet("ana", "sd3", {}, 2'600), grpc::INVALID_ARGUMENT);  // SD-18
  expect(PlaceBet("ana", "sd3", {}, 100, 4), grpc::FAILED_PRECONDITION);
  expect(PlaceBet("bob", "sd3", {}, 100, 1), grpc::FAILED_PRECONDITION);
  expect(StudAct("ana", "sd3", v1::STUD_ACTION_TYPE_BET, 1),
         grpc::FAILED_PRECONDITION);
  expect(Sit("bob", "sd3", 8), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(TableEvents(), events);
  ASSERT_TRUE(PlaceBet("ana", "sd3", {}, 100).ok());
  clock_.Advance(absl::Seconds(15));
  tables_->Tick();
  const int64_t dealt = TableEvents();
  expect(StudAct("ana", "sd3", v1::STUD_ACTION_TYPE_UNSPECIFIED),
         grpc::INVALID_ARGUMENT);
  expect(PlaceBet("ana", "sd3", {}, 100, 1), grpc::FAILED_PRECONDITION);
  EXPECT_EQ(TableEvents(), dealt);
}

TEST_F(BankedTableTest, StudRestartMidRoundThenVoidRefunds_SD_33) {
  v1::StudTableConfig config;
  config.set_seats(1);
  ASSERT_TRUE(CreateStud("sd4", config).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Sit("ana", "sd4", 1).ok());
  ASSERT_TRUE(PlaceBet("ana", "sd4", {}, 200).ok());
  tables_->Tick();
  // The round waits for ana's decision (SD-20) across a restart.
  const v1::BankedTableView view = View("ana", "sd4");
  ASSERT_EQ(view.stud().phase(), "DECISIONS");
  Settle();
  const int64_t cash = Cash("ana");
  Restart();
  const v1::BankedTableView after = View("ana", "sd4");
  EXPECT_EQ(after.round(), view.round());
  EXPECT_EQ(StudSeat(after, 1)->cards(0), StudSeat(view, 1)->cards(0));
  EXPECT_EQ(after.stud().bank_cards_size(), 0);
  v1::VoidBankedRoundRequest v;
  v.set_request_id("void-sd");
  v.set_table_id("sd4");
  v1::BankedTableInfo info;
  ASSERT_TRUE(stub_->VoidRound(Operator().get(), v, &info).ok());
  Settle();
  EXPECT_EQ(Cash("ana"), cash + 200);  // the ante back
  EXPECT_EQ(Wagers("sd4"), 0);
  EXPECT_EQ(LedgerSum(), 0);
  EXPECT_TRUE(LastRound("ana", "sd4").voided());
}

}  // namespace
}  // namespace banca::testing
