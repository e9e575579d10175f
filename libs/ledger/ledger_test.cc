#include "libs/ledger/ledger.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/ledger/account.h"
#include "libs/money/money.h"

namespace banca::ledger {
namespace {

using absl::StatusCode;

// Every committed event, as the wallet would append it.
struct Recorded {
  std::string stream;
  uint64_t sequence;
  v1::WalletEvent event;
};

v1::LedgerTransaction Tx(
    v1::PostingReason reason,
    std::vector<std::pair<std::string, int64_t>> postings) {
  v1::LedgerTransaction tx;
  tx.set_reason(reason);
  tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
  tx.mutable_reference()->set_id("pay-1");
  for (auto& [account, amount] : postings) {
    auto* p = tx.add_postings();
    p->set_account(account);
    p->set_amount_minor(amount);
  }
  return tx;
}

// A ledger and every event it committed, as the wallet would append them.
struct Recording {
  explicit Recording(LedgerOptions options = {}) : ledger(std::move(options)) {}
  Ledger ledger;
  std::vector<Recorded> log;
  std::function<void(const Committed&)> record = [this](const Committed& c) {
    log.push_back({c.stream, c.sequence, c.event});
  };
};

class LedgerTest : public ::testing::Test {
 protected:
  // A FunctionRef must not outlive what it refers to: keep the recorder.
  CommitFn Recorder() { return recorder_; }
  CommandMeta Meta() { return {absl::StrCat("req-", ++n_), "fp"}; }

  absl::Status Open(const std::string& player) {
    return ledger_.OpenAccount(Meta(), player, "EUR", Recorder());
  }
  absl::Status Deposit(const std::string& player, int64_t amount) {
    return ledger_.Post(
        Meta(), PlayerOwner(player),
        Tx(v1::POSTING_REASON_DEPOSIT, {{"external/payments", -amount},
                                        {PlayerCashAccount(player), amount}}),
        Recorder());
  }
  static v1::Reference Ref(const std::string& id) {
    v1::Reference r;
    r.set_kind(v1::REFERENCE_KIND_TABLE);
    r.set_id(id);
    return r;
  }
  // Replays everything committed so far into a fresh ledger.
  std::unique_ptr<Ledger> Replay() {
    auto replayed = std::make_unique<Ledger>();
    for (const Recorded& r : log_) {
      EXPECT_TRUE(replayed->Apply(r.stream, r.sequence, r.event).ok());
    }
    return replayed;
  }

