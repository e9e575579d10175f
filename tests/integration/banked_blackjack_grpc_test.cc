// Blackjack's decisions through the banked-table service end to end (gRPC
// on loopback, the real wallet, the embedded log): split and re-split,
// doubling (after a split too), surrender, insurance won and lost, and the
// shared table's inactivity rule. Each deal comes from a stacked shoe
// (stacked_shoe.h: the service's own shuffle, fed the picks that give the
// cards the rule needs), so every amount below is worked out by hand and
// checked to the cent in the wallet: each bet's stake and its one
// settlement posting, the balances, and the round as GetLastRound shows it.
#include <map>

#include "libs/tables/sealed_decks.h"
#include "libs/wire/topics.h"
#include "tests/integration/banked_table_fixture.h"

namespace banca::testing {
namespace {

using v1::BLACKJACK_ACTION_TYPE_DOUBLE;
using v1::BLACKJACK_ACTION_TYPE_HIT;
using v1::BLACKJACK_ACTION_TYPE_INSURANCE;
using v1::BLACKJACK_ACTION_TYPE_SPLIT;
using v1::BLACKJACK_ACTION_TYPE_STAND;
using v1::BLACKJACK_ACTION_TYPE_SURRENDER;

class BankedBlackjackTest : public BankedTableTest {
 protected:
  static constexpr int64_t kCash = 100'000;

