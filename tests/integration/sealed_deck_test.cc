// Hidden cards stay hidden in the log (issue 17 item 6; docs/security.md
// "Sealed decks"): a poker hand's deck goes to the table topic sealed with
// the table hosts' deck key, so the wallet, the audit and anyone else who
// reads the topic learn no card while the hand is in play; the HandSettled
// that ends it shows the deck; a restarted host opens the sealed deck and
// plays the hand on; a host without the key does not start. And the wallet
// reads only the tables' money requests, copied to a topic of their own
// (docs/security.md, "Money requests"): no action and no card reaches it.
#include <map>
#include <string>
#include <vector>

#include "libs/tables/sealed_decks.h"
#include "libs/wire/topics.h"
#include "tests/integration/table_test_fixture.h"

namespace banca::testing {
namespace {

using Cards = std::vector<std::string>;

Cards Of(const google::protobuf::RepeatedPtrField<std::string>& cards) {
  return Cards(cards.begin(), cards.end());
}

class SealedDeckTest : public TableServiceTest {
 protected:
  // The logged HandStarted of `hand` and the HandSettled that ends it (if
  // it has ended).
  struct LoggedHand {
    v1::TableEvent started;
    std::optional<v1::TableEvent> settled;
  };
  LoggedHand Logged(int64_t hand) {
    LoggedHand out;
    for (const v1::TableEvent& e : LoggedTableEvents()) {
      if (e.has_hand_started() && e.hand_started().hand_number() == hand) {
        out.started = e;
      }
      if (e.has_hand_settled() && e.hand_settled().hand_number() == hand) {
        out.settled = e;
      }
    }
    return out;
  }
  // The deck of a logged HandStarted, opened with the hosts' key.
  Cards Opened(v1::TableEvent started) {
    EXPECT_TRUE(tables::OpenDeal(TestDeckKeys(), started).ok());
    return Of(started.hand_started().deck());
  }
  static Cards Hole(const v1::TableView& view, const std::string& player) {
    for (const v1::SeatState& s : view.seats()) {
      if (s.player_id() == player) return Of(s.cards());
    }
    return {};
  }
};

TEST_F(SealedDeckTest, AHandInPlayIsLoggedWithItsDeckSealed) {
  TwoAtTable("t1");
  ASSERT_TRUE(View("op", "t1").in_hand());
  const LoggedHand hand = Logged(1);
  ASSERT_TRUE(hand.started.has_hand_started());
  const v1::HandStarted& h = hand.started.hand_started();
  EXPECT_EQ(h.deck_size(), 0) << "a deck in clear in the log";
  ASSERT_TRUE(h.has_sealed_deck());
  EXPECT_EQ(h.sealed_deck().key_id(), TestDeckKeys().sealing_key_id());
  EXPECT_FALSE(hand.settled.has_value());
  // What the key opens is the deck the players were dealt from.
  const Cards deck = Opened(hand.started);
  ASSERT_EQ(deck.size(), 52u);
  const Cards ana = Hole(View("ana", "t1"), "ana");
  ASSERT_EQ(ana.size(), 2u);
  for (const std::string& card : ana) {
    EXPECT_NE(std::find(deck.begin(), deck.begin() + 4, card), deck.begin() + 4)
        << card << " is not among the deck's first four cards";
  }
  // No event of the table shows a card in clear while the hand is on.
  for (const v1::TableEvent& e : LoggedTableEvents()) {
    EXPECT_EQ(e.hand_settled().revealed_deck_size(), 0);
    EXPECT_EQ(e.hand_started().deck_size(), 0);
  }
}

TEST_F(SealedDeckTest, TheEndOfAHandRevealsItsDeck) {
  TwoAtTable("t1");
  PlayHands("t1", 2, /*seed=*/7);
  for (int64_t n : {1, 2}) {
    const LoggedHand hand = Logged(n);
    ASSERT_TRUE(hand.settled.has_value()) << "hand " << n;
    EXPECT_EQ(Of(hand.settled->hand_settled().revealed_deck()),
              Opened(hand.started))
        << "hand " << n;
  }
  // Hand 3 is in play: sealed, not revealed.
  const LoggedHand third = Logged(3);
  EXPECT_TRUE(third.started.hand_started().has_sealed_deck());
  EXPECT_FALSE(third.settled.has_value());
}

TEST_F(SealedDeckTest, ARestartedHostOpensTheDeckAndPlaysTheHandOn) {
  TwoAtTable("t1");
  const Cards ana = Hole(View("ana", "t1"), "ana");
  ASSERT_EQ(ana.size(), 2u);
  Settle();
  Shutdown();
  Start();
  const v1::TableView after = View("ana", "t1");
  EXPECT_TRUE(after.in_hand());
  EXPECT_EQ(Hole(after, "ana"), ana);
  PlayHands("t1", 1, /*seed=*/3);
  const LoggedHand hand = Logged(1);
  ASSERT_TRUE(hand.settled.has_value());
  EXPECT_EQ(Of(hand.settled->hand_settled().revealed_deck()),
            Opened(hand.started));
}

TEST_F(SealedDeckTest, AHostWithoutTheDeckKeyDoesNotStart) {
  TwoAtTable("t1");
  Settle();
  Shutdown();
  auto log = eventlog::OpenLogBackend("embedded", dir_);
  ASSERT_TRUE(log.ok()) << log.status();
  table::TableServiceOptions options;
  options.verifier = TestVerifier();
  options.tick_interval = absl::ZeroDuration();
  options.poll_interval = absl::ZeroDuration();
  // No key at all: refused before reading anything.
  absl::StatusOr<std::unique_ptr<table::TableService>> none =
      table::TableService::Start(**log, clock_, options);
  EXPECT_EQ(none.status().code(), absl::StatusCode::kFailedPrecondition);
  // Another key: the sealed hand does not open, and the host says why.
  options.deck_keys =
      *seal::DeckKeys::FromKeyFileText(seal::DeckKeys::NewKeyHex());
  absl::StatusOr<std::unique_ptr<table::TableService>> other =
      table::TableService::Start(**log, clock_, options);
  EXPECT_EQ(other.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(other.status().message().find("not among the deck keys"),
            std::string::npos)
      << other.status();
  // The old key after a new one (a rotation): it starts.
  options.deck_keys = *seal::DeckKeys::FromKeyFileText(
      seal::DeckKeys::NewKeyHex() + "\n" + TestDeckKeyHex());
  absl::StatusOr<std::unique_ptr<table::TableService>> rotated =
      table::TableService::Start(**log, clock_, options);
  ASSERT_TRUE(rotated.ok()) << rotated.status();
  (*rotated)->Stop();
}

TEST_F(SealedDeckTest, TheWalletReadsOnlyMoneyRequestsWithNoCardInThem) {
  TwoAtTable("t1");
  PlayHands("t1", 3, /*seed=*/11);
  Settle();
  std::map<std::string, v1::TableEvent> requests;  // by event id
  const int partitions =
      log_->PartitionCount(wire::kTableRequestsTopic).value_or(0);
  ASSERT_GT(partitions, 0);
  for (int p = 0; p < partitions; ++p) {
    auto records = log_->Read(wire::kTableRequestsTopic, p, 0, 100'000);
    ASSERT_TRUE(records.ok()) << records.status();
    for (const eventlog::StoredRecord& r : *records) {
      auto d = wire::DecodeTableRecord(r);
      ASSERT_TRUE(d.ok()) << d.status();
      EXPECT_TRUE(wire::IsMoneyRequest(d->event));
      EXPECT_EQ(d->event.hand_settled().revealed_deck_size(), 0);
      EXPECT_FALSE(d->event.has_hand_started());
      EXPECT_FALSE(d->event.has_action_applied());
      EXPECT_TRUE(requests.emplace(d->envelope.event_id(), d->event).second)
          << d->envelope.event_id() << " copied twice";
    }
  }
  // One copy of every money request the table logged, with its content.
  int64_t money = 0;
  for (int p = 0; p < log_->PartitionCount(wire::kTableTopic).value_or(0);
       ++p) {
    auto records = log_->Read(wire::kTableTopic, p, 0, 100'000);
    ASSERT_TRUE(records.ok()) << records.status();
    for (const eventlog::StoredRecord& r : *records) {
      auto d = wire::DecodeTableRecord(r);
      ASSERT_TRUE(d.ok());
      if (!wire::IsMoneyRequest(d->event)) continue;
      ++money;
      auto it = requests.find(d->envelope.event_id());
      ASSERT_NE(it, requests.end()) << d->envelope.event_id();
      EXPECT_EQ(it->second.SerializeAsString(),
                wire::MoneyRequestOf(d->event).SerializeAsString());
    }
  }
  EXPECT_EQ(money, static_cast<int64_t>(requests.size()));
  EXPECT_GE(money, 2 + 3);  // two buy-ins, three hands
  // The wallet's reader has no position on the table's own events.
  for (int p = 0; p < log_->PartitionCount(wire::kTableTopic).value_or(0);
       ++p) {
    EXPECT_EQ(
        log_->CommittedOffset("wallet.table-requests", wire::kTableTopic, p)
            .value_or(0),
        0);
  }
}

}  // namespace
}  // namespace banca::testing
