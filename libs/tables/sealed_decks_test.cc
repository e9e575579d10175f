#include "libs/tables/sealed_decks.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/tables/reveal_wait.h"

namespace banca::tables {
namespace {

seal::DeckKeys Keys() {
  return *seal::DeckKeys::FromKeyFileText(seal::DeckKeys::NewKeyHex());
}

v1::TableEvent Hand(int64_t number, std::vector<std::string> deck) {
  v1::TableEvent e;
  e.set_table_id("t1");
  e.mutable_hand_started()->set_hand_number(number);
  for (std::string& c : deck) e.mutable_hand_started()->add_deck(c);
  return e;
}

v1::TableEvent Settled(int64_t number, std::vector<std::string> deck) {
  v1::TableEvent e;
  e.set_table_id("t1");
  e.mutable_hand_settled()->set_hand_number(number);
  for (std::string& c : deck) e.mutable_hand_settled()->add_revealed_deck(c);
  return e;
}

v1::TableEvent Action(int64_t number) {
  v1::TableEvent e;
  e.set_table_id("t1");
  e.mutable_action_applied()->set_hand_number(number);
  return e;
}

TEST(SealedDecks, TheLogGetsNoCardAndTheHostOpensIt) {
  const seal::DeckKeys keys = Keys();
  v1::TableEvent e = Hand(3, {"Ah", "Kd", "2c"});
  ASSERT_TRUE(SealDeal(keys, e).ok());
  EXPECT_EQ(e.hand_started().deck_size(), 3);  // the table applies this
  DropClearDeck(e);
  const std::string logged = e.SerializeAsString();
  for (const char* card : {"Ah", "Kd", "2c"}) {
    // A card as the deck field encodes it (tag, length, text): two bytes
    // alone would appear by chance in the sealed bytes about once in 200
    // runs.
    v1::HandStarted clear;
    clear.add_deck(card);
    EXPECT_EQ(logged.find(clear.SerializeAsString()), std::string::npos)
        << card;
  }
  EXPECT_EQ(SealedDealNumber(e), 3);
  v1::TableEvent replayed;
  ASSERT_TRUE(replayed.ParseFromString(logged));
  ASSERT_TRUE(OpenDeal(keys, replayed).ok());
  EXPECT_EQ(std::vector<std::string>(replayed.hand_started().deck().begin(),
                                     replayed.hand_started().deck().end()),
            (std::vector<std::string>{"Ah", "Kd", "2c"}));
}

TEST(SealedDecks, ADeckMovedToAnotherDealDoesNotOpen) {
  const seal::DeckKeys keys = Keys();
  v1::TableEvent e = Hand(3, {"Ah", "Kd"});
  ASSERT_TRUE(SealDeal(keys, e).ok());
  DropClearDeck(e);
  v1::TableEvent moved = e;
  moved.mutable_hand_started()->set_hand_number(4);
  EXPECT_EQ(OpenDeal(keys, moved).code(), absl::StatusCode::kDataLoss);
  moved = e;
  moved.set_table_id("t2");
  EXPECT_EQ(OpenDeal(keys, moved).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(OpenDeal(Keys(), e).code(),
            absl::StatusCode::kFailedPrecondition);  // another key
}

TEST(SealedDecks, BankedShoesAreSealedToo) {
  const seal::DeckKeys keys = Keys();
  v1::BankedTableEvent e;
  e.set_table_id("bj1");
  e.mutable_dealt()->set_round(9);
  e.mutable_dealt()->add_deck("Qs");
  ASSERT_TRUE(SealDeal(keys, e).ok());
  DropClearDeck(e);
  EXPECT_TRUE(e.dealt().deck().empty());
  EXPECT_EQ(SealedDealNumber(e), 9);
  ASSERT_TRUE(OpenDeal(keys, e).ok());
  ASSERT_EQ(e.dealt().deck_size(), 1);
  EXPECT_EQ(e.dealt().deck(0), "Qs");
}

TEST(SealedDecks, ALogWrittenInClearStillReplays) {
  v1::TableEvent e = Hand(1, {"Ah"});
  EXPECT_FALSE(SealedDealNumber(e).has_value());
  ASSERT_TRUE(OpenDeal(seal::DeckKeys(), e).ok());
  EXPECT_EQ(e.hand_started().deck_size(), 1);
}

struct Decoded {
  v1::TableEvent event;
};

TEST(RevealWait, HoldsADealUntilItsDeckIsRevealed) {
  const seal::DeckKeys keys = Keys();
  v1::TableEvent deal = Hand(5, {"Ah", "Kd"});
  ASSERT_TRUE(SealDeal(keys, deal).ok());
  DropClearDeck(deal);
  RevealWait<Decoded> wait;
  EXPECT_EQ(wait.Take({Action(4)})->size(), 1u);  // nothing sealed: at once
  EXPECT_TRUE(wait.Take({deal})->empty());
  EXPECT_TRUE(wait.Take({Action(5)})->empty());
  EXPECT_TRUE(wait.Take({Settled(4, {"2c"})})->empty());  // not this deal
  EXPECT_EQ(wait.waiting_for(), 5);
  absl::StatusOr<std::vector<Decoded>> ready =
      wait.Take({Settled(5, {"Ah", "Kd"})});
  ASSERT_TRUE(ready.ok());
  ASSERT_EQ(ready->size(), 4u);
  EXPECT_EQ((*ready)[0].event.hand_started().deck_size(), 2);
  EXPECT_TRUE((*ready)[1].event.has_action_applied());
  EXPECT_TRUE((*ready)[3].event.has_hand_settled());
  EXPECT_FALSE(wait.waiting_for().has_value());
}

TEST(RevealWait, AnEndWithoutTheDeckIsDataLoss) {
  const seal::DeckKeys keys = Keys();
  v1::TableEvent deal = Hand(5, {"Ah"});
  ASSERT_TRUE(SealDeal(keys, deal).ok());
  DropClearDeck(deal);
  RevealWait<Decoded> wait;
  ASSERT_TRUE(wait.Take({deal})->empty());
  EXPECT_EQ(wait.Take({Settled(5, {})}).status().code(),
            absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace banca::tables
