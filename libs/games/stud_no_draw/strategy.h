// The fixed player strategy behind banca's RTP figures for póquer sem
// descarte (docs/rtp.md): continue with ace-king or better, the same hand
// the bank needs to play (SD-25), else fold.
#ifndef BANCA_LIBS_GAMES_STUD_NO_DRAW_STRATEGY_H_
#define BANCA_LIBS_GAMES_STUD_NO_DRAW_STRATEGY_H_

#include "absl/types/span.h"
#include "libs/cards/card.h"
#include "libs/cards/evaluator.h"

namespace banca::games::stud_no_draw {

// `value` is the player's five cards' value.
bool ContinueWithAceKingOrBetter(cards::HandValue value);
// Five distinct cards (unchecked).
bool ContinueWithAceKingOrBetter(absl::Span<const cards::Card> hand);

}  // namespace banca::games::stud_no_draw

#endif  // BANCA_LIBS_GAMES_STUD_NO_DRAW_STRATEGY_H_
