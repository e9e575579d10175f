// One roulette table as the banked-table service keeps it: the engine
// (libs/games/roulette) plus what the service adds around it: who has
// joined, the stake sagas in flight and the notices. It changes only by
// Apply(event) (banked_game_state.h), live and on replay alike, so a
// restart rebuilds it exactly from the log (the engine's time is the
// event's at_micros).
//
// A bet is applied to the engine when its stake is requested, so the
// engine's limits count it at once, and is shown only once the wallet has
// captured the stake; a refused stake takes it off the board again (it
// never moved money). The ball is not launched, nor the round voided,
// while a stake is in flight: every bet on the board at the launch is paid
// for.
#ifndef BANCA_LIBS_TABLES_ROULETTE_TABLE_STATE_H_
#define BANCA_LIBS_TABLES_ROULETTE_TABLE_STATE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"
#include "libs/games/roulette/table.h"
#include "libs/tables/banked_game_state.h"

namespace banca::tables {

class RouletteTableState final : public BankedGameState {
 public:
  // INVALID_ARGUMENT for bad settings.
  static absl::StatusOr<std::unique_ptr<RouletteTableState>> Create(
      const v1::BankedTableCreated& created, int64_t at_micros);

  absl::StatusOr<v1::BankedTableEvent> BetEvent(
      const std::string& player, const v1::PlaceBankedBetRequest& request,
      int64_t now) const override;
  // RFD-16: the owner of a player-launched individual wheel launches; the
  // number is drawn now.
  absl::StatusOr<v1::BankedTableEvent> LaunchEvent(
      const std::string& player, int64_t round, int64_t now,
      cards::RandomSource& rng) const override;
  // The window has run its course, nobody waits for a stake and somebody
  // is at the table: the spin, the number drawn now (RFD-14); or an idle
  // notice (RFD-31a/32a).
  std::optional<v1::BankedTableEvent> Due(
      int64_t now, cards::RandomSource& rng) const override;

  bool Joined(const std::string& player) const override {
    return joined_.contains(player);
  }
  int64_t round() const override { return engine_.round(); }
  v1::BankedTableInfo Info() const override;
  v1::BankedTableView ViewFor(const std::string& player) const override;
  std::vector<v1::BankedRoundRecord> ReplayFor(
      const std::string& player) const override;
  v1::BankedSessionSummary SummaryFor(const std::string& player) const override;
  std::vector<v1::PastNumber> LastNumbers() const override;

  // The engine, to read (bets on the board, sessions, the window).
  const games::roulette::Table& engine() const { return engine_; }
  // What the engine answered to the last event applied, for a host that
  // reports each round as it ends (the scenario runner): a spin's result,
  // a void, the idle notices given (RFD-31/32) and the sessions that
  // ended (Leaving, RFD-32), with their totals. Empty after a stake's
  // outcome, a connection or a refused event.
  struct Outcome {
    std::optional<games::roulette::SpinResult> spin;
    std::optional<games::roulette::RoundVoided> voided;
    std::vector<games::roulette::SessionNotice> notices;
    std::vector<std::pair<std::string, games::roulette::SessionTotals>> ended;
  };
  const Outcome& last_outcome() const { return last_; }

 private:
  RouletteTableState(v1::BankedTableCreated created,
                     games::roulette::Table engine, int64_t at_micros)
      : BankedGameState(std::move(created)),
        engine_(std::move(engine)),
        engine_micros_(at_micros) {}

  absl::Status ApplyGame(const v1::BankedTableEvent& event,
                         std::vector<v1::BankedTableEvent>* derived) override;
  absl::Status Captured(const StakeSagas::Stake& stake, int64_t at,
                        std::vector<v1::BankedTableEvent>* derived) override;
  absl::Status Refused(const StakeSagas::Stake& stake) override;
  absl::Status Connection(const std::string& player, bool connected, int64_t at,
                          std::vector<v1::BankedTableEvent>* derived) override;

  absl::Status RequestStake(const v1::BankedTableEvent& e);
  // The money-moving events of ApplyGame.
  absl::Status Withdraw(const v1::BankedTableEvent& e,
                        std::vector<v1::BankedTableEvent>* derived);
  absl::Status SettleSpin(const v1::BankedTableEvent& e,
                          std::vector<v1::BankedTableEvent>* derived);
  absl::Status VoidRound(const v1::BankedTableEvent& e,
                         std::vector<v1::BankedTableEvent>* derived);
  absl::Status EndSession(const std::string& player);
  // The engine's clock: the event's time, never earlier than the last.
  absl::Time EngineTime(int64_t at_micros);
  void NoteSessions(const std::vector<games::roulette::SessionNotice>& notices);
  v1::BankedTableEvent Spin(int64_t now, cards::RandomSource& rng) const;
  bool PendingBet(const std::string& player, const std::string& bet_id) const;

  games::roulette::Table engine_;
  int64_t engine_micros_ = 0;
  int64_t bets_ = 0;
  std::set<std::string> joined_;
  std::map<std::string, v1::RouletteBet> requests_;  // by bet id
  Outcome last_;
};

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_ROULETTE_TABLE_STATE_H_
