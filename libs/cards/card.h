// Cards, decks and card sets. A card is one byte, index = rank * 4 + suit, so
// that the evaluators can index their per-card tables directly.
#ifndef BANCA_LIBS_CARDS_CARD_H_
#define BANCA_LIBS_CARDS_CARD_H_

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace banca::cards {

// HE-30 / SD-6b order, low to high. The ace's low role in the A-2-3-4-5
// straight (HE-31, SD-8) is handled by the evaluators, not by the rank.
enum class Rank : uint8_t {
  kTwo = 0,
  kThree,
  kFour,
  kFive,
  kSix,
  kSeven,
  kEight,
  kNine,
  kTen,
  kJack,
  kQueen,
  kKing,
  kAce,
};
inline constexpr int kNumRanks = 13;

enum class Suit : uint8_t { kClubs = 0, kDiamonds, kHearts, kSpades };
inline constexpr int kNumSuits = 4;
inline constexpr int kNumCards = kNumRanks * kNumSuits;

class Card {
 public:
  constexpr Card() = default;
  constexpr Card(Rank rank, Suit suit)
      : index_(static_cast<uint8_t>(static_cast<int>(rank) * kNumSuits +
                                    static_cast<int>(suit))) {}
  // index in [0, 52).
  static constexpr Card FromIndex(int index) {
    Card c;
    c.index_ = static_cast<uint8_t>(index);
    return c;
  }

  constexpr int index() const { return index_; }
  constexpr Rank rank() const { return static_cast<Rank>(index_ >> 2); }
  constexpr Suit suit() const { return static_cast<Suit>(index_ & 3); }

  friend constexpr bool operator==(Card a, Card b) = default;
  friend constexpr auto operator<=>(Card a, Card b) = default;

 private:
  uint8_t index_ = 0;
};

// 'A', 'K', 'Q', 'J', 'T', '9' … '2'.
char RankChar(Rank rank);
// 'c', 'd', 'h', 's'.
char SuitChar(Suit suit);

// "As", "Td", "2c". Also accepts "10" for the ten and upper-case suits, so
// hand-typed scenario files are forgiving; printing is always canonical.
absl::StatusOr<Rank> ParseRank(std::string_view text);
absl::StatusOr<Card> ParseCard(std::string_view text);
std::string CardToString(Card card);

// "As Kd", "AsKd", "As,Kd": cards with optional spaces or commas between.
// A card given twice is INVALID_ARGUMENT: no physical hand holds one.
absl::StatusOr<std::vector<Card>> ParseCards(std::string_view text);
// Space-separated canonical form: "As Kd 7h".
std::string CardsToString(absl::Span<const Card> cards);

// A set of distinct cards from one 52-card deck, as a bit mask. Used to
// reject duplicates and to deal "the rest of the deck" in tests.
class CardSet {
 public:
  constexpr CardSet() = default;
  static CardSet Of(absl::Span<const Card> cards);

  constexpr bool Contains(Card c) const { return (bits_ >> c.index()) & 1; }
  constexpr void Insert(Card c) { bits_ |= uint64_t{1} << c.index(); }
  constexpr void Erase(Card c) { bits_ &= ~(uint64_t{1} << c.index()); }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr uint64_t bits() const { return bits_; }

 private:
  uint64_t bits_ = 0;
};

// The deck a table deals from. The default is the single 52-card deck that
// HE-4b, SD-6b and the synthetic-poker decision prescribe. Synthetic poker
// keeps the deck as a table setting (its rules 1–50 are missing), so a short
// deck (lowest_rank = kSix: 36 cards) can be built; note that the hand
// evaluators rank hands by the standard 52-card rules (HE-29 to HE-32), which
// the digest gives for every game banca runs. Blackjack shoes use copies > 1.
struct DeckSpec {
  Rank lowest_rank = Rank::kTwo;
  int copies = 1;
};

// Cards in a fixed, documented order (rank-major, then suit) before any
// shuffle. INVALID_ARGUMENT when copies is not in [1, 8].
absl::StatusOr<std::vector<Card>> BuildDeck(const DeckSpec& spec = {});
// The standard 52-card deck, ordered 2c 2d 2h 2s 3c … As.
std::vector<Card> StandardDeck();

}  // namespace banca::cards

#endif  // BANCA_LIBS_CARDS_CARD_H_
