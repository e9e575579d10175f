// The banked games' runners (blackjack, roulette, stud_no_draw) play their
// table as the banked-table service hosts it (services/table/
// banked_table_service.cc): each step becomes the events the service would
// apply to the libs/tables state (BankedGameState::Apply), and the money
// those ask for is carried out at once, as the wallet carries it out
// (services/wallet/banked_requests.cc): a StakeRequested's transaction is
// posted and answered with StakeCaptured (a stake the ledger refuses
// rejects the step: the service would log StakeRefused), and every
// BankedMoney's transactions are posted against the game's wagers.
#ifndef BANCA_TOOLS_SCENARIO_SCENARIO_BANKED_H_
#define BANCA_TOOLS_SCENARIO_SCENARIO_BANKED_H_

#include <vector>

#include "absl/status/status.h"
#include "banca/v1/banked_table.pb.h"
#include "banca/v1/ledger.pb.h"
#include "libs/tables/banked_game_state.h"
#include "tools/scenario/scenario_book.h"

namespace banca::scenario {

// The BankedTableCreated of the scenario's table, kTableId.
v1::BankedTableCreated BankedTable(const ScenarioFile& file,
                                   v1::BankedGame game);

// Applies `event` (stamped with kTableId and the book's time) to `state`
// and carries out its money; `posted` (optional) gets every transaction
// posted, in order. On error the caller undoes the step (a copy of the
// state from before it): the table refuses events whole, but the ledger
// may refuse a stake after the table took its request.
absl::Status ApplyBanked(ScenarioBook& book, tables::BankedGameState& state,
                         v1::BankedTableEvent event,
                         std::vector<v1::LedgerTransaction>* posted = nullptr);

// "BET", "PAYOUT", ... for a transaction's reason.
std::string ReasonName(const v1::LedgerTransaction& tx);

}  // namespace banca::scenario

#endif  // BANCA_TOOLS_SCENARIO_SCENARIO_BANKED_H_
