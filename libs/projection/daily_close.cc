#include "libs/projection/daily_close.h"

#include <sodium.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/balance_limits.h"
#include "libs/projection/finance_projection.h"

namespace banca::projection {
namespace {

using Rows = std::vector<std::pair<std::string, std::string>>;

// Zone names are looked up as files under the zone database: only the
// characters of IANA names, no "..", bounded.
constexpr size_t kMaxZoneNameBytes = 64;

bool IsZoneName(std::string_view name) {
  if (name.empty() || name.size() > kMaxZoneNameBytes) return false;
  if (name.find("..") != std::string_view::npos || name.front() == '/') {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '/' ||
           c == '_' || c == '-' || c == '+';
  });
}

struct DaySpan {
  absl::CivilDay day;
  int64_t from_micros = 0;
  int64_t to_micros = 0;
  int64_t first_bucket = 0;  // inclusive
  int64_t end_bucket = 0;    // exclusive
};

absl::StatusOr<int64_t> StartOf(absl::CivilDay day, absl::TimeZone zone) {
  const absl::TimeZone::TimeInfo info = zone.At(absl::CivilSecond(day));
  const absl::Time t =
      info.kind == absl::TimeZone::TimeInfo::SKIPPED ? info.trans : info.pre;
  const int64_t micros = absl::ToUnixMicros(t);
  if (micros % kFinanceBucketMicros != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the day ", absl::FormatCivilTime(day), " in ", zone.name(),
        " does not start on a 15-minute boundary (a historical offset)"));
  }
  return micros;
}

absl::StatusOr<DaySpan> SpanOf(absl::CivilDay day, absl::TimeZone zone) {
  DaySpan span;
  span.day = day;
  ASSIGN_OR_RETURN(span.from_micros, StartOf(day, zone));
  ASSIGN_OR_RETURN(span.to_micros, StartOf(day + 1, zone));
  span.first_bucket = span.from_micros / kFinanceBucketMicros;
  span.end_bucket = span.to_micros / kFinanceBucketMicros;
  return span;
}

// Every int64 field of `into` += `delta`'s (wrap-around, as the projection
// sums them: exact whenever the result fits).
void AddInts(google::protobuf::Message& into,
             const google::protobuf::Message& delta) {
  const google::protobuf::Descriptor* d = into.GetDescriptor();
  const google::protobuf::Reflection* r = into.GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* f = d->field(i);
    if (f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_INT64) {
      continue;
    }
    r->SetInt64(&into, f,
                ledger::WrappingAdd(r->GetInt64(into, f),
                                    delta.GetReflection()->GetInt64(delta, f)));
  }
}

// The sum of the *_minor fields (what double entry makes zero).
int64_t SumOfMinor(const v1::FinanceHoldings& h) {
  const google::protobuf::Descriptor* d = h.GetDescriptor();
  int64_t sum = 0;
  for (int i = 0; i < d->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* f = d->field(i);
    if (f->name().ends_with("_minor")) {
      sum = ledger::WrappingAdd(sum, h.GetReflection()->GetInt64(h, f));
    }
  }
  return sum;
}

absl::StatusOr<int64_t> BucketOfKey(const std::string& key,
                                    std::string_view prefix) {
  uint64_t flipped = 0;
  if (key.size() < prefix.size() + 16 ||
      !absl::SimpleHexAtoi(key.substr(prefix.size(), 16), &flipped)) {
    return absl::DataLossError(absl::StrCat(key, ": no bucket"));
  }
  return static_cast<int64_t>(flipped ^ (uint64_t{1} << 63));
}

// The index of the day whose buckets hold `bucket`, or -1.
int DayOf(const std::vector<DaySpan>& days, int64_t bucket) {
  auto it = std::upper_bound(
      days.begin(), days.end(), bucket,
      [](int64_t b, const DaySpan& d) { return b < d.end_bucket; });
  if (it == days.end() || bucket < it->first_bucket) return -1;
  return static_cast<int>(it - days.begin());
}

template <typename M>
absl::StatusOr<M> Parse(const std::pair<std::string, std::string>& row) {
  M m;
  if (!m.ParseFromString(row.second)) {
    return absl::DataLossError(absl::StrCat(row.first, " does not parse"));
  }
  return m;
}

