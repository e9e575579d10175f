// The poker games' scenario text (scenario_poker.cc, scenario_tournament.cc):
// engine events as log lines, a played hand as the output's round object,
// and the `deal` and `act` steps' deck and action read from the file.
#ifndef BANCA_LIBS_SCENARIO_SCENARIO_POKER_TEXT_H_
#define BANCA_LIBS_SCENARIO_SCENARIO_POKER_TEXT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/cards/card.h"
#include "libs/cards/showdown.h"
#include "libs/games/poker/action.h"
#include "libs/games/poker/events.h"
#include "libs/games/poker/hand.h"
#include "libs/games/poker/table.h"
#include "libs/scenario/scenario_book.h"

namespace banca::scenario {

std::string DescribeTableEvent(const games::poker::TableEvent& event);
std::string DescribeHandEvent(const games::poker::Event& event);

// The output's round object of a hand (SCENARIOS.md "Output").
OJson PokerRound(const games::poker::Hand& hand, cards::Game game);

// A `deal` step's deck: INVALID_ARGUMENT naming the card that is not one
// or appears twice.
absl::StatusOr<std::vector<cards::Card>> ParseDeck(const Json& deck);

// An `act` step's action and amount: INVALID_ARGUMENT for an unknown
// action, or a bet or raise without an amount.
absl::StatusOr<games::poker::Action> ParseAction(const Json& step);

}  // namespace banca::scenario

#endif  // BANCA_LIBS_SCENARIO_SCENARIO_POKER_TEXT_H_
