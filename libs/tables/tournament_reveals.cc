#include "libs/tables/tournament_reveals.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace banca::tables {

absl::Status TournamentReveals::Note(const v1::TournamentEvent& event) {
  if (!event.has_hand_ended()) return absl::OkStatus();
  const v1::TournamentHandEnded& h = event.hand_ended();
  if (decks_.size() >= kMaxHands) {
    return absl::ResourceExhaustedError(
        absl::StrCat("more than ", kMaxHands, " hands revealed"));
  }
  std::string cards;
  cards.reserve(2 * h.revealed_deck_size());
  for (const std::string& card : h.revealed_deck()) {
    if (card.size() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("hand ", h.hand_number(), " at ", h.table(),
                       " reveals a card that is not two characters"));
    }
    cards += card;
  }
  decks_[{event.tournament_id(), h.table(), h.hand_number()}] =
      std::move(cards);
  return absl::OkStatus();
}

absl::Status TournamentReveals::Fill(v1::TournamentEvent& event) const {
  if (!event.has_hand_started()) return absl::OkStatus();
  v1::TournamentHandStarted& h = *event.mutable_hand_started();
  if (!h.has_sealed_deck() || h.deck_size() > 0) return absl::OkStatus();
  auto it = decks_.find({event.tournament_id(), h.table(), h.hand_number()});
  if (it == decks_.end()) {
    return absl::NotFoundError(absl::StrCat("hand ", h.hand_number(), " at ",
                                            h.table(), " is not revealed"));
  }
  for (size_t i = 0; i + 1 < it->second.size(); i += 2) {
    h.add_deck(it->second.substr(i, 2));
  }
  return absl::OkStatus();
}

}  // namespace banca::tables
