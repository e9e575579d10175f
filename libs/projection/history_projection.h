// The reporting service's histories of every game (docs/reporting.md,
// "Histories"), from the poker tables', the banked tables' and the
// tournaments' topics: each finished poker hand (seats, hole cards,
// actions, board, pots, rake, PHH: poker_history.h), each banked round
// (every player's bets or hands and their results: v1::BankedRoundRecord),
// each tournament's hands and, once it is over, the tournament
// (tournament_history.h), and each player's sessions (a sitting at a
// table, from buy-in or join to leave; a tournament from entry to end).
//
// The tables and tournaments are replayed through the same aggregates
// their services run (libs/tables; the parts: table_history.h,
// tournament_history.h), a sealed deal waiting for the event that reveals
// its deck: the projection holds no deck key and learns a hand's cards
// only once the hand is over. A hand or round still in play has no
// history.
//
// Keys (<inv> = 2^64 - 1 - micros, then 2^64 - 1 - the number, hex, so a
// scan reads newest first; <ref> = <kind>/<id> of the Reference):
//   hist/tables/<table>                              its game ("poker", ...)
//   hist/tournaments/<id>                            its name
//   hist/game/<ref>                                  GameHistory (all cards)
//   hist/player/<player>/all/<inv>/<ref>             HistorySummary
//   hist/player/<player>/game/<game>/<inv>/<ref>     the same, by game
//   hist/table/<table>/<inv>/<ref>                   HistorySummary
//   hist/tournament/<id>/<inv>/<ref>                 the same, a tournament's
//                                                    hands and its record
//   hist/time/<inv>/<ref>                            HistorySummary
//   sess/<player>/all/<inv end>/<table>/<inv n>      PlayerSession
//   sess/<player>/game/<game>/<inv end>/<table>/<inv n>
// A player's summary of a banked round counts their own stakes only.
//
// A pure function of the records: the aggregates live in memory, and are
// rebuilt by reading the log from offset 0 whenever a partition's records
// do not follow what memory holds (at start, or after a pass that failed
// and is applied again), so a rebuild gives the same bytes.
#ifndef BANCA_LIBS_PROJECTION_HISTORY_PROJECTION_H_
#define BANCA_LIBS_PROJECTION_HISTORY_PROJECTION_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "banca/v1/reporting.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/projection/projector.h"

namespace banca::projection {

// A history's bytes beyond this keep the summary only.
inline constexpr size_t kMaxHistoryBytes = 1 << 20;

class HistoryProjector final : public Projector {
 public:
  // `log`: where memory is rebuilt from when the store resumes past offset
  // 0; null only for a projection always applied from offset 0.
  explicit HistoryProjector(eventlog::EventLog* log);
  ~HistoryProjector() override;
  std::vector<std::string> Topics() const override;
  absl::Status Apply(const eventlog::StoredRecord& record, Txn& txn) override;

  struct Partition;  // the tables of one partition, in memory

 private:
  absl::Status Warm(const eventlog::StoredRecord& record, Partition& memory);
  eventlog::EventLog* log_;
  std::map<std::pair<std::string, int>, std::unique_ptr<Partition>> memory_;
};

std::string HistoryKey(const v1::Reference& ref);
// Newest first: every game of a player ("" game), or one game.
std::string HistoryPlayerPrefix(std::string_view player, std::string_view game);
std::string HistoryTablePrefix(std::string_view table);
// A tournament's hands and the tournament itself.
std::string HistoryTournamentPrefix(std::string_view tournament);
std::string HistoryTimePrefix();
// The table's game, once the table is created.
std::string HistoryTableKey(std::string_view table);
// The tournament's name, once it is created.
std::string HistoryTournamentKey(std::string_view tournament);
std::string SessionPrefix(std::string_view player, std::string_view game);
// The first key of `prefix` at or before `micros` (newest first).
std::string NewestFirstStart(std::string_view prefix, int64_t micros);
// The start micros an index key of `prefix` was written under.
int64_t IndexMicros(std::string_view prefix, std::string_view key);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_HISTORY_PROJECTION_H_
