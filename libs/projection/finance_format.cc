#include "libs/projection/finance_format.h"

#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "google/protobuf/descriptor.h"
#include "libs/common/csv_text.h"
#include "libs/common/json_text.h"
#include "libs/money/money.h"
#include "libs/wire/wallet_codec.h"
#include "nlohmann/json.hpp"

namespace banca::projection {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kTextTables = 20;

bool IsAmount(const google::protobuf::FieldDescriptor* f) {
  return f->name().ends_with("_minor");
}

// A message's int64 fields as (item, value, is amount): "stakes" for
// stakes_minor.
struct Item {
  std::string name;
  int64_t value;
  bool amount;
};

std::vector<Item> ItemsOf(const google::protobuf::Message& m) {
  std::vector<Item> items;
  const google::protobuf::Descriptor* d = m.GetDescriptor();
  for (int i = 0; i < d->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* f = d->field(i);
    if (f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_INT64) {
      continue;
    }
    std::string name(f->name());
    const bool amount = IsAmount(f);
    if (amount) name.resize(name.size() - 6);
    items.push_back(
        {std::move(name), m.GetReflection()->GetInt64(m, f), amount});
  }
  return items;
}

Json ItemsJson(const google::protobuf::Message& m) {
  Json out = Json::object();
  for (const Item& item : ItemsOf(m)) {
    if (item.amount) {
      out[item.name] = money::FormatMinor(item.value);
    } else {
      out[item.name] = item.value;
    }
  }
  return out;
}

Json FiguresJson(const v1::FinanceFigures& f) {
  Json out = {{"id", f.id()}};
  out.update(ItemsJson(f));
  return out;
}

Json FiguresList(
    const google::protobuf::RepeatedPtrField<v1::FinanceFigures>& rows) {
  Json out = Json::array();
  for (const v1::FinanceFigures& f : rows) out.push_back(FiguresJson(f));
  return out;
}

std::string Micros(int64_t micros) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E6SZ", absl::FromUnixMicros(micros),
                          absl::UTCTimeZone());
}

}  // namespace

std::string DailyCloseJson(const v1::DailyClose& c) {
  Json checks = Json::array();
  for (const v1::ReconciliationCheck& k : c.checks()) {
    checks.push_back({{"name", k.name()},
                      {"ok", k.ok()},
                      {"expected", money::FormatMinor(k.expected_minor())},
                      {"actual", money::FormatMinor(k.actual_minor())},
                      {"detail", k.detail()}});
  }
  Json out = {
      {"date", c.date()},
      {"time_zone", c.time_zone()},
      {"currency", c.currency()},
      {"from", Micros(c.from_micros())},
      {"to", Micros(c.to_micros())},
      {"events", c.events()},
      {"events_sha256", c.events_sha256()},
      {"player_liabilities", money::FormatMinor(c.player_liabilities_minor())},
      {"total", ItemsJson(c.total())},
      {"by_game", FiguresList(c.by_game())},
      {"by_table", FiguresList(c.by_table())},
      {"by_tournament", FiguresList(c.by_tournament())},
      {"payments", ItemsJson(c.payments())},
      {"movements", ItemsJson(c.movements())},
      {"at_close", ItemsJson(c.at_close())},
      {"reconciled", c.reconciled()},
      {"checks", std::move(checks)},
  };
  return JsonText(out);
}

std::string DailyCloseCsvHeader() {
  std::string out;
  AppendCsvLine({"date", "time_zone", "section", "dimension", "id", "item",
                 "value", "currency"},
                &out);
  return out;
}

void AppendDailyCloseCsv(const v1::DailyClose& c, std::string* out) {
  auto line = [&](std::string section, std::string dimension, std::string id,
                  std::string item, std::string value, bool amount) {
    AppendCsvLine({c.date(), c.time_zone(), std::move(section),
                   std::move(dimension), std::move(id), std::move(item),
                   std::move(value), amount ? c.currency() : ""},
                  out);
  };
  auto items = [&](const std::string& section, const std::string& dimension,
                   const std::string& id, const google::protobuf::Message& m) {
    for (const Item& item : ItemsOf(m)) {
      line(section, dimension, id, item.name,
           item.amount ? money::FormatMinor(item.value)
                       : absl::StrCat(item.value),
           item.amount);
    }
  };
  for (const auto* rows : {&c.by_game(), &c.by_table(), &c.by_tournament()}) {
    for (const v1::FinanceFigures& f : *rows) {
      items("figures", f.dimension(), f.id(), f);
    }
  }
  items("figures", "total", "", c.total());
  items("payments", "", "", c.payments());
  items("movements", "", "", c.movements());
  items("at_close", "", "", c.at_close());
  line("liabilities", "", "", "player_liabilities",
       money::FormatMinor(c.player_liabilities_minor()), true);
  line("events", "", "", "count", absl::StrCat(c.events()), false);
  line("events", "", "", "sha256", c.events_sha256(), false);
  for (const v1::ReconciliationCheck& k : c.checks()) {
    line("check", "", "", k.name(), k.ok() ? "ok" : "FAILED", false);
  }
}

