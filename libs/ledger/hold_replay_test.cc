// Replay validates holds (hold_checks.h): a logged hold event the live hold
// commands could not have made is DATA_LOSS and changes nothing, and a live
// PlaceHold never writes over a hold the log placed. Every forged event here
// is a genuine one, decided by a live ledger from the same log, with one
// field changed.
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"
#include "libs/money/money.h"

namespace banca::ledger {
namespace {

using absl::StatusCode;

struct Logged {
  std::string stream;
  uint64_t sequence;
  v1::WalletEvent event;
};

using Command = std::function<absl::Status(Ledger&, CommitFn)>;

v1::Reference TableRef() {
  v1::Reference r;
  r.set_kind(v1::REFERENCE_KIND_TABLE);
  r.set_id("t1");
  return r;
}

Command Open(std::string player) {
  return [player](Ledger& l, CommitFn commit) {
    return l.OpenAccount({}, player, "EUR", commit);
  };
}

Command Deposit(std::string player, int64_t amount) {
  return [player, amount](Ledger& l, CommitFn commit) {
    v1::LedgerTransaction tx;
    tx.set_reason(v1::POSTING_REASON_DEPOSIT);
    tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
    tx.mutable_reference()->set_id("pay-1");
    v1::Posting* from = tx.add_postings();
    from->set_account("external/payments");
    from->set_amount_minor(-amount);
    v1::Posting* to = tx.add_postings();
    to->set_account(PlayerCashAccount(player));
    to->set_amount_minor(amount);
    return l.Post({}, PlayerOwner(player), tx, commit);
  };
}

Command Place(std::string player, int64_t amount) {
  return [player, amount](Ledger& l, CommitFn commit) {
    return l.PlaceHold({}, player, amount, v1::POSTING_REASON_BUY_IN,
                       TableRef(), 5'000, commit);
  };
}

Command Capture(std::string hold_id, int64_t amount, bool final) {
  return [hold_id, amount, final](Ledger& l, CommitFn commit) {
    return l.CaptureHold({}, hold_id, amount, "table/t1/seat/ana",
                         v1::POSTING_REASON_BUY_IN, TableRef(), final, commit);
  };
}

Command Release(std::string hold_id) {
  return [hold_id](Ledger& l, CommitFn commit) {
    return l.ReleaseHold({}, hold_id, false, commit);
  };
}

// Everything a reader of the ledger sees of ana, bob and the table.
std::string Snapshot(const Ledger& ledger) {
  std::string out;
  for (const char* player : {"ana", "bob"}) {
    auto b = ledger.Balance(player);
    absl::StrAppend(&out, player, ": ",
                    b.ok()
                        ? absl::StrCat(b->available, "/", b->held, "/", b->open)
                        : std::string(b.status().message()),
                    "\n");
    for (int n = 1; n <= 4; ++n) {
      const std::string id = absl::StrCat(player, ":", n);
      auto h = ledger.Hold(id);
      if (!h.ok()) continue;
      absl::StrAppend(&out, id, " ", h->player_id, " ", h->amount, " ",
                      h->captured, " ", h->remaining, " ", h->open, " ",
                      h->expires_at_micros, "\n");
    }
  }
  const LedgerSummary s = ledger.Summarize();
  absl::StrAppend(&out, "seat ", ledger.AccountBalance("table/t1/seat/ana"),
                  " sum ", s.sum, " txs ", s.transactions, " open holds ",
                  s.open_holds, " deposits ", s.deposits, "\n");
  return out;
}

class HoldReplayTest : public ::testing::Test {
 protected:
  // ana and bob have accounts and 1,000 each; ana holds 500 (ana:1).
  void SetUp() override {
    for (const Command& c : {Open("ana"), Open("bob"), Deposit("ana", 1'000),
                             Deposit("bob", 1'000), Place("ana", 500)}) {
      Decide(c);
    }
  }

  // The log so far, replayed into a fresh ledger.
  std::unique_ptr<Ledger> Replayed() const {
    auto ledger = std::make_unique<Ledger>();
    for (const Logged& r : log_) {
      absl::Status s = ledger->Apply(r.stream, r.sequence, r.event);
      EXPECT_TRUE(s.ok()) << s;
    }
    return ledger;
  }

  // The event a live ledger, at the log's state, decides for `command`.
  Logged Would(const Command& command) const {
    auto ledger = Replayed();
    std::vector<Logged> decided;
    std::function<void(const Committed&)> record = [&](const Committed& c) {
      decided.push_back({c.stream, c.sequence, c.event});
    };
    absl::Status s = command(*ledger, record);
    EXPECT_TRUE(s.ok()) << s;
    return decided.empty() ? Logged{} : decided.back();
  }

  // Decides `command` live and logs its event.
  void Decide(const Command& command) { log_.push_back(Would(command)); }

  // The next sequence of `owner`'s stream in the log.
  uint64_t NextOn(const std::string& owner) const {
    uint64_t last = 0;
    for (const Logged& r : log_) {
      if (r.stream == Ledger::StreamFor(owner)) last = r.sequence;
    }
    return last + 1;
  }

  // `forged` is refused with DATA_LOSS naming `hold_id` and `what`, and the
  // replayed ledger reads as before (nothing half-applied); `genuine`, the
  // event the log really has there, still applies after it.
  void ExpectRefused(const Logged& forged, const std::string& hold_id,
                     const std::string& what, const Logged* genuine) const {
    auto ledger = Replayed();
    const std::string before = Snapshot(*ledger);
    absl::Status s =
        ledger->Apply(forged.stream, forged.sequence, forged.event);
    EXPECT_EQ(s.code(), StatusCode::kDataLoss) << s;
    EXPECT_TRUE(absl::StrContains(s.message(), absl::StrCat("\"", hold_id)))
        << s;
    EXPECT_TRUE(absl::StrContains(s.message(), what)) << s;
    EXPECT_EQ(Snapshot(*ledger), before);
    // A follower (a wallet applying another process's events) refuses it
    // the same way.
    absl::StatusOr<bool> followed =
        ledger->ApplyIfNext(forged.stream, forged.sequence, forged.event);
    EXPECT_EQ(followed.status().code(), StatusCode::kDataLoss);
    EXPECT_EQ(Snapshot(*ledger), before);
    if (genuine != nullptr) {
      s = ledger->Apply(genuine->stream, genuine->sequence, genuine->event);
      EXPECT_TRUE(s.ok()) << s;
    }
  }

  std::vector<Logged> log_;
};

// ---------------------------------------------------------------------------
// The live path's logs replay, exactly.

TEST(HoldReplay, PlaceCapturePartCaptureRestAndReleaseReplayExactly) {
  Ledger live;
  std::vector<Logged> log;
  std::function<void(const Committed&)> record = [&](const Committed& c) {
    log.push_back({c.stream, c.sequence, c.event});
  };
  for (const Command& c : {
           Open("ana"), Open("bob"), Deposit("ana", 1'000),
           Deposit("bob", 1'000), Place("ana", 500),
           Capture("ana:1", 100, false),
           Capture("ana:1", 400, false),  // the rest: closes the hold
           Place("ana", 300),
           Capture("ana:2", 50, true),  // final: releases 250
           Place("ana", 200), Capture("ana:3", 20, false), Release("ana:3"),
           Place("ana", 10),  // ana:4 stays open
       }) {
    ASSERT_TRUE(c(live, record).ok());
  }
  Ledger replayed;
  for (const Logged& r : log) {
    absl::Status s = replayed.Apply(r.stream, r.sequence, r.event);
    ASSERT_TRUE(s.ok()) << s;
  }
  ASSERT_TRUE(replayed.CheckReplayedState().ok());
  EXPECT_EQ(Snapshot(replayed), Snapshot(live));
  EXPECT_EQ(replayed.Hold("ana:1")->captured, 500);
  EXPECT_FALSE(replayed.Hold("ana:1")->open);
  EXPECT_EQ(replayed.Hold("ana:2")->captured, 50);
  EXPECT_EQ(replayed.Hold("ana:2")->remaining, 0);
  EXPECT_FALSE(replayed.Hold("ana:3")->open);
  EXPECT_EQ(replayed.Hold("ana:4")->remaining, 10);
  EXPECT_EQ(replayed.AccountBalance("table/t1/seat/ana"), 570);
  EXPECT_EQ(replayed.Balance("ana")->held, 10);
  EXPECT_EQ(replayed.Balance("ana")->available, 420);
  EXPECT_EQ(replayed.Summarize().sum, 0);
}

// After a replay the next live hold takes the next id; the logged holds,
// closed or open, are untouched.
TEST_F(HoldReplayTest, ALivePlaceAfterReplayNeverOverwritesALoggedHold) {
  Decide(Capture("ana:1", 500, false));  // ana:1 closed
  Decide(Place("ana", 200));             // ana:2 open
  auto ledger = Replayed();
  std::vector<Logged> decided;
  std::function<void(const Committed&)> record = [&](const Committed& c) {
    decided.push_back({c.stream, c.sequence, c.event});
  };
  ASSERT_TRUE(Place("ana", 100)(*ledger, record).ok());
  ASSERT_EQ(decided.size(), 1u);
  EXPECT_EQ(decided[0].event.hold_placed().hold_id(), "ana:3");
  EXPECT_EQ(ledger->Hold("ana:1")->captured, 500);
  EXPECT_FALSE(ledger->Hold("ana:1")->open);
  EXPECT_EQ(ledger->Hold("ana:2")->remaining, 200);
  EXPECT_EQ(ledger->Hold("ana:3")->remaining, 100);
  EXPECT_EQ(ledger->Balance("ana")->held, 300);
}

// ---------------------------------------------------------------------------
// HoldPlaced.

TEST_F(HoldReplayTest, APlacedHoldWhoseIdIsOpenIsRefused) {
  const Logged genuine = Would(Place("ana", 200));  // ana:2
  Logged forged = genuine;
  forged.event.mutable_hold_placed()->set_hold_id("ana:1");  // open, 500
  ExpectRefused(forged, "ana:1", "already used", &genuine);
}

TEST_F(HoldReplayTest, APlacedHoldWhoseIdIsClosedIsRefused) {
  Decide(Release("ana:1"));
  const Logged genuine = Would(Place("ana", 200));
  Logged forged = genuine;
  forged.event.mutable_hold_placed()->set_hold_id("ana:1");
  ExpectRefused(forged, "ana:1", "already used", &genuine);
}

TEST_F(HoldReplayTest, APlacedHoldOutOfTurnOrMisspelledIsRefused) {
  const Logged genuine = Would(Place("ana", 200));
  for (const char* id : {"ana:3", "ana:02", "ana:0", "bob:2", "ana:x", "ana"}) {
    Logged forged = genuine;
    forged.event.mutable_hold_placed()->set_hold_id(id);
    ExpectRefused(forged, id, "next hold id, ana:2", &genuine);
  }
}

TEST_F(HoldReplayTest, APlacedHoldOfNoValidAmountIsRefused) {
  const Logged genuine = Would(Place("ana", 200));
  for (int64_t amount : {int64_t{0}, int64_t{-200}, money::kMaxAmountMinor + 1,
                         std::numeric_limits<int64_t>::min()}) {
    Logged forged = genuine;
    v1::HoldPlaced* e = forged.event.mutable_hold_placed();
    e->set_amount_minor(amount);
    // Its transaction agrees, and balances, where it can.
    if (amount != std::numeric_limits<int64_t>::min()) {
      e->mutable_tx()->mutable_postings(0)->set_amount_minor(-amount);
      e->mutable_tx()->mutable_postings(1)->set_amount_minor(amount);
    }
    ExpectRefused(forged, "ana:2", "not within 1..", &genuine);
  }
}

TEST_F(HoldReplayTest, APlacedHoldWhoseTransactionMovesOtherMoneyIsRefused) {
  const Logged genuine = Would(Place("ana", 200));
  {
    // Holds 200, moves 150 (balanced).
    Logged forged = genuine;
    v1::LedgerTransaction* tx =
        forged.event.mutable_hold_placed()->mutable_tx();
    tx->mutable_postings(0)->set_amount_minor(-150);
    tx->mutable_postings(1)->set_amount_minor(150);
    ExpectRefused(forged, "ana:2", "does not move exactly 200", &genuine);
  }
  {
    // Funded from bob's cash instead of ana's.
    Logged forged = genuine;
    forged.event.mutable_hold_placed()
        ->mutable_tx()
        ->mutable_postings(0)
        ->set_account(PlayerCashAccount("bob"));
    ExpectRefused(forged, "ana:2", "does not move exactly 200", &genuine);
  }
}

TEST_F(HoldReplayTest, AHoldPlacedOnAnotherStreamOrWithoutAnAccountIsRefused) {
  const Logged genuine = Would(Place("ana", 200));
  Logged forged = genuine;
  forged.stream = Ledger::StreamFor(PlayerOwner("bob"));
  forged.sequence = NextOn(PlayerOwner("bob"));
  ExpectRefused(forged, "ana:2", "is on the stream of player/bob", nullptr);
  // eva has no account: a hold for her, on her stream.
  Logged eva = Would(Place("ana", 200));
  v1::HoldPlaced* e = eva.event.mutable_hold_placed();
  e->set_hold_id("eva:1");
  e->set_player_id("eva");
  e->mutable_tx()->mutable_postings(0)->set_account(PlayerCashAccount("eva"));
  e->mutable_tx()->mutable_postings(1)->set_account(PlayerHeldAccount("eva"));
  eva.stream = Ledger::StreamFor(PlayerOwner("eva"));
  eva.sequence = 1;
  ExpectRefused(eva, "eva:1", "no open account", nullptr);
}

// ---------------------------------------------------------------------------
// HoldCaptured.

TEST_F(HoldReplayTest, ACaptureWhoseRemainingIsForgedIsRefused) {
  const Logged genuine = Would(Capture("ana:1", 400, false));
  ASSERT_EQ(genuine.event.hold_captured().remaining_minor(), 100);
  for (int64_t remaining : {300, 0, 101, -1}) {
    Logged forged = genuine;
    forged.event.mutable_hold_captured()->set_remaining_minor(remaining);
    ExpectRefused(forged, "ana:1", "500 - 400 = 100", &genuine);
  }
}

TEST_F(HoldReplayTest, ACaptureOfMoreThanTheHoldHasLeftIsRefused) {
  Decide(Capture("ana:1", 400, false));  // 100 left
  const Logged genuine = Would(Capture("ana:1", 100, false));
  for (int64_t amount : {101, 0, -5}) {
    Logged forged = genuine;
    v1::HoldCaptured* e = forged.event.mutable_hold_captured();
    e->set_amount_minor(amount);
    e->set_remaining_minor(0);
    e->mutable_tx()->mutable_postings(0)->set_amount_minor(-amount);
    e->mutable_tx()->mutable_postings(1)->set_amount_minor(amount);
    ExpectRefused(forged, "ana:1", "not within 1..100", &genuine);
  }
}

TEST_F(HoldReplayTest, ACaptureOfAClosedOrUnknownHoldIsRefused) {
  const Logged capture = Would(Capture("ana:1", 100, false));
  Decide(Release("ana:1"));
  Logged closed = capture;
  closed.sequence = NextOn(PlayerOwner("ana"));
  ExpectRefused(closed, "ana:1", "capture of a closed hold", nullptr);
  Logged unknown = closed;
  unknown.event.mutable_hold_captured()->set_hold_id("ana:7");
  ExpectRefused(unknown, "ana:7", "capture of a hold never placed", nullptr);
}

TEST_F(HoldReplayTest, ACaptureByAnotherPlayerIsRefused) {
  const Logged genuine = Would(Capture("ana:1", 100, false));
  {
    // On ana's stream, naming bob.
    Logged forged = genuine;
    forged.event.mutable_hold_captured()->set_player_id("bob");
    ExpectRefused(forged, "ana:1", "on the stream of player/ana", &genuine);
  }
  {
    // bob's stream, bob's held account, ana's hold.
    Logged forged = genuine;
    v1::HoldCaptured* e = forged.event.mutable_hold_captured();
    e->set_player_id("bob");
    e->mutable_tx()->mutable_postings(0)->set_account(PlayerHeldAccount("bob"));
    forged.stream = Ledger::StreamFor(PlayerOwner("bob"));
    forged.sequence = NextOn(PlayerOwner("bob"));
    ExpectRefused(forged, "ana:1", "names player bob, but the hold is ana's",
                  &genuine);
  }
}

TEST_F(HoldReplayTest, ACaptureWhoseTransactionMovesOtherMoneyIsRefused) {
  const Logged genuine = Would(Capture("ana:1", 100, false));
  {
    Logged forged = genuine;  // captures 100, moves 300
    v1::LedgerTransaction* tx =
        forged.event.mutable_hold_captured()->mutable_tx();
    tx->mutable_postings(0)->set_amount_minor(-300);
    tx->mutable_postings(1)->set_amount_minor(300);
    ExpectRefused(forged, "ana:1", "does not move exactly 100", &genuine);
  }
  {
    Logged forged = genuine;  // from ana's cash, not her held account
    forged.event.mutable_hold_captured()
        ->mutable_tx()
        ->mutable_postings(0)
        ->set_account(PlayerCashAccount("ana"));
    ExpectRefused(forged, "ana:1", "does not move exactly 100", &genuine);
  }
  {
    Logged forged = genuine;  // into bob's held account
    forged.event.mutable_hold_captured()
        ->mutable_tx()
        ->mutable_postings(1)
        ->set_account(PlayerHeldAccount("bob"));
    ExpectRefused(forged, "ana:1", "outside holds", &genuine);
  }
}

TEST_F(HoldReplayTest, AFinalCaptureMustReleaseExactlyTheRest) {
  const Logged genuine = Would(Capture("ana:1", 100, true));
  ASSERT_TRUE(genuine.event.hold_captured().has_release_tx());
  {
    Logged forged = genuine;  // releases 300 of the 400 left (balanced)
    v1::LedgerTransaction* rtx =
        forged.event.mutable_hold_captured()->mutable_release_tx();
    rtx->mutable_postings(0)->set_amount_minor(-300);
    rtx->mutable_postings(1)->set_amount_minor(300);
    ExpectRefused(forged, "ana:1", "the capture leaves 400", &genuine);
  }
  {
    Logged forged = genuine;  // releases the rest, yet says 400 are left
    forged.event.mutable_hold_captured()->set_remaining_minor(400);
    ExpectRefused(forged, "ana:1", "the capture leaves 400", &genuine);
  }
  {
    Logged forged = genuine;  // releases the rest to bob
    forged.event.mutable_hold_captured()
        ->mutable_release_tx()
        ->mutable_postings(1)
        ->set_account(PlayerCashAccount("bob"));
    ExpectRefused(forged, "ana:1", "the capture leaves 400", &genuine);
  }
}

TEST_F(HoldReplayTest, ACaptureWhoseCopiesOfTheHoldAreForgedIsRefused) {
  const Logged genuine = Would(Capture("ana:1", 100, false));
  {
    Logged forged = genuine;
    forged.event.mutable_hold_captured()->set_captured_total_minor(1);
    ExpectRefused(forged, "ana:1", "says amount 500, captured 1,", &genuine);
  }
  {
    Logged forged = genuine;
    forged.event.mutable_hold_captured()->set_hold_amount_minor(9'000);
    ExpectRefused(forged, "ana:1", "amount 9000", &genuine);
  }
}

// ---------------------------------------------------------------------------
// HoldReleased.

TEST_F(HoldReplayTest, AReleaseOfAClosedHoldIsRefused) {
  const Logged release = Would(Release("ana:1"));
  Decide(Capture("ana:1", 500, false));  // captured whole: closed
  Logged forged = release;
  forged.sequence = NextOn(PlayerOwner("ana"));
  ExpectRefused(forged, "ana:1", "release of a closed hold", nullptr);
  // Twice.
  Decide(Place("ana", 200));
  Decide(Release("ana:2"));
  Logged twice = log_.back();
  twice.sequence = NextOn(PlayerOwner("ana"));
  ExpectRefused(twice, "ana:2", "release of a closed hold", nullptr);
}

TEST_F(HoldReplayTest, AReleaseByAnotherPlayerIsRefused) {
  const Logged genuine = Would(Release("ana:1"));
  Logged forged = genuine;
  v1::HoldReleased* e = forged.event.mutable_hold_released();
  e->set_player_id("bob");
  e->mutable_tx()->mutable_postings(0)->set_account(PlayerHeldAccount("bob"));
  e->mutable_tx()->mutable_postings(1)->set_account(PlayerCashAccount("bob"));
  forged.stream = Ledger::StreamFor(PlayerOwner("bob"));
  forged.sequence = NextOn(PlayerOwner("bob"));
  ExpectRefused(forged, "ana:1", "names player bob, but the hold is ana's",
                &genuine);
}

TEST_F(HoldReplayTest, AReleaseOfOtherThanWhatIsLeftIsRefused) {
  Decide(Capture("ana:1", 100, false));  // 400 left
  const Logged genuine = Would(Release("ana:1"));
  {
    Logged forged = genuine;  // releases 100, says 100
    v1::HoldReleased* e = forged.event.mutable_hold_released();
    e->set_amount_minor(100);
    e->mutable_tx()->mutable_postings(0)->set_amount_minor(-100);
    e->mutable_tx()->mutable_postings(1)->set_amount_minor(100);
    ExpectRefused(forged, "ana:1", "has left, 400", &genuine);
  }
  {
    Logged forged = genuine;  // says 400, moves 500
    v1::HoldReleased* e = forged.event.mutable_hold_released();
    e->mutable_tx()->mutable_postings(0)->set_amount_minor(-500);
    e->mutable_tx()->mutable_postings(1)->set_amount_minor(500);
    ExpectRefused(forged, "ana:1", "has left, 400", &genuine);
  }
  {
    Logged forged = genuine;  // to bob's cash
    forged.event.mutable_hold_released()
        ->mutable_tx()
        ->mutable_postings(1)
        ->set_account(PlayerCashAccount("bob"));
    ExpectRefused(forged, "ana:1", "has left, 400", &genuine);
  }
}

// ---------------------------------------------------------------------------
// Any other event: only holds move a held account.

// A TransactionPosted (the live Post refuses any posting on a player's held
// account) that moves one is refused, and so the held balance never parts
// from what the open holds have left.
TEST_F(HoldReplayTest, ATransactionPostedThatMovesAHeldAccountIsRefused) {
  const Logged genuine = Would(Deposit("ana", 100));
  std::vector<Logged> forgeries;
  {
    // The deposit credits ana's held account, not her cash.
    Logged forged = genuine;
    forged.event.mutable_transaction_posted()
        ->mutable_tx()
        ->mutable_postings(1)
        ->set_account(PlayerHeldAccount("ana"));
    forgeries.push_back(forged);
  }
  {
    // ana's held money paid out to bob, on ana's stream.
    Logged forged = genuine;
    v1::LedgerTransaction* tx =
        forged.event.mutable_transaction_posted()->mutable_tx();
    tx->mutable_postings(0)->set_account(PlayerHeldAccount("ana"));
    tx->mutable_postings(1)->set_account(PlayerCashAccount("bob"));
    forgeries.push_back(forged);
  }
  for (const Logged& forged : forgeries) {
    auto ledger = Replayed();
    const std::string before = Snapshot(*ledger);
    absl::Status s =
        ledger->Apply(forged.stream, forged.sequence, forged.event);
    EXPECT_EQ(s.code(), StatusCode::kDataLoss) << s;
    EXPECT_TRUE(absl::StrContains(
        s.message(),
        "moves player/ana/held, which only the player's hold events may move"))
        << s;
    EXPECT_EQ(Snapshot(*ledger), before);
    absl::StatusOr<bool> followed =
        ledger->ApplyIfNext(forged.stream, forged.sequence, forged.event);
    EXPECT_EQ(followed.status().code(), StatusCode::kDataLoss);
    EXPECT_EQ(Snapshot(*ledger), before);
    // The genuine event applies, and the end state agrees with the holds.
    s = ledger->Apply(genuine.stream, genuine.sequence, genuine.event);
    EXPECT_TRUE(s.ok()) << s;
    EXPECT_TRUE(ledger->CheckReplayedState().ok());
    EXPECT_EQ(ledger->Balance("ana")->held, 500);
  }
}

// The end of a replay checks each player's held balance against the
// remainders of the player's open holds: a log of part captures, final
// captures, releases and holds left open passes.
TEST_F(HoldReplayTest, TheHeldBalanceEndsAtWhatTheOpenHoldsHaveLeft) {
  Decide(Capture("ana:1", 120, false));  // ana:1 keeps 380
  Decide(Place("ana", 200));             // ana:2
  Decide(Capture("ana:2", 50, true));    // closed, 150 back to cash
  Decide(Place("bob", 300));             // bob:1
  Decide(Release("bob:1"));
  Decide(Place("bob", 70));  // bob:2 stays open
  auto ledger = Replayed();
  absl::Status s = ledger->CheckReplayedState();
  EXPECT_TRUE(s.ok()) << s;
  EXPECT_EQ(ledger->Balance("ana")->held, 380);
  EXPECT_EQ(ledger->Balance("bob")->held, 70);
}

}  // namespace
}  // namespace banca::ledger
