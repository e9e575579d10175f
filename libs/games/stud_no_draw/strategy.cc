#include "libs/games/stud_no_draw/strategy.h"

#include "libs/cards/sem_descarte.h"

namespace banca::games::stud_no_draw {

bool ContinueWithAceKingOrBetter(cards::HandValue value) {
  // The bank's own threshold: A-K-4-3-2 is the weakest hand that plays.
  return cards::sem_descarte::BankQualifies(value);
}

bool ContinueWithAceKingOrBetter(absl::Span<const cards::Card> hand) {
  return ContinueWithAceKingOrBetter(cards::Evaluator::Get().Evaluate(hand));
}

}  // namespace banca::games::stud_no_draw
