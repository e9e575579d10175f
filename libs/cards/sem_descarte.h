// Hand rules of póquer sem descarte (Reg. n.º 803/2015): five cards each,
// player against the bank (banca). Stakes and payouts belong to the engine;
// this is only what the cards decide.
#ifndef BANCA_LIBS_CARDS_SEM_DESCARTE_H_
#define BANCA_LIBS_CARDS_SEM_DESCARTE_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/cards/card.h"
#include "libs/cards/evaluator.h"
#include "libs/cards/showdown.h"

namespace banca::cards::sem_descarte {

// SD-25 / SD-7k: the bank plays with an ace and a king, or any higher
// combination. High-card hands order by their highest cards first (SD-9), so
// that is every hand at least as strong as A-K-4-3-2.
bool BankQualifies(HandValue bank);

// Three (or more) of the five cards share a suit: the SD-9 tie-break.
bool HasThreeOfOneSuit(absl::Span<const Card> five);

// Player against bank, five cards each (SD-10/11, SD-13, SD-9). winner is
// +1 when the player wins, -1 when the bank wins, 0 for an exact tie, which
// the digest settles as a push (SD gap 1). SD-13's tie rules, read with
// gap 2 (successive comparison for flushes and pair kickers), coincide with
// the standard order; SD-9 adds that between high-card hands of identical
// ranks, the one with three cards of one suit wins (both or neither: push).
Showdown ComparePlayerWithBank(absl::Span<const Card> player,
                               absl::Span<const Card> bank);
// INVALID_ARGUMENT unless exactly five cards each and ten distinct cards.
absl::StatusOr<Showdown> ComparePlayerWithBankChecked(
    absl::Span<const Card> player, absl::Span<const Card> bank);

}  // namespace banca::cards::sem_descarte

#endif  // BANCA_LIBS_CARDS_SEM_DESCARTE_H_
