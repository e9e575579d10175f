#include "libs/games/stud_no_draw/settlement.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/cards/evaluator.h"
#include "libs/cards/sem_descarte.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/games/stud_no_draw/config.h"
#include "libs/games/stud_no_draw/paytable.h"
#include "libs/money/money.h"

namespace banca::games::stud_no_draw {

std::string_view OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kFolded:
      return "folded";
    case Outcome::kBankNotQualify:
      return "bank_not_qualified";
    case Outcome::kWon:
      return "won";
    case Outcome::kLost:
      return "lost";
    case Outcome::kPush:
      return "push";
    case Outcome::kVoid:
      return "void";
  }
  return "unknown";
}

namespace {

// A seat's settlement keeps the money invariants: the ante is positive and
// the bet is none or kBetPerAnte × the ante; the ante returns at most
// twice itself (SD-26, SD-28b), the bet at most its stake plus the largest
// multiplier (SD-12); and what each returns matches the outcome. Returns
// `s`, so that every settlement goes out through here.
SeatSettlement Checked(SeatSettlement s) {
  const BetSettlement& ante = s.ante;
  const BetSettlement& bet = s.bet;
  BANCA_CHECK(ante.stake > 0);
  BANCA_CHECK(bet.stake == 0 || bet.stake == kBetPerAnte * ante.stake);
  BANCA_CHECK(ante.returned >= 0 && ante.returned <= 2 * ante.stake);
  BANCA_CHECK(bet.returned >= 0 &&
              bet.returned <= (1 + kMaxBetMultiplier) * bet.stake);
  BANCA_CHECK(s.returned() <= money::kMaxAmountMinor);
  switch (s.outcome) {
    case Outcome::kFolded:
      BANCA_CHECK(bet.stake == 0 && s.returned() == 0);
      break;
    case Outcome::kVoid:
    case Outcome::kPush:
      BANCA_CHECK(ante.returned == ante.stake && bet.returned == bet.stake);
      break;
    case Outcome::kLost:
      BANCA_CHECK(bet.stake > 0 && s.returned() == 0);
      break;
    case Outcome::kBankNotQualify:
    case Outcome::kWon:
      BANCA_CHECK(bet.stake > 0 && ante.returned == 2 * ante.stake &&
                  bet.returned >= bet.stake);
      break;
  }
  return s;
}

}  // namespace

SeatSettlement SettleFolded(int64_t ante) {
  SeatSettlement s;
  s.outcome = Outcome::kFolded;
  s.ante = {ante, 0};
  return Checked(s);
}

SeatSettlement SettleVoid(int64_t ante, int64_t bet) {
  SeatSettlement s;
  s.outcome = Outcome::kVoid;
  s.ante = {ante, ante};
  s.bet = {bet, bet};
  return Checked(s);
}

absl::StatusOr<SeatSettlement> SettleContinued(
    int64_t ante, absl::Span<const cards::Card> player,
    absl::Span<const cards::Card> bank) {
  // The best case returns (1 + 100) × the bet plus twice the ante; keep
  // that a valid amount so nothing below can overflow.
  constexpr int64_t kLargestAnte =
      money::kMaxAmountMinor / (kBetPerAnte * (kMaxBetMultiplier + 1) + 2);
  if (ante <= 0 || ante > kLargestAnte) {
    return absl::InvalidArgumentError(
        absl::StrCat("ante must be 1..", kLargestAnte, ", got ", ante));
  }
  ASSIGN_OR_RETURN(
      cards::Showdown showdown,
      cards::sem_descarte::ComparePlayerWithBankChecked(player, bank));

  const int64_t bet = kBetPerAnte * ante;
  SeatSettlement s;
  s.ante.stake = ante;
  s.bet.stake = bet;
  const cards::Evaluator& ev = cards::Evaluator::Get();
  if (!cards::sem_descarte::BankQualifies(ev.Evaluate(bank))) {
    // SD-26: the round ends for the player, who wins the ante's amount;
    // the bet is not lost (SD-29 takes it only against a higher hand).
    s.outcome = Outcome::kBankNotQualify;
    s.ante.returned = 2 * ante;
    s.bet.returned = bet;
    return Checked(s);
  }
  s.showdown = std::move(showdown);
  if (s.showdown.winner > 0) {
    s.outcome = Outcome::kWon;
    s.multiplier = BetMultiplier(ev.Evaluate(player));
    s.ante.returned = 2 * ante;                 // SD-28b
    s.bet.returned = bet * (1 + s.multiplier);  // SD-28a
  } else if (s.showdown.winner < 0) {
    s.outcome = Outcome::kLost;  // SD-29
  } else {
    s.outcome = Outcome::kPush;  // Gap 1.
    s.ante.returned = ante;
    s.bet.returned = bet;
  }
  return Checked(std::move(s));
}

}  // namespace banca::games::stud_no_draw
