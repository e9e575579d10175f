// Everything needed to replay one hand exactly: the table settings, who was
// dealt in with what stack, the button, the recorded deck and the decisions
// in order. The table service logs it; hand histories (PHH) are written
// from it; `banca hands replay` rebuilds it from a PHH file. The engine
// replays a record to the same result every time (no clock, no RNG).
#ifndef BANCA_LIBS_GAMES_POKER_HAND_RECORD_H_
#define BANCA_LIBS_GAMES_POKER_HAND_RECORD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libs/cards/card.h"
#include "libs/games/poker/action.h"
#include "libs/games/poker/table_config.h"

namespace banca::games::poker {

struct SeatedPlayer {
  int seat = 0;  // 1..config.seats
  std::string player;
  int64_t stack = 0;  // cents at the start of the hand
  bool operator==(const SeatedPlayer&) const = default;
};

struct RecordedAction {
  int seat = 0;
  Action action;
  // HE-45: the decision timer ran out and the engine chose check or fold.
  bool timeout = false;
  bool operator==(const RecordedAction&) const = default;
};

struct HandRecord {
  TableConfig config;
  std::string table_id;
  int64_t hand_number = 0;
  int button = 0;  // a seat in `players`
  // Dealt in, ascending seat order.
  std::vector<SeatedPlayer> players;
  // Draw order, top first: one card to each player from the small blind
  // clockwise, round after round, then the board in order; no burns.
  std::vector<cards::Card> deck;
  std::vector<RecordedAction> actions;
  // HE-72: the gaming system failed; every bet of the hand was returned.
  bool voided = false;
};

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_HAND_RECORD_H_
