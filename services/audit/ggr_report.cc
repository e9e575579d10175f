#include "services/audit/ggr_report.h"

#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/money_move.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"
#include "libs/money/money.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "nlohmann/json.hpp"

namespace banca::audit {
namespace {

bool IsDay(const std::string& day) {
  absl::CivilDay parsed;
  return absl::ParseCivilTime(day, &parsed) &&
         absl::FormatCivilTime(parsed) == day;
}

bool InBounds(const GgrReportOptions& options, const std::string& day) {
  return (options.from_day.empty() || day >= options.from_day) &&
         (options.to_day.empty() || day <= options.to_day);
}

nlohmann::ordered_json RowJson(const ledger::GamingRevenueRow& row) {
  nlohmann::ordered_json out;
  if (!row.day.empty()) out["day"] = row.day;
  out["game"] = row.game;
  out["stakes"] = row.stakes;
  out["returned"] = row.returned;
  out["void_refunds"] = row.void_refunds;
  out["rake"] = row.rake;
  out["ggr"] = row.ggr;
  out["open"] = row.open;
  out["bets"] = row.bets;
  out["transactions"] = row.transactions;
  return out;
}

nlohmann::ordered_json TournamentRowJson(const TournamentRevenueRow& row) {
  nlohmann::ordered_json out;
  if (!row.day.empty()) out["day"] = row.day;
  out["fees"] = row.fees;
  out["fee_refunds"] = row.fee_refunds;
  out["overlay"] = row.overlay;
  out["ggr"] = row.ggr;
  out["payments"] = row.payments;
  out["transactions"] = row.transactions;
  return out;
}

std::string TournamentRowLine(const TournamentRevenueRow& row,
                              std::string_view currency) {
  return absl::StrFormat("%-10s  %16s %16s %16s %16s %10d\n",
                         row.day.empty() ? "total" : row.day,
                         money::Format(row.fees, currency),
                         money::Format(row.fee_refunds, currency),
                         money::Format(row.overlay, currency),
                         money::Format(row.ggr, currency), row.payments);
}

// The tournaments' rows and total, when the log has any.
void FormatTournaments(const GgrReport& report, std::string& out) {
  if (report.tournament_rows.empty() && report.tournament_fees == 0 &&
      report.overlay == 0) {
    return;
  }
  absl::StrAppend(
      &out, "\nTournaments: fees are revenue, the overlay a cost\n\n",
      absl::StrFormat("%-10s  %16s %16s %16s %16s %10s\n", "day", "fees",
                      "fee refunds", "overlay", "GGR", "payments"));
  for (const TournamentRevenueRow& row : report.tournament_rows) {
    absl::StrAppend(&out, TournamentRowLine(row, report.currency));
  }
  absl::StrAppend(&out, "\n",
                  TournamentRowLine(report.tournament_total, report.currency));
}

std::string RowLine(const ledger::GamingRevenueRow& row,
                    std::string_view currency) {
  return absl::StrFormat("%-10s  %-18s %16s %16s %14s %14s %16s %14s\n",
                         row.day.empty() ? "total" : row.day, row.game,
                         money::Format(row.stakes, currency),
                         money::Format(row.returned, currency),
                         money::Format(row.void_refunds, currency),
                         money::Format(row.rake, currency),
                         money::Format(row.ggr, currency),
                         money::Format(row.open, currency));
}

// The tournaments' fees and overlay over the whole log against the
// replayed ledger's house/tournament_fees and house/overlay.
absl::Status ReconcileTournaments(const TournamentRevenueTally& tally,
                                  const ledger::Ledger& replayed,
                                  GgrReport& report) {
  namespace tn = games::tournament;
  ASSIGN_OR_RETURN(TournamentRevenueRow total, tally.Total());
  ASSIGN_OR_RETURN(report.tournament_fees,
                   money::Sub(total.fees, total.fee_refunds));
  report.overlay = total.overlay;
  report.tournament_fees_balance =
      replayed.AccountBalance(std::string(tn::kFeesAccount));
  ASSIGN_OR_RETURN(
      report.overlay_paid_balance,
      money::Sub(0, replayed.AccountBalance(std::string(tn::kOverlayAccount))));
  if (report.tournament_fees != report.tournament_fees_balance) {
    report.problems.push_back(absl::StrCat(
        "tournament fees reported (", report.tournament_fees, ") differ from ",
        ToAbsl(tn::kFeesAccount), " (", report.tournament_fees_balance, ")"));
  }
  if (report.overlay != report.overlay_paid_balance) {
    report.problems.push_back(
        absl::StrCat("overlay reported (", report.overlay,
                     ") differs from what ", ToAbsl(tn::kOverlayAccount),
                     " paid (", report.overlay_paid_balance, ")"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<GgrReport> BuildGgrReport(eventlog::EventLog& log,
                                         const GgrReportOptions& options) {
  for (const std::string& day : {options.from_day, options.to_day}) {
    if (!day.empty() && !IsDay(day)) {
      return absl::InvalidArgumentError(
          absl::StrCat("a day is YYYY-MM-DD, not \"", day, "\""));
    }
  }
  GgrReport report;
  report.options = options;
  ledger::Ledger replayed;
  report.currency = replayed.currency();
  ledger::GamingRevenueTally all(options.zone);
  ledger::GamingRevenueTally shown(options.zone);
  TournamentRevenueTally all_tournaments(options.zone);
  TournamentRevenueTally shown_tournaments(options.zone);
  const std::string topic(wire::kWalletTopic);
  absl::StatusOr<int> partitions = log.PartitionCount(topic);
  if (absl::IsNotFound(partitions.status())) partitions = 0;
  if (!partitions.ok()) return partitions.status();
  for (int p = 0; p < *partitions; ++p) {
    auto count = [&](const eventlog::StoredRecord& record) -> absl::Status {
      ++report.events;
      ASSIGN_OR_RETURN(wire::DecodedWalletEvent decoded,
                       wire::DecodeWalletRecord(record));
      const v1::EventEnvelope& env = decoded.envelope;
      RETURN_IF_ERROR(Prefixed(
          replayed.Apply(env.stream_id(), env.sequence(), decoded.event), topic,
          "/", p, "@", record.offset, ": "));

      if (!decoded.event.has_transaction_posted()) return absl::OkStatus();
      const v1::LedgerTransaction& tx = decoded.event.transaction_posted().tx();
      const absl::Time when = absl::FromUnixMicros(env.occurred_at_micros());
      RETURN_IF_ERROR(all.Add(tx, when));
      RETURN_IF_ERROR(all_tournaments.Add(tx, when));
      if (InBounds(options, absl::FormatTime("%Y-%m-%d", when, options.zone))) {
        RETURN_IF_ERROR(shown.Add(tx, when));
        RETURN_IF_ERROR(shown_tournaments.Add(tx, when));
      }
      return absl::OkStatus();
    };
    RETURN_IF_ERROR(
        eventlog::ReadPartitionToEnd(log, topic, p, 0, count).status());
  }
  report.rows = shown.Rows();
  ASSIGN_OR_RETURN(std::vector<ledger::GamingRevenueRow> totals,
                   shown.TotalsByGame());
  report.totals = std::move(totals);
  ASSIGN_OR_RETURN(ledger::GamingRevenueRow total, all.Total());
  report.open_stakes = total.open;
  report.rake = total.rake;
  const ledger::LedgerSummary summary = replayed.Summarize();
  report.game_balances =
      summary.classes[static_cast<int>(ledger::AccountClass::kGame)].balance;
  report.house_rake_balance = replayed.AccountBalance("house/rake");
  if (report.open_stakes != report.game_balances) {
    report.problems.push_back(absl::StrCat(
        "stakes not yet settled (", report.open_stakes,
        ") differ from what game accounts hold (", report.game_balances, ")"));
  }
  if (report.rake != report.house_rake_balance) {
    report.problems.push_back(absl::StrCat("rake reported (", report.rake,
                                           ") differs from house/rake (",
                                           report.house_rake_balance, ")"));
  }
  report.tournament_rows = shown_tournaments.Rows();
  ASSIGN_OR_RETURN(report.tournament_total, shown_tournaments.Total());
  RETURN_IF_ERROR(ReconcileTournaments(all_tournaments, replayed, report));
  return report;
}

std::string GgrReportJson(const GgrReport& report) {
  nlohmann::ordered_json out;
  out["report"] = "ggr";
  out["currency"] = report.currency;
  out["timezone"] = report.options.zone_name;
  out["from"] = report.options.from_day;
  out["to"] = report.options.to_day;
  out["events"] = report.events;
  out["rows"] = nlohmann::ordered_json::array();
  for (const ledger::GamingRevenueRow& row : report.rows) {
    out["rows"].push_back(RowJson(row));
  }
  out["totals"] = nlohmann::ordered_json::array();
  for (const ledger::GamingRevenueRow& row : report.totals) {
    out["totals"].push_back(RowJson(row));
  }
  out["tournaments"] = nlohmann::ordered_json::array();
  for (const TournamentRevenueRow& row : report.tournament_rows) {
    out["tournaments"].push_back(TournamentRowJson(row));
  }
  out["tournament_total"] = TournamentRowJson(report.tournament_total);
  out["reconciliation"] = {
      {"open_stakes", report.open_stakes},
      {"game_balances", report.game_balances},
      {"rake", report.rake},
      {"house_rake_balance", report.house_rake_balance},
      {"tournament_fees", report.tournament_fees},
      {"tournament_fees_balance", report.tournament_fees_balance},
      {"overlay", report.overlay},
      {"overlay_paid_balance", report.overlay_paid_balance},
      {"ok", report.ok()}};
  return out.dump();
}

std::string FormatGgrReport(const GgrReport& report) {
  std::string out = absl::StrCat("Gross gaming revenue, ", report.currency,
                                 ", days in ", report.options.zone_name, " (",
                                 report.events, " wallet events)\n\n");
  absl::StrAppend(&out, absl::StrFormat("%-10s  %-18s %16s %16s %14s %14s "
                                        "%16s %14s\n",
                                        "day", "game", "stakes", "returned",
                                        "void refunds", "rake", "GGR", "open"));
  for (const auto& row : report.rows) {
    absl::StrAppend(&out, RowLine(row, report.currency));
  }
  if (!report.totals.empty()) absl::StrAppend(&out, "\n");
  for (const auto& row : report.totals) {
    absl::StrAppend(&out, RowLine(row, report.currency));
  }
  FormatTournaments(report, out);
  const std::string& cur = report.currency;
  absl::StrAppend(
      &out, "\nreconciliation: open stakes ",
      money::Format(report.open_stakes, cur), " = game accounts ",
      money::Format(report.game_balances, cur), "; rake ",
      money::Format(report.rake, cur), " = house/rake ",
      money::Format(report.house_rake_balance, cur), "; tournament fees ",
      money::Format(report.tournament_fees, cur), " = house/tournament_fees ",
      money::Format(report.tournament_fees_balance, cur), "; overlay ",
      money::Format(report.overlay, cur), " = paid by house/overlay ",
      money::Format(report.overlay_paid_balance, cur), "\n");
  for (const std::string& p : report.problems) {
    absl::StrAppend(&out, "PROBLEM: ", p, "\n");
  }
  absl::StrAppend(&out, report.ok() ? "OK\n" : "FAILED\n");
  return out;
}

}  // namespace banca::audit
