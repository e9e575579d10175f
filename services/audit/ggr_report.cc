#include "services/audit/ggr_report.h"

#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "libs/common/json_text.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/money_move.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"
#include "libs/money/money.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "nlohmann/json.hpp"
#include "services/audit/request_audit.h"
#include "services/audit/wallet_currency.h"

#ifndef BANCA_VERSION
#error \
    "BANCA_VERSION comes from project(VERSION) (services/audit/CMakeLists.txt)"
#endif

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

bool IsRake(const v1::LedgerTransaction& tx) {
  return tx.reason() == v1::POSTING_REASON_RAKE;
}

bool IsTournaments(const v1::LedgerTransaction& tx) {
  return tx.reference().kind() == v1::REFERENCE_KIND_TOURNAMENT;
}

// Everything the report sums while it reads the wallet's log.
struct GgrTallies {
  explicit GgrTallies(const GgrReportOptions& options)
      : all(options.zone),
        shown(options.zone),
        all_tournaments(options.zone),
        shown_tournaments(options.zone) {}

  ledger::GamingRevenueTally all;
  ledger::GamingRevenueTally shown;
  TournamentRevenueTally all_tournaments;
  TournamentRevenueTally shown_tournaments;
  // The house accounts the report ties to, by their flows.
  std::vector<AccountFlowTally> accounts{
      {std::string(settlement::kRakeAccount), "rake transactions", &IsRake},
      {std::string(games::tournament::kFeesAccount), "tournaments",
       &IsTournaments},
      {std::string(games::tournament::kOverlayAccount), "tournaments",
       &IsTournaments}};

  // Counts one transaction that occurred `when` (its day `day`).
  absl::Status Add(const GgrReportOptions& options,
                   const v1::LedgerTransaction& tx, absl::Time when) {
    RETURN_IF_ERROR(all.Add(tx, when));
    RETURN_IF_ERROR(all_tournaments.Add(tx, when));
    for (AccountFlowTally& account : accounts) RETURN_IF_ERROR(account.Add(tx));
    if (InBounds(options, absl::FormatTime("%Y-%m-%d", when, options.zone))) {
      RETURN_IF_ERROR(shown.Add(tx, when));
      RETURN_IF_ERROR(shown_tournaments.Add(tx, when));
    }
    return absl::OkStatus();
  }
};

// Replays the wallet's log into `replayed` and `tallies`: every ledger
// transaction its events record (postings, and a hold's placing, capture
// and release: a buy-in's rake is a capture).
absl::Status ReadWallet(eventlog::EventLog& log, ledger::Ledger& replayed,
                        GgrTallies& tallies, GgrReport& report) {
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
      const absl::Time when = absl::FromUnixMicros(env.occurred_at_micros());
      for (const v1::LedgerTransaction* tx : TransactionsOf(decoded.event)) {
        RETURN_IF_ERROR(tallies.Add(report.options, *tx, when));
      }
      return absl::OkStatus();
    };
    RETURN_IF_ERROR(
        eventlog::ReadPartitionToEnd(log, topic, p, 0, count).status());
  }
  return absl::OkStatus();
}

// One house account by its flows: the report's figure (`reported`, which
// is `sign` times what its transactions moved into the account) and the
// account's balance must both add up.
void ReconcileAccount(const AccountFlows& flows, std::string_view what,
                      int64_t reported, int sign, GgrReport& report) {
  auto problem = [&](std::string message) {
    AddProblem(report.problems,
               AtAccount("reconciliation", flows.account, std::move(message)));
  };
  const absl::StatusOr<int64_t> expected = money::Mul(sign, flows.counted);
  if (!expected.ok() || reported != *expected) {
    problem(absl::StrCat(ToAbsl(what), " reported (", reported,
                         ") differs from what ", flows.counted_as,
                         " moved into ", flows.account, " (", flows.counted,
                         ")"));
  }
  const absl::StatusOr<int64_t> sum =
      money::Add(flows.counted, flows.others_net);
  if (!sum.ok() || *sum != flows.balance) {
    problem(absl::StrCat(flows.account, " holds ", flows.balance,
                         ", but its movements add up to ",
                         sum.ok() ? absl::StrCat(*sum) : "an overflow"));
  }
}

