// The finance reports and statements as text (docs/reporting.md, "Finance
// reports", "Exports"): JSON (one object per line, amounts as decimal
// strings with the ISO 4217 currency), CSV (RFC 4180, libs/common/
// csv_text.h; amounts as decimal strings and a currency column) and a
// human text for `banca report close`.
//
// A close's CSV is long: one line per figure,
//   date,time_zone,section,dimension,id,item,value,currency
// section "figures" (dimension game, table, tournament or total), "payments",
// "movements", "at_close", "liabilities", "events" and "check"; `value` is a
// decimal amount when `currency` is set, else a count, a hash or ok/FAILED.
#ifndef BANCA_LIBS_PROJECTION_FINANCE_FORMAT_H_
#define BANCA_LIBS_PROJECTION_FINANCE_FORMAT_H_

#include <string>

#include "banca/v1/reporting.pb.h"
#include "banca/v1/wallet.pb.h"

namespace banca::projection {

std::string DailyCloseJson(const v1::DailyClose& close);
std::string DailyCloseText(const v1::DailyClose& close);

// The close's CSV header line, and its lines appended to `out`.
std::string DailyCloseCsvHeader();
void AppendDailyCloseCsv(const v1::DailyClose& close, std::string* out);

// Statement lines: the CSV header, and one line (CSV or a JSON object and
// "\n") per entry of `player`'s statement.
std::string StatementCsvHeader();
void AppendStatementCsv(const std::string& player, const std::string& currency,
                        const v1::StatementEntry& entry, std::string* out);
void AppendStatementJson(const std::string& player, const std::string& currency,
                         const v1::StatementEntry& entry, std::string* out);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_FINANCE_FORMAT_H_
