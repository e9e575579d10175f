// Poker hand evaluation: 5 to 7 cards (best five, HE-26 / HE-29 to HE-32),
// Omaha (exactly two of four hole cards with exactly three of five board
// cards) and the class information behind showdown messages.
//
// Design (OMPEval-style, written for banca): every card adds a 64-bit key —
// a rank key in the low 32 bits (rank_keys.h: the sum identifies the rank
// pattern) and a 4-bit counter for its suit above it — and sets its bit in a
// 64-bit mask (16 bits per suit). A hand with five or more cards of one suit
// is looked up by that suit's 13-bit rank mask in an 8 KiB-entry flush table;
// any other hand by its rank pattern through a row-displacement perfect hash.
// With at most seven cards a flush always beats whatever the other cards make,
// so one lookup suffices. Keys add, so enumerations reuse partial sums.
#ifndef BANCA_LIBS_CARDS_EVALUATOR_H_
#define BANCA_LIBS_CARDS_EVALUATOR_H_

#include <algorithm>
#include <array>
#include <bit>
#include <compare>
#include <cstddef>
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/cards/card.h"
#include "libs/cards/rank_keys.h"

namespace banca::cards {

// HE-29 / SD-7, low to high. The royal flush (HE-29a, SD-7a) is the highest
// straight flush: HandValue::IsRoyalFlush tells it apart.
enum class Category : uint8_t {
  kHighCard = 1,
  kPair,
  kTwoPair,
  kThreeOfAKind,
  kStraight,
  kFlush,
  kFullHouse,
  kFourOfAKind,
  kStraightFlush,
};

// The strength of a poker hand's best five cards: a higher value beats a
// lower one and equal values tie (HE-32/33). One of 7,462 classes.
class HandValue {
 public:
  constexpr HandValue() = default;
  constexpr explicit HandValue(uint16_t raw) : raw_(raw) {}

  // Category in the top four bits, position within the category below.
  constexpr uint16_t raw() const { return raw_; }
  constexpr bool valid() const { return raw_ != 0; }
  constexpr Category category() const {
    return static_cast<Category>(raw_ >> 12);
  }
  // A-K-Q-J-10 of one suit: the best class of all.
  constexpr bool IsRoyalFlush() const {
    return raw_ == ((static_cast<int>(Category::kStraightFlush) << 12) | 10);
  }
  // 0 … 7,461, weakest to strongest.
  int ClassIndex() const;

  friend constexpr bool operator==(HandValue, HandValue) = default;
  friend constexpr auto operator<=>(HandValue, HandValue) = default;

 private:
  uint16_t raw_ = 0;
};

inline constexpr int kNumHandClasses = 7462;

// What a class is made of: its category and the ranks that order it within
// the category, most significant first (full house K-K-K-7-7 → {K, 7}; pair
// J-J-A-9-4 → {J, A, 9, 4}; straights → {top card}, 5 for A-2-3-4-5).
struct HandClass {
  Category category = Category::kHighCard;
  int num_ranks = 0;
  std::array<Rank, 5> ranks{};
};

namespace internal {

inline constexpr int kRankMaskBits = 13;
inline constexpr int kNumHolePairs = 91;  // Unordered rank pairs.

struct Tables {
  // Best five of a suit's 13-bit rank mask (≥ 5 bits; 0 otherwise).
  std::array<uint16_t, 1 << kRankMaskBits> flush;
  // Best non-flush five of a 5-, 6- or 7-card rank pattern, by hash slot.
  std::array<uint16_t, kRankSlots> rank;
  // Best non-flush Omaha hand for (board rank pattern, hole rank pair): a
  // row of kNumHolePairs per board slot (BoardSlot).
  std::array<uint16_t, kBoardSlots * kNumHolePairs> omaha;
  // The mask's two (three) highest bits; the mask itself if it has fewer.
  std::array<uint16_t, 1 << kRankMaskBits> top_two;
  std::array<uint16_t, 1 << kRankMaskBits> top_three;
  std::array<HandClass, kNumHandClasses> classes;
  // ClassIndex of the first class of each category (index = category).
  std::array<uint16_t, 11> category_first;
};

// Fills `t`; the process-wide instance is built once by Evaluator::Get().
// Exposed so the benchmark can time a cold build.
void BuildTables(Tables& t);
extern Tables g_tables;

inline constexpr uint64_t kSuitCounterBias = uint64_t{0x3333} << 32;
inline constexpr uint64_t kFlushCheckMask = uint64_t{0x8888} << 32;
inline constexpr uint64_t kOneOfEachSuit = uint64_t{0x1111} << 32;

struct CardCodes {
  std::array<uint64_t, kNumCards> key;
  std::array<uint64_t, kNumCards> mask;
};
inline constexpr CardCodes kCardCodes = [] {
  CardCodes c{};
  for (int i = 0; i < kNumCards; ++i) {
    const int rank = i >> 2, suit = i & 3;
    c.key[i] = kRankKeys[rank] + (uint64_t{1} << (32 + 4 * suit));
    c.mask[i] = uint64_t{1} << (16 * suit + rank);
  }
  return c;
}();

inline constexpr std::array<std::array<uint8_t, 13>, 13> kPairIndex = [] {
  std::array<std::array<uint8_t, 13>, 13> p{};
  int n = 0;
  for (int a = 0; a < 13; ++a) {
    for (int b = a; b < 13; ++b) {
      p[a][b] = p[b][a] = static_cast<uint8_t>(n++);
    }
  }
  return p;
}();

// Best flush made of exactly two ranks of `hole` and three of `board` (one
// suit's 13-bit rank masks).
uint16_t BestOmahaFlush(uint32_t hole, uint32_t board);

inline uint32_t RankSlot(uint32_t rank_key) {
  return rank_key + kRowAdjust[rank_key >> kRowShift];
}
// Five-card rank keys only.
inline uint32_t BoardSlot(uint32_t rank_key) {
  const uint32_t k = rank_key - kFirstBoardKey;
  return (k & ((1u << kBoardRowShift) - 1)) +
         kBoardRowOffset[k >> kBoardRowShift];
}

}  // namespace internal

// A partial hand: cards added so far. Copy it and add more to enumerate; two
// disjoint partial hands combine with +.
class CardAccumulator {
 public:
  constexpr CardAccumulator() = default;
  explicit CardAccumulator(absl::Span<const Card> cards) {
    for (Card c : cards) *this += c;
  }

