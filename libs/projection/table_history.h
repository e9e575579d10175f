// The tables' part of the history projection (history_projection.h): each
// poker and banked table replayed through the aggregate the table service
// runs (libs/tables), a sealed deal waiting for the event that reveals its
// deck (libs/tables/reveal_wait.h). Written: each poker hand at its
// HandSettled (poker_history.h), each banked round at its end (roulette:
// its settlement; blackjack and sem descarte: the reveal of the deck) with
// every player's part as the table's replay gives it, and each session
// when it ends (the poker table's SessionSummary; the banked table's
// totals on leaving).
#ifndef BANCA_LIBS_PROJECTION_TABLE_HISTORY_H_
#define BANCA_LIBS_PROJECTION_TABLE_HISTORY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "libs/eventlog/event_log.h"
#include "libs/projection/projection_store.h"
#include "libs/tables/banked_game_state.h"
#include "libs/tables/reveal_wait.h"
#include "libs/tables/table_state.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/table_codec.h"

namespace banca::projection {

// A table whose events its aggregate refuses (a log the rules disagree
// with: the audit reports it) is `broken`: its histories stop there, and
// the other tables' go on.
struct PokerTable {
  std::unique_ptr<tables::TableState> state;
  bool broken = false;
  tables::RevealWait<wire::DecodedTableEvent> wait;
  int64_t started_micros = 0;
  std::map<std::string, int64_t> seated_since;  // open sessions
  int64_t sessions = 0;
};

struct BankedRound {
  int64_t started_micros = 0;
  std::set<std::string> players;
};

struct BankedTable {
  std::unique_ptr<tables::BankedGameState> state;
  bool broken = false;
  tables::RevealWait<wire::DecodedBankedEvent> wait;
  std::map<int64_t, BankedRound> rounds;  // by round, until it ends
  std::map<std::string, int64_t> joined_since;
  int64_t sessions = 0;
};

// One record of the poker tables' topic, and of the banked tables'. `txn`
// null: memory only (rebuilding it from the log).
absl::Status TakePokerTable(std::map<std::string, PokerTable>& tables,
                            const eventlog::StoredRecord& record, Txn* txn);
absl::Status TakeBankedTable(std::map<std::string, BankedTable>& tables,
                             const eventlog::StoredRecord& record, Txn* txn);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_TABLE_HISTORY_H_
