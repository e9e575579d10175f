// The reporting service (services/reporting) beside the real wallet on an
// embedded log, over gRPC on loopback: statements by range and page, who
// may read what, bad input, a restart, and the projections equal to a
// rebuild from offset 0 (docs/reporting.md).
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "banca/v1/reporting.grpc.pb.h"
#include "libs/projection/reporting_rebuild.h"
#include "services/audit/audit.h"
#include "services/reporting/reporting_service.h"
#include "tests/harness/reporting_harness.h"
#include "tests/integration/unknown_fields.h"

namespace banca::testing {
namespace {

using auth::Role;

class ReportingTest : public ReportingHarness {
 protected:
  ReportingTest() : ReportingHarness("reporting-") {}

  // ana and bia: a roulette round (ana loses 100), a poker hand (ana wins
  // bia's 50), a second round (ana stakes 200, is paid 400), a minute
  // apart.
  void ThreeGames() {
    Fund("ana", 10'000);
    Fund("bia", 10'000);
    Move("player/ana/cash", "game/wheel/wagers", 100, v1::POSTING_REASON_BET,
         v1::REFERENCE_KIND_ROUND, "wheel.r1");
    Move("game/wheel/wagers", "house/bank", 100, v1::POSTING_REASON_BET_LOST,
         v1::REFERENCE_KIND_ROUND, "wheel.r1");
    clock_.Advance(absl::Minutes(1));
    for (const std::string p : {"ana", "bia"}) {
      Move("player/" + p + "/cash", "table/pk/seat/" + p, 1'000,
           v1::POSTING_REASON_BUY_IN, v1::REFERENCE_KIND_TABLE, "pk");
      Move("table/pk/seat/" + p, "table/pk/pot", 50,
           v1::POSTING_REASON_POT_CONTRIBUTION, v1::REFERENCE_KIND_HAND,
           "pk.h1");
    }
    Move("table/pk/pot", "table/pk/seat/ana", 100, v1::POSTING_REASON_POT_AWARD,
         v1::REFERENCE_KIND_HAND, "pk.h1");
    clock_.Advance(absl::Minutes(1));
    Move("player/ana/cash", "game/wheel/wagers", 200, v1::POSTING_REASON_BET,
         v1::REFERENCE_KIND_ROUND, "wheel.r2");
    Move("game/wheel/wagers", "player/ana/cash", 200, v1::POSTING_REASON_PAYOUT,
         v1::REFERENCE_KIND_ROUND, "wheel.r2");
    Move("house/bank", "player/ana/cash", 200, v1::POSTING_REASON_PAYOUT,
         v1::REFERENCE_KIND_ROUND, "wheel.r2");
  }
  grpc::Status Games(const std::string& caller, Role role,
                     const v1::GamesRequest& r, v1::GamesPage* page) {
    return stub_->ListGames(As(caller, role).get(), r, page);
  }

  // ana: an account, then five deposits of 100, 200, ... one minute apart.
  void FiveDeposits() {
    Fund("ana", 0);
    Fund("bia", 50);
    for (int i = 1; i <= 5; ++i) {
      clock_.Advance(absl::Minutes(1));
      times_.push_back(clock_.NowMicros());
      v1::DepositRequest d;
      d.set_request_id(absl::StrCat("dep-ana-", i));
      d.set_player_id("ana");
      d.set_amount_minor(100 * i);
      d.set_payment_ref(absl::StrCat("psp-", i));
      v1::TransactionResponse tx;
      grpc::ClientContext c;
      ASSERT_TRUE(wallet_stub_->Deposit(&c, d, &tx).ok());
    }
  }

  grpc::Status Statement(const std::string& caller, Role role,
                         const v1::StatementRequest& r, v1::StatementPage* p) {
    return stub_->GetStatement(As(caller, role).get(), r, p);
  }
  static v1::StatementRequest Of(const std::string& player, int32_t size = 0) {
    v1::StatementRequest r;
    r.set_player_id(player);
    r.set_page_size(size);
    return r;
  }

  std::vector<int64_t> times_;
};

TEST_P(ReportingTest, AStatementHasEveryMovementWithItsRunningBalance) {
  FiveDeposits();
  v1::StatementPage page;
  ASSERT_TRUE(Statement("ana", Role::kPlayer, Of("ana"), &page).ok());
  ASSERT_EQ(page.entries_size(), 5);
  EXPECT_EQ(page.currency(), "EUR");
  int64_t balance = 0;
  for (int i = 0; i < 5; ++i) {
    const v1::StatementEntry& e = page.entries(i);
    balance += 100 * (i + 1);
    EXPECT_EQ(e.amount_minor(), 100 * (i + 1));
    EXPECT_EQ(e.balance_after_minor(), balance);
    EXPECT_EQ(e.reason(), v1::POSTING_REASON_DEPOSIT);
    EXPECT_EQ(e.occurred_at_micros(), times_[i]);
  }
  EXPECT_TRUE(page.next_page_token().empty());
}

TEST_P(ReportingTest, PagesAndRangesFollowTheirQuery) {
  FiveDeposits();
  std::vector<int64_t> amounts;
  v1::StatementRequest r = Of("ana", 2);
  for (int pages = 0;; ++pages) {
    ASSERT_LT(pages, 3);
    v1::StatementPage page;
    ASSERT_TRUE(Statement("ana", Role::kPlayer, r, &page).ok());
    for (const auto& e : page.entries()) amounts.push_back(e.amount_minor());
    if (page.next_page_token().empty()) break;
    r.set_page_token(page.next_page_token());
  }
  EXPECT_EQ(amounts, (std::vector<int64_t>{100, 200, 300, 400, 500}));
  // [second deposit, fourth): the second and the third.
  v1::StatementRequest ranged = Of("ana");
  ranged.set_from_micros(times_[1]);
  ranged.set_to_micros(times_[3]);
  v1::StatementPage page;
  ASSERT_TRUE(Statement("ana", Role::kFinance, ranged, &page).ok());
  ASSERT_EQ(page.entries_size(), 2);
  EXPECT_EQ(page.entries(0).amount_minor(), 200);
  EXPECT_EQ(page.entries(1).amount_minor(), 300);
  // A token of ana's listing does not open bia's, nor another range.
  v1::StatementPage first;
  ASSERT_TRUE(Statement("ana", Role::kFinance, Of("ana", 1), &first).ok());
  v1::StatementRequest other = Of("bia", 1);
  other.set_page_token(first.next_page_token());
  v1::StatementPage p;
  EXPECT_EQ(Statement("x", Role::kFinance, other, &p).error_code(),
            grpc::INVALID_ARGUMENT);
  v1::StatementRequest moved = Of("ana", 1);
  moved.set_from_micros(1);
  moved.set_page_token(first.next_page_token());
  EXPECT_EQ(Statement("x", Role::kFinance, moved, &p).error_code(),
            grpc::INVALID_ARGUMENT);
}

TEST_P(ReportingTest, WhoMayReadWhat) {
  FiveDeposits();
  v1::StatementPage p;
  EXPECT_TRUE(Statement("ana", Role::kPlayer, Of("ana"), &p).ok());
  EXPECT_EQ(Statement("bia", Role::kPlayer, Of("ana"), &p).error_code(),
            grpc::PERMISSION_DENIED);
  for (Role role : {Role::kFinance, Role::kAuditor, Role::kOperator}) {
    EXPECT_TRUE(Statement("staff", role, Of("ana"), &p).ok());
  }
  for (Role role : {Role::kService, Role::kGateway}) {
    EXPECT_EQ(Statement("svc", role, Of("ana"), &p).error_code(),
              grpc::PERMISSION_DENIED);
  }
  grpc::ClientContext none;
  EXPECT_EQ(stub_->GetStatement(&none, Of("ana"), &p).error_code(),
            grpc::UNAUTHENTICATED);
  v1::ProjectionStatus status;
  for (Role role : {Role::kAuditor, Role::kOperator}) {
    EXPECT_TRUE(stub_
                    ->GetProjectionStatus(As("staff", role).get(),
                                          v1::ProjectionStatusRequest(),
                                          &status)
                    .ok());
  }
  for (Role role : {Role::kPlayer, Role::kFinance, Role::kService}) {
    EXPECT_EQ(stub_
                  ->GetProjectionStatus(As("x", role).get(),
                                        v1::ProjectionStatusRequest(), &status)
                  .error_code(),
              grpc::PERMISSION_DENIED);
  }
}

TEST_P(ReportingTest, BadInputGetsAPreciseError) {
  FiveDeposits();
  v1::StatementPage p;
  auto code = [&](v1::StatementRequest r) {
    return Statement("fin", Role::kFinance, r, &p).error_code();
  };
  v1::StatementRequest reversed = Of("ana");
  reversed.set_from_micros(times_[3]);
  reversed.set_to_micros(times_[1]);
  EXPECT_EQ(code(reversed), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(code(Of("ana", 1'001)), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(code(Of("ana", -1)), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(code(Of("Ana/../bia")), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(code(Of(std::string(65, 'a'))), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(code(Of("nobody")), grpc::NOT_FOUND);
  v1::StatementRequest negative = Of("ana");
  negative.set_from_micros(-1);
  EXPECT_EQ(code(negative), grpc::INVALID_ARGUMENT);
  v1::StatementRequest forged = Of("ana");
  forged.set_page_token("c3RtdC9hbmEvMDA");  // an unsigned key
  EXPECT_EQ(code(forged), grpc::INVALID_ARGUMENT);
  forged.set_page_token(std::string(5'000, 'A'));
  EXPECT_EQ(code(forged), grpc::INVALID_ARGUMENT);
}

// Unknown fields are dropped before the service sees the request; past
// the server's receive limit a request is refused unread.
TEST_P(ReportingTest, UnknownFieldsAreDroppedAndOversizeRequestsRefused) {
  FiveDeposits();
  v1::StatementRequest r = Of("ana");
  AddUnknownField(r, 1'500'000);
  v1::StatementPage p;
  grpc::Status s = Statement("fin", Role::kFinance, r, &p);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(p.entries_size(), 5);
  AddUnknownField(r, 5'000'000, kUnknownField + 1);
  EXPECT_EQ(Statement("fin", Role::kFinance, r, &p).error_code(),
            grpc::RESOURCE_EXHAUSTED);
  v1::GamesRequest g;
  g.set_player_id("ana");
  AddUnknownField(g, 5'000'000);
  v1::GamesPage games;
  EXPECT_EQ(Games("fin", Role::kFinance, g, &games).error_code(),
            grpc::RESOURCE_EXHAUSTED);
}

// A record the projections refuse stops them for good: every answer after
// it is DATA_LOSS, never a stale report that looks current.
TEST_P(ReportingTest, ARefusedRecordStopsTheAnswers) {
  FiveDeposits();
  v1::StatementPage p;
  ASSERT_TRUE(Statement("fin", Role::kFinance, Of("ana"), &p).ok());
  eventlog::Record garbage;
  garbage.topic = std::string(wire::kWalletTopic);
  garbage.key = "ana";
  garbage.value = "not a wallet event";
  ASSERT_TRUE(log_->Append({garbage}).ok());
  refused_a_record_ = true;
  EXPECT_EQ(Statement("fin", Role::kFinance, Of("ana"), &p).error_code(),
            grpc::DATA_LOSS);
  v1::GamesPage g;
  v1::GamesRequest r;
  r.set_player_id("ana");
  EXPECT_EQ(Games("fin", Role::kFinance, r, &g).error_code(), grpc::DATA_LOSS);
}

TEST_P(ReportingTest, APlayerRecallsTheirLastGamesNewestFirst) {
  ThreeGames();
  v1::GamesRequest r;
  r.set_player_id("ana");
  v1::GamesPage page;
  ASSERT_TRUE(Games("ana", Role::kPlayer, r, &page).ok());
  ASSERT_EQ(page.games_size(), 3);
  const v1::GameSummary& r2 = page.games(0);
  EXPECT_EQ(r2.reference().id(), "wheel.r2");
  EXPECT_EQ(r2.table(), "wheel");
  EXPECT_EQ(r2.staked_minor(), 200);
  EXPECT_EQ(r2.returned_minor(), 400);
  EXPECT_EQ(r2.net_minor(), 200);
  EXPECT_EQ(r2.transactions(), 3);
  const v1::GameSummary& h1 = page.games(1);
  EXPECT_EQ(h1.reference().kind(), v1::REFERENCE_KIND_HAND);
  EXPECT_EQ(h1.game(), "poker");
  EXPECT_EQ(h1.table(), "pk");
  EXPECT_EQ(h1.net_minor(), 50);  // 100 won, 50 put in
  EXPECT_EQ(page.games(2).reference().id(), "wheel.r1");
  EXPECT_EQ(page.games(2).net_minor(), -100);
  EXPECT_LT(h1.first_micros(), r2.first_micros());
  EXPECT_TRUE(page.next_page_token().empty());
  // bia's one game: the hand she lost; by game, and a page at a time.
  r.set_player_id("bia");
  ASSERT_TRUE(Games("fin", Role::kFinance, r, &page).ok());
  ASSERT_EQ(page.games_size(), 1);
  EXPECT_EQ(page.games(0).net_minor(), -50);
  v1::GamesRequest poker;
  poker.set_player_id("ana");
  poker.set_game("poker");
  ASSERT_TRUE(Games("ana", Role::kPlayer, poker, &page).ok());
  ASSERT_EQ(page.games_size(), 1);
  EXPECT_EQ(page.games(0).reference().id(), "pk.h1");
  v1::GamesRequest paged;
  paged.set_player_id("ana");
  paged.set_page_size(2);
  ASSERT_TRUE(Games("ana", Role::kPlayer, paged, &page).ok());
  ASSERT_EQ(page.games_size(), 2);
  paged.set_page_token(page.next_page_token());
  ASSERT_TRUE(Games("ana", Role::kPlayer, paged, &page).ok());
  ASSERT_EQ(page.games_size(), 1);
  EXPECT_EQ(page.games(0).reference().id(), "wheel.r1");
  // Who may read, and bad input.
  v1::GamesRequest ana;
  ana.set_player_id("ana");
  EXPECT_EQ(Games("bia", Role::kPlayer, ana, &page).error_code(),
            grpc::PERMISSION_DENIED);
  EXPECT_EQ(Games("svc", Role::kService, ana, &page).error_code(),
            grpc::PERMISSION_DENIED);
  v1::GamesRequest bad = ana;
  bad.set_page_size(101);
  EXPECT_EQ(Games("ana", Role::kPlayer, bad, &page).error_code(),
            grpc::INVALID_ARGUMENT);
  bad = ana;
  bad.set_game("Poker/../x");
  EXPECT_EQ(Games("ana", Role::kPlayer, bad, &page).error_code(),
            grpc::INVALID_ARGUMENT);
  bad = ana;
  bad.set_page_token(page.next_page_token().empty() ? "forged"
                                                    : page.next_page_token());
  EXPECT_EQ(Games("ana", Role::kPlayer, bad, &page).error_code(),
            grpc::INVALID_ARGUMENT);
  bad = paged;  // a token of ana's every-game listing, for her poker games
  bad.set_game("poker");
  EXPECT_EQ(Games("ana", Role::kPlayer, bad, &page).error_code(),
            grpc::INVALID_ARGUMENT);
  v1::GamesRequest nobody;
  nobody.set_player_id("nobody");
  EXPECT_EQ(Games("fin", Role::kFinance, nobody, &page).error_code(),
            grpc::NOT_FOUND);
}

TEST_P(ReportingTest, TheProjectionsRebuildToTheSameHashAndSurviveARestart) {
  ThreeGames();
  v1::StatementPage statement;
  ASSERT_TRUE(Statement("ana", Role::kPlayer, Of("ana"), &statement).ok());
  v1::GamesRequest ana;
  ana.set_player_id("ana");
  v1::GamesPage games;
  ASSERT_TRUE(Games("ana", Role::kPlayer, ana, &games).ok());
  const bool offline = GetParam() == Backend::kEmbedded;
  v1::ProjectionStatus before;
  ASSERT_TRUE(stub_
                  ->GetProjectionStatus(As("aud", Role::kAuditor).get(),
                                        v1::ProjectionStatusRequest(), &before)
                  .ok());
  EXPECT_EQ(before.state_hash().size(), 64u);
  EXPECT_GT(before.keys(), 0);
  EXPECT_FALSE(before.offsets().empty());
  Restart();
  v1::StatementPage page;
  ASSERT_TRUE(Statement("ana", Role::kPlayer, Of("ana"), &page).ok());
  EXPECT_EQ(page.SerializeAsString(), statement.SerializeAsString());
  v1::GamesPage games_after;
  ASSERT_TRUE(Games("ana", Role::kPlayer, ana, &games_after).ok());
  EXPECT_EQ(games_after.SerializeAsString(), games.SerializeAsString());
  v1::ProjectionStatus after;
  ASSERT_TRUE(stub_
                  ->GetProjectionStatus(As("aud", Role::kAuditor).get(),
                                        v1::ProjectionStatusRequest(), &after)
                  .ok());
  EXPECT_EQ(after.state_hash(), before.state_hash());
  // banca reporting rebuild, with the service stopped (on the embedded
  // data directory: on Kafka this run's topics have names of its own).
  if (!offline) return;
  Shutdown();
  auto log = eventlog::OpenLogBackend("embedded", dir_);
  ASSERT_TRUE(log.ok()) << log.status();
  absl::StatusOr<projection::RebuildResult> rebuilt =
      projection::RebuildReporting(**log, dir_ + "/projections/reporting",
                                   dir_ + "/rebuild");
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
  EXPECT_TRUE(rebuilt->live);
  EXPECT_TRUE(rebuilt->equal());
  EXPECT_EQ(rebuilt->rebuilt_hash, before.state_hash());
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/rebuild"));
  log->reset();
  // banca audit verify checks the reporting projections too.
  absl::StatusOr<audit::AuditReport> audited =
      audit::VerifyDataDir(dir_, "embedded", "");
  ASSERT_TRUE(audited.ok()) << audited.status();
  EXPECT_TRUE(audited->ok()) << audit::ProblemLines(audited->problems);
  EXPECT_EQ(audited->reporting_live_hash, before.state_hash());
  EXPECT_EQ(audited->reporting_rebuilt_hash, before.state_hash());
  Start();  // for TearDown
}

INSTANTIATE_TEST_SUITE_P(Backends, ReportingTest,
                         ::testing::Values(Backend::kEmbedded, Backend::kKafka),
                         BackendName);

}  // namespace
}  // namespace banca::testing