  CardAccumulator& operator+=(Card c) {
    key_ += internal::kCardCodes.key[c.index()];
    mask_ |= internal::kCardCodes.mask[c.index()];
    return *this;
  }
  friend CardAccumulator operator+(CardAccumulator h, Card c) {
    h += c;
    return h;
  }
  // `a` and `b` must hold different cards.
  friend CardAccumulator operator+(const CardAccumulator& a,
                                   const CardAccumulator& b) {
    CardAccumulator h;
    h.key_ = a.key_ + b.key_ - internal::kSuitCounterBias;
    h.mask_ = a.mask_ | b.mask_;
    return h;
  }

  uint64_t key() const { return key_; }
  uint64_t mask() const { return mask_; }

  // Whether one more card could give five of one suit, i.e. some suit has
  // four already. An enumeration asks once for all its last cards and, when
  // not, evaluates them with Evaluator::EvaluateNoFlush.
  bool FlushPossibleWithOneMore() const {
    return ((key_ + internal::kOneOfEachSuit) & internal::kFlushCheckMask) != 0;
  }

 private:
  uint64_t key_ = internal::kSuitCounterBias;
  uint64_t mask_ = 0;
};

class Evaluator {
 public:
  // The process-wide evaluator; builds its tables (≈ 1.7 MiB, 20–35 ms) on
  // first use, thread-safely.
  static const Evaluator& Get();

  // Best five of 5, 6 or 7 cards in the accumulator. Fewer than five cards
  // or a repeated card give an unspecified value.
  HandValue Evaluate(const CardAccumulator& hand) const {
    const internal::Tables& t = internal::g_tables;
    const uint64_t flush = hand.key() & internal::kFlushCheckMask;
    if (flush != 0) [[unlikely]] {
      // Bit 35 + 4·suit is set for the flush suit.
      const int shift = (std::countr_zero(flush) - 35) * 4;
      return HandValue(t.flush[(hand.mask() >> shift) & 0x1fff]);
    }
    return HandValue(
        t.rank[internal::RankSlot(static_cast<uint32_t>(hand.key()))]);
  }
  // As Evaluate, for a hand known to hold no five cards of one suit: one
  // table lookup, and the suit masks are never needed.
  HandValue EvaluateNoFlush(const CardAccumulator& hand) const {
    return HandValue(
        internal::g_tables
            .rank[internal::RankSlot(static_cast<uint32_t>(hand.key()))]);
  }
  // Seven distinct cards (unchecked). Faster than building an accumulator:
  // the suit masks are only gathered when there is a flush.
  HandValue Evaluate7(const Card* cards) const {
    const internal::Tables& t = internal::g_tables;
    const auto& codes = internal::kCardCodes;
    const uint64_t key =
        codes.key[cards[0].index()] + codes.key[cards[1].index()] +
        codes.key[cards[2].index()] + codes.key[cards[3].index()] +
        codes.key[cards[4].index()] + codes.key[cards[5].index()] +
        codes.key[cards[6].index()] + internal::kSuitCounterBias;
    const uint64_t flush = key & internal::kFlushCheckMask;
    if (flush != 0) [[unlikely]] {
      const int shift = (std::countr_zero(flush) - 35) * 4;
      uint64_t mask = 0;
      for (int i = 0; i < 7; ++i) mask |= codes.mask[cards[i].index()];
      return HandValue(t.flush[(mask >> shift) & 0x1fff]);
    }
    return HandValue(t.rank[internal::RankSlot(static_cast<uint32_t>(key))]);
  }
  // 5 to 7 distinct cards (unchecked; see EvaluateChecked).
  HandValue Evaluate(absl::Span<const Card> cards) const {
    return Evaluate(CardAccumulator(cards));
  }
  // INVALID_ARGUMENT unless 5 to 7 distinct cards.
  absl::StatusOr<HandValue> EvaluateChecked(absl::Span<const Card> cards) const;

