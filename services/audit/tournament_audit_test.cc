#include "services/audit/tournament_audit.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "libs/cards/seeded_random.h"
#include "libs/games/tournament/director.h"
#include "libs/seal/deck_keys.h"
#include "libs/tables/sealed_decks.h"
#include "libs/tables/tournament_state.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/topics.h"
#include "libs/wire/tournament_codec.h"
#include "services/audit/audit_test_log.h"
#include "services/audit/request_audit.h"

namespace banca::audit {
namespace {

namespace tn = games::tournament;

constexpr char kDeckKey[] =
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n";

// Tournament "main" played by a live tables::TournamentState, as the
// service plays it: each input decided, logged (the hands' decks sealed)
// with the money it derives, and the wallet's copies of the money requests
// (audit_test_log.h). What the wallet does about them is each test's.
class TournamentAuditTest : public AuditLogTest {
 protected:
  TournamentAuditTest()
      : AuditLogTest(wire::kTournamentTopics),
        keys_(*seal::DeckKeys::FromKeyFileText(kDeckKey)),
        rng_(cards::testing::SeededRandomSource::FromSeed(19)) {}

  void Create() { Create(Config()); }
  void Create(const v1::TournamentConfig& config) {
    v1::TournamentEvent e;
    v1::TournamentCreated* c = e.mutable_created();
    c->set_tournament_id("main");
    c->set_name("Main event");
    *c->mutable_config() = config;
    e.set_tournament_id("main");
    e.set_at_micros(Now());
    auto state = tables::TournamentState::Open(e);
    ASSERT_TRUE(state.ok()) << state.status();
    state_ = *std::move(state);
    Log(e);
  }
  // Three players at one table, €10 with a 10 % fee and a €1 bounty, a
  // €30 guarantee (€24 of prize parts: €6 of overlay), paying 70 / 30 %.
  static v1::TournamentConfig Config() {
    v1::TournamentConfig c;
    v1::TournamentConfig* config = &c;
    config->set_kind(v1::TOURNAMENT_KIND_SCHEDULED);
    config->set_variant(v1::POKER_VARIANT_HOLDEM);
    config->set_limit(v1::BETTING_LIMIT_NO_LIMIT);
    config->set_seats_per_table(3);
    config->set_starting_chips(1'000);
    config->set_buy_in_minor(1'000);
    config->set_fee_bps(1'000);
    config->set_bounty_minor(100);
    config->add_payouts_bps(7'000);
    config->add_payouts_bps(3'000);
    config->set_guarantee_minor(3'000);
    config->set_min_players(2);
    config->set_max_players(3);
    v1::TournamentLevel* level = config->add_levels();
    level->set_small_blind(50);
    level->set_big_blind(100);
    level->set_seconds(3'600);
    return c;
  }

  // Appends `e` as the host does: the event and, for a money request, its
  // copy; returns its event id.
  std::string Log(v1::TournamentEvent e) {
    e.set_tournament_id("main");
    if (e.has_hand_started()) {
      EXPECT_TRUE(tables::SealDeal(keys_, e).ok());
      tables::DropClearDeck(e);
    }
    std::vector<eventlog::Record> records;
    wire::AppendTournamentRecords(e, ++table_sequence_,
                                  {"tournament", "", Now()}, &records);
    auto appended = log_->Append(std::move(records));
    EXPECT_TRUE(appended.ok()) << appended.status();
    return absl::StrCat("tournament/main#", table_sequence_);
  }

  // Decides the input `e` at the live state and logs it with the money it
  // derives.
  void Input(v1::TournamentEvent e) {
    e.set_tournament_id("main");
    if (e.at_micros() == 0) e.set_at_micros(Now());
    if (e.draw_seed().empty()) e.set_draw_seed(tables::NewDrawSeed(rng_));
    std::vector<v1::TournamentEvent> derived;
    absl::Status s = state_->Apply(e, &derived);
    ASSERT_TRUE(s.ok()) << s;
    Log(e);
    for (v1::TournamentEvent& d : derived) {
      if (d.has_money()) money_.push_back(d.money());
      if (d.has_hand_ended()) ++hands_ended_;
      if (d.has_hand_ended() && !log_reveals_) continue;
      Log(d);
    }
  }

  // `player`'s buy-in requested; returns its saga id.
  std::string RequestBuyIn(const std::string& player) {
    auto e =
        state_->PaymentEvent(player, v1::TOURNAMENT_PAYMENT_KIND_BUY_IN, false);
    EXPECT_TRUE(e.ok()) << e.status();
    if (!e.ok()) return "";
    payments_[e->payment_requested().saga_id()] = e->payment_requested().tx();
    Input(*e);
    return e->payment_requested().saga_id();
  }
  void Captured(const std::string& saga) {
    v1::TournamentEvent e;
    e.mutable_payment_captured()->set_saga_id(saga);
    Input(e);
  }
  // A buy-in the wallet posts and the tournament captures.
  void BuyIn(const std::string& player) {
    const std::string saga = RequestBuyIn(player);
    Posted(saga, payments_.at(saga));
    Captured(saga);
  }

  // The start, then every hand: the first to act pushes, the others call,
  // until the tournament is over.
  void Play() {
    v1::TournamentEvent start;
    start.mutable_started();
    Input(start);
    for (int step = 0; step < 500; ++step) {
      const tn::Director& d = state_->director();
      if (d.phase() != tn::Phase::kRunning) return;
      if (!Decide()) {
        std::optional<v1::TournamentEvent> due = state_->Due(Now(), rng_);
        ASSERT_TRUE(due.has_value()) << "nothing to do at step " << step;
        Input(*due);
      }
      if (HasFatalFailure()) return;
    }
    FAIL() << "the tournament did not finish";
  }
  // The decision due at some table, if any.
  bool Decide() {
    const tn::Director& d = state_->director();
    for (const std::string& table : d.TableNames()) {
      const games::poker::Hand* hand = d.HandAt(table);
      if (hand == nullptr || hand->finished() || !hand->to_act()) continue;
      const games::poker::LegalActions legal = hand->legal();
      v1::TournamentEvent e;
      v1::TournamentActed* a = e.mutable_acted();
      a->set_player_id((*d.SeatsAt(table))[*hand->to_act() - 1]);
      a->set_action(legal.can_raise || legal.can_bet
                        ? v1::POKER_ACTION_TYPE_ALL_IN
                        : v1::POKER_ACTION_TYPE_CALL);
      a->set_hand_number(d.HandsPlayedAt(table) + 1);
      Input(e);
      return true;
    }
    return false;
  }

  // Three players bought in, the start, and the first hand dealt.
  void StartAndDeal() {
    Create();
    for (const char* player : {"ana", "bia", "cai"}) BuyIn(player);
    v1::TournamentEvent start;
    start.mutable_started();
    Input(start);
    std::optional<v1::TournamentEvent> deal = state_->Due(Now(), rng_);
    ASSERT_TRUE(deal.has_value() && deal->has_hand_started());
    Input(*deal);
  }

  // The wallet posts every money transaction the tournament logged.
  void WalletPostsTheMoney() {
    for (const v1::TournamentMoney& m : money_) {
      for (int i = 0; i < m.transactions_size(); ++i) {
        Posted(MoneyId(m.number(), i), m.transactions(i));
      }
    }
  }
  static std::string MoneyId(int64_t number, int i) {
    return wire::TournamentMoneyRequestId("main", number, i);
  }

  // A whole tournament, carried out by the wallet and read by it.
  void GoodTournament() {
    Create();
    for (const char* player : {"ana", "bia", "cai"}) BuyIn(player);
    Play();
    WalletPostsTheMoney();
    WalletReadAll();
  }

  // The first money transaction that debits the prize pool with a prize.
  std::pair<std::string, v1::LedgerTransaction> FirstPrize() const {
    for (const v1::TournamentMoney& m : money_) {
      for (int i = 0; i < m.transactions_size(); ++i) {
        const v1::LedgerTransaction& tx = m.transactions(i);
        if (tx.reason() == v1::POSTING_REASON_PRIZE &&
            PostingTo(tx, "tournament/main/prize_pool") < 0) {
          return {MoneyId(m.number(), i), tx};
        }
      }
    }
    return {};
  }

  absl::StatusOr<TournamentAuditReport> Audit(bool with_keys = true) {
    return AuditTournamentTopic(*log_, with_keys ? &keys_ : nullptr);
  }
  static std::string Problems(const TournamentAuditReport& r) {
    return ProblemLines(r.problems);
  }

  int64_t Now() { return 1'767'225'600'000'000 + ++clock_ * 1'000'000; }

  seal::DeckKeys keys_;
  cards::testing::SeededRandomSource rng_;
  std::unique_ptr<tables::TournamentState> state_;
  int64_t clock_ = 0;
  std::map<std::string, v1::LedgerTransaction> payments_;
  std::vector<v1::TournamentMoney> money_;
  int64_t hands_ended_ = 0;
  bool log_reveals_ = true;  // false: a log from before hands revealed
};

TEST_F(TournamentAuditTest, GoodTournamentIsCleanAndItsMoneyAddsUp) {
  GoodTournament();
  ASSERT_EQ(state_->director().phase(), tn::Phase::kFinished);
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << Problems(*report);
  EXPECT_EQ(report->tables, 1);
  EXPECT_EQ(report->payments, 3);
  EXPECT_EQ(report->carried_out, 3 + report->money_transactions);
  EXPECT_EQ(report->pending, 0);
  EXPECT_GT(report->hands, 0);
  EXPECT_EQ(report->replayed, 1);
  EXPECT_EQ(report->finished, 1);
  EXPECT_TRUE(report->notes.empty());
  ASSERT_EQ(report->summaries.size(), 1u);
  const TournamentSummary& s = report->summaries[0];
  EXPECT_EQ(s.phase, "finished");
  EXPECT_FALSE(s.open);
  const TournamentFlows& f = s.flows;
  EXPECT_EQ(f.paid_in, 3'000);
  EXPECT_EQ(f.fees_in, 300);
  EXPECT_EQ(f.pool_in, 2'400);
  EXPECT_EQ(f.bounties_in, 300);
  EXPECT_EQ(f.overlay(), 600);
  EXPECT_EQ(f.prizes, 3'000);  // 2,100 + 900: the guarantee
  EXPECT_EQ(f.tickets + f.pool_refunds, 0);
  EXPECT_EQ(f.bounties_paid, 300);
  EXPECT_EQ(f.pool_left, 0);
  EXPECT_EQ(f.bounties_left, 0);
}

TEST_F(TournamentAuditTest, WithoutADeckKeyTheHandsReplayFromTheirReveals) {
  GoodTournament();
  // Every hand dealt revealed its deck when it ended.
  EXPECT_GT(hands_ended_, 0);
  auto report = Audit(/*with_keys=*/false);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << Problems(*report);
  EXPECT_EQ(report->hands, hands_ended_);
  EXPECT_EQ(report->replayed, 1);
  EXPECT_EQ(report->finished, 1);
  EXPECT_TRUE(report->notes.empty());
  ASSERT_EQ(report->summaries.size(), 1u);
  EXPECT_EQ(report->summaries[0].phase, "finished");
  EXPECT_EQ(report->summaries[0].flows.prizes, 3'000);
}

TEST_F(TournamentAuditTest, ALogWrittenBeforeRevealsStillReplaysWithTheKey) {
  log_reveals_ = false;
  GoodTournament();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << Problems(*report);
  EXPECT_EQ(report->replayed, 1);
  EXPECT_EQ(report->finished, 1);
  // Without the key there is nothing to open its decks with.
  auto without = Audit(/*with_keys=*/false);
  ASSERT_TRUE(without.ok()) << without.status();
  EXPECT_EQ(without->replayed, 0);
}

TEST_F(TournamentAuditTest, AHandInPlayIsNotReplayedWithoutTheKey) {
  ASSERT_NO_FATAL_FAILURE(StartAndDeal());  // the first hand is not over
  ASSERT_EQ(hands_ended_, 0);
  WalletPostsTheMoney();  // the overlay, at the start
  WalletReadAll();
  auto without = Audit(/*with_keys=*/false);
  ASSERT_TRUE(without.ok()) << without.status();
  EXPECT_TRUE(without->ok()) << Problems(*without);
  EXPECT_EQ(without->replayed, 0);
  ASSERT_EQ(without->notes.size(), 1u);
  EXPECT_NE(without->notes[0].find("no deck key was given, and "
                                   "tournament/main#"),
            std::string::npos)
      << without->notes[0];
  EXPECT_NE(without->notes[0].find("is not revealed yet"), std::string::npos);
  auto with_keys = Audit();
  ASSERT_TRUE(with_keys.ok()) << with_keys.status();
  EXPECT_EQ(with_keys->replayed, 1);
}

TEST_F(TournamentAuditTest, ARevealThatIsNotTheDealtDeckFailsTheReplay) {
  ASSERT_NO_FATAL_FAILURE(StartAndDeal());
  // The hand ends with everyone folding to the big blind; the log gets a
  // reveal with two cards swapped instead of the one the state derived.
  std::vector<v1::TournamentEvent> derived;
  while (derived.empty() || !derived.front().has_hand_ended()) {
    const tn::Director& d = state_->director();
    const std::string table = d.TableNames().front();
    const games::poker::Hand* hand = d.HandAt(table);
    ASSERT_TRUE(hand != nullptr && hand->to_act());
    v1::TournamentEvent e;
    e.set_tournament_id("main");
    e.set_at_micros(Now());
    e.set_draw_seed(tables::NewDrawSeed(rng_));
    v1::TournamentActed* a = e.mutable_acted();
    a->set_player_id((*d.SeatsAt(table))[*hand->to_act() - 1]);
    a->set_action(v1::POKER_ACTION_TYPE_FOLD);
    derived.clear();
    ASSERT_TRUE(state_->Apply(e, &derived).ok());
    Log(e);
  }
  v1::TournamentEvent forged = derived.front();
  auto* deck = forged.mutable_hand_ended()->mutable_revealed_deck();
  deck->SwapElements(0, 1);
  Log(forged);
  for (size_t i = 1; i < derived.size(); ++i) Log(derived[i]);
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, "logged the end of hand 1 at "))
      << Problems(*report);
  EXPECT_TRUE(Mentions(*report, "is not what the events before it decided"));
}

TEST_F(TournamentAuditTest, NotYetReadByTheWalletIsPendingNotMissing) {
  Create();
  RequestBuyIn("ana");
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << Problems(*report);
  EXPECT_EQ(report->pending, 1);
  ASSERT_EQ(report->summaries.size(), 1u);
  EXPECT_TRUE(report->summaries[0].open);
}

TEST_F(TournamentAuditTest, MissingPaymentIsReported) {
  Create();
  const std::string saga = RequestBuyIn("ana");
  WalletReadAll();  // read, and never carried out
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->problems.size(), 1u) << Problems(*report);
  EXPECT_TRUE(Mentions(*report, "is missing in the wallet"));
  EXPECT_TRUE(Mentions(*report, saga));
}

TEST_F(TournamentAuditTest, RefusedPaymentCountsButACaptureOfItIsReported) {
  Create();
  const std::string saga = RequestBuyIn("ana");
  v1::WalletEvent rejected;
  rejected.set_request_id(saga);
  rejected.mutable_request_rejected()->set_code("FAILED_PRECONDITION");
  Wallet(rejected);
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << Problems(*report);
  EXPECT_EQ(report->payments_refused, 1);
  EXPECT_TRUE(report->summaries.at(0).open);  // the tournament has not read it

  Captured(saga);  // the tournament says it has the money
  report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report,
                       "captured by the tournament, but the wallet "
                       "refused it"))
      << Problems(*report);
}

TEST_F(TournamentAuditTest, DoubledPrizeIsReported) {
  GoodTournament();
  const auto [id, prize] = FirstPrize();
  ASSERT_FALSE(id.empty());
  Posted(id, prize);
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, "carried out 2 times")) << Problems(*report);
  EXPECT_TRUE(Mentions(*report, id));
  // The ledger's side of it: the pool paid out more than it held.
  EXPECT_TRUE(Mentions(*report, "pays out more than it holds"));
}

TEST_F(TournamentAuditTest, UnrequestedPostingsAreReported) {
  GoodTournament();
  const auto [id, prize] = FirstPrize();
  Posted(MoneyId(99, 0), prize);  // no money event 99
  v1::LedgerTransaction adjustment = prize;
  adjustment.set_reason(v1::POSTING_REASON_ADJUSTMENT);
  Posted("adj-1", adjustment);  // not a tournament's request
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report, absl::StrCat("request ", MoneyId(99, 0),
                                             ", which no tournament event "
                                             "asks for")))
      << Problems(*report);
  EXPECT_TRUE(Mentions(*report,
                       "under request adj-1, which is no "
                       "tournament's"));
}

TEST_F(TournamentAuditTest, MoneyNotDecidedByTheHandsFailsTheReplay) {
  GoodTournament();
  // A prize to bia that no place decided, posted by the wallet as asked.
  v1::TournamentEvent forged;
  v1::TournamentMoney* m = forged.mutable_money();
  m->set_number(static_cast<int64_t>(money_.size()) + 1);
  v1::LedgerTransaction* tx = m->add_transactions();
  *tx = FirstPrize().second;
  Log(forged);
  Posted(MoneyId(m->number(), 0), *tx);
  WalletReadAll();
  auto with_keys = Audit();
  ASSERT_TRUE(with_keys.ok()) << with_keys.status();
  EXPECT_TRUE(Mentions(*with_keys, "is not what the events before it decided"))
      << Problems(*with_keys);
  // Without the hands, the postings still show a pool paid out twice.
  auto without = Audit(/*with_keys=*/false);
  ASSERT_TRUE(without.ok()) << without.status();
  EXPECT_TRUE(Mentions(*without, "pays out more than it holds"))
      << Problems(*without);
}

TEST_F(TournamentAuditTest, MoneyOutsideTheTournamentFlowsIsReported) {
  Create();
  BuyIn("ana");
  // A money event that takes the pool to the house's bank.
  v1::TournamentEvent e;
  v1::TournamentMoney* m = e.mutable_money();
  m->set_number(1);
  v1::LedgerTransaction* tx = m->add_transactions();
  tx->set_reason(v1::POSTING_REASON_PRIZE);
  v1::Posting* out = tx->add_postings();
  out->set_account("tournament/main/prize_pool");
  out->set_amount_minor(-800);
  v1::Posting* in = tx->add_postings();
  in->set_account("house/bank");
  in->set_amount_minor(800);
  Log(e);
  Posted(MoneyId(1, 0), *tx);
  WalletReadAll();
  auto report = Audit(/*with_keys=*/false);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(Mentions(*report,
                       "moves house/bank by 800 in a "
                       "POSTING_REASON_PRIZE transaction"))
      << Problems(*report);
}

TEST_F(TournamentAuditTest, CancelledBeforeTheStartRefundsEverything) {
  Create();
  BuyIn("ana");
  BuyIn("bia");
  v1::TournamentEvent cancel;
  cancel.mutable_cancelled()->set_reason("not enough players");
  Input(cancel);
  WalletPostsTheMoney();
  WalletReadAll();
  // No hand was dealt: the replay needs no deck key.
  auto report = Audit(/*with_keys=*/false);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << Problems(*report);
  EXPECT_EQ(report->replayed, 1);
  EXPECT_EQ(report->cancelled, 1);
  const TournamentFlows& f = report->summaries.at(0).flows;
  EXPECT_EQ(f.paid_in, 2'000);
  EXPECT_EQ(f.pool_refunds, 1'600);
  EXPECT_EQ(f.fees_refunded, 200);
  EXPECT_EQ(f.bounties_refunded, 200);
  EXPECT_EQ(f.overlay(), 0);
  EXPECT_EQ(f.pool_left, 0);
  EXPECT_EQ(f.fees_kept(), 0);
}

TEST_F(TournamentAuditTest, FreerollPaysItsPrizesAsTickets) {
  v1::TournamentConfig config = Config();
  config.set_kind(v1::TOURNAMENT_KIND_FREEROLL);
  config.set_buy_in_minor(0);
  config.set_fee_bps(0);
  config.set_bounty_minor(0);
  config.set_guarantee_minor(1'000);
  config.set_ticket_target("next");
  Create(config);
  for (const char* player : {"ana", "bia", "cai"}) {
    // Nothing to pay: the ledger refuses the empty transaction, and the
    // entry stands without a capture.
    const std::string saga = RequestBuyIn(player);
    v1::WalletEvent rejected;
    rejected.set_request_id(saga);
    rejected.mutable_request_rejected()->set_code("INVALID_ARGUMENT");
    Wallet(rejected);
  }
  Play();
  WalletPostsTheMoney();
  WalletReadAll();
  auto report = Audit();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << Problems(*report);
  EXPECT_EQ(report->payments_refused, 0);
  EXPECT_EQ(report->finished, 1);
  const TournamentSummary& s = report->summaries.at(0);
  EXPECT_FALSE(s.open);
  EXPECT_EQ(s.flows.paid_in, 0);
  EXPECT_EQ(s.flows.overlay(), 1'000);  // the house's prizes
  EXPECT_EQ(s.flows.tickets, 1'000);    // entries to "next"
  EXPECT_EQ(s.flows.prizes, 0);
  EXPECT_EQ(s.flows.pool_left, 0);
}

TEST_F(TournamentAuditTest, CancelledWithMoneyMissingIsOpenNotWrong) {
  Create();
  BuyIn("ana");
  v1::TournamentEvent cancel;
  cancel.mutable_cancelled();
  Input(cancel);
  auto report = Audit();  // the wallet has not read the refund
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << Problems(*report);
  EXPECT_EQ(report->pending, 1);  // the refund
  EXPECT_TRUE(report->summaries.at(0).open);
}

}  // namespace
}  // namespace banca::audit
