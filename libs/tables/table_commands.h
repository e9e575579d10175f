// The input events a poker table host builds for its commands, shared by
// the table service (services/table) and the scenario runner
// (libs/scenario), so both put the same events to TableState::Apply.
// Pure: the caller brings the deck, the button draw and the time.
#ifndef BANCA_LIBS_TABLES_TABLE_COMMANDS_H_
#define BANCA_LIBS_TABLES_TABLE_COMMANDS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "banca/v1/table.pb.h"
#include "libs/cards/card.h"
#include "libs/tables/table_state.h"

namespace banca::tables {

// The BuyInRequested that starts the next buy-in (or rebuy) saga of
// `state`: checked by CheckBuyIn, with the table's HE-17b rake; a rebuy
// names the player's seat. No request id (the caller's).
absl::StatusOr<v1::TableEvent> BuyInRequest(const TableState& state,
                                            const std::string& player, int seat,
                                            int64_t amount, bool rebuy);

// The HandStarted of `state`'s next hand, dealt from `deck` (top first,
// in clear: the host seals it before logging, sealed_decks.h), with
// `button_draw` (an index into the eligible seats, HE-46) when the table
// needs a draw.
v1::TableEvent HandStart(const TableState& state,
                         absl::Span<const cards::Card> deck, int button_draw);

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_TABLE_COMMANDS_H_