void AddCheck(v1::DailyClose& close, std::string name, int64_t expected,
              int64_t actual, std::string detail) {
  v1::ReconciliationCheck* c = close.add_checks();
  c->set_name(std::move(name));
  c->set_expected_minor(expected);
  c->set_actual_minor(actual);
  c->set_ok(expected == actual);
  c->set_detail(std::move(detail));
}

void Reconcile(v1::DailyClose& close) {
  using ledger::WrappingAdd;
  AddCheck(close, "ledger_sums_to_zero", 0, SumOfMinor(close.at_close()),
           "the balances of every account at the close sum to zero");
  AddCheck(close, "day_sums_to_zero", 0, SumOfMinor(close.movements()),
           "the day's movements of every account sum to zero");
  const v1::FinancePayments& pay = close.payments();
  AddCheck(close, "house_by_flows", close.movements().house_minor(),
           WrappingAdd(close.total().ggr_minor(), pay.house_other_minor()),
           "house/* movement = GGR of every game + house movements of no "
           "game");
  AddCheck(close, "deposits_vs_external", pay.deposits_minor(),
           pay.external_deposits_minor(),
           "deposits credited to players = paid in from external/*");
  AddCheck(close, "withdrawals_vs_external", pay.withdrawals_minor(),
           pay.external_withdrawals_minor(),
           "withdrawals debited from players = paid out to external/*");
  AddCheck(close, "external_by_flows", close.movements().external_minor(),
           WrappingAdd(WrappingAdd(pay.external_withdrawals_minor(),
                                   -pay.external_deposits_minor()),
                       pay.external_other_minor()),
           "external/* movement = withdrawals - deposits + other movements");
  bool ok = true;
  for (const v1::ReconciliationCheck& c : close.checks()) ok = ok && c.ok();
  close.set_reconciled(ok);
}

// One day's event hash from its fin/ev rows (in key order).
absl::StatusOr<std::string> DayHash(const Rows& rows, int64_t* events) {
  struct Entry {
    int64_t bucket;
    std::string topic;
    uint32_t partition;
    int64_t count;
    std::string chain;
  };
  std::vector<Entry> entries;
  for (const auto& row : rows) {
    ASSIGN_OR_RETURN(const int64_t bucket,
                     BucketOfKey(row.first, kFinanceEventsPrefix));
    const std::string rest =
        row.first.substr(kFinanceEventsPrefix.size() + 17);  // "<B>/"
    const size_t slash = rest.rfind('/');
    Entry e{bucket, rest.substr(0, slash == std::string::npos ? 0 : slash), 0,
            0, ""};
    if (slash == std::string::npos ||
        !absl::SimpleHexAtoi(rest.substr(slash + 1), &e.partition) ||
        !ParseEventChain(row.second, &e.count, &e.chain).ok()) {
      return absl::DataLossError(absl::StrCat(row.first, " does not parse"));
    }
    *events += e.count;
    entries.push_back(std::move(e));
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.bucket, a.topic, a.partition) <
           std::tie(b.bucket, b.topic, b.partition);
  });
  crypto_hash_sha256_state state;
  crypto_hash_sha256_init(&state);
  auto u64 = [&](uint64_t n, int bytes) {
    unsigned char b[8];
    for (int i = 0; i < bytes; ++i)
      b[i] = static_cast<unsigned char>(n >> (8 * i));
    crypto_hash_sha256_update(&state, b, bytes);
  };
  auto raw = [&](std::string_view s) {
    crypto_hash_sha256_update(
        &state, reinterpret_cast<const unsigned char*>(s.data()), s.size());
  };
  for (const Entry& e : entries) {
    u64(e.topic.size(), 8);
    raw(e.topic);
    u64(e.partition, 4);
    u64(static_cast<uint64_t>(e.count), 8);
    raw(e.chain);
  }
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&state, digest);
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(digest), sizeof(digest)));
}