std::string DailyCloseText(const v1::DailyClose& c) {
  std::string out = absl::StrFormat(
      "daily close %s (%s, %s to %s), %s\n", c.date(), c.time_zone(),
      Micros(c.from_micros()), Micros(c.to_micros()), c.currency());
  auto row = [&](const v1::FinanceFigures& f, std::string_view label) {
    absl::StrAppendFormat(
        &out,
        "  %-24s stakes %12s  wins %12s  rake %10s  fees %10s  "
        "overlay %10s  ggr %12s\n",
        label, money::FormatMinor(f.stakes_minor()),
        money::FormatMinor(f.wins_minor()), money::FormatMinor(f.rake_minor()),
        money::FormatMinor(f.tournament_fees_minor()),
        money::FormatMinor(f.overlay_minor()),
        money::FormatMinor(f.ggr_minor()));
  };
  for (const v1::FinanceFigures& f : c.by_game()) row(f, f.id());
  row(c.total(), "total");
  // Tables are many: the text shows the first kTextTables with revenue or a
  // loss; JSON and CSV carry every one.
  int more = 0;
  int shown = 0;
  for (const v1::FinanceFigures& f : c.by_table()) {
    if (f.ggr_minor() == 0 || shown == kTextTables) {
      ++more;
      continue;
    }
    ++shown;
    row(f, absl::StrCat("table ", f.id()));
  }
  if (more > 0) {
    absl::StrAppendFormat(&out,
                          "  (%d more tables: --format=json or csv has "
                          "every one)\n",
                          more);
  }
  for (const v1::FinanceFigures& f : c.by_tournament()) {
    row(f, absl::StrCat("tournament ", f.id()));
  }
  const v1::FinancePayments& p = c.payments();
  const v1::FinanceHoldings& h = c.at_close();
  absl::StrAppendFormat(
      &out,
      "  deposits %s (%d), withdrawals %s (%d)\n"
      "  at the close: player liabilities %s (cash %s, held in %d open "
      "holds %s), at tables %s, wagers %s, prize pools %s, bounties %s, "
      "tickets %s\n"
      "  events %d, sha256 %s\n",
      money::FormatMinor(p.deposits_minor()), p.deposits(),
      money::FormatMinor(p.withdrawals_minor()), p.withdrawals(),
      money::FormatMinor(c.player_liabilities_minor()),
      money::FormatMinor(h.player_cash_minor()), h.open_holds(),
      money::FormatMinor(h.player_held_minor()),
      money::FormatMinor(h.table_seats_minor() + h.table_pots_minor()),
      money::FormatMinor(h.game_wagers_minor()),
      money::FormatMinor(h.prize_pools_minor()),
      money::FormatMinor(h.bounties_minor()),
      money::FormatMinor(h.tickets_minor()), c.events(), c.events_sha256());
  for (const v1::ReconciliationCheck& k : c.checks()) {
    absl::StrAppendFormat(&out, "  %-24s %s", k.name(),
                          k.ok() ? "ok\n" : "FAILED");
    if (!k.ok()) {
      absl::StrAppendFormat(&out, " (expected %s, found %s: %s)\n",
                            money::FormatMinor(k.expected_minor()),
                            money::FormatMinor(k.actual_minor()), k.detail());
    }
  }
  absl::StrAppend(&out, c.reconciled() ? "reconciled\n" : "NOT RECONCILED\n");
  return out;
}

std::string StatementCsvHeader() {
  std::string out;
  AppendCsvLine(
      {"occurred_at", "player", "account", "tx_id", "reason", "reference_kind",
       "reference_id", "amount", "balance_after", "currency", "memo"},
      &out);
  return out;
}

namespace {

std::string KindName(v1::ReferenceKind kind) {
  std::string name = v1::ReferenceKind_Name(kind);
  return name.empty() ? absl::StrCat("KIND_", static_cast<int>(kind))
                      : name.substr(sizeof("REFERENCE_KIND_") - 1);
}

}  // namespace

void AppendStatementCsv(const std::string& player, const std::string& currency,
                        const v1::StatementEntry& e, std::string* out) {
  AppendCsvLine(
      {Micros(e.occurred_at_micros()), player, e.account(), e.tx_id(),
       wire::PostingReasonName(e.reason()), KindName(e.reference().kind()),
       e.reference().id(), money::FormatMinor(e.amount_minor()),
       money::FormatMinor(e.balance_after_minor()), currency, e.memo()},
      out);
}

void AppendStatementJson(const std::string& player, const std::string& currency,
                         const v1::StatementEntry& e, std::string* out) {
  const Json line = {
      {"occurred_at", Micros(e.occurred_at_micros())},
      {"player", player},
      {"account", e.account()},
      {"tx_id", e.tx_id()},
      {"reason", wire::PostingReasonName(e.reason())},
      {"reference_kind", KindName(e.reference().kind())},
      {"reference_id", e.reference().id()},
      {"amount", money::FormatMinor(e.amount_minor())},
      {"balance_after", money::FormatMinor(e.balance_after_minor())},
      {"currency", currency},
      {"memo", e.memo()}};
  absl::StrAppend(out, JsonText(line), "\n");
}

}  // namespace banca::projection
