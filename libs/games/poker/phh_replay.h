// Replays a PHH hand history (banca's own, or one written by PokerKit or
// another tool) through banca's engine: the library behind `banca hands
// replay` (docs/hand-histories.md). Pure: PHH text in, a result out; no file
// I/O, clock or RNG.
//
// The engine judges every action by banca's rules (libs/games/poker/hand.h),
// so a file another tool accepted can be rejected here, with the entry of
// `actions` that banca refuses and why. Where banca's rules differ from
// PokerKit's (tests/oracle/README.md: heads-up blinds, odd chips, rake, a
// short big blind), the result is banca's.
#ifndef BANCA_LIBS_GAMES_POKER_PHH_REPLAY_H_
#define BANCA_LIBS_GAMES_POKER_PHH_REPLAY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/cards/card.h"
#include "libs/games/poker/phh.h"

namespace banca::games::poker {

// A seat of the hand, named three ways.
struct PhhSeatRef {
  std::string phh_name;  // "p1".."pn": p1 is the first seat left of the button
  int seat = 0;          // banca's seat (`seats`, else 1..n in PHH order)
  std::string player;    // from `players`; empty when the file has none
  bool operator==(const PhhSeatRef&) const = default;
};

struct PhhReplayPlayer {
  PhhSeatRef who;
  int64_t starting_stack = 0;   // cents
  int64_t finishing_stack = 0;  // cents, by banca's engine
  int64_t net = 0;              // finishing - starting
  std::vector<cards::Card> hole_cards;
  bool folded = false;
  bool shown = false;  // reached the showdown
  std::string hand;    // shown: the combination in English, e.g. "Flush, ..."
};

struct PhhReplayWinner {
  PhhSeatRef who;
  int64_t amount = 0;  // the share of the pot after rake
};

struct PhhReplayPot {
  int64_t amount = 0;  // before rake
  int64_t rake = 0;
  std::vector<PhhReplayWinner> winners;  // odd cents first (clockwise)
  std::string hand;  // the winners' combination; empty without showdown
};

// A `finishing_stacks` entry of the file that the engine does not agree with.
struct PhhStackDifference {
  PhhSeatRef who;
  int64_t file = 0;
  int64_t engine = 0;
};

struct PhhReplay {
  std::string variant;                   // "NT", "FT" or "PO"
  std::vector<PhhReplayPlayer> players;  // PHH order: p1..pn
  std::vector<PhhReplayPot> pots;        // main pot first; none when voided
  std::vector<cards::Card> board;
  bool showdown = false;
  bool voided = false;  // `_banca_voided`: every bet returned (HE-72)
  int64_t rake = 0;     // all pots
  // The main pot's winning combination (HE-61), English; empty when the
  // hand ended without a showdown.
  std::string winning_hand;
  // The file's `finishing_stacks`, if it has them, against the engine's.
  bool file_has_finishing_stacks = false;
  bool matches_file = false;  // meaningful when file_has_finishing_stacks
  std::vector<PhhStackDifference> differences;
};

// INVALID_ARGUMENT: the file does not parse (the parser's message), an
// action the engine rejects (an action out of turn, a raise below the
// minimum, an action after the hand ended, ...: the message is "action N
// 'TEXT': REASON" with N 0-based), a board dealt before its betting round
// closed, or a file that ends before the hand does. FAILED_PRECONDITION:
// hidden cards (`????`) or missing hole cards, so the deck cannot be
// rebuilt. UNIMPLEMENTED: a game or feature banca does not run (variant
// codes other than NT, FT and PO, antes, straddles, fractional amounts).
// `failure` (may be null) is filled when the error is about one entry of
// `actions`: its index, its text and the engine's (or parser's) reason.
absl::StatusOr<PhhReplay> ReplayPhh(std::string_view text,
                                    PhhActionError* failure = nullptr);

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_PHH_REPLAY_H_
