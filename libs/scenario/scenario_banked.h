// The banked games' runners (blackjack, roulette, stud_no_draw) play their
// table as the banked-table service hosts it (services/table/
// banked_table_service.cc): each step becomes the events the service would
// apply to the libs/tables state (BankedGameState::Apply), and the money
// those ask for is carried out at once, as the wallet carries it out
// (services/wallet/banked_requests.cc): a StakeRequested's transaction is
// posted and answered with StakeCaptured (a stake the ledger refuses
// rejects the step: the service would log StakeRefused), and every
// BankedMoney's transactions are posted against the game's wagers.
#ifndef BANCA_LIBS_SCENARIO_SCENARIO_BANKED_H_
#define BANCA_LIBS_SCENARIO_SCENARIO_BANKED_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"
#include "banca/v1/ledger.pb.h"
#include "libs/common/status_macros.h"
#include "libs/scenario/scenario_book.h"
#include "libs/tables/banked_game_state.h"

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

// What the blackjack and stud runners report besides the table: how far
// they have recorded their engine's events, and the rounds it finished.
struct EngineReport {
  size_t table_events = 0;
  int64_t round = 0;  // the round whose events are being recorded
  size_t round_events = 0;
  std::vector<OJson> rounds;
};

// A banked game's runner over its libs/tables state `State` (copyable),
// with what it reports besides the table in `Report`: a rejected step puts
// both back whole (the table refuses an event whole, but the ledger may
// refuse a stake, above the cash, that the table had taken).
template <typename State, typename Report>
class BankedRunner : public GameRunner {
 public:
  absl::Status Step(const std::string& op, const Json& step) final {
    const State table = *table_;
    Report report = r_;
    absl::Status status = Do(op, step);
    if (!status.ok()) {
      *table_ = table;
      r_ = std::move(report);
    }
    return status;
  }
  // Banked games have no chips at the table.
  int64_t Stack(const std::string&) const override { return 0; }

 protected:
  BankedRunner(ScenarioBook& book, std::unique_ptr<State> table)
      : book_(book), table_(std::move(table)) {}

  // The engine's part of a step.
  virtual absl::Status Do(const std::string& op, const Json& step) = 0;
  // After each event applied: what the engine did and what was posted.
  virtual void Applied(const std::vector<v1::LedgerTransaction>& posted) = 0;

  // Applies `event` as the service does (ApplyBanked), then Applied.
  absl::Status Apply(v1::BankedTableEvent event) {
    std::vector<v1::LedgerTransaction> posted;
    absl::Status s = ApplyBanked(book_, *table_, std::move(event), &posted);
    if (s.ok()) Applied(posted);
    return s;
  }

  // The service's Join (seat 0 where the table has none) and Leave.
  absl::Status JoinTable(const std::string& player, int seat = 0) {
    v1::BankedTableEvent e;
    e.mutable_joined()->set_player_id(player);
    e.mutable_joined()->set_seat(seat);
    return Apply(std::move(e));
  }
  absl::Status LeaveTable(const std::string& player) {
    v1::BankedTableEvent e;
    e.mutable_leaving()->set_player_id(player);
    return Apply(std::move(e));
  }

  // The service's PlaceBet for the round taking bets: BetEvent's stake,
  // applied (and captured at once). The bet's id.
  absl::StatusOr<std::string> PlaceBet(
      const std::string& player, int64_t amount,
      const v1::RouletteBet& roulette = v1::RouletteBet()) {
    v1::PlaceBankedBetRequest bet;
    bet.set_table_id(kTableId);
    bet.set_round(table_->round());
    bet.set_amount_minor(amount);
    *bet.mutable_roulette() = roulette;
    ASSIGN_OR_RETURN(v1::BankedTableEvent e,
                     table_->BetEvent(player, bet, book_.now_micros()));
    std::string bet_id = e.stake_requested().bet_id();
    RETURN_IF_ERROR(Apply(std::move(e)));
    return bet_id;
  }

  ScenarioBook& book_;
  std::unique_ptr<State> table_;
  Report r_;
};

}  // namespace banca::scenario

#endif  // BANCA_LIBS_SCENARIO_SCENARIO_BANKED_H_
