#include "libs/games/tournament/config.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/payment.h"
#include "libs/games/tournament/prize_structure.h"
#include "libs/ledger/account.h"

namespace banca::games::tournament {
namespace {

absl::Status Bad(std::string_view field, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat(ToAbsl(field), ": ", ToAbsl(why)));
}

absl::Status CheckWindow(std::string_view field, int until_level, int levels) {
  if (until_level < 1 || until_level > levels) {
    return Bad(field, absl::StrCat("must be a level of the schedule, 1..",
                                   levels, ", not ", until_level));
  }
  return absl::OkStatus();
}

absl::Status CheckPurchase(std::string_view name, const ChipPurchase& p,
                           PaymentKind kind, int levels) {
  const std::string where(name);
  if (p.price < 1 || p.price > kMaxAmountMinor) {
    return Bad(where + ".price", absl::StrCat("must be 1..", kMaxAmountMinor));
  }
  if (p.chips < 1 || p.chips > kMaxChips) {
    return Bad(where + ".chips", absl::StrCat("must be 1..", kMaxChips));
  }
  RETURN_IF_ERROR(Prefixed(CheckFeeBps(kind, p.fee_bps), where + "."));
  if (p.max < 1 || p.max > kMaxPaymentsPerEntry - 1) {
    return Bad(where + ".max",
               absl::StrCat("must be 1..", kMaxPaymentsPerEntry - 1));
  }
  return CheckWindow(where + ".until_level", p.until_level, levels);
}

absl::Status CheckMoney(const TournamentConfig& c) {
  if (c.kind == TournamentKind::kFreeroll) {
    if (c.buy_in != 0 || c.fee_bps != 0 || c.bounty != 0) {
      return Bad("buy_in",
                 "a freeroll is free (TN-2s, TN-15): buy_in, "
                 "fee_bps and bounty must be 0");
    }
    if (c.guarantee < 1) {
      return Bad("guarantee",
                 "a freeroll's prizes are the house's: the "
                 "guarantee must be positive");
    }
  } else {
    if (c.buy_in < 1 || c.buy_in > kMaxAmountMinor) {
      return Bad("buy_in", absl::StrCat("must be 1..", kMaxAmountMinor,
                                        " cents (TN-14)"));
    }
    RETURN_IF_ERROR(
        SplitPayment(PaymentKind::kBuyIn, c.buy_in, c.fee_bps, c.bounty)
            .status());
  }
  RETURN_IF_ERROR(CheckAmount("guarantee", c.guarantee));
  RETURN_IF_ERROR(CheckPayouts(c.payouts_bps));
  if (static_cast<int64_t>(c.payouts_bps.size()) > c.max_players) {
    return Bad("payouts_bps",
               absl::StrCat(c.payouts_bps.size(),
                            " paid places are more than max_players (",
                            c.max_players, ")"));
  }
  return absl::OkStatus();
}

absl::Status CheckWindows(const TournamentConfig& c) {
  const int levels = static_cast<int>(c.levels.size());
  if (c.kind == TournamentKind::kSitAndGo &&
      (c.rebuy || c.addon || c.reentry)) {
    return Bad(c.rebuy   ? "rebuy"
               : c.addon ? "addon"
                         : "reentry",
               "a sit and go has no reentry, rebuy or add-on (TN-2r)");
  }
  if (c.rebuy) {
    RETURN_IF_ERROR(
        CheckPurchase("rebuy", *c.rebuy, PaymentKind::kRebuy, levels));
  }
  if (c.addon) {
    RETURN_IF_ERROR(
        CheckPurchase("addon", *c.addon, PaymentKind::kAddOn, levels));
  }
  if (c.reentry) {
    if (c.reentry->max < 1 || c.reentry->max > kMaxPaymentsPerEntry) {
      return Bad("reentry.max",
                 absl::StrCat("must be 1..", kMaxPaymentsPerEntry));
    }
    RETURN_IF_ERROR(
        CheckWindow("reentry.until_level", c.reentry->until_level, levels));
  }
  if (c.late_registration_level < 0 || c.late_registration_level > levels) {
    return Bad("late_registration_level",
               absl::StrCat("must be 0..", levels, " (0: none)"));
  }
  return absl::OkStatus();
}

}  // namespace

std::string_view TournamentKindName(TournamentKind kind) {
  switch (kind) {
    case TournamentKind::kScheduled:
      return "scheduled";
    case TournamentKind::kSitAndGo:
      return "sit_and_go";
    case TournamentKind::kTimed:
      return "timed";
    case TournamentKind::kFreeroll:
      return "freeroll";
    case TournamentKind::kSatellite:
      return "satellite";
  }
  return "unknown";
}

absl::Status CheckConfig(const TournamentConfig& c) {
  if (c.seats_per_table < kMinSeatsPerTable ||
      c.seats_per_table > kMaxSeatsPerTable) {
    return Bad("seats_per_table",
               absl::StrCat("must be 2..10 (TN-6), not ", c.seats_per_table));
  }
  if (c.starting_chips < 1 || c.starting_chips > kMaxChips) {
    return Bad("starting_chips", absl::StrCat("must be 1..", kMaxChips));
  }
  if (c.min_players < 2 || c.min_players > c.max_players ||
      c.max_players > kMaxEntries) {
    return Bad(
        "min_players",
        absl::StrCat("need 2 <= min_players <= max_players <= ", kMaxEntries,
                     ", got ", c.min_players, " and ", c.max_players));
  }
  RETURN_IF_ERROR(CheckBlindSchedule(c.levels));
  for (size_t i = 0; i < c.levels.size(); ++i) {
    if (c.levels[i].ante != 0) {
      return Bad(absl::StrCat("levels[", i, "].ante"),
                 "antes are not played (the regulation has none, gap 12)");
    }
  }
  RETURN_IF_ERROR(CheckMoney(c));
  RETURN_IF_ERROR(CheckWindows(c));
  if (c.PaysTickets() && !ledger::IsValidId(c.ticket_target)) {
    return Bad("ticket_target",
               "must be a tournament id (1-64 of "
               "[A-Za-z0-9_.-])");
  }
  poker::TableConfig table = TableConfigAt(c, 0);
  return Prefixed(table.Validate(), "table: ");
}

poker::TableConfig TableConfigAt(const TournamentConfig& config, int level) {
  const BlindLevel& l = config.levels[level];
  poker::TableConfig t;
  t.variant = config.variant;
  t.limit = config.limit;
  t.heads_up = config.heads_up;
  t.seats = config.seats_per_table;
  t.small_blind = l.small_blind;
  t.big_blind = l.big_blind;
  t.buy_in_min = l.big_blind;
  t.buy_in_max = money::kMaxAmountMinor;
  t.rake.mode = poker::RakeMode::kNone;
  return t;
}

}  // namespace banca::games::tournament
