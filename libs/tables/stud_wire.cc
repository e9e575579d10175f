#include "libs/tables/stud_wire.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/wire/table_codec.h"

namespace banca::tables {
namespace stud = games::stud_no_draw;
namespace {

// Defaults when a field is 0.
constexpr int kDefaultDecisionSeconds = 30;
constexpr int kDefaultExtraSeconds = 15;
constexpr int kDefaultBettingSeconds = 15;
constexpr int kMaxTimerSeconds = 600;

std::string DecisionName(stud::Decision d) {
  switch (d) {
    case stud::Decision::kPending:
      return "pending";
    case stud::Decision::kFolded:
      return "folded";
    case stud::Decision::kContinued:
      return "continued";
  }
  return "";
}

}  // namespace

absl::StatusOr<v1::StudTableConfig> NormalizeStudConfig(
    const v1::StudTableConfig& in) {
  v1::StudTableConfig c = in;
  const stud::TableConfig defaults;
  if (c.seats() == 0) c.set_seats(defaults.seats);
  if (c.min_ante_minor() == 0) c.set_min_ante_minor(defaults.min_ante);
  if (c.max_ante_minor() == 0) c.set_max_ante_minor(defaults.max_ante);
  if (c.decision_seconds() == 0)
    c.set_decision_seconds(kDefaultDecisionSeconds);
  if (c.extra_seconds() == 0) c.set_extra_seconds(kDefaultExtraSeconds);
  if (c.betting_seconds() == 0) c.set_betting_seconds(kDefaultBettingSeconds);
  for (auto [name, value] :
       {std::pair{"decision_seconds", c.decision_seconds()},
        std::pair{"extra_seconds", c.extra_seconds()},
        std::pair{"betting_seconds", c.betting_seconds()}}) {
    if (value < 1 || value > kMaxTimerSeconds) {
      return absl::InvalidArgumentError(
          absl::StrCat("stud.", name, " must be 1..", kMaxTimerSeconds));
    }
  }
  if (c.currency().empty()) c.set_currency("EUR");
  if (c.currency().size() != 3) {
    return absl::InvalidArgumentError("stud.currency must be ISO 4217");
  }
  RETURN_IF_ERROR(AsInvalidArgument(StudEngineConfig(c).Validate(), "stud: "));
  return c;
}

stud::TableConfig StudEngineConfig(const v1::StudTableConfig& c) {
  stud::TableConfig t;
  t.seats = c.seats();
  t.min_ante = c.min_ante_minor();
  t.max_ante = c.max_ante_minor();
  t.decision_ms = int64_t{c.decision_seconds()} * 1000;
  t.extra_ms = int64_t{c.extra_seconds()} * 1000;
  return t;
}

v1::StudSeatView StudSeatToProto(const stud::SeatView& s) {
  v1::StudSeatView out;
  out.set_seat(s.seat);
  out.set_player_id(s.player);
  out.set_ante_minor(s.ante);
  out.set_bet_minor(s.bet);
  out.set_decision(DecisionName(s.decision));
  if (s.cards) {
    for (const std::string& c : wire::CardsToStrings(*s.cards))
      out.add_cards(c);
  }
  if (s.settlement) {
    out.set_outcome(std::string(stud::OutcomeName(s.settlement->outcome)));
    out.set_returned_minor(s.settlement->returned());
  }
  return out;
}

}  // namespace banca::tables
