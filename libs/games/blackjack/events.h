// What a blackjack round emits, in order. Plain values; the service maps
// them to protobuf. Player cards are dealt face up in blackjack, so every
// event may go to every player: the dealer's hole card is not in
// HoleCardDealt (only its recorded deck position is), and appears first in
// HoleCardRevealed, when the rules turn it over (DESIGN invariant 7).
#ifndef BANCA_LIBS_GAMES_BLACKJACK_EVENTS_H_
#define BANCA_LIBS_GAMES_BLACKJACK_EVENTS_H_

#include <cstdint>
#include <string>
#include <variant>

#include "libs/cards/card.h"
#include "libs/games/blackjack/action.h"
#include "libs/games/blackjack/bet.h"

namespace banca::games::blackjack {

// A face-up card: to a seat's hand, or (seat 0) to the dealer.
struct CardDealt {
  int seat = 0;  // 0: the dealer
  int hand = 0;  // the hand's number; 0 for the dealer
  cards::Card card;
};

// The dealer's second card, face down.
struct HoleCardDealt {};

// The dealer shows an ace: each seat in turn takes or declines insurance.
struct InsuranceOffered {};

struct InsuranceDecided {
  int seat = 0;
  int64_t amount = 0;  // 0: declined
  bool timeout = false;
};

// The peek under an ace or a ten. `blackjack` true ends the round.
struct DealerChecked {
  bool blackjack = false;
};

struct ActionTaken {
  int seat = 0;
  int hand = 0;
  Action action;
  bool timeout = false;  // the decision time ran out: stand
};

// A stake placed during the round (split, double, insurance); the main bet
// was placed before the deal.
struct StakeAdded {
  int seat = 0;
  BetKind kind = BetKind::kDouble;
  int hand = 0;
  int64_t amount = 0;
};

struct HandSplit {
  int seat = 0;
  int hand = 0;      // keeps the first card
  int new_hand = 0;  // takes the second card
};

struct HoleCardRevealed {
  cards::Card card;
};

struct BetSettled {
  BetResult bet;
};

// BJ-27: the gaming system failed (or the shoe ran out); every stake is
// returned by the BetSettled events that follow.
struct RoundVoided {
  std::string reason;
};

struct RoundFinished {
  bool voided = false;
  int64_t staked = 0;
  int64_t returned = 0;
};

using Event =
    std::variant<CardDealt, HoleCardDealt, InsuranceOffered, InsuranceDecided,
                 DealerChecked, ActionTaken, StakeAdded, HandSplit,
                 HoleCardRevealed, BetSettled, RoundVoided, RoundFinished>;

}  // namespace banca::games::blackjack

#endif  // BANCA_LIBS_GAMES_BLACKJACK_EVENTS_H_
