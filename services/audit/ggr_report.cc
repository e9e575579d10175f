#include "services/audit/ggr_report.h"

#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "libs/common/status_macros.h"
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
      if (InBounds(options, absl::FormatTime("%Y-%m-%d", when, options.zone))) {
        RETURN_IF_ERROR(shown.Add(tx, when));
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
  out["reconciliation"] = {{"open_stakes", report.open_stakes},
                           {"game_balances", report.game_balances},
                           {"rake", report.rake},
                           {"house_rake_balance", report.house_rake_balance},
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
  absl::StrAppend(
      &out, "\nreconciliation: open stakes ",
      money::Format(report.open_stakes, report.currency), " = game accounts ",
      money::Format(report.game_balances, report.currency), "; rake ",
      money::Format(report.rake, report.currency), " = house/rake ",
      money::Format(report.house_rake_balance, report.currency), "\n");
  for (const std::string& p : report.problems) {
    absl::StrAppend(&out, "PROBLEM: ", p, "\n");
  }
  absl::StrAppend(&out, report.ok() ? "OK\n" : "FAILED\n");
  return out;
}

}  // namespace banca::audit
