// Plays a whole tournament with machine players: the seat draw, every
// hand at every table in play (decks shuffled and decisions drawn from the
// given random bits), levels every so many hands, rebuys and add-ons when
// they are open (offered after each hand to the players who played it).
// For the benchmark (`banca bench tournament`) and the property
// tests; the random bits are the caller's (a seeded generator there),
// never a production draw.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_AUTOPLAY_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_AUTOPLAY_H_

#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/games/tournament/director.h"

namespace banca::games::tournament {

struct AutoplayOptions {
  int64_t hands_per_level = 200;    // hands (all tables together) a level
  int rebuy_percent = 50;           // chance a player out of chips rebuys
  int addon_percent = 50;           // chance a player takes the add-on
  int all_in_percent = 10;          // chance a decision is all in
  int64_t max_hands = 100'000'000;  // a stuck tournament is an error
};

struct AutoplayReport {
  int64_t hands = 0;
  int64_t levels = 0;
  int64_t rebuys = 0;
  int64_t addons = 0;
};

// Uniform 64-bit values.
using RandomBits = absl::FunctionRef<uint64_t()>;
// Carries out the director's money moves after each command: a non-OK
// status stops the play.
using Settle = absl::FunctionRef<absl::Status(std::vector<MoneyMove>)>;

// Starts `director` (registered, not started) with the seat draw and plays
// it to the finish. INTERNAL when it does not finish within max_hands or
// no table can deal while it runs; any error of the director or of
// `settle` as is.
absl::StatusOr<AutoplayReport> Autoplay(Director& director, RandomBits random,
                                        Settle settle,
                                        const AutoplayOptions& options = {});

// An unbiased shuffle of the 52 cards from `random` (rejection sampling).
std::vector<cards::Card> ShuffledDeck(RandomBits random);

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_AUTOPLAY_H_
