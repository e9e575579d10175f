// What a round of póquer sem descarte emits, in order. Plain values: the
// service maps them to protobuf and filters them per player with
// VisibleTo (DESIGN invariant 7): a player's cards go only to that player
// until SD-27 turns them; the bank's four hidden cards only appear in
// BankRevealed, once every decision is in (digest gap 10). The burn card
// (SD-19a, gap 8) appears in no event at all.
#ifndef BANCA_LIBS_GAMES_STUD_NO_DRAW_EVENTS_H_
#define BANCA_LIBS_GAMES_STUD_NO_DRAW_EVENTS_H_

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "libs/cards/card.h"
#include "libs/cards/evaluator.h"
#include "libs/games/stud_no_draw/settlement.h"

namespace banca::games::stud_no_draw {

inline constexpr int kHandSize = 5;  // SD-19b
using Hand = std::array<cards::Card, kHandSize>;

// Why a player is out of the round before the second bet.
enum class FoldCause : uint8_t {
  kPlayer,      // SD-20a/22: the player chose to fold.
  kTimeout,     // SD-32: no decision within the supplementary time.
  kDisconnect,  // SD-35: the player's connection failed before the bet.
};
std::string_view FoldCauseName(FoldCause cause);

// SD-16: the first stake, in the «ante» box.
struct AntePlaced {
  int seat = 0;
  std::string player;
  int64_t amount = 0;
};
// SD-14: "no more bets, cards being dealt"; the seats dealt in, ascending.
struct BettingClosed {
  std::vector<int> seats;
  int64_t at_ms = 0;
};
// SD-19b: addressed to `seat` only.
struct CardsDealt {
  int seat = 0;
  Hand cards{};
};
// SD-19c: the bank's fifth card, face up for everybody.
struct BankUpCard {
  cards::Card card;
};
// SD-31: the pre-warning, with the end of the supplementary time.
struct DecisionWarned {
  int seat = 0;
  int64_t deadline_ms = 0;
};
struct Folded {
  int seat = 0;
  FoldCause cause = FoldCause::kPlayer;
};
// SD-23: the second bet, double the ante.
struct Continued {
  int seat = 0;
  int64_t bet = 0;
};
// SD-34: the player's own connection failed. Before the bet it is a fold
// (a Folded event follows, SD-35); after it the bet stands (SD-36).
struct PlayerDisconnected {
  int seat = 0;
};
// SD-24/25: the bank's five cards, once every decision is in.
struct BankRevealed {
  Hand cards{};
  cards::HandValue value;
  bool qualifies = false;
};
// SD-27: a continuing player's cards, turned when the bank qualifies.
struct HandShown {
  int seat = 0;
  Hand cards{};
  cards::HandValue value;
};
// One per seat in the round, ascending, after the cards are decided.
struct SeatSettled {
  int seat = 0;
  std::string player;
  SeatSettlement settlement;
};
// SD-33: a failure of the gaming system; SeatSettled (kVoid) follow.
struct RoundVoided {};
struct RoundFinished {
  int64_t staked = 0;
  int64_t returned = 0;
};

using Event = std::variant<AntePlaced, BettingClosed, CardsDealt, BankUpCard,
                           DecisionWarned, Folded, Continued,
                           PlayerDisconnected, BankRevealed, HandShown,
                           SeatSettled, RoundVoided, RoundFinished>;

// Whether the player at `seat` (0: an observer) may receive `event`.
bool VisibleTo(const Event& event, int seat);

}  // namespace banca::games::stud_no_draw

#endif  // BANCA_LIBS_GAMES_STUD_NO_DRAW_EVENTS_H_
