// The decks a tournament's hands reveal when they end (TournamentHandEnded,
// tournament_state.h), for the readers with no deck key (the audit,
// `banca hands export --tournament`): they read a tournament's events once
// to Note the reveals, then Fill each sealed hand before the replay applies
// it. A hand whose end is not in what was read (in play when the reading
// stopped) stays sealed: no reader without the key learns a card before
// the rules reveal it.
#ifndef BANCA_LIBS_TABLES_TOURNAMENT_REVEALS_H_
#define BANCA_LIBS_TABLES_TOURNAMENT_REVEALS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>

#include "absl/status/status.h"
#include "banca/v1/tournament.pb.h"

namespace banca::tables {

class TournamentReveals {
 public:
  // A reveal is ~110 bytes here: bounds the memory a log can make a
  // reader hold (a 10,000-player tournament plays ~400,000 hands).
  static constexpr size_t kMaxHands = 4'000'000;

  // Keeps the deck a hand_ended reveals (any other event is ignored).
  // RESOURCE_EXHAUSTED past kMaxHands; INVALID_ARGUMENT for a card that is
  // not two characters (the deck is not kept).
  absl::Status Note(const v1::TournamentEvent& event);

  // Fills in the clear deck of a sealed hand_started from its reveal.
  // NOT_FOUND when no reveal of that hand was noted; any other event, and
  // a hand with its deck in clear already, is left as it is.
  absl::Status Fill(v1::TournamentEvent& event) const;

  size_t size() const { return decks_.size(); }

 private:
  // (tournament, table, hand) -> the deck's cards, two characters each.
  std::map<std::tuple<std::string, std::string, int64_t>, std::string> decks_;
};

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_TOURNAMENT_REVEALS_H_
