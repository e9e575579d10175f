// The tournaments' part of the history projection (history_projection.h):
// each tournament replayed through the aggregate the tournament service
// runs (libs/tables/tournament_state.h), without a deck key: a sealed
// hand's deal waits, with every event after it, until the hand's end
// reveals its deck (TournamentHandEnded), so no card is known before the
// rules show it. Written: each finished hand (game "tournament", amounts
// in chips, reference HAND "<tournament>.<table>.h<n>"), and once the
// tournament is finished or cancelled, the tournament (reference
// TOURNAMENT: entries, tables, hands, places, prizes) and each player's
// session in it (what they paid and got back, from the ledger
// transactions of their captured payments and of the tournament's money).
#ifndef BANCA_LIBS_PROJECTION_TOURNAMENT_HISTORY_H_
#define BANCA_LIBS_PROJECTION_TOURNAMENT_HISTORY_H_

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "libs/eventlog/event_log.h"
#include "libs/projection/projection_store.h"
#include "libs/tables/tournament_state.h"
#include "libs/wire/tournament_codec.h"

namespace banca::projection {

// Events held behind a deal not revealed yet: a hand's events, and the
// other tables' meanwhile (a damaged log, a deal never revealed, stops
// that tournament's histories here).
inline constexpr size_t kMaxHeldTournamentEvents = 200'000;

struct TournamentPlayerMoney {
  int64_t paid = 0;      // left the player's accounts
  int64_t returned = 0;  // came back (prizes, bounties, refunds)
  int32_t payments = 0;
  int64_t first_micros = 0;
  int64_t hands = 0;  // dealt in
};

struct TournamentMemory {
  std::unique_ptr<tables::TournamentState> state;
  bool broken = false;
  bool ended = false;
  std::deque<wire::DecodedTournamentEvent> held;
  // (table, hand) -> the deck its end revealed, until its deal applies.
  std::map<std::pair<std::string, int64_t>, std::vector<std::string>> reveals;
  std::map<std::string, int64_t> written;  // by table: the last hand kept
  std::map<std::string, int64_t> started;  // by table: its hand's start
  std::vector<std::string> tables;         // in order of first deal
  std::map<std::string, TournamentPlayerMoney> players;
  // Payments requested, until captured or refused: saga -> the request.
  std::map<std::string, v1::PaymentRequested> pending;
  int64_t created_micros = 0;
  int64_t ended_micros = 0;  // once finished or cancelled
  int64_t hands = 0;
};

// One record of the tournaments' topic. `txn` null: memory only.
absl::Status TakeTournament(std::map<std::string, TournamentMemory>& memory,
                            const eventlog::StoredRecord& record, Txn* txn);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_TOURNAMENT_HISTORY_H_
