#include "libs/scenario/scenario_banked.h"

#include <string>
#include <string_view>
#include <utility>

#include "libs/common/status_macros.h"
#include "libs/ledger/account.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/wire/banked_codec.h"

namespace banca::scenario {
namespace {

// A stake's saga answered, or a BankedMoney event's transactions: what the
// wallet does with each money request (and the table with its answer).
absl::Status CarryOut(ScenarioBook& book, tables::BankedGameState& state,
                      const v1::BankedTableEvent& event,
                      std::vector<v1::LedgerTransaction>* posted);

absl::Status Post(ScenarioBook& book, const std::string& owner,
                  const v1::LedgerTransaction& tx,
                  std::vector<v1::LedgerTransaction>* posted) {
  RETURN_IF_ERROR(book.Post(owner, tx));
  if (posted != nullptr) posted->push_back(tx);
  return absl::OkStatus();
}

absl::Status ApplyAndCarryOut(ScenarioBook& book,
                              tables::BankedGameState& state,
                              const v1::BankedTableEvent& event,
                              std::vector<v1::LedgerTransaction>* posted) {
  std::vector<v1::BankedTableEvent> derived;
  RETURN_IF_ERROR(state.Apply(event, &derived));
  RETURN_IF_ERROR(CarryOut(book, state, event, posted));
  for (const v1::BankedTableEvent& d : derived) {
    RETURN_IF_ERROR(CarryOut(book, state, d, posted));
  }
  return absl::OkStatus();
}

absl::Status CarryOut(ScenarioBook& book, tables::BankedGameState& state,
                      const v1::BankedTableEvent& event,
                      std::vector<v1::LedgerTransaction>* posted) {
  if (!wire::IsMoneyRequest(event)) return absl::OkStatus();
  if (event.has_stake_requested()) {
    // The player's cash pays it; refused (too little cash), the step is.
    const v1::StakeRequested& r = event.stake_requested();
    RETURN_IF_ERROR(
        Post(book, ledger::PlayerOwner(r.player_id()), r.tx(), posted));
    v1::BankedTableEvent captured;
    captured.set_table_id(event.table_id());
    captured.set_at_micros(book.now_micros());
    captured.mutable_stake_captured()->set_saga_id(r.saga_id());
    return ApplyAndCarryOut(book, state, captured, posted);
  }
  // Settlements, refunds, withdrawals, pay-backs: the game's wagers.
  const std::string owner = settlement::WagersAccount(event.table_id());
  for (const v1::LedgerTransaction& tx : event.money().transactions()) {
    RETURN_IF_ERROR(Post(book, owner, tx, posted));
  }
  return absl::OkStatus();
}

}  // namespace

v1::BankedTableCreated BankedTable(const ScenarioFile& file,
                                   v1::BankedGame game) {
  v1::BankedTableCreated created;
  created.set_table_id(kTableId);
  created.set_name(file.name);
  created.set_game(game);
  return created;
}

absl::Status ApplyBanked(ScenarioBook& book, tables::BankedGameState& state,
                         v1::BankedTableEvent event,
                         std::vector<v1::LedgerTransaction>* posted) {
  event.set_table_id(kTableId);
  event.set_at_micros(book.now_micros());
  return ApplyAndCarryOut(book, state, event, posted);
}

std::string ReasonName(const v1::LedgerTransaction& tx) {
  std::string name = v1::PostingReason_Name(tx.reason());
  constexpr std::string_view kPrefix = "POSTING_REASON_";
  if (name.starts_with(kPrefix)) name.erase(0, kPrefix.size());
  return name;
}

}  // namespace banca::scenario
