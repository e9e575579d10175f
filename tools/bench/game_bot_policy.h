// What the game bots (game_bots.h) decide, from their own view and a roll
// in 0..99 (the bot's own random draw): simple players that only ever
// choose what the service offers them, so that no decision is refused.
#ifndef BANCA_TOOLS_BENCH_GAME_BOT_POLICY_H_
#define BANCA_TOOLS_BENCH_GAME_BOT_POLICY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "banca/v1/banked_table.pb.h"
#include "banca/v1/table.pb.h"

namespace banca::bench {

// Cash Hold'em on the bot's turn (`legal` offered, a table of
// `big_blind`): mostly checks and calls small bets, bets or raises the
// minimum now and then, folds to big bets more often than it calls them.
struct PokerChoice {
  v1::PokerActionType action = v1::POKER_ACTION_TYPE_UNSPECIFIED;
  int64_t amount_minor = 0;  // BET and RAISE: the total to
  bool operator==(const PokerChoice&) const = default;
};
PokerChoice DecideCashPoker(const v1::LegalActionsView& legal,
                            int64_t big_blind, uint32_t roll);

// A roulette round's bets, 1..3 of them, each of 100..500 cents (the
// table minimum per chance): outside chances, a dozen or a column, a
// straight number ("00" among them on an American wheel).
struct RouletteStake {
  v1::RouletteBet bet;
  int64_t amount_minor = 0;
};
std::vector<RouletteStake> ChooseRouletteBets(bool american, uint32_t roll);

// Blackjack on the bot's turn, for its hand to act and the dealer's up
// card: declines insurance; splits aces and eights (and other pairs half
// the time); doubles a hard 9 to 11; hits below 12, stands from 17 (soft:
// from 18), and between hits against a dealer's 7 to ace.
struct BlackjackChoice {
  v1::BlackjackActionType action = v1::BLACKJACK_ACTION_TYPE_UNSPECIFIED;
  int64_t amount_minor = 0;  // insurance: 0 declines
  bool operator==(const BlackjackChoice&) const = default;
};
BlackjackChoice DecideBlackjack(const v1::BlackjackLegalView& legal,
                                const v1::BlackjackHandView& hand,
                                const std::string& dealer_up, uint32_t roll);

// Póquer sem descarte (SD-20): bets with a pair or better, or an ace and a
// king, and a fifth of other hands; otherwise folds.
v1::StudActionType DecideStud(const std::vector<std::string>& cards,
                              uint32_t roll);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_GAME_BOT_POLICY_H_
