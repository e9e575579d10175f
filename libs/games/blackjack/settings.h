// A blackjack table's settings. The SRIJ text keeps only rules 25e–38
// (digest section 1, gap 1), so everything the standard game decides is a
// setting here, with the digest's "Decisions for banca" as the defaults.
// docs/blackjack.md explains each choice.
#ifndef BANCA_LIBS_GAMES_BLACKJACK_SETTINGS_H_
#define BANCA_LIBS_GAMES_BLACKJACK_SETTINGS_H_

#include <cstdint>

#include "absl/status/status.h"

namespace banca::games::blackjack {

// Seats at one table: the usual seven boxes. Rule 35 names individual and
// multi-player tables without a number.
inline constexpr int kMaxSeats = 7;
inline constexpr int kMaxDecks = 8;
// Hands one seat may hold after splitting (the hard bound; the table's
// limit is max_split_hands).
inline constexpr int kMaxHandsPerSeat = 4;

enum class DoubleOn : uint8_t {
  kAnyTwoCards,  // default
  kNineToEleven,
  kTenOrEleven,
};

enum class Surrender : uint8_t {
  kNone,  // default (digest decision)
  // Late surrender: on the first two cards of an unsplit hand, after the
  // dealer has checked for blackjack; half the stake back.
  kLate,
};

struct TableSettings {
  int seats = kMaxSeats;  // 1 = an individual table (BJ-35a)
  int64_t min_bet = 100;  // cents, the main bet
  int64_t max_bet = 100'000;
  int decks = 6;
  bool dealer_hits_soft_17 = false;  // default: stands on all 17s
  // Blackjack pays num:den on the hand's stake (3:2; 6:5 is the usual
  // alternative). A fraction of a cent is paid up to the player.
  int blackjack_pays_num = 3;
  int blackjack_pays_den = 2;
  DoubleOn double_on = DoubleOn::kAnyTwoCards;
  bool double_after_split = true;
  // Hands one seat may reach by splitting and re-splitting (1 = no split).
  int max_split_hands = 4;
  // Split aces take one card each and cannot be split again unless this is
  // set; a split ace and a ten is 21, not blackjack.
  bool resplit_aces = false;
  // Split any two ten-value cards (10-K); false: only equal ranks.
  bool split_tens_by_value = true;
  Surrender surrender = Surrender::kNone;
  bool insurance = true;  // offered when the dealer shows an ace
  // The dealer checks the hole card for blackjack under an ace or a ten
  // before anyone plays; a dealer blackjack then ends the round at once, so
  // doubles and splits are never lost to it. Without the peek the dealer
  // blackjack is found at the end and takes every stake of the hand.
  bool dealer_peek = true;
  // BJ-25i on hands made by a split (the digest decision: unsplit only).
  bool special_prize_on_split_hands = false;
  // BJ-35a/b and BJ-36: thresholds and the warning's grace.
  int64_t inactive_seconds = 180;  // individual table: "more than 3 minutes"
  int inactive_rounds = 5;         // multi-player: "more than 5 rounds"
  int64_t warning_seconds = 60;    // "in the next minute"

  // INVALID_ARGUMENT naming the first bad field.
  absl::Status Validate() const;
  bool individual() const { return seats == 1; }
};

}  // namespace banca::games::blackjack

#endif  // BANCA_LIBS_GAMES_BLACKJACK_SETTINGS_H_
