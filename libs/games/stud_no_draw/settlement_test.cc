#include "libs/games/stud_no_draw/settlement.h"

#include <string_view>

#include "gtest/gtest.h"
#include "libs/cards/test_util.h"
#include "libs/games/stud_no_draw/paytable.h"

namespace banca::games::stud_no_draw {
namespace {

using cards::Cards;

SeatSettlement Settle(int64_t ante, std::string_view player,
                      std::string_view bank) {
  absl::StatusOr<SeatSettlement> s =
      SettleContinued(ante, Cards(player), Cards(bank));
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : SeatSettlement{};
}

// The bank's lowest qualifying hand: ace-king (SD-25).
constexpr std::string_view kAceKing = "Ad Kc 4h 3s 2d";

TEST(StudNoDrawPaytable, WinningBetPaysByCombination_SD_12) {
  struct Row {
    std::string_view player;
    int64_t multiplier;
  };
  const Row rows[] = {
      {"As Ks Qs Js Ts", 100},  // a) royal flush
      {"9h 8h 7h 6h 5h", 50},   // b) straight flush
      {"7c 7d 7h 7s Qc", 20},   // c) four of a kind
      {"9c 9d 9h Qs Qc", 7},    // d) full house
      {"Jh 9h 6h 5h Th", 5},    // e) flush
      {"9c 8d 7h 6s 5c", 4},    // f) straight
      {"8c 8d 8h Qs 5c", 3},    // g) three of a kind
      {"8c 8s 5h 5s Qc", 2},    // h) two pairs
      {"Qh Qs 5c 7s 6c", 1},    // i) one pair
      {"Ah Ks Qc 7s 6c", 1},    // j) high cards (beats A-K-4-3-2)
  };
  for (const Row& row : rows) {
    const SeatSettlement s = Settle(100, row.player, kAceKing);
    EXPECT_EQ(s.outcome, Outcome::kWon) << row.player;
    EXPECT_EQ(s.multiplier, row.multiplier) << row.player;
    // The bet (2 × 100) comes back with its winnings (gap 4).
    EXPECT_EQ(s.bet, (BetSettlement{200, 200 + 200 * row.multiplier}))
        << row.player;
    EXPECT_EQ(BetMultiplier(cards::Value(row.player)), row.multiplier);
  }
}

TEST(StudNoDrawPaytable, PairAndHighCardsPayTheSecondBetOnce_SD_12_Gap5) {
  const SeatSettlement s = Settle(250, "Qh Qs 5c 7s 6c", kAceKing);
  EXPECT_EQ(s.bet, (BetSettlement{500, 1000}));
  EXPECT_EQ(s.ante, (BetSettlement{250, 500}));
}

TEST(StudNoDrawSettle, EachBetDecidedAgainstTheBank_SD_10_SD_11) {
  EXPECT_EQ(Settle(100, "Kh Ks 5c 7s 6c", "Qh Qd 5d 7d 6h").outcome,
            Outcome::kWon);
  EXPECT_EQ(Settle(100, "Qh Qd 5d 7d 6h", "Kh Ks 5c 7s 6c").outcome,
            Outcome::kLost);
}

TEST(StudNoDrawSettle, RankingAppliesToPlayerAndBank_SD_7_SD_8) {
  // A wheel straight beats the bank's trips; an ace-high straight beats
  // the wheel (SD-8: the ace is low in A-2-3-4-5).
  EXPECT_EQ(Settle(100, "Ah 2d 3c 4s 5h", "9c 9d 9h Ks 2c").outcome,
            Outcome::kWon);
  EXPECT_EQ(Settle(100, "Ah 2d 3c 4s 5h", "Ac Kd Qh Js Tc").outcome,
            Outcome::kLost);
}

TEST(StudNoDrawSettle, BankWithoutAceKingPaysAnteReturnsBet_SD_25_SD_26) {
  // A-Q-J-9-8 does not qualify: the player's worse hand still gets the
  // ante paid 1:1 and the bet back (gap 3).
  const SeatSettlement s = Settle(100, "Kh 7d 5c 4s 2h", "As Qd Jc 9h 8c");
  EXPECT_EQ(s.outcome, Outcome::kBankNotQualify);
  EXPECT_EQ(s.ante, (BetSettlement{100, 200}));
  EXPECT_EQ(s.bet, (BetSettlement{200, 200}));
  EXPECT_EQ(s.multiplier, 0);
}

TEST(StudNoDrawSettle, WinnerPaidBetByTableAndAnteEvenMoney_SD_27_SD_28) {
  const SeatSettlement s = Settle(300, "9c 9d 9h Qs Qc", "As Kd 8c 9s 2c");
  EXPECT_EQ(s.outcome, Outcome::kWon);
  EXPECT_EQ(s.ante, (BetSettlement{300, 600}));        // SD-28b
  EXPECT_EQ(s.bet, (BetSettlement{600, 600 + 4200}));  // SD-28a: 7 × 600
  EXPECT_EQ(s.staked(), 900);
  EXPECT_EQ(s.returned(), 5400);
  EXPECT_EQ(s.showdown.winner, 1);
}

TEST(StudNoDrawSettle, LoserLosesAnteAndBet_SD_29) {
  const SeatSettlement s = Settle(100, "Ah Kd 8c 5s 2h", "As Kc 9d 4h 3c");
  EXPECT_EQ(s.outcome, Outcome::kLost);
  EXPECT_EQ(s.ante, (BetSettlement{100, 0}));
  EXPECT_EQ(s.bet, (BetSettlement{200, 0}));
}

TEST(StudNoDrawSettle, HighCardTieBrokenByThreeOfOneSuit_SD_9) {
  EXPECT_EQ(Settle(100, "Ac Kc 9c 5s 3d", "Ad Kh 9s 5c 3h").outcome,
            Outcome::kWon);
  EXPECT_EQ(Settle(100, "Ad Kh 9s 5c 3h", "Ac Kc 9c 5s 3d").outcome,
            Outcome::kLost);
}

TEST(StudNoDrawSettle, SameCombinationHigherWins_SD_13) {
  // f) two pairs: the higher pair, the other pair, then the last card.
  EXPECT_EQ(Settle(100, "Kc Kd 4h 4s 9c", "Kh Ks 4c 4d 8c").outcome,
            Outcome::kWon);
  // g) pair: the higher pair, then the highest card.
  EXPECT_EQ(Settle(100, "Jc Jd Ah 4s 3c", "Jh Js Kc 9d 8c").outcome,
            Outcome::kWon);
  // c) full house: the higher three.
  EXPECT_EQ(Settle(100, "2c 2d 2h As Ac", "3c 3d 3h 4s 4c").outcome,
            Outcome::kLost);
}

TEST(StudNoDrawSettle, ExactTieIsAPush_Gap1) {
  // Equal pairs and kickers: SD-9's suit rule is for high cards only.
  SeatSettlement s = Settle(100, "Ac Ad 9c 5c 3c", "Ah As 9d 5h 3s");
  EXPECT_EQ(s.outcome, Outcome::kPush);
  EXPECT_EQ(s.ante, (BetSettlement{100, 100}));
  EXPECT_EQ(s.bet, (BetSettlement{200, 200}));
  // Equal high cards, both with three of one suit: push (gap 2).
  s = Settle(100, "Ac Kc 9c 5s 3d", "Ad Kd 9d 5h 3s");
  EXPECT_EQ(s.outcome, Outcome::kPush);
}

TEST(StudNoDrawSettle, FoldLosesTheAnte_SD_22) {
  const SeatSettlement s = SettleFolded(100);
  EXPECT_EQ(s.outcome, Outcome::kFolded);
  EXPECT_EQ(s.ante, (BetSettlement{100, 0}));
  EXPECT_EQ(s.bet, (BetSettlement{0, 0}));
}

TEST(StudNoDrawSettle, VoidReturnsEveryStake_SD_33) {
  SeatSettlement s = SettleVoid(100, 200);
  EXPECT_EQ(s.outcome, Outcome::kVoid);
  EXPECT_EQ(s.ante, (BetSettlement{100, 100}));
  EXPECT_EQ(s.bet, (BetSettlement{200, 200}));
  s = SettleVoid(100, 0);
  EXPECT_EQ(s.returned(), 100);
}

// The round settles only stakes it took: an ante, and a bet of exactly
// twice it (SD-23) or none. Anything else is a broken round, and settling
// it stops instead of paying it.
TEST(StudNoDrawSettleDeathTest, AStakeTheRoundCannotHaveTakenStops_SD_23) {
  EXPECT_DEATH(SettleVoid(100, 150), "BANCA_CHECK failed: bet.stake == 0");
  EXPECT_DEATH(SettleFolded(0), "BANCA_CHECK failed: ante.stake > 0");
}

TEST(StudNoDrawSettle, BadInputIsRejected) {
  EXPECT_EQ(
      SettleContinued(0, Cards("Ac Kc 9c 5s 3d"), Cards(kAceKing)).status(),
      absl::InvalidArgumentError("ante must be 1..4901960784313, got 0"));
  EXPECT_EQ(SettleContinued(int64_t{1} << 60, Cards("Ac Kc 9c 5s 3d"),
                            Cards(kAceKing))
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SettleContinued(100, Cards("Ac Kc 9c 5s"), Cards(kAceKing))
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      SettleContinued(100, Cards("Ad Kc 9c 5s 3d"), Cards(kAceKing)).status(),
      absl::InvalidArgumentError("repeated card between hands"));
}

TEST(StudNoDrawSettle, OutcomeNames) {
  EXPECT_EQ(OutcomeName(Outcome::kBankNotQualify), "bank_not_qualified");
  EXPECT_EQ(OutcomeName(Outcome::kVoid), "void");
}

}  // namespace
}  // namespace banca::games::stud_no_draw
