// The history projection's writes (history_projection.h has the keys): a
// finished game's history with its index rows, and a player's ended
// session. Shared by the table, banked and tournament parts.
#ifndef BANCA_LIBS_PROJECTION_HISTORY_WRITES_H_
#define BANCA_LIBS_PROJECTION_HISTORY_WRITES_H_

#include <cstdint>

#include "banca/v1/reporting.pb.h"
#include "libs/projection/projection_store.h"

namespace banca::projection {

// The history and its rows: by table (or by tournament, for a
// tournament's hands and the tournament itself), by time, and by each
// player (every game, and the game's own).
void WriteHistory(Txn& txn, v1::GameHistory history);

// A session, `n` being the table's count of sessions so far (the order of
// two that end in the same microsecond).
void WriteSession(Txn& txn, const v1::PlayerSession& session, int64_t n);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_HISTORY_WRITES_H_
