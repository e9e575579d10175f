#include "libs/tables/roulette_wire.h"

#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/roulette/chance.h"
#include "libs/games/roulette/pocket.h"

namespace banca::tables {
namespace rl = games::roulette;

absl::StatusOr<v1::RouletteTableConfig> NormalizeRouletteConfig(
    v1::BankedGame game, const v1::RouletteTableConfig& in) {
  v1::RouletteTableConfig c = in;
  if (game != v1::BANKED_GAME_ROULETTE_FRENCH &&
      game != v1::BANKED_GAME_ROULETTE_AMERICAN) {
    return absl::InvalidArgumentError(
        "game must be ROULETTE_FRENCH or ROULETTE_AMERICAN");
  }
  if (game == v1::BANKED_GAME_ROULETTE_FRENCH) {
    if (c.max_per_number_minor() != 0 || c.single_zero() ||
        !c.chance_min_minor().empty()) {
      return absl::InvalidArgumentError(
          "roulette.max_per_number_minor, single_zero and chance_min_minor "
          "are for American tables: French maxima follow RFD-11, the wheel "
          "has one zero and one minimum serves every chance (RFD-10)");
    }
  }
  if (c.min_bet_minor() == 0) c.set_min_bet_minor(100);
  if (c.betting_seconds() == 0) c.set_betting_seconds(30);
  if (c.betting_seconds() < 30 || c.betting_seconds() > kMaxBettingSeconds) {
    return absl::InvalidArgumentError(
        absl::StrCat("roulette.betting_seconds must be 30 (RFD-13) to ",
                     kMaxBettingSeconds));
  }
  if (c.max_per_number_minor() < 0) {
    return absl::InvalidArgumentError(
        "roulette.max_per_number_minor must not be negative");
  }
  for (const auto& [name, amount] : c.chance_min_minor()) {
    bool known = false;
    for (rl::Chance ch : rl::kAllChances) {
      known |= rl::RulesOf(ch).name == name;
    }
    if (!known) {
      return absl::InvalidArgumentError(absl::StrCat(
          "roulette.chance_min_minor: \"", name, "\" is not a chance"));
    }
    if (amount <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "roulette.chance_min_minor.", name, " must be positive"));
    }
  }
  if (c.currency().empty()) c.set_currency("EUR");
  if (c.currency().size() != 3) {
    return absl::InvalidArgumentError("roulette.currency must be ISO 4217");
  }
  RETURN_IF_ERROR(AsInvalidArgument(RouletteEngineConfig(game, c).Validate(),
                                    "roulette: "));
  return c;
}

rl::TableConfig RouletteEngineConfig(v1::BankedGame game,
                                     const v1::RouletteTableConfig& c) {
  rl::TableConfig t;
  t.wheel = game == v1::BANKED_GAME_ROULETTE_FRENCH ? rl::WheelKind::kFrench
            : c.single_zero() ? rl::WheelKind::kAmericanSingleZero
                              : rl::WheelKind::kAmericanDoubleZero;
  t.players =
      c.individual() ? rl::WheelMode::kIndividual : rl::WheelMode::kMultiPlayer;
  t.launch = c.player_launches() ? rl::LaunchMode::kPlayerTriggered
                                 : rl::LaunchMode::kTimedWindow;
  t.min_bet = c.min_bet_minor();
  t.max_per_number = c.max_per_number_minor();
  t.betting_window = absl::Seconds(c.betting_seconds());
  t.call_bets = !c.no_call_bets();
  for (rl::Chance ch : rl::kAllChances) {
    auto it = c.chance_min_minor().find(std::string(rl::RulesOf(ch).name));
    if (it != c.chance_min_minor().end()) {
      t.chance_min[rl::ChanceIndex(ch)] = it->second;
    }
  }
  return t;
}

absl::StatusOr<rl::BetRequest> RouletteBetFromProto(rl::WheelKind wheel,
                                                    const v1::RouletteBet& bet,
                                                    int64_t amount) {
  rl::BetRequest r;
  ASSIGN_OR_RETURN(r.kind, AsInvalidArgument(rl::ParseBetKind(bet.kind()),
                                             "roulette.kind: "));
  r.amount = amount;
  if (bet.numbers_size() > rl::kMaxRequestNumbers) {
    return absl::InvalidArgumentError(absl::StrCat(
        "roulette.numbers: at most ", rl::kMaxRequestNumbers, " (a line)"));
  }
  for (int i = 0; i < bet.numbers_size(); ++i) {
    const std::string& text = bet.numbers(i);
    if (r.kind == rl::BetKind::kFinals) {
      int digit = -1;
      if (text.size() != 1 || !absl::SimpleAtoi(text, &digit)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "roulette.numbers[", i, "]: finals name a last digit 0..9"));
      }
      r.numbers.push_back(digit);
      continue;
    }
    ASSIGN_OR_RETURN(const rl::Pocket p,
                     AsInvalidArgument(rl::ParsePocket(wheel, text),
                                       "roulette.numbers[", i, "]: "));
    r.numbers.push_back(p);
  }
  if (bet.index_size() > rl::kMaxRequestIndexes) {
    return absl::InvalidArgumentError(
        absl::StrCat("roulette.index: at most ", rl::kMaxRequestIndexes));
  }
  for (int32_t i : bet.index()) {
    if (i < 1 || i > 3) {
      return absl::InvalidArgumentError(absl::StrCat(
          "roulette.index: dozens and columns are 1, 2 or 3, got ", i));
    }
    r.index.push_back(i);
  }
  if (bet.count() < 0 || bet.count() > 36) {
    return absl::InvalidArgumentError(absl::StrCat(
        "roulette.count: neighbours are 2, 4 or 6 (RF-8d), got ", bet.count()));
  }
  r.count = bet.count();
  return r;
}

v1::RouletteBet RouletteBetToProto(const rl::BetRequest& r) {
  v1::RouletteBet out;
  out.set_kind(std::string(rl::BetKindName(r.kind)));
  for (rl::Pocket p : r.numbers) {
    out.add_numbers(r.kind == rl::BetKind::kFinals ? absl::StrCat(p)
                                                   : rl::PocketName(p));
  }
  for (int i : r.index) out.add_index(i);
  out.set_count(r.count);
  return out;
}

v1::RouletteChipView ChipToProto(const rl::Chip& chip, int64_t returned) {
  v1::RouletteChipView out;
  out.set_chance(std::string(rl::RulesOf(chip.position.chance).name));
  for (rl::Pocket p : chip.position.numbers.Pockets()) {
    out.add_numbers(rl::PocketName(p));
  }
  out.set_amount_minor(chip.amount);
  out.set_returned_minor(returned);
  return out;
}

}  // namespace banca::tables
