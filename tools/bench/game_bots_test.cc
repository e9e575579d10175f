// The game bots (game_bots.h) against the real services over loopback: the
// wallet, the poker and banked tables, the tournaments and the reporting
// service in one server on an embedded log on disk, as `banca serve
// --services=wallet,table,tournament,reporting` runs them. Each game is
// played for a few rounds; the bots' money is checked against the wallet.
// Issue 20's end to end: the reporting service's histories, statements,
// sessions and daily close checked against the play and the wallet, and
// the audit of the data directory OK while the server still serves. And
// the bots' decisions, alone.
#include "tools/bench/game_bots.h"

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/seal/deck_keys.h"
#include "services/audit/audit.h"
#include "services/common/authorized_channel.h"
#include "services/reporting/hosted_reporting.h"
#include "services/server/server.h"
#include "services/table/hosted_tables.h"
#include "services/tournament/hosted_tournaments.h"
#include "services/wallet/hosted_wallet.h"
#include "tools/bench/game_bot_policy.h"

namespace banca::bench {
namespace {

using ::testing::IsEmpty;

class GameBotsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(::testing::TempDir(), "/banca_game_bots_", getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    absl::StatusOr<auth::SigningKey> key = edge::EphemeralSigningKey();
    ASSERT_TRUE(key.ok()) << key.status();
    key_ = *key;
    server::ServerConfig config;
    config.settings.data_dir = dir_;
    config.grpc_address = "127.0.0.1";
    config.grpc_port = 0;
    config.metrics_port = 0;
    server::ServerKeys keys;
    keys.keys.verifier.emplace();
    ASSERT_TRUE(keys.keys.verifier->Add(key_.public_key()).ok());
    keys.keys.deck_keys =
        *seal::DeckKeys::FromKeyFileText(std::string(64, '7'));
    std::vector<edge::HostedServiceSpec> services = {wallet::HostedWallet()};
    for (edge::HostedServiceSpec& s : table::HostedTables()) {
      services.push_back(std::move(s));
    }
    services.push_back(tournament::HostedTournaments());
    services.push_back(reporting::HostedReporting());
    absl::StatusOr<std::unique_ptr<server::Server>> started =
        server::Server::Start(config, keys, std::move(services));
    ASSERT_TRUE(started.ok()) << started.status();
    server_ = *std::move(started);
  }
  void TearDown() override {
    if (server_) {
      server_->Shutdown(absl::Seconds(1));
      EXPECT_TRUE(server_->Wait().ok());
    }
    std::filesystem::remove_all(dir_);
  }

  GameBotsOptions Options() const {
    GameBotsOptions o;
    o.target = absl::StrCat("127.0.0.1:", server_->port());
    o.key = key_;
    o.run_id = "t1";
    o.play_for = absl::Seconds(3);
    o.players = 2;
    o.sit_and_go_players = 3;
    return o;
  }

  std::string dir_;
  auth::SigningKey key_;
  std::unique_ptr<server::Server> server_;
};

TEST_F(GameBotsTest, EveryGameIsPlayedAndEveryBotsMoneyAddsUp) {
  absl::StatusOr<GameBotsResult> r = RunGameBots(Options());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->failures, IsEmpty());
  EXPECT_EQ(r->ledger_sum_minor, 0);
  std::vector<std::string> games;
  for (const GameTally& t : r->games) {
    SCOPED_TRACE(GameTallyJson(t).dump());
    games.push_back(t.game);
    EXPECT_GT(t.rounds, 0);
    EXPECT_GT(t.staked_minor, 0);
    EXPECT_EQ(t.errors, 0);
  }
  EXPECT_THAT(games, ::testing::ElementsAre("poker_cash", "roulette_french",
                                            "roulette_american", "blackjack",
                                            "stud_no_draw", "sit_and_go"));
  // The sit and go paid out the pool less the fees.
  const GameTally& sng = r->games.back();
  EXPECT_EQ(sng.staked_minor, sng.won_minor + sng.house_minor);
  EXPECT_GT(sng.house_minor, 0);
}