  Ledger ledger_;
  std::vector<Recorded> log_;
  std::function<void(const Committed&)> recorder_ = [this](const Committed& c) {
    log_.push_back({c.stream, c.sequence, c.event});
  };
  int n_ = 0;
};

TEST(AccountNames, ParseClassesAndRejectGarbage) {
  EXPECT_EQ(ParseAccount("player/ana/cash")->account_class,
            AccountClass::kPlayer);
  EXPECT_EQ(ParseAccount("player/ana/cash")->owner, "player/ana");
  EXPECT_TRUE(ParseAccount("house/rake")->hot);
  EXPECT_TRUE(ParseAccount("external/payments")->hot);
  EXPECT_FALSE(ParseAccount("table/t1/seat/ana")->hot);
  for (const char* bad :
       {"", "player", "player/ana", "player/ana/savings", "casino/x", "house/",
        "house//x", "house/a b", "table/t1/../x", "player/ana:1/cash"}) {
    EXPECT_EQ(ParseAccount(bad).status().code(), StatusCode::kInvalidArgument)
        << bad;
  }
  EXPECT_FALSE(ParseAccount(std::string(300, 'a')).ok());
}

TEST_F(LedgerTest, BalancedTransactionMovesMoneyAndSumStaysZero) {
  ASSERT_TRUE(Open("ana").ok());
  ASSERT_TRUE(Deposit("ana", 10'000).ok());
  auto balance = ledger_.Balance("ana");
  ASSERT_TRUE(balance.ok());
  EXPECT_EQ(balance->available, 10'000);
  EXPECT_EQ(ledger_.AccountBalance("external/payments"), -10'000);
  LedgerSummary summary = ledger_.Summarize();
  EXPECT_EQ(summary.sum, 0);
  EXPECT_EQ(summary.deposits, 10'000);
  // The recorded posting carries the balance it produced.
  const auto& tx = log_.back().event.transaction_posted().tx();
  EXPECT_EQ(tx.postings(1).balance_after_minor(), 10'000);
  EXPECT_EQ(tx.tx_id(), "wallet/player/ana#2");
}

TEST_F(LedgerTest, UnbalancedTransactionIsRejectedAndNothingCommits) {
  ASSERT_TRUE(Open("ana").ok());
  const size_t before = log_.size();
  auto s = ledger_.Post(
      Meta(), PlayerOwner("ana"),
      Tx(v1::POSTING_REASON_DEPOSIT,
         {{"external/payments", -100}, {PlayerCashAccount("ana"), 99}}),
      Recorder());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(log_.size(), before);
  EXPECT_EQ(ledger_.Balance("ana")->available, 0);
}

TEST_F(LedgerTest, PlayerCashNeverGoesNegative) {
  ASSERT_TRUE(Open("ana").ok());
  ASSERT_TRUE(Deposit("ana", 500).ok());
  auto s = ledger_.Post(
      Meta(), PlayerOwner("ana"),
      Tx(v1::POSTING_REASON_WITHDRAWAL,
         {{PlayerCashAccount("ana"), -501}, {"external/payments", 501}}),
      Recorder());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(ledger_.Balance("ana")->available, 500);
}

TEST_F(LedgerTest, RejectsUnknownClosedAndMalformed) {
  EXPECT_EQ(Deposit("ghost", 100).code(), StatusCode::kNotFound);
  ASSERT_TRUE(Open("ana").ok());
  EXPECT_EQ(Open("ana").code(), StatusCode::kAlreadyExists);
  ASSERT_TRUE(ledger_.CloseAccount(Meta(), "ana", Recorder()).ok());
  EXPECT_EQ(Deposit("ana", 100).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(Open("ana").code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(ledger_.OpenAccount(Meta(), "bad id", "EUR", Recorder()).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(ledger_.OpenAccount(Meta(), "bob", "USD", Recorder()).code(),
            StatusCode::kInvalidArgument);
}

TEST_F(LedgerTest, CloseRequiresZeroBalance) {
  ASSERT_TRUE(Open("ana").ok());
  ASSERT_TRUE(Deposit("ana", 1).ok());
  EXPECT_EQ(ledger_.CloseAccount(Meta(), "ana", Recorder()).code(),
            StatusCode::kFailedPrecondition);
}

TEST_F(LedgerTest, PostingRulesAreEnforced) {
  ASSERT_TRUE(Open("ana").ok());
  auto post = [&](v1::LedgerTransaction tx) {
    return ledger_.Post(Meta(), PlayerOwner("ana"), std::move(tx), Recorder())
        .code();
  };
  // One posting, a zero posting, a duplicate account, a held account.
  EXPECT_EQ(post(Tx(v1::POSTING_REASON_ADJUSTMENT, {{"house/bank", 0}})),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(post(Tx(v1::POSTING_REASON_ADJUSTMENT,
                    {{"house/bank", 0}, {"player/ana/cash", 0}})),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(post(Tx(v1::POSTING_REASON_ADJUSTMENT,
                    {{"house/bank", -5}, {"house/bank", 5}})),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(post(Tx(v1::POSTING_REASON_ADJUSTMENT,
                    {{"house/bank", -5}, {"player/ana/held", 5}})),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(post(Tx(v1::POSTING_REASON_UNSPECIFIED,
                    {{"house/bank", -5}, {"player/ana/cash", 5}})),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(post(Tx(v1::POSTING_REASON_ADJUSTMENT,
                    {{"house/bank", -(int64_t{1} << 62)},
                     {"player/ana/cash", int64_t{1} << 62}})),
            StatusCode::kInvalidArgument);
  // A table account is constrained: it cannot be debited below zero.
  EXPECT_EQ(post(Tx(v1::POSTING_REASON_PAYOUT,
                    {{"table/t1/pot", -5}, {"player/ana/cash", 5}})),
            StatusCode::kFailedPrecondition);
  EXPECT_TRUE(log_.size() == 1);  // only the AccountOpened
}

TEST_F(LedgerTest, HoldPlaceCapturePartReleaseRest) {
  ASSERT_TRUE(Open("ana").ok());
  ASSERT_TRUE(Deposit("ana", 10'000).ok());
  ASSERT_TRUE(ledger_
                  .PlaceHold(Meta(), "ana", 4'000, v1::POSTING_REASON_BUY_IN,
                             Ref("t1"), 1'000, Recorder())
                  .ok());
  const std::string hold_id = log_.back().event.hold_placed().hold_id();
  EXPECT_EQ(hold_id, "ana:1");
  EXPECT_EQ(ledger_.Balance("ana")->available, 6'000);
  EXPECT_EQ(ledger_.Balance("ana")->held, 4'000);
  // Capture above the hold is refused.
  EXPECT_EQ(
      ledger_
          .CaptureHold(Meta(), hold_id, 4'001, "table/t1/seat/ana",
                       v1::POSTING_REASON_BUY_IN, Ref("t1"), false, Recorder())
          .code(),
      StatusCode::kFailedPrecondition);
  ASSERT_TRUE(ledger_
                  .CaptureHold(Meta(), hold_id, 1'500, "table/t1/seat/ana",
                               v1::POSTING_REASON_BUY_IN, Ref("t1"), false,
                               Recorder())
                  .ok());
  EXPECT_EQ(ledger_.Hold(hold_id)->remaining, 2'500);
  EXPECT_TRUE(ledger_.Hold(hold_id)->open);
  ASSERT_TRUE(ledger_.ReleaseHold(Meta(), hold_id, false, Recorder()).ok());
  EXPECT_FALSE(ledger_.Hold(hold_id)->open);
  EXPECT_EQ(ledger_.Balance("ana")->available, 8'500);
  EXPECT_EQ(ledger_.Balance("ana")->held, 0);
  EXPECT_EQ(ledger_.AccountBalance("table/t1/seat/ana"), 1'500);
  EXPECT_EQ(ledger_.ReleaseHold(Meta(), hold_id, false, Recorder()).code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(ledger_.Summarize().sum, 0);
}

TEST_F(LedgerTest, FinalCaptureReleasesTheRest) {
  ASSERT_TRUE(Open("ana").ok());
  ASSERT_TRUE(Deposit("ana", 1'000).ok());
  ASSERT_TRUE(ledger_
                  .PlaceHold(Meta(), "ana", 1'000, v1::POSTING_REASON_BET,
                             Ref("r1"), 1'000, Recorder())
                  .ok());
  ASSERT_TRUE(ledger_
                  .CaptureHold(Meta(), "ana:1", 300, "game/r1/wagers",
                               v1::POSTING_REASON_BET, Ref("r1"), true,
                               Recorder())
                  .ok());
  EXPECT_FALSE(ledger_.Hold("ana:1")->open);
  EXPECT_EQ(ledger_.Balance("ana")->available, 700);
  EXPECT_TRUE(log_.back().event.hold_captured().has_release_tx());
}

TEST_F(LedgerTest, HoldErrors) {
  ASSERT_TRUE(Open("ana").ok());
  EXPECT_EQ(ledger_
                .PlaceHold(Meta(), "ana", 1, v1::POSTING_REASON_BUY_IN,
                           Ref("t1"), 0, Recorder())
                .code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(ledger_
                .PlaceHold(Meta(), "ana", 0, v1::POSTING_REASON_BUY_IN,
                           Ref("t1"), 0, Recorder())
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(ledger_.ReleaseHold(Meta(), "ana:9", false, Recorder()).code(),
            StatusCode::kNotFound);
  EXPECT_EQ(ledger_.ReleaseHold(Meta(), "nonsense", false, Recorder()).code(),
            StatusCode::kInvalidArgument);
}

TEST_F(LedgerTest, ExpiredHoldsAreFound) {
  ASSERT_TRUE(Open("ana").ok());
  ASSERT_TRUE(Deposit("ana", 1'000).ok());
  ASSERT_TRUE(ledger_
                  .PlaceHold(Meta(), "ana", 100, v1::POSTING_REASON_BUY_IN,
                             Ref("t1"), 5'000, Recorder())
                  .ok());
  EXPECT_TRUE(ledger_.ExpiredHolds(4'999, 10).empty());
  EXPECT_EQ(ledger_.ExpiredHolds(5'000, 10), std::vector<std::string>{"ana:1"});
}

// A request that can never be carried out is recorded on its requester's
// stream, nothing moves, and replay takes it; any failure text fits.
TEST_F(LedgerTest, AQuarantineIsRecordedOnTheRequestersStreamAndMovesNothing) {
  v1::RequestQuarantined q;
  q.set_topic("banca.table.events");
  q.set_partition(3);
  q.set_offset(17);
  q.set_step(std::string(300, 's'));
  q.set_code("ALREADY_EXISTS");
  q.set_message("id \xff\xfe taken\n" + std::string(1000, 'm'));
  ASSERT_TRUE(
      ledger_.RecordQuarantine(Meta(), "table/t1/pot", q, Recorder()).ok());
  ASSERT_TRUE(
      ledger_.RecordQuarantine(Meta(), "player/ana", q, Recorder()).ok());
  ASSERT_EQ(log_.size(), 2u);
  EXPECT_EQ(log_[0].stream, "wallet/table/t1/pot");
  EXPECT_EQ(log_[1].stream, "wallet/player/ana");
  const v1::RequestQuarantined& recorded = log_[0].event.request_quarantined();
  EXPECT_EQ(recorded.topic(), "banca.table.events");
  EXPECT_EQ(recorded.partition(), 3);
  EXPECT_EQ(recorded.offset(), 17);
  EXPECT_EQ(recorded.step().size(), 128u);
  EXPECT_EQ(recorded.code(), "ALREADY_EXISTS");
  EXPECT_EQ(recorded.message().substr(0, 12), "id ?? taken?");
  EXPECT_EQ(recorded.message().size(), kMaxMemoBytes);
  EXPECT_EQ(ledger_.Summarize().sum, 0);
  EXPECT_EQ(ledger_.Summarize().transactions, 0);
  auto replayed = Replay();
  EXPECT_EQ(replayed->Summarize().sum, 0);
  // No stream for a name the ledger does not accept, nor for a quarantine
  // that does not say where the request is.
  for (const char* bad :
       {"player/a b", "player/ana/cash", "table/t1/../x", "casino/x", ""}) {
    EXPECT_EQ(ledger_.RecordQuarantine(Meta(), bad, q, Recorder()).code(),
              StatusCode::kInvalidArgument)
        << bad;
  }
  v1::RequestQuarantined nowhere = q;
  nowhere.set_offset(-1);
  EXPECT_EQ(
      ledger_.RecordQuarantine(Meta(), "table/t1/pot", nowhere, Recorder())
          .code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(log_.size(), 2u);
}

TEST_F(LedgerTest, ReplayRebuildsTheSameState) {
  for (const char* p : {"ana", "rui", "eva"}) {
    ASSERT_TRUE(Open(p).ok());
    ASSERT_TRUE(Deposit(p, 5'000).ok());
  }
  ASSERT_TRUE(ledger_
                  .PlaceHold(Meta(), "rui", 2'000, v1::POSTING_REASON_BUY_IN,
                             Ref("t1"), 9, Recorder())
                  .ok());
  ASSERT_TRUE(ledger_
                  .CaptureHold(Meta(), "rui:1", 2'000, "table/t1/seat/rui",
                               v1::POSTING_REASON_BUY_IN, Ref("t1"), true,
                               Recorder())
                  .ok());
  ASSERT_TRUE(ledger_
                  .Post(Meta(), "table/t1/seat/rui",
                        Tx(v1::POSTING_REASON_RAKE,
                           {{"table/t1/seat/rui", -150}, {"house/rake", 150}}),
                        Recorder())
                  .ok());
  auto replayed = Replay();
  LedgerSummary a = ledger_.Summarize(), b = replayed->Summarize();
  EXPECT_EQ(a.sum, 0);
  EXPECT_EQ(b.sum, 0);
  for (int c = 0; c < 6; ++c) {
    EXPECT_EQ(a.classes[c].balance, b.classes[c].balance) << c;
    EXPECT_EQ(a.classes[c].accounts, b.classes[c].accounts) << c;
  }
  EXPECT_EQ(replayed->AccountBalance("house/rake"), 150);
  EXPECT_EQ(replayed->Balance("rui")->available, 3'000);
  EXPECT_EQ(a.transactions, b.transactions);
}

TEST_F(LedgerTest, ReplayDetectsSequenceGapsAndUnbalancedEvents) {
  ASSERT_TRUE(Open("ana").ok());
  ASSERT_TRUE(Deposit("ana", 100).ok());
  Ledger replayed;
  // Skipping the first event of the stream is a gap.
  EXPECT_EQ(
      replayed.Apply(log_[1].stream, log_[1].sequence, log_[1].event).code(),
      StatusCode::kDataLoss);
  ASSERT_TRUE(
      replayed.Apply(log_[0].stream, log_[0].sequence, log_[0].event).ok());
  v1::WalletEvent tampered = log_[1].event;
  tampered.mutable_transaction_posted()
      ->mutable_tx()
      ->mutable_postings(1)
      ->set_amount_minor(1'000'000);
  EXPECT_EQ(replayed.Apply(log_[1].stream, log_[1].sequence, tampered).code(),
            StatusCode::kDataLoss);
}

// Two ledgers share the owners, as two wallet processes would: each
// decides for its own players and follows the other's events.
TEST(LedgerOwnership, EachDecidesOnlyItsOwnersDebitsAndFollowsTheOther) {
  auto owned_by = [](std::string prefix) {
    return [prefix](std::string_view owner) -> absl::Status {
      if (owner.starts_with(prefix)) return absl::OkStatus();
      return absl::UnavailableError(
          absl::StrCat("owner ", std::string(owner), " is decided elsewhere"));
    };
  };
  LedgerOptions a_options, b_options;
  a_options.decides = owned_by("player/a");
  b_options.decides = owned_by("player/b");
  Ledger a(a_options), b(b_options);
  std::vector<Recorded> a_log, b_log;
  std::function<void(const Committed&)> to_a = [&](const Committed& c) {
    a_log.push_back({c.stream, c.sequence, c.event});
  };
  std::function<void(const Committed&)> to_b = [&](const Committed& c) {
    b_log.push_back({c.stream, c.sequence, c.event});
  };
  int n = 0;
  auto meta = [&] { return CommandMeta{absl::StrCat("r", ++n), "fp"}; };
  auto tx = [](std::vector<std::pair<std::string, int64_t>> postings) {
    return Tx(v1::POSTING_REASON_ADJUSTMENT, std::move(postings));
  };
  // Each side follows the other's log; its own events come back as repeats.
  size_t a_seen = 0, b_seen = 0;
  auto follow = [&] {
    for (; b_seen < b_log.size(); ++b_seen) {
      const Recorded& r = b_log[b_seen];
      EXPECT_TRUE(*a.ApplyIfNext(r.stream, r.sequence, r.event));
    }
    for (; a_seen < a_log.size(); ++a_seen) {
      const Recorded& r = a_log[a_seen];
      EXPECT_TRUE(*b.ApplyIfNext(r.stream, r.sequence, r.event));
    }
  };

  ASSERT_TRUE(a.OpenAccount(meta(), "a1", "EUR", to_a).ok());
  ASSERT_TRUE(b.OpenAccount(meta(), "b1", "EUR", to_b).ok());
  EXPECT_EQ(a.OpenAccount(meta(), "b2", "EUR", to_a).code(),
            StatusCode::kUnavailable);
  follow();
  ASSERT_TRUE(
      a.Post(meta(), PlayerOwner("a1"),
             tx({{"external/payments", -500}, {PlayerCashAccount("a1"), 500}}),
             to_a)
          .ok());
  // a1 pays b1: a decides (the debit is a1's), b learns it by following.
  ASSERT_TRUE(a.Post(meta(), PlayerOwner("a1"),
                     tx({{PlayerCashAccount("a1"), -200},
                         {PlayerCashAccount("b1"), 200}}),
                     to_a)
                  .ok());
  // b cannot decide a debit of a1's, even on its own stream.
  EXPECT_EQ(b.Post(meta(), PlayerOwner("b1"),
                   tx({{PlayerCashAccount("a1"), -100},
                       {PlayerCashAccount("b1"), 100}}),
                   to_b)
                .code(),
            StatusCode::kUnavailable);
  // Nor may it write on a1's stream.
  EXPECT_EQ(
      b.Post(meta(), PlayerOwner("a1"),
             tx({{"external/payments", -1}, {PlayerCashAccount("a1"), 1}}),
             to_b)
          .code(),
      StatusCode::kUnavailable);
  EXPECT_EQ(b.Balance("b1")->available, 0);  // not followed yet: lower
  follow();
  EXPECT_EQ(b.Balance("b1")->available, 200);
  ASSERT_TRUE(
      b.Post(meta(), PlayerOwner("b1"),
             tx({{PlayerCashAccount("b1"), -150}, {"external/payments", 150}}),
             to_b)
          .ok());
  follow();
  for (Ledger* l : {&a, &b}) {
    EXPECT_EQ(l->Balance("a1")->available, 300);
    EXPECT_EQ(l->Balance("b1")->available, 50);
    EXPECT_EQ(l->Summarize().sum, 0);
  }
  // Following is idempotent: everything again is all repeats.
  for (const Recorded& r : a_log) {
    EXPECT_FALSE(*a.ApplyIfNext(r.stream, r.sequence, r.event));
    EXPECT_FALSE(*b.ApplyIfNext(r.stream, r.sequence, r.event));
  }
  // A gap is still data loss.
  const Recorded& last = a_log.back();
  EXPECT_EQ(
      b.ApplyIfNext(last.stream, last.sequence + 2, last.event).status().code(),
      StatusCode::kDataLoss);
}

TEST(LedgerConcurrency, ParallelTransfersKeepTheSumAtZeroAndReplayExactly) {
  // One shard: every new owner lands in the map that holds the owners an
  // event is already working on.
  Ledger ledger(LedgerOptions{.shards = 1});
  std::atomic<int> appended{0};
  std::mutex log_mu;
  std::vector<Recorded> log;
  // Called under the ledger's locks, as the wallet's append is: the order
  // recorded here is the order of every stream.
  auto commit = [&](const Committed& c) {
    appended++;
    std::lock_guard<std::mutex> lock(log_mu);
    log.push_back({c.stream, c.sequence, c.event});
  };
  constexpr int kPlayers = 50;
  for (int p = 0; p < kPlayers; ++p) {
    const std::string id = absl::StrCat("p", p);
    ASSERT_TRUE(ledger.OpenAccount({}, id, "EUR", commit).ok());
    v1::LedgerTransaction tx;
    tx.set_reason(v1::POSTING_REASON_DEPOSIT);
    tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
    tx.mutable_reference()->set_id("seed");
    auto* a = tx.add_postings();
    a->set_account("external/payments");
    a->set_amount_minor(-1'000);
    auto* b = tx.add_postings();
    b->set_account(PlayerCashAccount(id));
    b->set_amount_minor(1'000);
    ASSERT_TRUE(ledger.Post({}, PlayerOwner(id), tx, commit).ok());
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      for (int i = 0; i < 20'000; ++i) {
        const std::string from = absl::StrCat("p", rng() % kPlayers);
        const std::string to = absl::StrCat("p", rng() % kPlayers);
        if (from == to) continue;
        const int64_t amount = 1 + rng() % 300;
        v1::LedgerTransaction tx;
        tx.set_reason(v1::POSTING_REASON_ADJUSTMENT);
        tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_OPERATOR);
        tx.mutable_reference()->set_id("move");
        auto* a = tx.add_postings();
        a->set_account(PlayerCashAccount(from));
        a->set_amount_minor(-amount);
        auto* b = tx.add_postings();
        b->set_account(PlayerCashAccount(to));
        b->set_amount_minor(amount - 1);
        auto* c = tx.add_postings();
        c->set_account("house/rake");
        c->set_amount_minor(1);
        // Every few transfers go through a table seat, which creates new
        // owners while others are referenced (the shape of a real bug).
        if (i % 7 == 0) {
          c->set_account(absl::StrCat("table/t", t, "/seat/", from, "-", i));
        }
        (void)ledger.Post({}, PlayerOwner(from), tx, commit);
      }
    });
  }
  for (auto& t : threads) t.join();
  LedgerSummary s = ledger.Summarize();
  EXPECT_EQ(s.sum, 0);
  EXPECT_EQ(s.negative_constrained_accounts, 0);
  EXPECT_EQ(s.classes[static_cast<int>(AccountClass::kHouse)].balance +
                s.classes[static_cast<int>(AccountClass::kTable)].balance,
            -s.classes[static_cast<int>(AccountClass::kPlayer)].balance +
                kPlayers * 1'000);
  EXPECT_GT(appended.load(), 1'000);
  Ledger replayed;
  for (const Recorded& r : log) {
    ASSERT_TRUE(replayed.Apply(r.stream, r.sequence, r.event).ok())
        << r.stream << " " << r.sequence;
  }
  LedgerSummary b = replayed.Summarize();
  for (int c = 0; c < 6; ++c) {
    EXPECT_EQ(s.classes[c].balance, b.classes[c].balance) << c;
  }
  EXPECT_EQ(replayed.AccountBalance("house/rake"),
            ledger.AccountBalance("house/rake"));
}

// Summarize is a consistent snapshot: a transfer between two players whose
// owners sit in different shards is either wholly in a summary or not at
// all, so the sum of every balance it reports is exactly 0 at any moment
// (the wallet's banca_wallet_ledger_sum_minor gauge and GetLedgerSummary,
// which finance and tools/run-demo reconcile against, read it while
// players post). Bounded: at most kRounds transfers a poster and 3 s.
TEST(LedgerConcurrency, SummarizeSeesEveryTransferWholeWhilePlayersPost) {
  Ledger ledger;  // the production shape: 4096 shards, 16 hot stripes
  auto commit = [](const Committed&) {};
  constexpr int kPlayers = 200;
  constexpr int64_t kSeed = 100'000;
  for (int p = 0; p < kPlayers; ++p) {
    const std::string id = absl::StrCat("p", p);
    ASSERT_TRUE(ledger.OpenAccount({}, id, "EUR", commit).ok());
    v1::LedgerTransaction tx;
    tx.set_reason(v1::POSTING_REASON_DEPOSIT);
    tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
    tx.mutable_reference()->set_id("seed");
    auto* a = tx.add_postings();
    a->set_account("external/payments");
    a->set_amount_minor(-kSeed);
    auto* b = tx.add_postings();
    b->set_account(PlayerCashAccount(id));
    b->set_amount_minor(kSeed);
    ASSERT_TRUE(ledger.Post({}, PlayerOwner(id), tx, commit).ok());
  }
  constexpr int kPosters = 2;
  constexpr int kRounds = 20'000;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(3);
  std::atomic<int> posting{kPosters};
  std::atomic<int64_t> posted{0};
  std::vector<std::thread> posters;
  for (int t = 0; t < kPosters; ++t) {
    posters.emplace_back([&, t] {
      std::mt19937 rng(t + 1);
      for (int i = 0; i < kRounds; ++i) {
        if (std::chrono::steady_clock::now() > deadline) break;
        const std::string from = absl::StrCat("p", rng() % kPlayers);
        const std::string to = absl::StrCat("p", rng() % kPlayers);
        if (from == to) continue;
        const int64_t amount = 2 + rng() % 300;
        v1::LedgerTransaction tx;
        tx.set_reason(v1::POSTING_REASON_ADJUSTMENT);
        tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_OPERATOR);
        tx.mutable_reference()->set_id("move");
        auto* a = tx.add_postings();
        a->set_account(PlayerCashAccount(from));
        a->set_amount_minor(-amount);
        auto* b = tx.add_postings();
        b->set_account(PlayerCashAccount(to));
        b->set_amount_minor(amount - 1);
        // A cent to a hot account: its stripes are part of the snapshot.
        auto* c = tx.add_postings();
        c->set_account("house/rake");
        c->set_amount_minor(1);
        if (ledger.Post({}, PlayerOwner(from), tx, commit).ok()) posted++;
      }
      posting--;
    });
  }
  int64_t summaries = 0;
  int64_t torn = 0;
  int64_t first_torn_sum = 0;
  int64_t last_transactions = 0;
  bool went_back = false;
  // At least a few summaries, even if the posters finish first.
  while (posting.load() > 0 || summaries < 10) {
    const LedgerSummary s = ledger.Summarize();
    ++summaries;
    const int64_t players =
        s.classes[static_cast<int>(AccountClass::kPlayer)].balance;
    const int64_t house =
        s.classes[static_cast<int>(AccountClass::kHouse)].balance;
    if (s.sum != 0 || players + house != kPlayers * kSeed) {
      if (torn++ == 0) first_torn_sum = s.sum;
    }
    if (s.transactions < last_transactions) went_back = true;
    last_transactions = s.transactions;
  }
  for (auto& t : posters) t.join();
  EXPECT_EQ(torn, 0) << "of " << summaries << " summaries; the first summed to "
                     << first_torn_sum;
  EXPECT_FALSE(went_back);
  EXPECT_GT(posted.load(), 100);
  EXPECT_GT(summaries, 10);
  const LedgerSummary end = ledger.Summarize();
  EXPECT_EQ(end.sum, 0);
  EXPECT_EQ(end.transactions, kPlayers + posted.load());
  EXPECT_EQ(end.negative_constrained_accounts, 0);
}

// ---------------------------------------------------------------------------
// Decide-then-apply, all or nothing, and replay in any order (issue 17,
// item 3).

constexpr int64_t kBig = money::kMaxAmountMinor;  // 10^15, the largest posting

v1::WalletEvent PostedEvent(v1::LedgerTransaction tx) {
  v1::WalletEvent event;
  *event.mutable_transaction_posted()->mutable_tx() = std::move(tx);
  return event;
}

v1::WalletEvent OpenedEvent(const std::string& player) {
  v1::WalletEvent event;
  event.mutable_account_opened()->set_player_id(player);
  event.mutable_account_opened()->set_currency("EUR");
  return event;
}

// Streams of recorded events, numbered as the ledger numbers them.
class History {
 public:
  void Add(const std::string& owner, v1::WalletEvent event) {
    const std::string stream = Ledger::StreamFor(owner);
    events_.push_back({stream, ++sequences_[stream], std::move(event)});
  }
  const std::vector<Recorded>& events() const { return events_; }

 private:
  std::vector<Recorded> events_;
  std::map<std::string, uint64_t> sequences_;
};

TEST_F(LedgerTest, HotStripePastItsLimitIsRefusedAtDecisionAndNothingApplies) {
  // Every transaction on the stream of "house/bank" moves money on the same
  // stripe of each hot account; the stripe may hold at most ±10^17 / 16.
  const int64_t limit = StripeLimitMinor(LedgerOptions{}.hot_stripes);
  ASSERT_EQ(limit, 6'250'000'000'000'000);
  auto credit_bank_from = [&](int i) {
    return ledger_.Post(
        Meta(), "house/bank",
        Tx(v1::POSTING_REASON_ADJUSTMENT,
           {{absl::StrCat("house/src", i), -kBig}, {"house/bank", kBig}}),
        Recorder());
  };
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(credit_bank_from(i).ok()) << i;
  const size_t events = log_.size();
  const LedgerSummary before = ledger_.Summarize();
  // A seventh credit would take the stripe to 7 × 10^15.
  const absl::Status refused = credit_bank_from(6);
  EXPECT_EQ(refused.code(), StatusCode::kOutOfRange) << refused;
  EXPECT_TRUE(absl::StrContains(refused.message(), "house/bank")) << refused;
  EXPECT_EQ(log_.size(), events);
  EXPECT_EQ(ledger_.AccountBalance("house/bank"), 6 * kBig);
  EXPECT_EQ(ledger_.AccountBalance("house/src6"), 0);
  const LedgerSummary after = ledger_.Summarize();
  EXPECT_EQ(after.sum, 0);
  EXPECT_EQ(after.transactions, before.transactions);
  const int house = static_cast<int>(AccountClass::kHouse);
  EXPECT_EQ(after.classes[house].accounts, before.classes[house].accounts);
  // The debit side of a stripe has the same limit.
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(ledger_
                    .Post(Meta(), "house/fees",
                          Tx(v1::POSTING_REASON_ADJUSTMENT,
                             {{"house/fees", -kBig},
                              {absl::StrCat("house/dst", i), kBig}}),
                          Recorder())
                    .ok());
  }
  EXPECT_EQ(ledger_
                .Post(Meta(), "house/fees",
                      Tx(v1::POSTING_REASON_ADJUSTMENT,
                         {{"house/fees", -kBig}, {"house/dst6", kBig}}),
                      Recorder())
                .code(),
            StatusCode::kOutOfRange);
  // Back toward zero always passes, and the stream's sequence went on as if
  // the refusals never happened.
  ASSERT_TRUE(ledger_
                  .Post(Meta(), "house/bank",
                        Tx(v1::POSTING_REASON_ADJUSTMENT,
                           {{"house/bank", -kBig}, {"house/src0", kBig}}),
                        Recorder())
                  .ok());
  EXPECT_EQ(log_.back().sequence, 7u);
  EXPECT_EQ(ledger_.Summarize().sum, 0);
  // The replayed state is the live one.
  auto replayed = Replay();
  EXPECT_TRUE(replayed->CheckReplayedState().ok());
  EXPECT_EQ(replayed->AccountBalance("house/bank"), 5 * kBig);
}

TEST(LedgerLimits, ConstrainedAccountIsCappedAtTheBalanceLimit) {
  // One stripe: external/payments may reach -10^17 like any account.
  Recording recording(LedgerOptions{.hot_stripes = 1});
  Ledger& ledger = recording.ledger;
  const std::vector<Recorded>& log = recording.log;
  const auto& record = recording.record;
  ASSERT_TRUE(ledger.OpenAccount({}, "ana", "EUR", record).ok());
  for (int i = 0; i < 100; ++i) {
    v1::LedgerTransaction tx =
        Tx(v1::POSTING_REASON_DEPOSIT,
           {{"external/payments", -kBig}, {PlayerCashAccount("ana"), kBig}});
    ASSERT_TRUE(ledger.Post({}, PlayerOwner("ana"), tx, record).ok()) << i;
  }
  EXPECT_EQ(ledger.Balance("ana")->available, kMaxBalanceMinor);
  const size_t events = log.size();
  // Past the cap, from the house: refused on ana's cash, nothing moves.
  const absl::Status refused =
      ledger.Post({}, PlayerOwner("ana"),
                  Tx(v1::POSTING_REASON_ADJUSTMENT,
                     {{"house/bank", -1}, {PlayerCashAccount("ana"), 1}}),
                  record);
  EXPECT_EQ(refused.code(), StatusCode::kOutOfRange) << refused;
  EXPECT_TRUE(absl::StrContains(refused.message(), "player/ana/cash"))
      << refused;
  EXPECT_EQ(log.size(), events);
  EXPECT_EQ(ledger.AccountBalance("house/bank"), 0);
  EXPECT_EQ(ledger.Balance("ana")->available, kMaxBalanceMinor);
  // And from the outside: the hot account's own limit (-10^17) refuses first.
  const v1::LedgerTransaction deposit =
      Tx(v1::POSTING_REASON_DEPOSIT,
         {{"external/payments", -1}, {PlayerCashAccount("ana"), 1}});
  const absl::Status outside =
      ledger.Post({}, PlayerOwner("ana"), deposit, record);
  EXPECT_EQ(outside.code(), StatusCode::kOutOfRange) << outside;
  EXPECT_TRUE(absl::StrContains(outside.message(), "external/payments"))
      << outside;
  EXPECT_EQ(ledger.Summarize().deposits, 100 * kBig);
}

TEST(LedgerLimits, CapturePastTheCapIsRefusedWithItsReleaseAndNothingApplies) {
  Recording recording(LedgerOptions{.hot_stripes = 1});
  Ledger& ledger = recording.ledger;
  const std::vector<Recorded>& log = recording.log;
  const auto& record = recording.record;
  ASSERT_TRUE(ledger.OpenAccount({}, "ana", "EUR", record).ok());
  ASSERT_TRUE(ledger.OpenAccount({}, "bob", "EUR", record).ok());
  // bob holds the cap; ana holds 10^15 and places a hold on it.
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(
        ledger
            .Post({}, PlayerOwner("bob"),
                  Tx(v1::POSTING_REASON_ADJUSTMENT,
                     {{"house/bank", -kBig}, {PlayerCashAccount("bob"), kBig}}),
                  record)
            .ok());
  }
  ASSERT_TRUE(ledger
                  .Post({}, PlayerOwner("ana"),
                        Tx(v1::POSTING_REASON_ADJUSTMENT,
                           {{"external/payments", -kBig},
                            {PlayerCashAccount("ana"), kBig}}),
                        record)
                  .ok());
  v1::Reference ref;
  ref.set_kind(v1::REFERENCE_KIND_TABLE);
  ref.set_id("t1");
  ASSERT_TRUE(
      ledger
          .PlaceHold({}, "ana", kBig, v1::POSTING_REASON_BUY_IN, ref, 0, record)
          .ok());
  const size_t events = log.size();
  // A final capture of 1 into bob's full cash: the capture's credit is past
  // the cap, so neither it nor the release of the rest applies.
  EXPECT_EQ(ledger
                .CaptureHold({}, "ana:1", 1, PlayerCashAccount("bob"),
                             v1::POSTING_REASON_PAYOUT, ref, true, record)
                .code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(log.size(), events);
  EXPECT_EQ(ledger.Balance("ana")->held, kBig);
  EXPECT_EQ(ledger.Balance("ana")->available, 0);
  EXPECT_TRUE(ledger.Hold("ana:1")->open);
  EXPECT_EQ(ledger.Hold("ana:1")->remaining, kBig);
  EXPECT_EQ(ledger.Balance("bob")->available, kMaxBalanceMinor);
  // Released instead: the money goes back to ana's cash.
  ASSERT_TRUE(ledger.ReleaseHold({}, "ana:1", false, record).ok());
  EXPECT_EQ(ledger.Balance("ana")->available, kBig);
  EXPECT_EQ(ledger.Summarize().sum, 0);
}

TEST(LedgerApply, AnEventWithOneBadPostingChangesNothing) {
  History history;
  history.Add(PlayerOwner("ana"), OpenedEvent("ana"));
  history.Add(PlayerOwner("ana"),
              PostedEvent(Tx(v1::POSTING_REASON_ADJUSTMENT,
                             {{"external/payments", -500},
                              {PlayerCashAccount("ana"), 500}})));
  Ledger replayed;
  for (const Recorded& r : history.events()) {
    ASSERT_TRUE(replayed.Apply(r.stream, r.sequence, r.event).ok());
  }
  const std::string stream = Ledger::StreamFor(PlayerOwner("ana"));
  // Balanced, but the second posting names no account: the first must not
  // have moved (the old apply moved it, then failed).
  v1::WalletEvent bad = PostedEvent(
      Tx(v1::POSTING_REASON_ADJUSTMENT,
         {{PlayerCashAccount("ana"), -200}, {"casino/nowhere", 200}}));
  EXPECT_EQ(replayed.Apply(stream, 3, bad).code(), StatusCode::kDataLoss);
  // A capture whose release transaction does not balance: its capture
  // transaction must not have moved either.
  v1::WalletEvent hold;
  {
    auto* e = hold.mutable_hold_placed();
    e->set_hold_id("ana:1");
    e->set_player_id("ana");
    e->set_amount_minor(300);
    *e->mutable_tx() =
        Tx(v1::POSTING_REASON_ADJUSTMENT,
           {{PlayerCashAccount("ana"), -300}, {PlayerHeldAccount("ana"), 300}});
  }
  ASSERT_TRUE(replayed.Apply(stream, 3, hold).ok());
  v1::WalletEvent capture;
  {
    auto* e = capture.mutable_hold_captured();
    e->set_hold_id("ana:1");
    e->set_player_id("ana");
    e->set_amount_minor(100);
    e->set_remaining_minor(0);
    e->set_hold_amount_minor(300);
    e->set_captured_total_minor(100);
    *e->mutable_tx() =
        Tx(v1::POSTING_REASON_ADJUSTMENT,
           {{PlayerHeldAccount("ana"), -100}, {"table/t1/seat/ana", 100}});
    *e->mutable_release_tx() =
        Tx(v1::POSTING_REASON_ADJUSTMENT,
           {{PlayerHeldAccount("ana"), -200}, {PlayerCashAccount("ana"), 199}});
  }
  EXPECT_EQ(replayed.Apply(stream, 4, capture).code(), StatusCode::kDataLoss);
  EXPECT_EQ(replayed.Balance("ana")->available, 200);
  EXPECT_EQ(replayed.Balance("ana")->held, 300);
  EXPECT_EQ(replayed.AccountBalance("table/t1/seat/ana"), 0);
  EXPECT_TRUE(replayed.Hold("ana:1")->open);
  EXPECT_EQ(replayed.Hold("ana:1")->captured, 0);
  EXPECT_EQ(replayed.Summarize().transactions, 2);
  EXPECT_EQ(replayed.Summarize().sum, 0);
  // The stream did not move on: the right event 4 still applies.
  capture.mutable_hold_captured()
      ->mutable_release_tx()
      ->mutable_postings(1)
      ->set_amount_minor(200);
  ASSERT_TRUE(replayed.Apply(stream, 4, capture).ok());
  EXPECT_EQ(replayed.Balance("ana")->available, 400);
  EXPECT_EQ(replayed.AccountBalance("table/t1/seat/ana"), 100);
  EXPECT_TRUE(replayed.CheckReplayedState().ok());
}

// The money assertions of a live decision (a hold never captures more
// than it has left, the held account follows the hold) hold on any state
// replay accepts: a log whose capture left the hold more than it had, or
// which used a hold id out of turn, is refused (DATA_LOSS, nothing
// applied; hold_replay_test.cc has every case), and on the state replay did
// accept every live hold command is decided or refused with a status.
TEST(LedgerInvariants, ForgedHoldNumbersInTheLogAreRefusedBeforeALiveDecision) {
  const std::string held = PlayerHeldAccount("ana");
  const std::string cash = PlayerCashAccount("ana");
  History history;
  history.Add(PlayerOwner("ana"), OpenedEvent("ana"));
  history.Add(PlayerOwner("ana"),
              PostedEvent(Tx(v1::POSTING_REASON_DEPOSIT,
                             {{"external/payments", -1000}, {cash, 1000}})));
  auto placed = [&](const std::string& id, int64_t amount) {
    v1::WalletEvent event;
    auto* e = event.mutable_hold_placed();
    e->set_hold_id(id);
    e->set_player_id("ana");
    e->set_amount_minor(amount);
    *e->mutable_tx() =
        Tx(v1::POSTING_REASON_HOLD, {{cash, -amount}, {held, amount}});
    return event;
  };
  history.Add(PlayerOwner("ana"), placed("ana:1", 500));
  Ledger ledger;
  for (const Recorded& r : history.events()) {
    ASSERT_TRUE(ledger.Apply(r.stream, r.sequence, r.event).ok());
  }
  const std::string stream = Ledger::StreamFor(PlayerOwner("ana"));
  v1::WalletEvent capture;
  {
    auto* e = capture.mutable_hold_captured();
    e->set_hold_id("ana:1");
    e->set_player_id("ana");
    e->set_amount_minor(400);
    e->set_remaining_minor(300);  // forged: 100 were left
    e->set_hold_amount_minor(500);
    e->set_captured_total_minor(400);
    *e->mutable_tx() = Tx(v1::POSTING_REASON_BUY_IN,
                          {{held, -400}, {"table/t1/seat/ana", 400}});
  }
  EXPECT_EQ(ledger.Apply(stream, 4, capture).code(), StatusCode::kDataLoss);
  // ana:2 skipped.
  EXPECT_EQ(ledger.Apply(stream, 4, placed("ana:3", 100)).code(),
            StatusCode::kDataLoss);
  ASSERT_EQ(ledger.Balance("ana")->held, 500);
  ASSERT_EQ(ledger.Hold("ana:1")->remaining, 500);
  std::vector<Recorded> log;
  std::function<void(const Committed&)> record = [&](const Committed& c) {
    log.push_back({c.stream, c.sequence, c.event});
  };
  v1::Reference ref;
  ref.set_kind(v1::REFERENCE_KIND_TABLE);
  ref.set_id("t1");
  int n = 0;
  auto meta = [&] { return CommandMeta{absl::StrCat("req-", ++n), "fp"}; };
  EXPECT_TRUE(ledger
                  .CaptureHold(meta(), "ana:1", 400, "table/t1/seat/ana",
                               v1::POSTING_REASON_BUY_IN, ref, false, record)
                  .ok());
  EXPECT_EQ(ledger
                .CaptureHold(meta(), "ana:1", 200, "table/t1/seat/ana",
                             v1::POSTING_REASON_BUY_IN, ref, true, record)
                .code(),
            StatusCode::kFailedPrecondition);
  EXPECT_TRUE(ledger
                  .PlaceHold(meta(), "ana", 50, v1::POSTING_REASON_BUY_IN, ref,
                             0, record)
                  .ok());
  EXPECT_EQ(log.back().event.hold_placed().hold_id(), "ana:2");
  EXPECT_TRUE(ledger.ReleaseHold(meta(), "ana:1", false, record).ok());
  EXPECT_TRUE(ledger.ReleaseHold(meta(), "ana:2", false, record).ok());
  EXPECT_EQ(log.size(), 4u);
  EXPECT_EQ(ledger.Balance("ana")->held, 0);
  EXPECT_EQ(ledger.Summarize().sum, 0);
}

// Live: ana pays the house, the house pays bob, bob pays ana, 9,300 times
// 10^15. Every balance stays within ±10^15. Applied one stream after the
// other (as the wallet replays its partitions), ana's cash and the house's
// balance pass int64 on the way.
TEST(LedgerReplay, AnyOrderOfStreamsGivesTheExactLiveBalances) {
  constexpr int kRounds = 9'300;
  static_assert(__int128{kRounds} * kBig > std::numeric_limits<int64_t>::max());
  const LedgerOptions one_stripe{.hot_stripes = 1};
  Recording recording(one_stripe);
  Ledger& live = recording.ledger;
  const std::vector<Recorded>& log = recording.log;
  const auto& record = recording.record;
  const std::string ana = PlayerCashAccount("ana");
  const std::string bob = PlayerCashAccount("bob");
  auto post = [&](const std::string& owner, const std::string& from,
                  const std::string& to) {
    ASSERT_TRUE(live.Post({}, owner,
                          Tx(v1::POSTING_REASON_ADJUSTMENT,
                             {{from, -kBig}, {to, kBig}}),
                          record)
                    .ok());
  };
  ASSERT_TRUE(live.OpenAccount({}, "ana", "EUR", record).ok());
  ASSERT_TRUE(live.OpenAccount({}, "bob", "EUR", record).ok());
  post(PlayerOwner("ana"), "external/payments", ana);
  for (int i = 0; i < kRounds; ++i) {
    post(PlayerOwner("ana"), ana, "house/bank");
    post(PlayerOwner("bob"), "house/bank", bob);
    post(PlayerOwner("bob"), bob, ana);
  }
  const std::string ana_stream = Ledger::StreamFor(PlayerOwner("ana"));
  for (bool ana_first : {true, false}) {
    std::vector<Recorded> ordered = log;
    std::stable_partition(ordered.begin(), ordered.end(),
                          [&](const Recorded& r) {
                            return (r.stream == ana_stream) == ana_first;
                          });
    for (bool following : {false, true}) {
      Ledger replayed(one_stripe);
      for (const Recorded& r : ordered) {
        if (following) {
          ASSERT_TRUE(*replayed.ApplyIfNext(r.stream, r.sequence, r.event));
        } else {
          ASSERT_TRUE(replayed.Apply(r.stream, r.sequence, r.event).ok())
              << r.stream << " " << r.sequence;
        }
      }
      EXPECT_TRUE(replayed.CheckReplayedState().ok());
      EXPECT_EQ(replayed.Balance("ana")->available, kBig);
      EXPECT_EQ(replayed.Balance("bob")->available, 0);
      EXPECT_EQ(replayed.AccountBalance("house/bank"), 0);
      EXPECT_EQ(replayed.AccountBalance("external/payments"), -kBig);
      const LedgerSummary s = replayed.Summarize();
      EXPECT_EQ(s.sum, 0);
      EXPECT_FALSE(s.clamped);
      EXPECT_EQ(s.transactions, 1 + 3 * kRounds);
    }
  }
}

TEST(LedgerReplay, CheckReplayedStateRefusesABalancePastTheCap) {
  History history;
  history.Add(PlayerOwner("ana"), OpenedEvent("ana"));
  // 101 deposits of 10^15, which no live ledger would have accepted.
  for (int i = 0; i < 101; ++i) {
    history.Add(PlayerOwner("ana"),
                PostedEvent(Tx(v1::POSTING_REASON_ADJUSTMENT,
                               {{"external/payments", -kBig},
                                {PlayerCashAccount("ana"), kBig}})));
  }
  Ledger replayed;
  for (const Recorded& r : history.events()) {
    ASSERT_TRUE(replayed.Apply(r.stream, r.sequence, r.event).ok());
  }
  const absl::Status s = replayed.CheckReplayedState();
  EXPECT_EQ(s.code(), StatusCode::kDataLoss) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "past the balance limit")) << s;
  // At the cap exactly is fine.
  Ledger at_cap;
  for (size_t i = 0; i + 1 < history.events().size(); ++i) {
    const Recorded& r = history.events()[i];
    ASSERT_TRUE(at_cap.Apply(r.stream, r.sequence, r.event).ok());
  }
  EXPECT_TRUE(at_cap.CheckReplayedState().ok());
  EXPECT_EQ(at_cap.Balance("ana")->available, kMaxBalanceMinor);
}

TEST(LedgerReplay, SummarizeClampsTotalsThatDoNotFitInt64) {
  // 93 players at the cap: 9.3 × 10^18 in player cash, past INT64_MAX.
  History history;
  for (int p = 0; p < 93; ++p) {
    const std::string player = absl::StrCat("p", p);
    history.Add(PlayerOwner(player), OpenedEvent(player));
    for (int i = 0; i < 100; ++i) {
      history.Add(PlayerOwner(player),
                  PostedEvent(Tx(v1::POSTING_REASON_ADJUSTMENT,
                                 {{absl::StrCat("house/h", p), -kBig},
                                  {PlayerCashAccount(player), kBig}})));
    }
  }
  Ledger replayed;
  for (const Recorded& r : history.events()) {
    ASSERT_TRUE(replayed.Apply(r.stream, r.sequence, r.event).ok());
  }
  const LedgerSummary s = replayed.Summarize();
  EXPECT_TRUE(s.clamped);
  EXPECT_EQ(s.classes[static_cast<int>(AccountClass::kPlayer)].balance,
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(s.classes[static_cast<int>(AccountClass::kHouse)].balance,
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(s.sum, 0);  // summed in 128 bits: exact
  EXPECT_TRUE(replayed.CheckReplayedState().ok());
}

TEST_F(LedgerTest, OversizeEventIsRefusedBeforeTheDecisionApplies) {
  ASSERT_TRUE(Open("ana").ok());
  ASSERT_TRUE(Deposit("ana", 1'000).ok());
  const size_t events = log_.size();
  // Unknown fields ride along in the event a request makes.
  v1::LedgerTransaction tx =
      Tx(v1::POSTING_REASON_WITHDRAWAL,
         {{PlayerCashAccount("ana"), -100}, {"external/payments", 100}});
  tx.GetReflection()
      ->MutableUnknownFields(tx.mutable_reference())
      ->AddLengthDelimited(999, std::string(kMaxWalletEventBytes, 'x'));
  EXPECT_EQ(ledger_.Post(Meta(), PlayerOwner("ana"), tx, Recorder()).code(),
            StatusCode::kInvalidArgument);
  v1::Reference big = Ref("t1");
  big.GetReflection()->MutableUnknownFields(&big)->AddLengthDelimited(
      999, std::string(kMaxWalletEventBytes, 'x'));
  EXPECT_EQ(ledger_
                .PlaceHold(Meta(), "ana", 100, v1::POSTING_REASON_BUY_IN, big,
                           0, Recorder())
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(log_.size(), events);
  EXPECT_EQ(ledger_.Balance("ana")->available, 1'000);
  EXPECT_EQ(ledger_.Balance("ana")->held, 0);
  // Just under the limit passes.
  v1::LedgerTransaction fits =
      Tx(v1::POSTING_REASON_WITHDRAWAL,
         {{PlayerCashAccount("ana"), -100}, {"external/payments", 100}});
  fits.GetReflection()
      ->MutableUnknownFields(fits.mutable_reference())
      ->AddLengthDelimited(999, std::string(kMaxWalletEventBytes / 2, 'x'));
  EXPECT_TRUE(ledger_.Post(Meta(), PlayerOwner("ana"), fits, Recorder()).ok());
  EXPECT_EQ(ledger_.Balance("ana")->available, 900);
}

}  // namespace
}  // namespace banca::ledger