absl::Status CheckQuery(const FinanceQuery& q) {
  if (q.group_by != "" && q.group_by != "game" && q.group_by != "table" &&
      q.group_by != "tournament") {
    return absl::InvalidArgumentError(
        "group_by must be empty, \"game\", \"table\" or \"tournament\"");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<DaySpan>> DaysOf(const FinanceQuery& q,
                                            absl::TimeZone zone) {
  ASSIGN_OR_RETURN(const absl::CivilDay from, ParseCloseDate(q.from_date));
  if (q.to_date.empty()) {
    return absl::InvalidArgumentError("to_date is required (YYYY-MM-DD)");
  }
  ASSIGN_OR_RETURN(const absl::CivilDay to, ParseCloseDate(q.to_date));
  if (to < from) {
    return absl::InvalidArgumentError(
        "the range is reversed: from_date is after to_date");
  }
  if (to - from >= kMaxFinanceReportDays) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a finance report covers at most ", kMaxFinanceReportDays, " days"));
  }
  std::vector<DaySpan> days;
  for (absl::CivilDay d = from; d <= to; ++d) {
    ASSIGN_OR_RETURN(DaySpan span, SpanOf(d, zone));
    days.push_back(span);
  }
  return days;
}

// Sums the fin/fig rows into each day's breakdowns.
absl::Status FillFigures(const Rows& rows, const std::vector<DaySpan>& days,
                         const std::string& group_by,
                         std::vector<v1::DailyClose>& closes) {
  std::vector<std::map<std::pair<std::string, std::string>, v1::FinanceFigures>>
      sums(days.size());
  for (const auto& row : rows) {
    ASSIGN_OR_RETURN(const int64_t bucket,
                     BucketOfKey(row.first, kFinanceFiguresPrefix));
    const int day = DayOf(days, bucket);
    if (day < 0) continue;
    ASSIGN_OR_RETURN(const v1::FinanceFigures f,
                     Parse<v1::FinanceFigures>(row));
    v1::FinanceFigures& sum = sums[day][{f.dimension(), f.id()}];
    sum.set_dimension(f.dimension());
    sum.set_id(f.id());
    AddInts(sum, f);
  }
  for (size_t i = 0; i < days.size(); ++i) {
    v1::DailyClose& close = closes[i];
    for (auto& [key, f] : sums[i]) {
      if (f.dimension() == "game") AddInts(*close.mutable_total(), f);
      if (!group_by.empty() && group_by != f.dimension()) continue;
      if (f.dimension() == "game") *close.add_by_game() = f;
      if (f.dimension() == "table") *close.add_by_table() = f;
      if (f.dimension() == "tournament") *close.add_by_tournament() = f;
    }
  }
  return absl::OkStatus();
}

absl::Status FillHoldings(const Rows& rows, const std::vector<DaySpan>& days,
                          std::vector<v1::DailyClose>& closes) {
  v1::FinanceHoldings balance;
  size_t next = 0;
  for (size_t i = 0; i < days.size(); ++i) {
    v1::DailyClose& close = closes[i];
    for (; next < rows.size(); ++next) {
      ASSIGN_OR_RETURN(const int64_t bucket,
                       BucketOfKey(rows[next].first, kFinanceHoldingsPrefix));
      if (bucket >= days[i].end_bucket) break;
      ASSIGN_OR_RETURN(const v1::FinanceHoldings h,
                       Parse<v1::FinanceHoldings>(rows[next]));
      AddInts(balance, h);
      if (bucket >= days[i].first_bucket)
        AddInts(*close.mutable_movements(), h);
    }
    *close.mutable_at_close() = balance;
    close.set_player_liabilities_minor(ledger::WrappingAdd(
        balance.player_cash_minor(), balance.player_held_minor()));
  }
  return absl::OkStatus();
}

absl::Status FillPayments(const Rows& rows, const std::vector<DaySpan>& days,
                          std::vector<v1::DailyClose>& closes) {
  for (const auto& row : rows) {
    ASSIGN_OR_RETURN(const int64_t bucket,
                     BucketOfKey(row.first, kFinancePaymentsPrefix));
    const int day = DayOf(days, bucket);
    if (day < 0) continue;
    ASSIGN_OR_RETURN(const v1::FinancePayments p,
                     Parse<v1::FinancePayments>(row));
    AddInts(*closes[day].mutable_payments(), p);
  }
  return absl::OkStatus();
}

absl::Status FillEvents(const Rows& rows, const std::vector<DaySpan>& days,
                        std::vector<v1::DailyClose>& closes) {
  std::vector<Rows> by_day(days.size());
  for (const auto& row : rows) {
    ASSIGN_OR_RETURN(const int64_t bucket,
                     BucketOfKey(row.first, kFinanceEventsPrefix));
    const int day = DayOf(days, bucket);
    if (day >= 0) by_day[day].push_back(row);
  }
  for (size_t i = 0; i < days.size(); ++i) {
    int64_t events = 0;
    ASSIGN_OR_RETURN(std::string hash, DayHash(by_day[i], &events));
    closes[i].set_events(events);
    closes[i].set_events_sha256(std::move(hash));
  }
  return absl::OkStatus();
}

std::string Key(std::string_view prefix, int64_t bucket) {
  return absl::StrCat(ToAbsl(prefix), FinanceBucketKey(bucket));
}

}  // namespace