// Issue 20, "Done when": every game in the histories, every statement
// line the wallet's, the sessions, today's close reconciled; then the
// audit of the data directory, live, beside the serving system: OK, with
// the reporting projections equal to their rebuild at the audited cut.
TEST_F(GameBotsTest, TheReportingServiceAccountsForEveryGameWhileServing) {
  GameBotsOptions o = Options();
  o.check_reporting = true;
  absl::StatusOr<GameBotsResult> r = RunGameBots(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->failures, IsEmpty());
  int64_t rounds = 0;
  for (const GameTally& t : r->games) rounds += t.rounds;
  EXPECT_EQ(r->reporting["histories"], rounds);
  EXPECT_GT(r->reporting["statement_lines"], 0);
  EXPECT_GE(r->reporting["sessions"], 2 * 5 + 3);  // each bot, each game
  EXPECT_EQ(r->reporting["close_sha256"].get<std::string>().size(), 64u);
  absl::StatusOr<audit::AuditReport> audit = audit::VerifyDataDir(dir_);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_TRUE(audit->ok()) << audit::FormatAuditReport(*audit);
  EXPECT_FALSE(audit->reporting_live_hash.empty());
  EXPECT_EQ(audit->reporting_live_hash, audit->reporting_rebuilt_hash);
  EXPECT_GT(audit->events, 0);
}

TEST_F(GameBotsTest, BadOptionsAreRefusedBeforeAnyCall) {
  GameBotsOptions o = Options();
  o.run_id = "Bad Id";
  EXPECT_EQ(RunGameBots(o).status().code(), absl::StatusCode::kInvalidArgument);
  o = Options();
  o.players = 7;
  EXPECT_EQ(RunGameBots(o).status().code(), absl::StatusCode::kInvalidArgument);
  o = Options();
  o.sit_and_go_players = 1;
  EXPECT_EQ(RunGameBots(o).status().code(), absl::StatusCode::kInvalidArgument);
}

// --- The decisions ----------------------------------------------------------

v1::LegalActionsView Legal(std::vector<v1::PokerActionType> actions,
                           int64_t call = 0, int64_t min_to = 0) {
  v1::LegalActionsView l;
  for (v1::PokerActionType a : actions) l.add_actions(a);
  l.set_call_minor(call);
  l.set_min_to_minor(min_to);
  l.set_max_to_minor(min_to * 10);
  return l;
}

