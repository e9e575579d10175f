// The reporting service's index of every player's games, from the
// wallet's topic: each poker hand, banked round and tournament a player
// put money in (a transaction with a HAND, ROUND or TOURNAMENT reference
// that moves one of their accounts: their cash, holds or table seat), with
// what they staked and got back, newest first (v1::GameSummary).
//
// Keys (printable; <inv> = 2^64 - 1 - the game's first micros, hex, so a
// scan reads newest first):
//   games/<player>/all/<inv:016x>/<kind>/<id>          GameSummary
//   games/<player>/game/<game>/<inv:016x>/<kind>/<id>  the same, by game
//   gameref/<player>/<kind>/<id>                       "<first micros> <game>"
// A pure function of the records: a rebuild gives the same bytes. A
// player who folds a hand without putting a chip in has no money in it,
// and no line here (the histories, history_projection.h, show every hand
// dealt).
#ifndef BANCA_LIBS_PROJECTION_GAMES_PROJECTION_H_
#define BANCA_LIBS_PROJECTION_GAMES_PROJECTION_H_

#include <string>
#include <string_view>
#include <vector>

#include "libs/projection/wallet_event_part.h"

namespace banca::projection {

class GamesProjector final : public WalletEventPart {
 public:
  absl::Status ApplyWallet(const eventlog::StoredRecord& record,
                           const wire::DecodedWalletEvent& decoded,
                           Txn& txn) override;
};

// The prefix of a player's games, of every game ("" game) or of one.
std::string GamesPrefix(std::string_view player, std::string_view game);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_GAMES_PROJECTION_H_