absl::StatusOr<absl::TimeZone> LoadCloseZone(std::string_view name) {
  if (name.empty()) name = kDefaultCloseTimeZone;
  absl::TimeZone zone;
  if (!IsZoneName(name) || !absl::LoadTimeZone(ToAbsl(name), &zone)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no time zone named \"", absl::CEscape(ToAbsl(name.substr(0, 80))),
        "\" (an IANA name such as Europe/Lisbon)"));
  }
  return zone;
}

absl::StatusOr<absl::CivilDay> ParseCloseDate(std::string_view date) {
  absl::CivilDay day;
  if (date.size() != 10 || !absl::ParseCivilTime(ToAbsl(date), &day) ||
      day.year() < 1970 || day.year() > 9999) {
    return absl::InvalidArgumentError(
        absl::StrCat("a date is YYYY-MM-DD (1970 to 9999), not \"",
                     absl::CEscape(ToAbsl(date.substr(0, 40))), "\""));
  }
  return day;
}

absl::Status CheckFinanceQuery(const FinanceQuery& query) {
  RETURN_IF_ERROR(CheckQuery(query));
  ASSIGN_OR_RETURN(const absl::TimeZone zone, LoadCloseZone(query.time_zone));
  return DaysOf(query, zone).status();
}

absl::StatusOr<v1::FinanceReport> ComputeFinanceReport(
    const ProjectionStore& store, const FinanceQuery& query) {
  RETURN_IF_ERROR(CheckQuery(query));
  ASSIGN_OR_RETURN(const absl::TimeZone zone, LoadCloseZone(query.time_zone));
  ASSIGN_OR_RETURN(const std::vector<DaySpan> days, DaysOf(query, zone));
  const int64_t first = days.front().first_bucket;
  const int64_t end = days.back().end_bucket;
  using Range = ProjectionStore::ScanRange;
  const std::vector<Range> ranges = {
      {std::string(kFinanceHoldingsPrefix), "",
       Key(kFinanceHoldingsPrefix, end)},
      {std::string(kFinancePaymentsPrefix), Key(kFinancePaymentsPrefix, first),
       Key(kFinancePaymentsPrefix, end)},
      {std::string(kFinanceFiguresPrefix), Key(kFinanceFiguresPrefix, first),
       Key(kFinanceFiguresPrefix, end)},
      {std::string(kFinanceEventsPrefix), Key(kFinanceEventsPrefix, first),
       Key(kFinanceEventsPrefix, end)},
  };
  ASSIGN_OR_RETURN(const std::vector<Rows> rows,
                   store.ScanConsistent(ranges, kMaxFinanceRows));
  v1::FinanceReport report;
  report.set_time_zone(zone.name());
  report.set_currency(query.currency);
  std::vector<v1::DailyClose> closes(days.size());
  for (size_t i = 0; i < days.size(); ++i) {
    closes[i].set_date(absl::FormatCivilTime(days[i].day));
    closes[i].set_time_zone(zone.name());
    closes[i].set_currency(query.currency);
    closes[i].set_from_micros(days[i].from_micros);
    closes[i].set_to_micros(days[i].to_micros);
  }
  RETURN_IF_ERROR(FillHoldings(rows[0], days, closes));
  RETURN_IF_ERROR(FillPayments(rows[1], days, closes));
  RETURN_IF_ERROR(FillFigures(rows[2], days, query.group_by, closes));
  RETURN_IF_ERROR(FillEvents(rows[3], days, closes));
  for (v1::DailyClose& close : closes) {
    Reconcile(close);
    *report.add_days() = std::move(close);
  }
  return report;
}

absl::StatusOr<v1::DailyClose> ComputeDailyClose(const ProjectionStore& store,
                                                 std::string_view date,
                                                 std::string_view time_zone,
                                                 std::string_view currency) {
  FinanceQuery query;
  query.from_date = std::string(date);
  query.to_date = std::string(date);
  query.time_zone = std::string(time_zone);
  query.currency = std::string(currency);
  ASSIGN_OR_RETURN(v1::FinanceReport report,
                   ComputeFinanceReport(store, query));
  return std::move(*report.mutable_days(0));
}

}  // namespace banca::projection
