// banca report close --data-dir=DIR --date=YYYY-MM-DD
//                    [--time-zone=Europe/Lisbon] [--format=text|json|csv]
//                    [--log=embedded|kafka://HOST:PORT]
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "libs/eventlog/log_backend.h"
#include "libs/projection/close_from_log.h"
#include "libs/projection/finance_format.h"
#include "services/audit/wallet_currency.h"
#include "tools/banca/commands.h"

namespace banca::cli {
namespace {

constexpr char kClose[] = "banca report close";

struct CloseFlags {
  std::string data_dir;
  std::string log = "embedded";
  std::string date;
  std::string time_zone = "Europe/Lisbon";
  std::string format = "text";
};

std::string ScratchDir() {
  const char* tmp = std::getenv("TMPDIR");
  return absl::StrCat(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp",
                      "/banca-report-close-", getpid());
}

int Close(const CloseFlags& flags) {
  if (flags.data_dir.empty() && flags.log == "embedded") {
    return Complain(kClose, "--data-dir is required with --log=embedded",
                    kUsageError);
  }
  projection::FinanceQuery query{flags.date, flags.date, flags.time_zone, "",
                                 ""};
  // Usage errors before the log is read.
  if (absl::Status s = projection::CheckFinanceQuery(query); !s.ok()) {
    return Complain(kClose, s, kUsageError);
  }
  auto log = eventlog::OpenLogBackendReadOnly(flags.log, flags.data_dir);
  if (!log.ok()) return Complain(kClose, log.status(), 1);
  auto currency = audit::WalletCurrencyOr(**log, "EUR");
  if (!currency.ok()) return Complain(kClose, currency.status(), 1);
  query.currency = *currency;
  auto report = projection::FinanceReportFromLog(**log, ScratchDir(), query);
  if (!report.ok()) {
    return Complain(kClose, report.status(),
                    absl::IsInvalidArgument(report.status()) ? kUsageError : 1);
  }
  const v1::DailyClose& close = report->days(0);
  if (flags.format == "json") {
    std::printf("%s\n", projection::DailyCloseJson(close).c_str());
  } else if (flags.format == "csv") {
    std::string out = projection::DailyCloseCsvHeader();
    projection::AppendDailyCloseCsv(close, &out);
    std::fwrite(out.data(), 1, out.size(), stdout);
  } else {
    std::fputs(projection::DailyCloseText(close).c_str(), stdout);
  }
  return close.reconciled() ? 0 : 1;
}

}  // namespace

void AddReportCloseCommand(CLI::App& report, Action* action) {
  CLI::App* close = report.add_subcommand(
      "close", "the daily close of one day, reconciled, with its event hash");
  close->footer(
      "Rebuilds the reporting projections from the log into a scratch "
      "directory under $TMPDIR (the data directory is only read) and prints "
      "the day's figures by game, table and tournament, payments, balances "
      "at the close, the SHA-256 of the day's events and the reconciliation "
      "(docs/reporting.md).\n"
      "Exit 0 reconciled, 1 not reconciled or an unreadable log, 2 usage (a "
      "malformed date, an unknown time zone).");
  auto flags = std::make_shared<CloseFlags>();
  close->add_option("--data-dir", flags->data_dir,
                    "the server's data directory (required with "
                    "--log=embedded)");
  close->add_option("--log", flags->log, "embedded, or kafka://HOST:PORT");
  close->add_option("--date", flags->date, "the day, YYYY-MM-DD")->required();
  close->add_option("--time-zone", flags->time_zone,
                    "the IANA zone whose day it is (Europe/Lisbon)");
  close->add_option("--format", flags->format, "text, json or csv")
      ->check(CLI::IsMember({"text", "json", "csv"}));
  OnParsed(*close, action, [flags] { return Close(*flags); });
}

}  // namespace banca::cli