  // Omaha: the best hand using exactly two of the four hole cards and
  // exactly three of the five board cards. Nine distinct cards (unchecked).
  HandValue EvaluateOmaha(const Card* hole4, const Card* board5) const;
  // Any hole size ≥ 2 and board size ≥ 3 (e.g. a five-card Omaha setting),
  // by trying every 2 + 3 combination. Also the reference for tests.
  HandValue EvaluateOmahaBruteForce(absl::Span<const Card> hole,
                                    absl::Span<const Card> board) const;
  // INVALID_ARGUMENT unless hole ≥ 2 and board ≥ 3 cards, all distinct.
  absl::StatusOr<HandValue> EvaluateOmahaChecked(
      absl::Span<const Card> hole, absl::Span<const Card> board) const;

  // The class behind a value (for names and showdown reasons).
  const HandClass& Class(HandValue v) const;

 private:
  Evaluator() = default;
};

inline HandValue Evaluator::EvaluateOmaha(const Card* hole,
                                          const Card* board) const {
  using internal::kCardCodes;
  using internal::kPairIndex;
  const internal::Tables& t = internal::g_tables;

  const auto& key = kCardCodes.key;
  const int b0 = board[0].index(), b1 = board[1].index(), b2 = board[2].index(),
            b3 = board[3].index(), b4 = board[4].index();
  const int h0 = hole[0].index(), h1 = hole[1].index(), h2 = hole[2].index(),
            h3 = hole[3].index();
  // Card keys carry 1 << 4·suit above bit 32: their sums count suits.
  const uint64_t board_key = key[b0] + key[b1] + key[b2] + key[b3] + key[b4];
  const uint64_t hole_key = key[h0] + key[h1] + key[h2] + key[h3];
  const uint16_t* row =
      &t.omaha[size_t{internal::BoardSlot(static_cast<uint32_t>(board_key))} *
               internal::kNumHolePairs];
  const int r0 = h0 >> 2, r1 = h1 >> 2, r2 = h2 >> 2, r3 = h3 >> 2;
  const uint16_t best = std::max(
      std::max(std::max(row[kPairIndex[r0][r1]], row[kPairIndex[r0][r2]]),
               std::max(row[kPairIndex[r0][r3]], row[kPairIndex[r1][r2]])),
      std::max(row[kPairIndex[r1][r3]], row[kPairIndex[r2][r3]]));

  // A flush needs three board cards and two hole cards of one suit; at most
  // one suit has three of the five board cards. Nibble ≥ 8 below means
  // ≥ 3 board (≥ 2 hole) cards of that suit. About one deal in eight has
  // such a suit: a branch costs less than computing the flush every time.
  const uint32_t board_suits = 0x5555 + static_cast<uint32_t>(board_key >> 32);
  const uint32_t hole_suits = 0x6666 + static_cast<uint32_t>(hole_key >> 32);
  const uint32_t flush_suit_bit = board_suits & hole_suits & 0x8888;
  if (flush_suit_bit == 0) [[likely]] {
    return HandValue(best);
  }
  const auto& mask = kCardCodes.mask;
  const int shift = 16 * (std::countr_zero(flush_suit_bit) >> 2);
  const uint32_t hole_suited =
      ((mask[h0] | mask[h1] | mask[h2] | mask[h3]) >> shift) & 0x1fff;
  const uint32_t board_suited =
      ((mask[b0] | mask[b1] | mask[b2] | mask[b3] | mask[b4]) >> shift) &
      0x1fff;
  // The best plain flush takes the two highest suited hole cards and the
  // three highest suited board cards (each swap for a higher card can only
  // raise the sorted ranks). Only a straight flush can do better, and only
  // if the suit's cards together hold one: then try every 2 + 3 choice.
  uint16_t flush = t.flush[t.top_two[hole_suited] | t.top_three[board_suited]];
  if (t.flush[hole_suited | board_suited] >=
      (static_cast<int>(Category::kStraightFlush) << 12)) [[unlikely]] {
    flush =
        std::max(flush, internal::BestOmahaFlush(hole_suited, board_suited));
  }
  return HandValue(std::max(best, flush));
}

}  // namespace banca::cards

#endif  // BANCA_LIBS_CARDS_EVALUATOR_H_
