// One roulette table as the banked-table service keeps it: the engine
// (libs/games/roulette) plus what the service adds around it: who has
// joined, the stake sagas in flight and the notices. It changes only by
// Apply(event), live and on replay alike, so a restart rebuilds it exactly
// from the log (the engine's time is the event's at_micros).
//
// A bet is applied to the engine when its stake is requested, so the
// engine's limits count it at once, and is shown only once the wallet has
// captured the stake; a refused stake takes it off the board again (it
// never moved money). The ball is not launched, nor the round voided,
// while a stake is in flight: every bet on the board at the launch is paid
// for.
#ifndef BANCA_SERVICES_TABLE_ROULETTE_TABLE_STATE_H_
#define BANCA_SERVICES_TABLE_ROULETTE_TABLE_STATE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"
#include "libs/games/roulette/table.h"

namespace banca::table {

class RouletteTableState {
 public:
  // INVALID_ARGUMENT for bad settings (which must be normalized).
  static absl::StatusOr<std::unique_ptr<RouletteTableState>> Create(
      const v1::BankedTableCreated& created, int64_t at_micros);

  // Applies an input event; the money it derives (settlements, refunds)
  // is appended to `derived` as BankedMoney events. On error nothing
  // changed: the engine's and the service's checks are the command's
  // validation.
  absl::Status Apply(const v1::BankedTableEvent& event,
                     std::vector<v1::BankedTableEvent>* derived);

  struct Stake {
    std::string player;
    std::string bet_id;
    int64_t round = 0;
    int64_t stake = 0;
  };
  const Stake* PendingStake(const std::string& saga_id) const;
  // A stake the table gave up waiting for: its late capture is paid back.
  const Stake* TimedOutStake(const std::string& saga_id) const;
  std::vector<std::string> PendingSagas() const;
  bool Joined(const std::string& player) const {
    return joined_.contains(player);
  }

  // The next saga and bet names (deterministic from the log).
  std::string NextSagaId() const;
  std::string NextBetId() const;

  // Timers. The window has run its course, nobody waits for a stake and
  // somebody is at the table: the service draws the number.
  bool SpinDue(int64_t now_micros) const;
  // RFD-31a/32a (individual wheels): a notice is due at `now`.
  bool InactivityDue(int64_t now_micros) const;
  // A number drawn uniformly among the wheel's pockets: index 0..count-1.
  int pockets() const;
  std::string PocketNameAt(uint32_t index) const;

  v1::BankedTableInfo Info() const;
  v1::BankedTableView ViewFor(const std::string& player) const;
  std::vector<v1::BankedRoundRecord> ReplayFor(const std::string& player) const;
  v1::BankedSessionSummary SummaryFor(const std::string& player) const;
  std::vector<v1::PastNumber> LastNumbers() const;
  // The totals of the session that the last Leave ended.
  const v1::BankedSessionSummary& last_left() const { return last_left_; }

  const std::string& id() const { return created_.table_id(); }
  v1::BankedGame game() const { return created_.game(); }
  int64_t round() const { return engine_.round(); }
  const games::roulette::Table& engine() const { return engine_; }

 private:
  RouletteTableState(v1::BankedTableCreated created,
                     games::roulette::Table engine, int64_t at_micros)
      : created_(std::move(created)),
        engine_(std::move(engine)),
        engine_micros_(at_micros) {}

  absl::Status RequestStake(const v1::BankedTableEvent& e);
  absl::Status EndStake(const v1::BankedTableEvent& e,
                        std::vector<v1::BankedTableEvent>* derived);
  absl::Status EndSession(const std::string& player);
  // The engine's clock: the event's time, never earlier than the last.
  absl::Time EngineTime(int64_t at_micros);
  v1::BankedTableEvent Money(int64_t round, const char* cause) const;
  void NoteSessions(const std::vector<games::roulette::SessionNotice>& notices);

  v1::BankedTableCreated created_;
  games::roulette::Table engine_;
  int64_t engine_micros_ = 0;
  int64_t version_ = 0;
  int64_t sagas_ = 0;
  int64_t bets_ = 0;
  std::set<std::string> joined_;
  std::map<std::string, Stake> pending_;             // by saga id
  std::map<std::string, Stake> timed_out_;           // by saga id
  std::set<std::string> pending_bets_;               // "<player>/<bet id>"
  std::map<std::string, v1::RouletteBet> requests_;  // by bet id
  std::map<std::string, std::string> notices_;       // by player
  v1::BankedSessionSummary last_left_;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_ROULETTE_TABLE_STATE_H_