TEST(GameBotPolicy, CashPokerChoosesOnlyWhatIsOffered) {
  using v1::POKER_ACTION_TYPE_ALL_IN, v1::POKER_ACTION_TYPE_BET,
      v1::POKER_ACTION_TYPE_CALL, v1::POKER_ACTION_TYPE_CHECK,
      v1::POKER_ACTION_TYPE_FOLD, v1::POKER_ACTION_TYPE_RAISE;
  const auto free =
      Legal({POKER_ACTION_TYPE_CHECK, POKER_ACTION_TYPE_BET}, 0, 20);
  EXPECT_EQ(DecideCashPoker(free, 20, 0),
            (PokerChoice{POKER_ACTION_TYPE_BET, 20}));
  EXPECT_EQ(DecideCashPoker(free, 20, 50).action, POKER_ACTION_TYPE_CHECK);
  const auto small = Legal(
      {POKER_ACTION_TYPE_FOLD, POKER_ACTION_TYPE_CALL, POKER_ACTION_TYPE_RAISE},
      40, 80);
  EXPECT_EQ(DecideCashPoker(small, 20, 10).action, POKER_ACTION_TYPE_CALL);
  EXPECT_EQ(DecideCashPoker(small, 20, 80),
            (PokerChoice{POKER_ACTION_TYPE_RAISE, 80}));
  EXPECT_EQ(DecideCashPoker(small, 20, 99).action, POKER_ACTION_TYPE_FOLD);
  const auto big =
      Legal({POKER_ACTION_TYPE_FOLD, POKER_ACTION_TYPE_CALL}, 1'000, 0);
  EXPECT_EQ(DecideCashPoker(big, 20, 50).action, POKER_ACTION_TYPE_FOLD);
  const auto shove = Legal({POKER_ACTION_TYPE_FOLD, POKER_ACTION_TYPE_ALL_IN});
  EXPECT_EQ(DecideCashPoker(shove, 20, 0).action, POKER_ACTION_TYPE_ALL_IN);
  EXPECT_EQ(DecideCashPoker(shove, 20, 90).action, POKER_ACTION_TYPE_FOLD);
}

v1::BlackjackHandView Hand(std::vector<std::string> cards, int total,
                           bool soft = false) {
  v1::BlackjackHandView h;
  for (const std::string& c : cards) h.add_cards(c);
  h.set_total(total);
  h.set_soft(soft);
  return h;
}

TEST(GameBotPolicy, BlackjackSplitsDoublesHitsAndStandsWhenOffered) {
  using v1::BLACKJACK_ACTION_TYPE_DOUBLE, v1::BLACKJACK_ACTION_TYPE_HIT,
      v1::BLACKJACK_ACTION_TYPE_INSURANCE, v1::BLACKJACK_ACTION_TYPE_SPLIT,
      v1::BLACKJACK_ACTION_TYPE_STAND;
  v1::BlackjackLegalView all;
  for (auto a : {BLACKJACK_ACTION_TYPE_HIT, BLACKJACK_ACTION_TYPE_STAND,
                 BLACKJACK_ACTION_TYPE_DOUBLE, BLACKJACK_ACTION_TYPE_SPLIT}) {
    all.add_actions(a);
  }
  EXPECT_EQ(DecideBlackjack(all, Hand({"8s", "8d"}, 16), "Th", 99).action,
            BLACKJACK_ACTION_TYPE_SPLIT);
  EXPECT_EQ(DecideBlackjack(all, Hand({"5s", "6d"}, 11), "Th", 0).action,
            BLACKJACK_ACTION_TYPE_DOUBLE);
  EXPECT_EQ(DecideBlackjack(all, Hand({"Ts", "6d"}, 16), "Th", 0).action,
            BLACKJACK_ACTION_TYPE_HIT);
  EXPECT_EQ(DecideBlackjack(all, Hand({"Ts", "6d"}, 16), "5h", 0).action,
            BLACKJACK_ACTION_TYPE_STAND);
  EXPECT_EQ(DecideBlackjack(all, Hand({"Ts", "8d"}, 18), "Ah", 0).action,
            BLACKJACK_ACTION_TYPE_STAND);
  v1::BlackjackLegalView no_double;  // after a hit: a 2-card rule is gone
  no_double.add_actions(BLACKJACK_ACTION_TYPE_HIT);
  no_double.add_actions(BLACKJACK_ACTION_TYPE_STAND);
  EXPECT_EQ(
      DecideBlackjack(no_double, Hand({"2s", "3d", "5c"}, 10), "Th", 0).action,
      BLACKJACK_ACTION_TYPE_HIT);
  v1::BlackjackLegalView insurance = all;
  insurance.add_actions(BLACKJACK_ACTION_TYPE_INSURANCE);
  EXPECT_EQ(DecideBlackjack(insurance, Hand({"Ts", "8d"}, 18), "Ah", 0),
            (BlackjackChoice{BLACKJACK_ACTION_TYPE_INSURANCE, 0}));
}

TEST(GameBotPolicy, StudBetsAPairAndAnAceKing) {
  EXPECT_EQ(DecideStud({"2s", "2d", "7c", "9h", "Jd"}, 99),
            v1::STUD_ACTION_TYPE_BET);
  EXPECT_EQ(DecideStud({"As", "Kd", "7c", "9h", "3d"}, 99),
            v1::STUD_ACTION_TYPE_BET);
  EXPECT_EQ(DecideStud({"2s", "4d", "7c", "9h", "Jd"}, 99),
            v1::STUD_ACTION_TYPE_FOLD);
  EXPECT_EQ(DecideStud({"2s", "4d", "7c", "9h", "Jd"}, 0),
            v1::STUD_ACTION_TYPE_BET);
}

TEST(GameBotPolicy, RouletteBetsAreOneToThreeWithinTheTableLimits) {
  bool double_zero = false;
  for (uint32_t roll = 0; roll < 100; ++roll) {
    const std::vector<RouletteStake> bets = ChooseRouletteBets(true, roll);
    ASSERT_GE(bets.size(), 1u);
    ASSERT_LE(bets.size(), 3u);
    for (const RouletteStake& s : bets) {
      EXPECT_GE(s.amount_minor, 100);
      EXPECT_LE(s.amount_minor, 500);
      for (const std::string& n : s.bet.numbers()) double_zero |= n == "00";
    }
    for (const RouletteStake& s : ChooseRouletteBets(false, roll)) {
      for (const std::string& n : s.bet.numbers()) EXPECT_NE(n, "00");
    }
  }
  EXPECT_TRUE(double_zero);
}

}  // namespace
}  // namespace banca::bench
