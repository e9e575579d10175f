// Basic strategy: the standard multi-deck chart (dealer stands or hits on
// soft 17, with or without doubling after a split, late surrender when
// offered), a pure function of the hand, the dealer's up card, the table
// settings and which actions the engine allows now. It never takes
// insurance. Used by the RTP simulation (docs/rtp.md) and by tests.
#ifndef BANCA_LIBS_GAMES_BLACKJACK_BASIC_STRATEGY_H_
#define BANCA_LIBS_GAMES_BLACKJACK_BASIC_STRATEGY_H_

#include "absl/types/span.h"
#include "libs/cards/card.h"
#include "libs/games/blackjack/action.h"
#include "libs/games/blackjack/hand_value.h"
#include "libs/games/blackjack/round.h"
#include "libs/games/blackjack/settings.h"

namespace banca::games::blackjack {

// `legal` is the engine's LegalActions for this hand (its can_* flags): an
// action the chart wants but the table forbids falls back the standard way
// (a double becomes a hit, or a stand on soft 18 and 19; a refused split
// plays the pair as its total; a refused surrender hits).
ActionType BasicStrategy(absl::Span<const cards::Card> hand, cards::Card up,
                         const TableSettings& settings,
                         const LegalActions& legal);

// The same chart by what it depends on: the hand's total, the value of a
// two-card pair (2..10, 11 for aces; 0 when the hand is not a pair) and
// the up card's value (2..10, 11 for an ace). The theoretical RTP
// (theoretical_rtp.h) walks hands by total with it.
ActionType BasicStrategyByTotal(Total total, int pair_value, int up_value,
                                const TableSettings& settings,
                                const LegalActions& legal);

}  // namespace banca::games::blackjack

#endif  // BANCA_LIBS_GAMES_BLACKJACK_BASIC_STRATEGY_H_
