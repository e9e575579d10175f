// Hand histories for banca's poker hands: PHH (the poker hand history format
// of PokerKit, https://phh.readthedocs.io) and a plain-text history for
// people. Pure functions: strings in, strings out, no file I/O.
//
// PHH conventions used here (tests/oracle/README.md has the evidence):
// - p1..pn are the dealt-in players clockwise from the first seat left of the
//   button; the button is pn. `seats` gives banca's seat of each.
// - Heads-up: PokerKit makes p1 post blinds_or_straddles[1] and p2 post
//   blinds_or_straddles[0] (it reverses the list for two players); pre-flop
//   the player after the bigger blind acts first, after the flop p1 does.
//   banca's literal heads-up (the non-button posts the small blind and acts
//   first on every street) is therefore written p1 = non-button,
//   blinds_or_straddles = [big, small]; the usual convention (button posts
//   the small blind) is p1 = non-button, [small, big].
// - Hole cards are always written (the export is for auditors, after the
//   hand); every showdown is written with `pN sm CARDS` (PokerKit treats a
//   missing `sm` as unknown cards and may split the pot), before the board
//   run-out when the players are all in.
// - Amounts: with a `currency` they are in its major units ("12.34", as
//   PHH and PokerKit read them: exact decimals); without one (a
//   tournament's chips) they are integers. `_banca_amount_unit` ("major"
//   or "integer") says which; a banca file without it (older exports)
//   holds integers, a foreign file with a `currency` major units.
// - `table` is banca's table id, `winnings` what each player collected
//   after the rake, `time_limit` the table's decision time in seconds.
// - banca facts PHH has no field for are user-defined `_banca_*` fields
//   (PHH allows any field with a leading underscore): the table settings,
//   the recorded deck, banca's pots, rake per pot and winners, the void flag.
//   Action commentary marks an all-in (`# all-in`) and a timeout
//   (`# timeout`) so that ParsePhh(WritePhh(r)) == r.
// - Variants: Hold'em no limit = NT, Hold'em fixed limit = FT (small bet =
//   the big blind, big bet = twice it, four bets a round, i.e.
//   max_raises_per_round = 3), Omaha pot limit = PO. PHH has no code for the
//   other combinations (pot-limit or half-pot Hold'em, no-limit, fixed-limit
//   or half-pot Omaha) nor for synthetic poker (straddles, one community card
//   at a time, five rounds, a different opener): WritePhh returns
//   UNIMPLEMENTED for them rather than mislabel the game.
#ifndef BANCA_LIBS_GAMES_POKER_PHH_H_
#define BANCA_LIBS_GAMES_POKER_PHH_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/games/poker/hand_record.h"

namespace banca::games::poker {

// One pot as banca settled it: main pot first, then the side pots.
struct PhhPot {
  int64_t amount = 0;  // cents before rake
  int64_t rake = 0;    // cents taken by the house from this pot
  std::vector<int> winner_seats;
  bool operator==(const PhhPot&) const = default;
};

// What a hand history needs beyond the record: banca's result and labels.
// Amounts here, as in the record, are integers: cents, or a tournament's
// chips.
struct PhhExtras {
  // Per record.players entry (ascending seat); empty = not written.
  std::vector<int64_t> finishing_stacks;
  // PHH `winnings`: what each player collected from the pots, after the
  // rake. Per record.players entry (ascending seat); empty = not written.
  std::vector<int64_t> winnings;
  std::vector<PhhPot> pots;  // banca's settlement; empty = not written
  // ISO 4217, e.g. "EUR": the chips are money, and every amount is written
  // in the currency's major units as PHH has them ("12.34" for 1234
  // cents: banca's currencies all have cents, libs/money/money.h). Empty:
  // no `currency`, amounts written as the integers they are (chips).
  std::string currency;
  std::string table_name;
  // UTC, "YYYY-MM-DDTHH:MM:SSZ"; empty = not written.
  std::string timestamp;
  // PHH `time_limit`: the seconds a player has for each decision; 0 = not
  // written.
  int time_limit_seconds = 0;
  std::string author;  // PHH `author`; empty = not written
  std::string event;   // PHH `event`; empty = not written
};

// TOML PHH that PokerKit loads. INVALID_ARGUMENT when the record is not a
// consistent hand (an action out of turn, a check facing a bet, too few
// cards in the deck, ...), UNIMPLEMENTED for games PHH has no code for.
absl::StatusOr<std::string> WritePhh(const HandRecord& record,
                                     const PhhExtras& extras);

// A HandRecord from PHH: everything WritePhh writes, and ordinary NT, FT and
// PO files (no antes or straddles). The deck is rebuilt in banca's draw order
// from the dealt cards (or taken from `_banca_deck`). FAILED_PRECONDITION when
// hole cards are hidden (`????`): such a hand cannot be replayed.
absl::StatusOr<HandRecord> ParsePhh(std::string_view text);

// A PHH file as read, before any check that its betting is legal: for
// `banca hands replay` (libs/games/poker/phh_replay.h), which lets the
// engine judge each action and needs to say which entry of `actions` it
// rejected.
struct PhhBoardDeal {
  int entry = 0;  // index in PhhHand::actions
  std::vector<cards::Card> cards;
};

struct PhhHand {
  std::string variant;  // the PHH code: "NT", "FT" or "PO"
  // As ParsePhh reads it, except that the actions are unchecked: a `cc` is
  // a check or a call and a `cbr` a bet or a raise as a simple tracker of
  // the betting reads them (the replay decides again with the engine). The
  // deck is `_banca_deck`, or only the dealt cards in banca's draw order.
  HandRecord record;
  std::vector<std::string> actions;  // the PHH `actions` list, verbatim
  std::vector<int> action_entries;   // per record.actions: its entry
  std::vector<PhhBoardDeal> board_deals;
  bool has_player_names = false;  // the file has `players`
};

// The entry of a PHH `actions` list an error is about.
struct PhhActionError {
  int action_index = -1;  // 0-based; -1: the error is about no one entry
  std::string action;     // the entry, verbatim
  std::string reason;     // the message without the "action N 'TEXT': " head
};

// Reads a PHH file without replaying its betting. Errors as ParsePhh's;
// one about a single entry of `actions` (an unknown verb, hidden cards)
// reads "action N 'TEXT': REASON", and fills `*failed` if given.
absl::StatusOr<PhhHand> ReadPhh(std::string_view text,
                                PhhActionError* failed = nullptr);

// The extras ParsePhh can read back (finishing stacks, pots, labels).
absl::StatusOr<PhhExtras> ParsePhhExtras(std::string_view text);

// A readable hand history (`banca hands export --format text`): seats and
// stacks, blinds, hole cards, each street's board and actions, the showdown,
// the pots with winners and rake, the finishing stacks.
absl::StatusOr<std::string> WriteText(const HandRecord& record,
                                      const PhhExtras& extras);

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_PHH_H_
