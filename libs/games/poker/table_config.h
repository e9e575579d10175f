// A poker cash table's settings: everything an operator configures and the
// engine needs to decide a hand. The defaults follow the digest's "Decisions
// for banca"; docs/rules-coverage.md lists each interpretation.
#ifndef BANCA_LIBS_GAMES_POKER_TABLE_CONFIG_H_
#define BANCA_LIBS_GAMES_POKER_TABLE_CONFIG_H_

#include <cstdint>

#include "absl/status/status.h"

namespace banca::games::poker {

// HE-44: the longest extra decision time a table may grant.
inline constexpr int kMaxExtraTimeSeconds = 600;

enum class Variant : uint8_t {
  kHoldem,     // HE: 2 hole cards, flop/turn/river, four rounds.
  kOmaha,      // OM: 4 hole cards, exactly 2 + 3, pot limit by default.
  kSynthetic,  // SY: straddles, community cards one at a time, five rounds.
};

enum class Limit : uint8_t {
  kNoLimit,     // HE-24c: up to the stack.
  kPotLimit,    // HE-24b: up to the pot after the call.
  kFixedLimit,  // HE-24a: small bet / big bet, raise cap per round.
  kHalfPot,     // HE-24a: at most half the pot, raise cap per round.
};

// HE-48 applied to two players (digest gap 3).
enum class HeadsUpBlinds : uint8_t {
  kLiteral,           // left of the button posts the small blind (default).
  kButtonSmallBlind,  // the usual convention: the button posts it.
};

enum class RakeMode : uint8_t {
  kNone,
  kPot,    // HE-17a: 1-5 % of each pot, optional cap; HE-18, HE-19.
  kBuyIn,  // HE-17b: 5-20 % of the buy-in and of each rebuy, at entry.
};

struct RakeConfig {
  RakeMode mode = RakeMode::kNone;
  int32_t bps = 0;  // basis points: 100-500 (pot), 500-2000 (buy-in).
  int64_t cap = 0;  // cents per hand (pot mode); 0 = no cap.
};

struct TableConfig {
  Variant variant = Variant::kHoldem;
  int seats = 6;  // 2..10 (HE-4a, HE-5).
  int64_t small_blind = 50;
  int64_t big_blind = 100;  // = the table minimum bet (HE-22).
  Limit limit = Limit::kNoLimit;
  // Fixed limit and half pot: raises allowed after the opening bet in one
  // round (default 3, i.e. a cap of four bets). Ignored otherwise.
  int max_raises_per_round = 3;
  // HE-8/HE-14: equal = the fixed initial stack.
  int64_t buy_in_min = 10'000;
  int64_t buy_in_max = 10'000;
  RakeConfig rake;
  HeadsUpBlinds heads_up = HeadsUpBlinds::kLiteral;
  // Synthetic poker: offer the straddle and re-straddle (SY-51..53).
  bool straddles = true;
  // 0 = the variant's default (Hold'em 2, Omaha 4, synthetic 2).
  int hole_cards = 0;
  // HE-44: extra decision time the operator grants once per decision after
  // the ordinary time runs out; 0 = none (the default). The engine keeps
  // the count of grants, the service's clock the seconds.
  int extra_time_seconds = 0;

  // INVALID_ARGUMENT naming the first bad field.
  absl::Status Validate() const;
  int HoleCards() const;
};

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_TABLE_CONFIG_H_
