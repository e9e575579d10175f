// What a hand emits, in order. Plain values: the table service maps them to
// protobuf and filters them into each player's view (hidden information —
// another player's hole cards — is only in HoleCardsDealt, addressed to its
// owner, and in ShowdownShown).
#ifndef BANCA_LIBS_GAMES_POKER_EVENTS_H_
#define BANCA_LIBS_GAMES_POKER_EVENTS_H_

#include <array>
#include <cstdint>
#include <variant>

#include "absl/types/span.h"
#include "libs/cards/card.h"
#include "libs/cards/evaluator.h"
#include "libs/games/poker/action.h"

namespace banca::games::poker {

inline constexpr int kMaxSeats = 10;
inline constexpr int kMaxHoleCards = 5;
inline constexpr int kBoardSize = 5;

// A fixed-capacity list: events are built on the hot path without
// allocating.
template <typename T, int N>
class SmallList {
 public:
  using value_type = T;
  using const_iterator = const T*;
  using iterator = const T*;
  using size_type = int;
  void push_back(const T& v) { items_[size_++] = v; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](int i) const { return items_[i]; }
  T& operator[](int i) { return items_[i]; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }
  absl::Span<const T> span() const { return {items_.data(), size_t(size_)}; }
  void clear() { size_ = 0; }
  friend bool operator==(const SmallList& a, const SmallList& b) {
    if (a.size_ != b.size_) return false;
    for (int i = 0; i < a.size_; ++i) {
      if (!(a.items_[i] == b.items_[i])) return false;
    }
    return true;
  }

 private:
  std::array<T, N> items_{};
  int size_ = 0;
};

using HoleCards = SmallList<cards::Card, kMaxHoleCards>;
using BoardCards = SmallList<cards::Card, kBoardSize>;

struct SeatAmount {
  int seat = 0;
  int64_t amount = 0;
  bool operator==(const SeatAmount&) const = default;
};
using SeatAmounts = SmallList<SeatAmount, kMaxSeats>;

struct BlindPosted {
  int seat = 0;
  int64_t amount = 0;  // less than the blind when it put the player all in
  bool big = false;
};

// Synthetic poker (SY-51): a voluntary blind before the cards.
struct StraddlePosted {
  int seat = 0;
  int64_t amount = 0;
  bool restraddle = false;
};

// Addressed to `seat` only.
struct HoleCardsDealt {
  int seat = 0;
  HoleCards cards;
};

struct BoardDealt {
  int round = 0;     // the betting round it opens, 1-based
  BoardCards cards;  // the new cards only
};

struct ActionTaken {
  int seat = 0;
  Action action;       // as decided (a timeout's check or fold)
  int64_t put_in = 0;  // chips moved from the stack by this action
  int64_t bet_to = 0;  // the player's total bet in the round afterwards
  bool all_in = false;
  bool timeout = false;  // HE-45
};

// The part of a bet nobody called goes back; it is no pot and not raked.
struct BetReturned {
  int seat = 0;
  int64_t amount = 0;
};

// HE-59/SY-60: in showdown order. cards::DescribeHand(value, …) gives the
// combination's name (HE-61).
struct ShowdownShown {
  int seat = 0;
  HoleCards cards;
  cards::HandValue value;
};

// One per pot, main pot (index 0) first.
struct PotAwarded {
  int pot = 0;
  int64_t amount = 0;  // before rake
  int64_t rake = 0;
  SeatAmounts shares;  // to each winner; sum = amount - rake
};

// HE-72: every chip a player put in the hand goes back.
struct HandVoided {
  SeatAmounts refunds;
};

struct HandFinished {
  bool voided = false;
  int64_t rake = 0;
};

using Event = std::variant<BlindPosted, StraddlePosted, HoleCardsDealt,
                           BoardDealt, ActionTaken, BetReturned, ShowdownShown,
                           PotAwarded, HandVoided, HandFinished>;

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_EVENTS_H_
