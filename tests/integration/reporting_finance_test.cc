// The reporting service's finance RPCs (GetDailyClose, GetFinanceReport,
// ExportReport) beside the real wallet, over gRPC on loopback, on both
// logs: a day of deposits, withdrawals, a banked round, a poker hand with
// rake and an open hold, closed to the cent against the ledger, in Lisbon
// and in UTC across midnight on the day summer time ends; the same
// SHA-256 on a re-run and after a restart; and the attacker's requests
// (docs/reporting.md, "Finance reports").
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "banca/v1/reporting.grpc.pb.h"
#include "libs/ledger/account.h"
#include "services/reporting/reporting_service.h"
#include "tests/harness/reporting_harness.h"

namespace banca::testing {
namespace {

using auth::Role;

// 2026-10-24T22:00:00Z: 23:00 in Lisbon (WEST, +01:00). Summer time ends
// at 01:00Z on the 25th, so Lisbon's October 25 lasts 25 hours.
constexpr int64_t kOct24At22Utc = 1'792'879'200'000'000;

class ReportingFinanceTest : public ReportingHarness {
 protected:
  ReportingFinanceTest() : ReportingHarness("fin-") {}

  // The day: funding at 22:00Z on Oct 24 (still the 24th in Lisbon), a
  // roulette round; at 23:30Z (the 25th in Lisbon) a poker hand with 10
  // of rake, a withdrawal and a hold left open; at 12:00Z on the 25th a
  // second round that pays.
  void TheDay() {
    clock_.Advance(absl::Microseconds(kOct24At22Utc - clock_.NowMicros()));
    Fund("ana", 10'000);
    Fund("bia", 10'000);
    Move("player/ana/cash", "game/wheel/wagers", 100, v1::POSTING_REASON_BET,
         v1::REFERENCE_KIND_ROUND, "wheel.r1");
    Move("game/wheel/wagers", "house/bank", 100, v1::POSTING_REASON_BET_LOST,
         v1::REFERENCE_KIND_ROUND, "wheel.r1");
    clock_.Advance(absl::Minutes(90));
    for (const std::string p : {"ana", "bia"}) {
      Move("player/" + p + "/cash", "table/pk/seat/" + p, 1'000,
           v1::POSTING_REASON_BUY_IN, v1::REFERENCE_KIND_TABLE, "pk");
      Move("table/pk/seat/" + p, "table/pk/pot", 50,
           v1::POSTING_REASON_POT_CONTRIBUTION, v1::REFERENCE_KIND_HAND,
           "pk.h1");
    }
    Move("table/pk/pot", "table/pk/seat/ana", 90, v1::POSTING_REASON_POT_AWARD,
         v1::REFERENCE_KIND_HAND, "pk.h1");
    Move("table/pk/pot", "house/rake", 10, v1::POSTING_REASON_RAKE,
         v1::REFERENCE_KIND_HAND, "pk.h1");
    v1::WithdrawRequest w;
    w.set_request_id("wd-bia-1");
    w.set_player_id("bia");
    w.set_amount_minor(500);
    w.set_payment_ref("psp-w1");
    v1::TransactionResponse tx;
    grpc::ClientContext wc;
    ASSERT_TRUE(wallet_stub_->Withdraw(&wc, w, &tx).ok());
    v1::PlaceHoldRequest h;
    h.set_request_id("hold-ana-1");
    h.set_player_id("ana");
    h.set_amount_minor(300);
    h.set_reason(v1::POSTING_REASON_BUY_IN);
    h.mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
    h.mutable_reference()->set_id("pk2");
    h.set_ttl_seconds(604'800);
    v1::HoldResponse hold;
    grpc::Status held =
        tables_wallet_->PlaceHold(As("table", Role::kService).get(), h, &hold);
    ASSERT_TRUE(held.ok()) << held.error_message();
    clock_.Advance(absl::Hours(12) + absl::Minutes(30));
    Move("player/bia/cash", "game/wheel/wagers", 200, v1::POSTING_REASON_BET,
         v1::REFERENCE_KIND_ROUND, "wheel.r2");
    Move("game/wheel/wagers", "player/bia/cash", 200, v1::POSTING_REASON_PAYOUT,
         v1::REFERENCE_KIND_ROUND, "wheel.r2");
    Move("house/bank", "player/bia/cash", 350, v1::POSTING_REASON_PAYOUT,
         v1::REFERENCE_KIND_ROUND, "wheel.r2");
  }

  grpc::Status Close(const std::string& date, const std::string& zone,
                     v1::DailyClose* close, Role role = Role::kFinance) {
    v1::DailyCloseRequest r;
    r.set_date(date);
    r.set_time_zone(zone);
    return stub_->GetDailyClose(As("fin", role).get(), r, close);
  }
  v1::DailyClose CloseOk(const std::string& date, const std::string& zone) {
    v1::DailyClose close;
    grpc::Status s = Close(date, zone, &close);
    EXPECT_TRUE(s.ok()) << s.error_message();
    EXPECT_TRUE(close.reconciled()) << close.DebugString();
    return close;
  }
  grpc::Status Report(const v1::FinanceReportRequest& r, v1::FinanceReport* out,
                      Role role = Role::kFinance) {
    return stub_->GetFinanceReport(As("fin", role).get(), r, out);
  }
  // The export's text and status.
  grpc::Status Export(const v1::ExportRequest& r, std::string* text,
                      const std::string& caller = "fin",
                      Role role = Role::kFinance) {
    auto context = As(caller, role);
    auto reader = stub_->ExportReport(context.get(), r);
    v1::ExportChunk chunk;
    bool last = false;
    while (reader->Read(&chunk)) {
      text->append(chunk.data());
      last = chunk.last();
    }
    grpc::Status s = reader->Finish();
    if (s.ok()) {
      EXPECT_TRUE(last);
    }
    return s;
  }
  int64_t Ledger(const std::string& account) {
    return wallet_->ledger().AccountBalance(account);
  }
  int64_t Liabilities() {
    int64_t sum = 0;
    for (const char* p : {"ana", "bia"}) {
      absl::StatusOr<ledger::PlayerBalance> b = wallet_->ledger().Balance(p);
      EXPECT_TRUE(b.ok());
      if (b.ok()) sum += b->available + b->held;
    }
    return sum;
  }
};

const v1::FinanceFigures* Find(
    const google::protobuf::RepeatedPtrField<v1::FinanceFigures>& rows,
    const std::string& id) {
  for (const v1::FinanceFigures& f : rows) {
    if (f.id() == id) return &f;
  }
  return nullptr;
}

TEST_P(ReportingFinanceTest, TheCloseReconcilesToTheCentWithTheLedger) {
  TheDay();
  const v1::DailyClose c = CloseOk("2026-10-25", "Europe/Lisbon");
  EXPECT_EQ(c.currency(), "EUR");
  EXPECT_EQ(c.to_micros() - c.from_micros(), int64_t{25} * 3'600'000'000);
  // Everything has happened by the close: the ledger as it stands.
  EXPECT_EQ(c.player_liabilities_minor(), Liabilities());
  EXPECT_EQ(c.at_close().player_held_minor(), 300);
  EXPECT_EQ(c.at_close().open_holds(), 1);
  EXPECT_EQ(c.at_close().house_minor(),
            Ledger("house/bank") + Ledger("house/rake"));
  EXPECT_EQ(c.at_close().external_minor(), Ledger("external/payments"));
  EXPECT_EQ(c.at_close().table_seats_minor(),
            Ledger("table/pk/seat/ana") + Ledger("table/pk/seat/bia"));
  // The 25th in Lisbon: the hand, the withdrawal, the second round.
  EXPECT_EQ(c.payments().deposits_minor(), 0);
  EXPECT_EQ(c.payments().withdrawals_minor(), 500);
  EXPECT_EQ(c.payments().external_withdrawals_minor(), 500);
  const v1::FinanceFigures* poker = Find(c.by_game(), "poker");
  ASSERT_NE(poker, nullptr);
  EXPECT_EQ(poker->rake_minor(), 10);
  EXPECT_EQ(poker->ggr_minor(), 10);
  ASSERT_NE(Find(c.by_table(), "pk"), nullptr);
  const v1::FinanceFigures* wheel = Find(c.by_table(), "wheel");
  ASSERT_NE(wheel, nullptr);
  EXPECT_EQ(wheel->stakes_minor(), 200);
  EXPECT_EQ(wheel->wins_minor(), 550);
  EXPECT_EQ(wheel->ggr_minor(), -350);
  EXPECT_EQ(c.total().ggr_minor(), 10 - 350);
  // The 24th in Lisbon: the funding and the first round.
  const v1::DailyClose eve = CloseOk("2026-10-24", "Europe/Lisbon");
  EXPECT_EQ(eve.payments().deposits_minor(), 20'000);
  EXPECT_EQ(eve.payments().deposits(), 2);
  EXPECT_EQ(eve.total().ggr_minor(), 100);
  EXPECT_EQ(eve.player_liabilities_minor(), 20'000 - 100);
  // The two days' GGR is what house/* holds.
  EXPECT_EQ(eve.total().ggr_minor() + c.total().ggr_minor(),
            Ledger("house/bank") + Ledger("house/rake"));
}

TEST_P(ReportingFinanceTest, DaysSplitByTheZoneAndTheHashIsStable) {
  TheDay();
  const v1::DailyClose utc24 = CloseOk("2026-10-24", "UTC");
  const v1::DailyClose utc25 = CloseOk("2026-10-25", "UTC");
  const v1::DailyClose lis24 = CloseOk("2026-10-24", "Europe/Lisbon");
  const v1::DailyClose lis25 = CloseOk("2026-10-25", "Europe/Lisbon");
  // 23:30Z on the 24th is the 24th in UTC and the 25th in Lisbon.
  EXPECT_EQ(utc24.payments().withdrawals_minor(), 500);
  EXPECT_EQ(lis24.payments().withdrawals_minor(), 0);
  EXPECT_EQ(Find(utc24.by_game(), "poker")->rake_minor(), 10);
  EXPECT_EQ(Find(lis24.by_game(), "poker"), nullptr);
  EXPECT_EQ(utc24.events() + utc25.events(), lis24.events() + lis25.events());
  EXPECT_GT(lis25.events(), 0);
  EXPECT_NE(utc24.events_sha256(), lis24.events_sha256());
  // A re-run, a finance report over both days, a restart: the same hash.
  EXPECT_EQ(CloseOk("2026-10-25", "Europe/Lisbon").SerializeAsString(),
            lis25.SerializeAsString());
  v1::FinanceReportRequest r;
  r.set_from_date("2026-10-24");
  r.set_to_date("2026-10-25");
  r.set_time_zone("Europe/Lisbon");
  v1::FinanceReport report;
  ASSERT_TRUE(Report(r, &report).ok());
  ASSERT_EQ(report.days_size(), 2);
  EXPECT_EQ(report.days(0).events_sha256(), lis24.events_sha256());
  EXPECT_EQ(report.days(1).events_sha256(), lis25.events_sha256());
  r.set_group_by("table");
  ASSERT_TRUE(Report(r, &report).ok());
  EXPECT_EQ(report.days(1).by_game_size(), 0);
  EXPECT_GT(report.days(1).by_table_size(), 0);
  Restart();
  EXPECT_EQ(CloseOk("2026-10-25", "Europe/Lisbon").events_sha256(),
            lis25.events_sha256());
  // +05:30: the whole day of the 25th there starts at 18:30Z on the 24th.
  const v1::DailyClose kolkata = CloseOk("2026-10-25", "Asia/Kolkata");
  EXPECT_EQ(kolkata.payments().withdrawals_minor(), 500);
  EXPECT_EQ(kolkata.payments().deposits_minor(), 20'000);
}

TEST_P(ReportingFinanceTest, ExportsAreRfc4180CsvAndJsonLines) {
  TheDay();
  v1::ExportRequest r;
  r.set_kind(v1::EXPORT_KIND_STATEMENT);
  r.set_format(v1::EXPORT_FORMAT_CSV);
  r.set_player_id("bia");
  std::string csv;
  ASSERT_TRUE(Export(r, &csv, "bia", Role::kPlayer).ok());
  std::vector<std::string> lines = absl::StrSplit(csv, "\r\n");
  ASSERT_EQ(lines.back(), "");
  lines.pop_back();
  v1::StatementRequest all;
  all.set_player_id("bia");
  all.set_page_size(1000);
  v1::StatementPage page;
  ASSERT_TRUE(
      stub_->GetStatement(As("fin", Role::kFinance).get(), all, &page).ok());
  ASSERT_EQ(lines.size(), 1u + page.entries_size());
  EXPECT_EQ(lines[0],
            "occurred_at,player,account,tx_id,reason,reference_kind,"
            "reference_id,amount,balance_after,currency,memo");
  EXPECT_TRUE(absl::StrContains(lines[1], ",100.00,100.00,EUR,")) << lines[1];
  r.set_format(v1::EXPORT_FORMAT_JSON_LINES);
  r.set_currency("EUR");
  std::string json;
  ASSERT_TRUE(Export(r, &json).ok());
  EXPECT_EQ(std::count(json.begin(), json.end(), '\n'), page.entries_size());
  EXPECT_TRUE(absl::StrContains(json, "\"amount\":\"-5.00\"")) << json;
  v1::ExportRequest f;
  f.set_kind(v1::EXPORT_KIND_FINANCE);
  f.set_format(v1::EXPORT_FORMAT_CSV);
  f.set_from_date("2026-10-24");
  f.set_to_date("2026-10-25");
  std::string finance;
  ASSERT_TRUE(Export(f, &finance).ok());
  EXPECT_TRUE(absl::StartsWith(
      finance, "date,time_zone,section,dimension,id,item,value,currency\r\n"));
  EXPECT_TRUE(absl::StrContains(
      finance, "2026-10-25,Europe/Lisbon,figures,game,poker,rake,0.10,EUR\r\n"))
      << finance;
  EXPECT_TRUE(absl::StrContains(
      finance, "2026-10-25,Europe/Lisbon,check,,,house_by_flows,ok,\r\n"));
}

TEST_P(ReportingFinanceTest, WhoMayReadTheFinanceReports) {
  TheDay();
  v1::DailyClose close;
  for (Role role : {Role::kFinance, Role::kAuditor, Role::kOperator}) {
    EXPECT_TRUE(Close("2026-10-25", "", &close, role).ok());
  }
  for (Role role : {Role::kPlayer, Role::kService, Role::kGateway}) {
    EXPECT_EQ(Close("2026-10-25", "", &close, role).error_code(),
              grpc::PERMISSION_DENIED);
    v1::FinanceReportRequest r;
    r.set_from_date("2026-10-25");
    r.set_to_date("2026-10-25");
    v1::FinanceReport report;
    EXPECT_EQ(Report(r, &report, role).error_code(), grpc::PERMISSION_DENIED);
    v1::ExportRequest e;
    e.set_kind(v1::EXPORT_KIND_FINANCE);
    e.set_format(v1::EXPORT_FORMAT_CSV);
    e.set_from_date("2026-10-25");
    e.set_to_date("2026-10-25");
    std::string text;
    EXPECT_EQ(Export(e, &text, "ana", role).error_code(),
              grpc::PERMISSION_DENIED);
    EXPECT_TRUE(text.empty());
  }
  grpc::ClientContext none;
  v1::DailyCloseRequest r;
  r.set_date("2026-10-25");
  EXPECT_EQ(stub_->GetDailyClose(&none, r, &close).error_code(),
            grpc::UNAUTHENTICATED);
  // A player exports their own statement, never another's.
  v1::ExportRequest mine;
  mine.set_kind(v1::EXPORT_KIND_STATEMENT);
  mine.set_format(v1::EXPORT_FORMAT_CSV);
  mine.set_player_id("ana");
  std::string text;
  EXPECT_TRUE(Export(mine, &text, "ana", Role::kPlayer).ok());
  text.clear();
  EXPECT_EQ(Export(mine, &text, "bia", Role::kPlayer).error_code(),
            grpc::PERMISSION_DENIED);
  EXPECT_TRUE(text.empty());
}

TEST_P(ReportingFinanceTest, BadInputGetsAPreciseError) {
  TheDay();
  v1::DailyClose close;
  for (const std::string& zone :
       std::vector<std::string>{"Mars/Olympus_Mons", "../../../etc/passwd",
                                "Europe/Lisbon ", std::string(100'000, 'A')}) {
    EXPECT_EQ(Close("2026-10-25", zone, &close).error_code(),
              grpc::INVALID_ARGUMENT);
  }
  for (const std::string& date : std::vector<std::string>{
           "2026-13-01", "25/10/2026", "", std::string(1'000'000, '9')}) {
    EXPECT_EQ(Close(date, "UTC", &close).error_code(), grpc::INVALID_ARGUMENT);
  }
  v1::FinanceReport report;
  v1::FinanceReportRequest reversed;
  reversed.set_from_date("2026-10-25");
  reversed.set_to_date("2026-10-24");
  EXPECT_EQ(Report(reversed, &report).error_code(), grpc::INVALID_ARGUMENT);
  v1::FinanceReportRequest long_range;
  long_range.set_from_date("2025-01-01");
  long_range.set_to_date("2026-01-02");
  EXPECT_EQ(Report(long_range, &report).error_code(), grpc::INVALID_ARGUMENT);
  v1::FinanceReportRequest group;
  group.set_from_date("2026-10-25");
  group.set_to_date("2026-10-25");
  group.set_group_by("player");
  EXPECT_EQ(Report(group, &report).error_code(), grpc::INVALID_ARGUMENT);
  v1::FinanceReportRequest open_ended;
  open_ended.set_from_date("2026-10-25");
  EXPECT_EQ(Report(open_ended, &report).error_code(), grpc::INVALID_ARGUMENT);
  v1::ExportRequest e;
  e.set_kind(v1::EXPORT_KIND_STATEMENT);
  e.set_format(v1::EXPORT_FORMAT_CSV);
  e.set_player_id("ana");
  for (const std::string currency : {"USD", "eur", "EURO", "€"}) {
    e.set_currency(currency);
    std::string text;
    EXPECT_EQ(Export(e, &text).error_code(), grpc::INVALID_ARGUMENT)
        << currency;
  }
  e.set_currency("");
  e.set_format(v1::EXPORT_FORMAT_UNSPECIFIED);
  std::string text;
  EXPECT_EQ(Export(e, &text).error_code(), grpc::INVALID_ARGUMENT);
  e.set_format(v1::EXPORT_FORMAT_CSV);
  e.set_from_micros(10);
  e.set_to_micros(5);
  EXPECT_EQ(Export(e, &text).error_code(), grpc::INVALID_ARGUMENT);
  e.set_from_micros(0);
  e.set_to_micros(0);
  e.set_player_id("nobody");
  EXPECT_EQ(Export(e, &text).error_code(), grpc::NOT_FOUND);
  e.set_kind(v1::EXPORT_KIND_UNSPECIFIED);
  EXPECT_EQ(Export(e, &text).error_code(), grpc::INVALID_ARGUMENT);
  v1::ExportRequest f;
  f.set_kind(v1::EXPORT_KIND_FINANCE);
  f.set_format(v1::EXPORT_FORMAT_JSON_LINES);
  f.set_from_date("2020-01-01");
  f.set_to_date("2026-10-25");
  EXPECT_EQ(Export(f, &text).error_code(), grpc::INVALID_ARGUMENT);
  EXPECT_TRUE(text.empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, ReportingFinanceTest,
                         ::testing::Values(Backend::kEmbedded, Backend::kKafka),
                         BackendName);

}  // namespace
}  // namespace banca::testing
