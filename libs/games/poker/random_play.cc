#include "libs/games/poker/random_play.h"

#include "libs/common/check.h"
#include "libs/common/status_macros.h"

namespace banca::games::poker {
namespace {

// Uniform in [lo, hi] (lo <= hi). The modulo bias is irrelevant here.
int64_t Between(BitSource bits, int64_t lo, int64_t hi) {
  const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  return lo + static_cast<int64_t>(span == 0 ? bits() : bits() % span);
}

}  // namespace

RandomDecision RandomLegalDecision(const Hand& hand, BitSource bits) {
  const LegalActions l = hand.legal();
  BANCA_CHECK(l.seat != 0);
  RandomDecision d;
  const uint64_t roll = bits() % 100;
  if (roll < 2) {
    d.timeout = true;
    return d;
  }
  if (l.can_straddle || l.can_restraddle) {
    if (roll < 40) {
      d.action.type =
          l.can_straddle ? ActionType::kStraddle : ActionType::kRestraddle;
      return d;
    }
  }
  const bool can_size = l.can_bet || l.can_raise;
  if (roll < 22 && l.can_all_in) {
    d.action.type = ActionType::kAllIn;
  } else if (roll < 34 && can_size && l.max_raise_to > l.min_raise_to) {
    d.action.type = l.can_bet ? ActionType::kBet : ActionType::kRaise;
    d.action.amount = Between(bits, l.min_raise_to, l.max_raise_to);
  } else if (roll < 42 && can_size) {
    d.action.type = l.can_bet ? ActionType::kBet : ActionType::kRaise;
    d.action.amount = l.min_raise_to;
  } else if (roll < 55 && l.can_call) {
    d.action.type = ActionType::kFold;
  } else {
    d.action.type = l.can_check ? ActionType::kCheck : ActionType::kCall;
  }
  // A bet or raise to exactly the stack is an all-in by amount: legal, but
  // the engine may still reject a short one as a non-all-in below minimum,
  // so such amounts are only produced through legal()'s bounds.
  return d;
}

absl::Status PlayRandomly(Hand& hand, BitSource bits) {
  // Every action moves chips or removes a player or closes a turn; with the
  // per-round raise caps a hand is bounded well below this.
  for (int steps = 0; !hand.finished(); ++steps) {
    if (steps > 100'000) return absl::InternalError("hand does not end");
    const int seat = *hand.to_act();
    const RandomDecision d = RandomLegalDecision(hand, bits);
    RETURN_IF_ERROR(d.timeout ? hand.Timeout(seat) : hand.Act(seat, d.action));
  }
  return absl::OkStatus();
}

}  // namespace banca::games::poker
