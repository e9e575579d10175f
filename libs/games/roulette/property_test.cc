// Random bets and spins against an independent reading of the payout table
// (RFD-12): a winning bet on n numbers returns 36/n times its stake (35+1,
// 17+1, 11+1, 8+1, 5+1, 2+1, 2+1, ½+1, ½+1 and 1+1), so over every pocket
// of the wheel a bet returns exactly 36 × its stake, whatever its shape.
#include <array>
#include <map>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/cards/random.h"
#include "libs/cards/seeded_random.h"
#include "libs/games/roulette/table.h"
#include "libs/games/roulette/test_util.h"
#include "libs/games/roulette/wheel.h"

namespace banca::games::roulette {
namespace {

using testing::At;
using testing::T0;

constexpr std::array<Pocket, 18> kRedReference = {
    1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36};

uint32_t Draw(cards::RandomSource& rng, uint32_t n) {
  return cards::UniformInt(rng, n);
}

BetRequest RandomBet(cards::RandomSource& rng, WheelKind wheel,
                     int64_t min_bet) {
  const int kinds = wheel == WheelKind::kFrench ? 20 : 15;
  BetRequest r;
  r.kind = static_cast<BetKind>(Draw(rng, kinds + 2));  // + neighbours, finals
  if (static_cast<int>(r.kind) >= kinds) {
    r.kind = Draw(rng, 2) == 0 ? BetKind::kNeighbours : BetKind::kFinals;
  }
  int64_t units = 1;
  switch (r.kind) {
    case BetKind::kStraight:
    case BetKind::kSplit:
    case BetKind::kStreet:
    case BetKind::kCorner:
    case BetKind::kLine: {
      std::vector<Position> legal =
          LegalInsidePositions(wheel, *ChanceOfKind(r.kind));
      r.numbers = legal[Draw(rng, legal.size())].numbers.Pockets();
      break;
    }
    case BetKind::kDozen:
    case BetKind::kColumn:
      r.index = {static_cast<int>(Draw(rng, 3)) + 1};
      break;
    case BetKind::kDozenSplit:
    case BetKind::kColumnSplit: {
      int lo = static_cast<int>(Draw(rng, 2)) + 1;
      r.index = {lo + 1, lo};
      units = 2;
      break;
    }
    case BetKind::kVoisins:
      units = 9;
      break;
    case BetKind::kTiers:
      units = 6;
      break;
    case BetKind::kOrphelins:
      units = 5;
      break;
    case BetKind::kNeighbours: {
      absl::Span<const Pocket> order = WheelOrder(wheel);
      r.numbers = {order[Draw(rng, order.size())]};
      r.count = 2 * (static_cast<int>(Draw(rng, 3)) + 1);
      units = r.count + 1;
      break;
    }
    case BetKind::kFinals:
      r.numbers = {static_cast<Pocket>(Draw(rng, 10))};
      units = r.numbers[0] <= 6 ? 4 : 3;
      break;
    default:
      break;
  }
  r.amount = units * min_bet * (1 + static_cast<int64_t>(Draw(rng, 5)));
  return r;
}

// The reading of RF-7 / RFD-20 for ordinary bets, written from the rules
// without the engine's tables.
bool ReferenceCovers(const BetRequest& r, Pocket p) {
  const bool number = p >= 1 && p <= 36;
  auto in_dozen = [&](int i) { return number && (p - 1) / 12 == i - 1; };
  auto in_column = [&](int i) { return number && (p - 1) % 3 == i - 1; };
  switch (r.kind) {
    case BetKind::kStraight:
    case BetKind::kSplit:
    case BetKind::kStreet:
    case BetKind::kCorner:
    case BetKind::kLine:
      for (Pocket n : r.numbers) {
        if (n == p) return true;
      }
      return false;
    case BetKind::kDozen:
      return in_dozen(r.index[0]);
    case BetKind::kColumn:
      return in_column(r.index[0]);
    case BetKind::kDozenSplit:
      return in_dozen(r.index[0]) || in_dozen(r.index[1]);
    case BetKind::kColumnSplit:
      return in_column(r.index[0]) || in_column(r.index[1]);
    case BetKind::kEven:
      return number && p % 2 == 0;
    case BetKind::kOdd:
      return number && p % 2 == 1;
    case BetKind::kLow:
      return number && p <= 18;
    case BetKind::kHigh:
      return number && p >= 19;
    case BetKind::kRed:
    case BetKind::kBlack: {
      bool red = false;
      for (Pocket n : kRedReference) red = red || n == p;
      return number && (r.kind == BetKind::kRed) == red;
    }
    default:
      ADD_FAILURE() << "not an ordinary bet";
      return false;
  }
}

int ReferenceNumbers(BetKind kind) {
  switch (kind) {
    case BetKind::kStraight:
      return 1;
    case BetKind::kSplit:
      return 2;
    case BetKind::kStreet:
      return 3;
    case BetKind::kCorner:
      return 4;
    case BetKind::kLine:
      return 6;
    case BetKind::kDozen:
    case BetKind::kColumn:
      return 12;
    case BetKind::kDozenSplit:
    case BetKind::kColumnSplit:
      return 24;
    default:
      return 18;
  }
}

TEST(RouletteProperty, RandomBetsReturnThePayoutTable_RFD_12_RFD_20) {
  auto rng = cards::testing::SeededRandomSource::FromSeed(20151113);
  for (WheelKind wheel : {WheelKind::kFrench, WheelKind::kAmericanSingleZero,
                          WheelKind::kAmericanDoubleZero}) {
    for (int i = 0; i < 20'000; ++i) {
      BetRequest r = RandomBet(rng, wheel, 100);
      absl::StatusOr<std::vector<Chip>> chips = LayOut(wheel, r);
      ASSERT_TRUE(chips.ok()) << chips.status();
      int64_t chip_total = 0;
      for (const Chip& c : *chips) chip_total += c.amount;
      ASSERT_EQ(chip_total, r.amount);
      // Over the whole wheel every bet returns 36 × its stake.
      int64_t over_wheel = 0;
      for (Pocket p : WheelOrder(wheel)) {
        int64_t returned = 0;
        for (const Chip& c : *chips) returned += ChipReturn(c, p);
        over_wheel += returned;
        if (!IsCallBet(r.kind)) {
          const int64_t expected =
              ReferenceCovers(r, p) ? r.amount * 36 / ReferenceNumbers(r.kind)
                                    : 0;
          ASSERT_EQ(returned, expected)
              << BetKindName(r.kind) << " on " << PocketName(p);
        }
      }
      ASSERT_EQ(over_wheel, 36 * r.amount) << BetKindName(r.kind);
    }
  }
}

// Whole rounds: many players, random bets, withdrawals, invalid spins and
// failures. Every stake placed is refunded or settled exactly once, and
// the settlement matches the bets' own returns.
TEST(RouletteProperty, RandomRoundsAccountForEveryStake) {
  auto rng = cards::testing::SeededRandomSource::FromSeed(807);
  for (WheelKind wheel : {WheelKind::kFrench, WheelKind::kAmericanDoubleZero}) {
    TableConfig config;
    config.wheel = wheel;
    absl::StatusOr<Table> made = Table::Create(config, T0());
    ASSERT_TRUE(made.ok());
    Table& table = *made;
    int64_t placed = 0, refunded = 0, settled_stakes = 0, returned = 0;
    int64_t expected_returns = 0;
    std::map<std::string, std::vector<Chip>> chips_of;  // player/bet -> chips
    absl::Time now = T0();
    for (int round = 0; round < 1'500; ++round) {
      const int bets = static_cast<int>(Draw(rng, 8));
      for (int b = 0; b < bets; ++b) {
        std::string player = absl::StrCat("p", Draw(rng, 5));
        std::string id =
            absl::StrCat("r", table.round(), "b", b, "a", Draw(rng, 1000));
        absl::StatusOr<BetPlaced> ok =
            table.PlaceBet(player, id, RandomBet(rng, wheel, 100), now);
        if (!ok.ok()) {
          // Only limits may refuse a well-formed random bet.
          ASSERT_TRUE(
              ok.status().code() == absl::StatusCode::kInvalidArgument ||
              ok.status().code() == absl::StatusCode::kFailedPrecondition)
              << ok.status();
          continue;
        }
        placed += ok->stake;
        chips_of[player + "/" + id] = ok->chips;
        if (Draw(rng, 10) == 0) {
          absl::StatusOr<BetWithdrawn> w = table.Withdraw(player, id, now);
          ASSERT_TRUE(w.ok());
          refunded += w->stake;
        }
      }
      now += absl::Seconds(30);
      const uint32_t what = Draw(rng, 20);
      if (what == 0) {
        absl::StatusOr<FailureResult> f = table.Fail(now);
        ASSERT_TRUE(f.ok());
        for (const BetWithdrawn& w : std::get<RoundVoided>(*f).refunds) {
          refunded += w.stake;
        }
        continue;
      }
      const Pocket pocket = WheelOrder(wheel)[Draw(rng, PocketCount(wheel))];
      const int revolutions =
          what == 1 ? 2 : 3 + static_cast<int>(Draw(rng, 20));
      absl::StatusOr<SpinResult> spin =
          table.Spin({pocket, revolutions, false}, now);
      ASSERT_TRUE(spin.ok()) << spin.status();
      if (std::holds_alternative<SpinInvalid>(*spin)) continue;
      const RoundSettled& s = std::get<RoundSettled>(*spin);
      int64_t staked_here = 0, returned_here = 0;
      for (const BetSettlement& b : s.bets) {
        int64_t mine = 0;
        for (const Chip& c : chips_of[b.player + "/" + b.bet_id]) {
          mine += ChipReturn(c, pocket);
        }
        ASSERT_EQ(b.returned, mine);
        staked_here += b.stake;
        returned_here += b.returned;
      }
      ASSERT_EQ(s.total_staked, staked_here);
      ASSERT_EQ(s.total_returned, returned_here);
      settled_stakes += s.total_staked;
      returned += s.total_returned;
      expected_returns += returned_here;
    }
    int64_t live = 0;
    for (int p = 0; p < 5; ++p) {
      for (const BetPlaced& b : table.BetsOf(absl::StrCat("p", p))) {
        live += b.stake;
      }
    }
    EXPECT_EQ(placed, refunded + settled_stakes + live);
    EXPECT_EQ(returned, expected_returns);
    EXPECT_GT(settled_stakes, 0);
  }
}

}  // namespace
}  // namespace banca::games::roulette
