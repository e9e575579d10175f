#include "libs/games/roulette/table_config.h"

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/string_view.h"
#include "libs/money/money.h"

namespace banca::games::roulette {
namespace {

constexpr int kMaxHistory = 500;
constexpr int kMaxReplayRounds = 100;
constexpr int kMaxPlayers = 10'000;
constexpr int kMaxBetsPerPlayer = 1'000;
constexpr absl::Duration kMaxBettingWindow = absl::Minutes(10);
// The largest RFD-11 multiple (two dozens / two columns).
constexpr int64_t kLargestMultiple = 720;
constexpr int64_t kMostNumbersCovered = 24;

absl::Status Bad(std::string_view field, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("roulette config: ", ToAbsl(field), " ", ToAbsl(why)));
}

}  // namespace

int64_t TableConfig::MinBet(Chance chance) const {
  int64_t own = chance_min[ChanceIndex(chance)];
  return own > 0 ? own : min_bet;
}

int64_t TableConfig::MaxBet(Chance chance) const {
  const ChanceRules& rules = RulesOf(chance);
  if (max_per_number > 0) return max_per_number * rules.numbers;
  return min_bet * rules.max_multiple;
}

absl::Status TableConfig::Validate() const {
  if (wheel != WheelKind::kFrench && wheel != WheelKind::kAmericanSingleZero &&
      wheel != WheelKind::kAmericanDoubleZero) {
    return Bad("wheel", "is not a known wheel");
  }
  if (players != WheelMode::kMultiPlayer && players != WheelMode::kIndividual) {
    return Bad("players", "is not a known wheel mode");
  }
  if (launch != LaunchMode::kTimedWindow &&
      launch != LaunchMode::kPlayerTriggered) {
    return Bad("launch", "is not a known launch mode");
  }
  if (launch == LaunchMode::kPlayerTriggered &&
      players != WheelMode::kIndividual) {
    return Bad("launch",
               "by the player is for individual wheels only (RFD-15/16)");
  }
  if (min_bet <= 0) return Bad("min_bet", "must be positive");
  if (min_bet > money::kMaxAmountMinor / kLargestMultiple) {
    return Bad("min_bet", "is too large for the RFD-11 maxima");
  }
  const bool american = wheel != WheelKind::kFrench;
  for (Chance chance : kAllChances) {
    int64_t own = chance_min[ChanceIndex(chance)];
    if (own == 0) continue;
    if (!american) {
      return Bad("chance_min",
                 "must be empty on a French table: one minimum for every "
                 "chance (RFD-10)");
    }
    if (own < 0 || own > money::kMaxAmountMinor) {
      return Bad("chance_min",
                 absl::StrCat("for ", ToAbsl(RulesOf(chance).name),
                              " is out of range"));
    }
  }
  if (max_per_number != 0) {
    if (!american) {
      return Bad("max_bet", "is fixed by the RFD-11 ratios on a French table");
    }
    if (max_per_number < 0 ||
        max_per_number > money::kMaxAmountMinor / kMostNumbersCovered) {
      return Bad("max_bet", "is out of range");
    }
  }
  for (Chance chance : kAllChances) {
    if (MinBet(chance) > MaxBet(chance)) {
      return Bad("max_bet",
                 absl::StrCat("for ", ToAbsl(RulesOf(chance).name), " (",
                              MaxBet(chance), ") is below its minimum (",
                              MinBet(chance), ")"));
    }
  }
  if (launch == LaunchMode::kTimedWindow &&
      (betting_window < kMinBettingWindow ||
       betting_window > kMaxBettingWindow)) {
    return Bad("betting_window",
               absl::StrCat("must be 30 s (RFD-13) to 10 min, got ",
                            absl::FormatDuration(betting_window)));
  }
  if (history_size < 1 || history_size > kMaxHistory) {
    return Bad("history_size", "must be 1..500");
  }
  if (replay_rounds < kMinReplayRounds || replay_rounds > kMaxReplayRounds) {
    return Bad("replay_rounds", "must be 3 (RFD-27) to 100");
  }
  if (max_players < 1 || max_players > kMaxPlayers) {
    return Bad("max_players", "must be 1..10000");
  }
  if (max_bets_per_player < 1 || max_bets_per_player > kMaxBetsPerPlayer) {
    return Bad("max_bets_per_player", "must be 1..1000");
  }
  return absl::OkStatus();
}

}  // namespace banca::games::roulette