// The sums over the whole log against the replayed ledger.
absl::Status Reconcile(const GgrTallies& tallies,
                       const ledger::Ledger& replayed, GgrReport& report) {
  ASSIGN_OR_RETURN(ledger::GamingRevenueRow total, tallies.all.Total());
  report.open_stakes = total.open;
  report.rake = total.rake;
  const ledger::LedgerSummary summary = replayed.Summarize();
  report.game_balances =
      summary.classes[static_cast<int>(ledger::AccountClass::kGame)].balance;
  if (report.open_stakes != report.game_balances) {
    AddProblem(report.problems,
               AuditProblem{.kind = "reconciliation",
                            .message = absl::StrCat(
                                "stakes not yet settled (", report.open_stakes,
                                ") differ from what game accounts hold (",
                                report.game_balances, ")")});
  }
  ASSIGN_OR_RETURN(TournamentRevenueRow tournaments,
                   tallies.all_tournaments.Total());
  ASSIGN_OR_RETURN(report.tournament_fees,
                   money::Sub(tournaments.fees, tournaments.fee_refunds));
  report.overlay = tournaments.overlay;
  for (const AccountFlowTally& tally : tallies.accounts) {
    ASSIGN_OR_RETURN(AccountFlows flows,
                     tally.Flows(replayed.AccountBalance(tally.account())));
    report.accounts.push_back(std::move(flows));
  }
  const AccountFlows& rake = report.accounts[0];
  const AccountFlows& fees = report.accounts[1];
  const AccountFlows& overlay = report.accounts[2];
  report.house_rake_balance = rake.balance;
  report.tournament_fees_balance = fees.balance;
  ASSIGN_OR_RETURN(report.overlay_paid_balance, money::Sub(0, overlay.balance));
  ReconcileAccount(rake, "rake", report.rake, 1, report);
  ReconcileAccount(fees, "tournament fees", report.tournament_fees, 1, report);
  ReconcileAccount(overlay, "overlay", report.overlay, -1, report);
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
  report.tool_version = BANCA_VERSION;
  ASSIGN_OR_RETURN(report.currency,
                   WalletCurrencyOr(log, ledger::LedgerOptions().currency));
  ledger::Ledger replayed({.currency = report.currency});
  GgrTallies tallies(options);
  RETURN_IF_ERROR(ReadWallet(log, replayed, tallies, report));
  report.rows = tallies.shown.Rows();
  ASSIGN_OR_RETURN(report.totals, tallies.shown.TotalsByGame());
  report.tournament_rows = tallies.shown_tournaments.Rows();
  ASSIGN_OR_RETURN(report.tournament_total, tallies.shown_tournaments.Total());
  RETURN_IF_ERROR(Reconcile(tallies, replayed, report));
  return report;
}

namespace {

nlohmann::ordered_json FlowsJson(const AccountFlows& flows) {
  nlohmann::ordered_json others = nlohmann::ordered_json::array();
  for (const FlowLine& line : flows.others) {
    others.push_back({{"reason", wire::PostingReasonName(line.reason)},
                      {"transactions", line.transactions},
                      {"in", line.in},
                      {"out", line.out}});
  }
  nlohmann::ordered_json out;
  out["account"] = flows.account;
  out["balance"] = flows.balance;
  out["counted_as"] = flows.counted_as;
  out["counted"] = flows.counted;
  out["other_movements"] = std::move(others);
  out["other_net"] = flows.others_net;
  return out;
}

}  // namespace

std::string GgrReportJson(const GgrReport& report) {
  nlohmann::ordered_json out;
  out["report"] = "ggr";
  out["version"] = report.tool_version;
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
  nlohmann::ordered_json accounts = nlohmann::ordered_json::array();
  for (const AccountFlows& flows : report.accounts) {
    accounts.push_back(FlowsJson(flows));
  }
  out["reconciliation"] = {
      {"open_stakes", report.open_stakes},
      {"game_balances", report.game_balances},
      {"rake", report.rake},
      {"house_rake_balance", report.house_rake_balance},
      {"tournament_fees", report.tournament_fees},
      {"tournament_fees_balance", report.tournament_fees_balance},
      {"overlay", report.overlay},
      {"overlay_paid_balance", report.overlay_paid_balance},
      {"accounts", std::move(accounts)},
      {"ok", report.ok()}};
  out["problems"] = ProblemsJson(report.problems);
  return JsonText(out);
}

namespace {

// One house account: its balance as what the report counts plus every
// other movement, each on its own line.
void FormatFlows(const AccountFlows& flows, const std::string& cur,
                 std::string& out) {
  absl::StrAppend(&out, "  ", flows.account, " holds ",
                  money::Format(flows.balance, cur), " = ", flows.counted_as,
                  " ", money::Format(flows.counted, cur), " + other movements ",
                  money::Format(flows.others_net, cur), "\n");
  for (const FlowLine& line : flows.others) {
    absl::StrAppend(&out, "    ", wire::PostingReasonName(line.reason), ": ",
                    line.transactions, " transaction(s), in ",
                    money::Format(line.in, cur), ", out ",
                    money::Format(line.out, cur), "\n");
  }
}

}  // namespace

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
  absl::StrAppend(&out, "\nreconciliation over the whole log\n",
                  "  open stakes ", money::Format(report.open_stakes, cur),
                  " = game accounts ", money::Format(report.game_balances, cur),
                  "\n");
  for (const AccountFlows& flows : report.accounts) {
    FormatFlows(flows, cur, out);
  }
  for (const AuditProblem& p : report.problems) {
    absl::StrAppend(&out, "PROBLEM: ", p.message, "\n");
  }
  absl::StrAppend(&out, report.ok() ? "OK\n" : "FAILED\n");
  return out;
}

}  // namespace banca::audit
