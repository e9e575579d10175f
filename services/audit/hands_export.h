// `banca hands export`: every hand of one poker table (or of one
// tournament's tables: ExportTournamentHands), rebuilt from the
// table's events on the log (banca.table.events, key "table/<id>") through
// the table service's own code (services/table/table_state.h), written as
// PHH (one TOML table per hand, as PokerKit's multi-hand `.phhs` files) or
// as a readable text history. docs/hand-histories.md.
//
// An offline tool for the operator and auditors, reading the log: it shows
// every dealt hole card, folded hands included (the file's header says so).
// Players never see this; the service's views stay as DESIGN invariant 7
// requires.
#ifndef BANCA_SERVICES_AUDIT_HANDS_EXPORT_H_
#define BANCA_SERVICES_AUDIT_HANDS_EXPORT_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "libs/eventlog/event_log.h"
#include "libs/seal/deck_keys.h"

namespace banca::audit {

// Exit statuses of `banca hands export` (0, 1 and 2 as `banca hands`).
inline constexpr int kExportOk = 0;
inline constexpr int kExportFailed = 1;   // the log: missing, unreadable
inline constexpr int kExportUsage = 2;    // flags: --table, --format, ...
inline constexpr int kExportNoTable = 3;  // the log has no such table
inline constexpr int kExportPartial = 4;  // some hands could not be written

enum class ExportFormat { kPhh, kText };

struct HandsExportResult {
  int exit_code = kExportFailed;
  // Fatal: why nothing (or not everything) could be read. Empty on success.
  std::string error;
  int64_t hands_written = 0;
  // Hands that could not be written, one line each ("hand 7 (t1.h7): ..."),
  // the others were written.
  std::vector<std::string> skipped;
  // The hand still in progress at the end of the log (0: none); not
  // written, it has no result yet.
  int64_t hand_in_progress = 0;
};

// Reads `table_id`'s events from `log` and writes its finished hands, in
// order, to `out`.
HandsExportResult ExportTableHands(eventlog::EventLog& log,
                                   const std::string& table_id,
                                   ExportFormat format, std::ostream& out);

// Reads tournament `tournament_id`'s events (banca.tournament.events, key
// "tournament/<id>") and writes every finished hand of its tables, in the
// order they finished, as the tables' are written: amounts are chips. The
// decks are logged sealed and each hand's end reveals its deck
// (TournamentHandEnded): with the deck `keys` (the operator's:
// docs/security.md) every finished hand is written; without (nullptr), the
// hands up to the first still in play at the end of the log (the others
// are a `skipped` line, kExportPartial).
HandsExportResult ExportTournamentHands(eventlog::EventLog& log,
                                        const std::string& tournament_id,
                                        const seal::DeckKeys* keys,
                                        ExportFormat format, std::ostream& out);

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_HANDS_EXPORT_H_
