// The deal's hidden cards in the table events a host logs (docs/security.md,
// "Sealed decks"): a HandStarted's deck and a RoundDealt's shoe go to the
// log sealed with the table hosts' deck key (libs/seal), never in clear,
// and come back in clear only inside a host, on replay. The event that ends
// the deal reveals them (HandSettled.revealed_deck, DeckRevealed).
//
// A host seals before its table applies the deal (SealDeal: the event then
// holds both forms), logs the event without the clear form (DropClearDeck),
// and opens every sealed deal it replays (OpenDeal). A deal is bound to its
// table, kind and number (the associated data), so a sealed deck copied to
// another deal does not open.
#ifndef BANCA_LIBS_TABLES_SEALED_DECKS_H_
#define BANCA_LIBS_TABLES_SEALED_DECKS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "banca/v1/banked_table.pb.h"
#include "banca/v1/table.pb.h"
#include "banca/v1/tournament.pb.h"
#include "libs/seal/deck_keys.h"

namespace banca::tables {

// The associated data of a deal: "banca.deck.v1|<table>|<kind>|<number>".
std::string DealContext(std::string_view table_id, std::string_view kind,
                        int64_t number);

// Adds sealed_deck to a HandStarted or RoundDealt that holds its deck in
// clear; any other event, and a deal sealed already, is left as it is.
absl::Status SealDeal(const seal::DeckKeys& keys, v1::TableEvent& event);
absl::Status SealDeal(const seal::DeckKeys& keys, v1::BankedTableEvent& event);
absl::Status SealDeal(const seal::DeckKeys& keys, v1::TournamentEvent& event);

// Drops the clear deck of a sealed deal: the form the log gets.
void DropClearDeck(v1::TableEvent& event);
void DropClearDeck(v1::BankedTableEvent& event);
void DropClearDeck(v1::TournamentEvent& event);

// Fills in the clear deck of a sealed deal from its sealed form (a deal
// logged in clear, before decks were sealed, is left as it is).
// FAILED_PRECONDITION when no deck key held opens it, DATA_LOSS when it
// does not open.
absl::Status OpenDeal(const seal::DeckKeys& keys, v1::TableEvent& event);
absl::Status OpenDeal(const seal::DeckKeys& keys, v1::BankedTableEvent& event);
absl::Status OpenDeal(const seal::DeckKeys& keys, v1::TournamentEvent& event);

// For readers with no deck key (reveal_wait.h): the number of a sealed
// deal whose deck is not in clear, and the deck the end of deal `number`
// reveals (nullptr if `event` does not end it).
std::optional<int64_t> SealedDealNumber(const v1::TableEvent& event);
std::optional<int64_t> SealedDealNumber(const v1::BankedTableEvent& event);
const google::protobuf::RepeatedPtrField<std::string>* RevealedDeck(
    const v1::TableEvent& event, int64_t number);
const google::protobuf::RepeatedPtrField<std::string>* RevealedDeck(
    const v1::BankedTableEvent& event, int64_t number);
// Puts a revealed deck in clear into the sealed deal.
void FillDeck(v1::TableEvent& deal,
              const google::protobuf::RepeatedPtrField<std::string>& deck);
void FillDeck(v1::BankedTableEvent& deal,
              const google::protobuf::RepeatedPtrField<std::string>& deck);

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_SEALED_DECKS_H_