  // An individual table (dealt as soon as the bet is captured) with `ana`
  // seated and funded.
  void OneSeat(const std::string& table, v1::BlackjackTableConfig config = {},
               const std::string& player = "ana") {
    config.set_seats(1);
    ASSERT_TRUE(CreateBlackjack(table, config).ok());
    Fund(player, kCash);
    ASSERT_TRUE(Sit(player, table, 1).ok());
  }
  // Bets `stake` on the next round, dealt from a shoe whose top is `top`.
  v1::BankedTableView Deal(const std::string& table, int64_t stake,
                           const std::string& top,
                           const std::string& player = "ana") {
    shoes_.Stack(table, top);
    grpc::Status s = PlaceBet(player, table, {}, stake);
    EXPECT_TRUE(s.ok()) << s.error_message();
    tables_->Tick();  // the deal
    EXPECT_EQ(shoes_.Waiting(table), 0) << "the stacked shoe was not dealt";
    return View(player, table);
  }
  void Do(const std::string& table, v1::BlackjackActionType action,
          int64_t amount = 0, const std::string& player = "ana") {
    grpc::Status s = Act(player, table, action, amount);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  // The last round's bets as GetLastRound shows them, by bet id.
  std::map<std::string, v1::BlackjackBetView> LastBets(
      const std::string& table, const std::string& player = "ana") {
    std::map<std::string, v1::BlackjackBetView> out;
    const v1::BankedRoundRecord last = LastRound(player, table);
    for (const v1::BlackjackBetView& b : last.stake_results()) {
      out[b.bet_id()] = b;
    }
    return out;
  }
  // The bet's stake posting (cash -> wagers) and its one settlement with
  // the player's, the bank's and the wagers' side of it.
  void ExpectBet(const std::vector<v1::LedgerTransaction>& posted,
                 const std::string& table, const std::string& bet_id,
                 int64_t stake, v1::PostingReason settled_as, int64_t to_player,
                 int64_t to_bank, const std::string& player = "ana") {
    SCOPED_TRACE(bet_id);
    const std::string cash = ledger::PlayerCashAccount(player);
    const std::string wagers = settlement::WagersAccount(table);
    const std::string bank(settlement::kBankAccount);
    const v1::LedgerTransaction in =
        PostedFor(posted, bet_id, v1::POSTING_REASON_BET);
    EXPECT_EQ(PostingTo(in, cash), -stake);
    EXPECT_EQ(PostingTo(in, wagers), stake);
    EXPECT_EQ(in.game(), "blackjack");
    const v1::LedgerTransaction out = PostedFor(posted, bet_id, settled_as);
    EXPECT_EQ(PostingTo(out, wagers), -stake);
    EXPECT_EQ(PostingTo(out, cash), to_player);
    EXPECT_EQ(PostingTo(out, bank), to_bank);
  }
};

TEST_F(BankedBlackjackTest,
       BJ_Decision_SplitResplitAndDoubleAfterSplitSettleEachHandToTheCent) {
  OneSeat("bjs");
  // Deck order: ana, dealer up, ana, hole; then draws in play order. After
  // splitting 8-8 hand 1 takes the 8c and splits again (hand 3 plays right
  // after it), takes 3c and doubles onto Ts (21); hand 3 takes 2d, hits
  // Qh (20) and stands; hand 2 takes 7c (15) and stands; the dealer's 16
  // draws 4c: 20.
  v1::BankedTableView view =
      Deal("bjs", 1'000, "8s 6h 8d Th 8c 3c Ts 2d Qh 7c 4c");
  ASSERT_TRUE(view.blackjack().in_round());
  EXPECT_EQ(Cash("ana"), kCash - 1'000);
  ASSERT_TRUE(Can(view, BLACKJACK_ACTION_TYPE_SPLIT));
  EXPECT_EQ(view.blackjack().legal().split_minor(), 1'000);

  Do("bjs", BLACKJACK_ACTION_TYPE_SPLIT);
  EXPECT_EQ(Cash("ana"), kCash - 2'000);  // the split's stake, captured
  view = View("ana", "bjs");
  ASSERT_EQ(view.blackjack().to_act_hand(), 1);
  ASSERT_EQ(view.blackjack().seats(0).hands_size(), 2);
  EXPECT_EQ(view.blackjack().seats(0).hands(0).cards_size(), 2);  // 8s 8c
  ASSERT_TRUE(Can(view, BLACKJACK_ACTION_TYPE_SPLIT));  // re-split (to 4)

  Do("bjs", BLACKJACK_ACTION_TYPE_SPLIT);
  EXPECT_EQ(Cash("ana"), kCash - 3'000);
  view = View("ana", "bjs");
  ASSERT_EQ(view.blackjack().seats(0).hands_size(), 3);
  EXPECT_EQ(view.blackjack().seats(0).hands(0).total(), 11);  // 8s 3c
  ASSERT_TRUE(Can(view, BLACKJACK_ACTION_TYPE_DOUBLE));       // after a split

  Do("bjs", BLACKJACK_ACTION_TYPE_DOUBLE);
  EXPECT_EQ(Cash("ana"), kCash - 4'000);
  view = View("ana", "bjs");
  ASSERT_TRUE(view.blackjack().in_round());
  EXPECT_EQ(view.blackjack().to_act_hand(), 3);  // in play order: 1, 3, 2
  Do("bjs", BLACKJACK_ACTION_TYPE_HIT);
  Do("bjs", BLACKJACK_ACTION_TYPE_STAND);
  view = View("ana", "bjs");
  ASSERT_TRUE(view.blackjack().in_round());
  EXPECT_EQ(view.blackjack().to_act_hand(), 2);
  Do("bjs", BLACKJACK_ACTION_TYPE_STAND);
  ASSERT_FALSE(View("ana", "bjs").blackjack().in_round());
  Settle();

  // Hand 1: 21 beats 20 on both its stakes; hand 3: 20 pushes; hand 2:
  // 15 loses.
  const auto bets = LastBets("bjs");
  ASSERT_EQ(bets.size(), 4u);
  EXPECT_EQ(bets.at("seat1.main").outcome(), "won");
  EXPECT_EQ(bets.at("seat1.main").returned_minor(), 2'000);
  EXPECT_EQ(bets.at("seat1.double1").outcome(), "won");
  EXPECT_EQ(bets.at("seat1.double1").returned_minor(), 2'000);
  EXPECT_EQ(bets.at("seat1.split3").outcome(), "push");
  EXPECT_EQ(bets.at("seat1.split3").returned_minor(), 1'000);
  EXPECT_EQ(bets.at("seat1.split2").outcome(), "lost");
  EXPECT_EQ(bets.at("seat1.split2").returned_minor(), 0);
  const v1::BankedRoundRecord last = LastRound("ana", "bjs");
  EXPECT_EQ(last.staked_minor(), 4'000);
  EXPECT_EQ(last.returned_minor(), 5'000);
  EXPECT_EQ(last.dealer_total(), 20);
  EXPECT_EQ(last.hands_size(), 3);

  const auto posted = Posted("bjs", 1);
  EXPECT_EQ(posted.size(), 8u);  // four stakes, four settlements
  ExpectBet(posted, "bjs", "seat1.main", 1'000, v1::POSTING_REASON_PAYOUT,
            2'000, -1'000);
  ExpectBet(posted, "bjs", "seat1.double1", 1'000, v1::POSTING_REASON_PAYOUT,
            2'000, -1'000);
  ExpectBet(posted, "bjs", "seat1.split3", 1'000,
            v1::POSTING_REASON_BET_RETURNED, 1'000, 0);
  ExpectBet(posted, "bjs", "seat1.split2", 1'000, v1::POSTING_REASON_BET_LOST,
            0, 1'000);
  EXPECT_EQ(Cash("ana"), kCash + 1'000);
  EXPECT_EQ(Bank(), -1'000);
  EXPECT_EQ(Wagers("bjs"), 0);
  EXPECT_EQ(LedgerSum(), 0);
  EXPECT_EQ(View("ana", "bjs").session().total_bet_minor(), 4'000);
  EXPECT_EQ(View("ana", "bjs").session().total_returned_minor(), 5'000);
}

TEST_F(BankedBlackjackTest, BJ_Decision_DoubleTakesOneCardAndPaysBothStakes) {
  OneSeat("bjd");
  // 6-5 against a 5: double onto 9c (20); the dealer's 15 draws 7d, bust.
  v1::BankedTableView view = Deal("bjd", 1'500, "6s 5h 5d Tc 9c 7d");
  ASSERT_TRUE(Can(view, BLACKJACK_ACTION_TYPE_DOUBLE));
  EXPECT_EQ(view.blackjack().legal().double_minor(), 1'500);
  Do("bjd", BLACKJACK_ACTION_TYPE_DOUBLE);
  // One card and the hand stands: the round is over without another word.
  ASSERT_FALSE(View("ana", "bjd").blackjack().in_round());
  Settle();
  const v1::BankedRoundRecord last = LastRound("ana", "bjd");
  ASSERT_EQ(last.hands_size(), 1);
  EXPECT_EQ(last.hands(0).cards_size(), 3);
  EXPECT_EQ(last.hands(0).total(), 20);
  EXPECT_EQ(last.hands(0).double_stake_minor(), 1'500);
  EXPECT_EQ(last.dealer_total(), 22);
  const auto posted = Posted("bjd", 1);
  EXPECT_EQ(posted.size(), 4u);
  ExpectBet(posted, "bjd", "seat1.main", 1'500, v1::POSTING_REASON_PAYOUT,
            3'000, -1'500);
  ExpectBet(posted, "bjd", "seat1.double1", 1'500, v1::POSTING_REASON_PAYOUT,
            3'000, -1'500);
  EXPECT_EQ(Cash("ana"), kCash + 3'000);
  EXPECT_EQ(Bank(), -3'000);
  EXPECT_EQ(Wagers("bjd"), 0);
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_F(BankedBlackjackTest,
       BJ_Decision_LateSurrenderReturnsHalfOddCentToThePlayer) {
  v1::BlackjackTableConfig config;
  config.set_surrender(true);
  OneSeat("bjr", config);
  // 16 against a 9 (no peek under a 9): surrender.
  v1::BankedTableView view = Deal("bjr", 1'001, "Ts 9c 6h Tc");
  ASSERT_TRUE(Can(view, BLACKJACK_ACTION_TYPE_SURRENDER));
  Do("bjr", BLACKJACK_ACTION_TYPE_SURRENDER);
  ASSERT_FALSE(View("ana", "bjr").blackjack().in_round());
  Settle();
  const auto bets = LastBets("bjr");
  ASSERT_EQ(bets.size(), 1u);
  EXPECT_EQ(bets.at("seat1.main").outcome(), "surrendered");
  // Half of 1,001 is 500.5: the player gets the odd cent (501 back).
  EXPECT_EQ(bets.at("seat1.main").returned_minor(), 501);
  ExpectBet(Posted("bjr", 1), "bjr", "seat1.main", 1'001,
            v1::POSTING_REASON_BET_LOST, 501, 500);
  EXPECT_EQ(Cash("ana"), kCash - 500);
  EXPECT_EQ(Bank(), 500);
  EXPECT_EQ(Wagers("bjr"), 0);

  // The default table offers none: the same hand may not surrender, and
  // asking changes nothing.
  OneSeat("bjn", {}, "bob");
  view = Deal("bjn", 1'000, "Ts 9c 6h Tc", "bob");
  ASSERT_TRUE(view.blackjack().in_round());
  EXPECT_FALSE(Can(view, BLACKJACK_ACTION_TYPE_SURRENDER));
  const int64_t events = TableEvents();
  grpc::Status s = Act("bob", "bjn", BLACKJACK_ACTION_TYPE_SURRENDER);
  EXPECT_EQ(s.error_code(), grpc::INVALID_ARGUMENT) << s.error_message();
  EXPECT_NE(s.error_message().find("surrender"), std::string::npos)
      << s.error_message();
  EXPECT_EQ(TableEvents(), events);
  Do("bjn", BLACKJACK_ACTION_TYPE_STAND, 0, "bob");  // 16 loses to 19
  Settle();
  EXPECT_EQ(Cash("bob"), kCash - 1'000);
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_F(BankedBlackjackTest, BJ_25f_InsurancePaysTwiceWhenDealerHasBlackjack) {
  OneSeat("bji");
  // 19 against an ace with a king under it.
  v1::BankedTableView view = Deal("bji", 1'000, "Ts As 9h Kd");
  ASSERT_TRUE(view.blackjack().in_round());
  EXPECT_TRUE(view.blackjack().hole_card_hidden());
  ASSERT_TRUE(Can(view, BLACKJACK_ACTION_TYPE_INSURANCE));
  EXPECT_EQ(view.blackjack().legal().max_insurance_minor(), 500);
  // More than half the bet is refused and appends nothing.
  const int64_t events = TableEvents();
  grpc::Status s = Act("ana", "bji", BLACKJACK_ACTION_TYPE_INSURANCE, 501);
  EXPECT_EQ(s.error_code(), grpc::INVALID_ARGUMENT) << s.error_message();
  EXPECT_EQ(TableEvents(), events);
  EXPECT_EQ(Cash("ana"), kCash - 1'000);

  Do("bji", BLACKJACK_ACTION_TYPE_INSURANCE, 300);
  // The peek finds the blackjack: the round ends at once.
  ASSERT_FALSE(View("ana", "bji").blackjack().in_round());
  Settle();
  const auto bets = LastBets("bji");
  ASSERT_EQ(bets.size(), 2u);
  EXPECT_EQ(bets.at("seat1.main").outcome(), "lost");
  EXPECT_EQ(bets.at("seat1.insurance").outcome(), "won");
  // BJ-25f: paid twice the insurance, the stake kept (gap 4): 3 x 300.
  EXPECT_EQ(bets.at("seat1.insurance").returned_minor(), 900);
  const v1::BankedRoundRecord last = LastRound("ana", "bji");
  EXPECT_EQ(last.dealer_cards_size(), 2);
  EXPECT_EQ(last.dealer_total(), 21);
  const auto posted = Posted("bji", 1);
  EXPECT_EQ(posted.size(), 4u);
  ExpectBet(posted, "bji", "seat1.insurance", 300, v1::POSTING_REASON_PAYOUT,
            900, -600);
  ExpectBet(posted, "bji", "seat1.main", 1'000, v1::POSTING_REASON_BET_LOST, 0,
            1'000);
  EXPECT_EQ(Cash("ana"), kCash - 1'300 + 900);
  EXPECT_EQ(Bank(), 1'000 - 600);
  EXPECT_EQ(Wagers("bji"), 0);
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_F(BankedBlackjackTest, BJ_25g_InsuranceLostWithoutDealerBlackjack) {
  OneSeat("bjg");
  // 19 against an ace with a 7 under it (soft 18): the peek finds nothing,
  // play goes on, and 19 beats 18.
  v1::BankedTableView view = Deal("bjg", 1'000, "Ts Ad 9h 7c");
  ASSERT_TRUE(Can(view, BLACKJACK_ACTION_TYPE_INSURANCE));
  Do("bjg", BLACKJACK_ACTION_TYPE_INSURANCE, 500);
  EXPECT_EQ(Cash("ana"), kCash - 1'500);
  view = View("ana", "bjg");
  ASSERT_TRUE(view.blackjack().in_round());
  EXPECT_TRUE(view.blackjack().hole_card_hidden());
  EXPECT_FALSE(Can(view, BLACKJACK_ACTION_TYPE_INSURANCE));  // decided once
  Do("bjg", BLACKJACK_ACTION_TYPE_STAND);
  ASSERT_FALSE(View("ana", "bjg").blackjack().in_round());
  Settle();
  const auto bets = LastBets("bjg");
  EXPECT_EQ(bets.at("seat1.insurance").outcome(), "lost");
  EXPECT_EQ(bets.at("seat1.insurance").returned_minor(), 0);
  EXPECT_EQ(bets.at("seat1.main").outcome(), "won");
  const auto posted = Posted("bjg", 1);
  ExpectBet(posted, "bjg", "seat1.insurance", 500, v1::POSTING_REASON_BET_LOST,
            0, 500);
  ExpectBet(posted, "bjg", "seat1.main", 1'000, v1::POSTING_REASON_PAYOUT,
            2'000, -1'000);
  EXPECT_EQ(Cash("ana"), kCash + 500);
  EXPECT_EQ(Bank(), -500);
  EXPECT_EQ(Wagers("bjg"), 0);
  EXPECT_EQ(LedgerSum(), 0);
}

TEST_F(BankedBlackjackTest,
       BJ_35b_BJ_36_IdleAtASharedTableInvitedWarnedThenEndedByRounds) {
  v1::BlackjackTableConfig config;
  config.set_seats(3);
  ASSERT_TRUE(CreateBlackjack("bjm", config).ok());
  Fund("ana", kCash);
  Fund("bob", kCash);
  ASSERT_TRUE(Sit("ana", "bjm", 1).ok());
  ASSERT_TRUE(Sit("bob", "bjm", 2).ok());
  const std::vector<std::string> expected = {"", "",        "",       "",
                                             "", "invited", "warned", "ended"};
  for (int round = 1; round <= 8; ++round) {
    SCOPED_TRACE(round);
    // Long pauses between rounds: at a shared table time does not count
    // (BJ-35a is the individual table's rule), rounds do.
    clock_.Advance(absl::Seconds(200));
    tables_->Tick();
    EXPECT_EQ(View("bob", "bjm").notice(),
              round == 1 ? std::string() : expected[round - 2]);
    // Ana's blackjack against a 5 ends each round at the deal.
    shoes_.Stack("bjm", "As 5c Kd 9h");
    ASSERT_TRUE(PlaceBet("ana", "bjm", {}, 1'000).ok());
    clock_.Advance(absl::Seconds(15));  // the betting time
    tables_->Tick();
    ASSERT_EQ(shoes_.Waiting("bjm"), 0);
    ASSERT_FALSE(View("ana", "bjm").blackjack().in_round());
    EXPECT_EQ(LastRound("ana", "bjm").round(), round);
    // BJ-35b (gap 6): the 6th round without a bet invites; BJ-36: the 7th
    // warns, the 8th ends the session.
    const v1::BankedTableView bob = View("bob", "bjm");
    EXPECT_EQ(bob.notice(), expected[round - 1]);
    EXPECT_EQ(bob.joined(), round < 8);
  }
  Settle();
  EXPECT_EQ(Cash("ana"), kCash + 8 * 1'500);  // 3:2 on each blackjack
  EXPECT_EQ(Cash("bob"), kCash);
  EXPECT_EQ(Bank(), -8 * 1'500);
  // The seat is free again, and ana plays on.
  EXPECT_TRUE(View("ana", "bjm").joined());
  EXPECT_TRUE(Sit("cai", "bjm", 2).ok());
  EXPECT_EQ(LedgerSum(), 0);
}

// Issue 17 item 6 (docs/security.md, "Sealed decks"): the shoe goes to the
// log sealed with the table hosts' deck key, so no reader of the topic
// learns the dealer's hole card or the next card while the round is on; a
// restarted host opens it and plays the round on; the round's end shows
// the shoe in a DeckRevealed.
TEST_F(BankedBlackjackTest, AShoeIsLoggedSealedAndRevealedWhenTheRoundEnds) {
  OneSeat("bjx");
  // Ana Ts 9d (19) against 6h and the hole card Th; the dealer draws 4c.
  v1::BankedTableView view = Deal("bjx", 1'000, "Ts 6h 9d Th 4c");
  ASSERT_TRUE(view.blackjack().in_round());
  auto logged = [&] {
    std::vector<v1::BankedTableEvent> out;
    const int partitions = log_->PartitionCount(wire::kBankedTopic).value_or(0);
    for (int p = 0; p < partitions; ++p) {
      for (const auto& r :
           log_->Read(wire::kBankedTopic, p, 0, 100'000)
               .value_or(std::vector<eventlog::StoredRecord>{})) {
        auto d = wire::DecodeBankedRecord(r);
        EXPECT_TRUE(d.ok()) << d.status();
        if (d.ok() && d->event.table_id() == "bjx") {
          out.push_back(std::move(d->event));
        }
      }
    }
    return out;
  };
  std::optional<v1::BankedTableEvent> dealt;
  for (const v1::BankedTableEvent& e : logged()) {
    EXPECT_FALSE(e.has_revealed()) << "revealed while the round is on";
    if (e.has_dealt()) dealt = e;
  }
  ASSERT_TRUE(dealt.has_value());
  EXPECT_EQ(dealt->dealt().deck_size(), 0) << "a shoe in clear in the log";
  ASSERT_TRUE(dealt->dealt().has_sealed_deck());
  v1::BankedTableEvent opened = *dealt;
  ASSERT_TRUE(tables::OpenDeal(TestDeckKeys(), opened).ok());
  const std::vector<std::string> shoe(opened.dealt().deck().begin(),
                                      opened.dealt().deck().end());
  ASSERT_GE(shoe.size(), 5u);
  EXPECT_EQ(std::vector<std::string>(shoe.begin(), shoe.begin() + 5),
            (std::vector<std::string>{"Ts", "6h", "9d", "Th", "4c"}));

  Restart();  // mid-round: the host opens the sealed shoe
  ASSERT_TRUE(View("ana", "bjx").blackjack().in_round());
  Do("bjx", BLACKJACK_ACTION_TYPE_STAND);
  ASSERT_FALSE(View("ana", "bjx").blackjack().in_round());
  Settle();
  int reveals = 0;
  for (const v1::BankedTableEvent& e : logged()) {
    if (!e.has_revealed()) continue;
    ++reveals;
    EXPECT_EQ(e.revealed().round(), 1);
    EXPECT_EQ(std::vector<std::string>(e.revealed().deck().begin(),
                                       e.revealed().deck().end()),
              shoe);
  }
  EXPECT_EQ(reveals, 1);
  EXPECT_EQ(Cash("ana"), kCash - 1'000);  // 19 loses to 20
}

}  // namespace
}  // namespace banca::testing
