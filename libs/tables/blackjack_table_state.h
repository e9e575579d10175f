// One blackjack table as the banked-table service keeps it: the engine
// (libs/games/blackjack) plus who sits where, the stake sagas, the timers'
// reference points and the notices. Changed only by Apply(event)
// (banked_game_state.h), live and on replay alike; the engine's clock is
// moved to each event's time, so the BJ-35/36 idle rules replay exactly.
//
// Every stake is a saga: the main bet, and the doubling, split or insurance
// a decision adds. A request is checked against a copy of the engine (its
// refusals are the command's errors) and applied to the engine only once
// the wallet has captured the stake; if the engine no longer takes it
// then (the round was voided meanwhile) the stake is paid back. The deal
// waits for every stake in flight, and the decision timer does not run
// for a player whose stake is in flight.
//
// Each round is dealt from a shoe of `decks` decks freshly shuffled by the
// service's CSPRNG (RoundDealt, in the log only); views show the dealer's
// hole card only once the engine reveals it.
#ifndef BANCA_LIBS_TABLES_BLACKJACK_TABLE_STATE_H_
#define BANCA_LIBS_TABLES_BLACKJACK_TABLE_STATE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"
#include "libs/games/blackjack/table.h"
#include "libs/tables/banked_game_state.h"

namespace banca::tables {

class BlackjackTableState final : public BankedGameState {
 public:
  static absl::StatusOr<std::unique_ptr<BlackjackTableState>> Create(
      const v1::BankedTableCreated& created, int64_t at_micros);

  absl::StatusOr<v1::BankedTableEvent> BetEvent(
      const std::string& player, const v1::PlaceBankedBetRequest& request,
      int64_t now) const override;
  absl::StatusOr<v1::BankedTableEvent> ActEvent(
      const std::string& player, const v1::BankedActRequest& request,
      int64_t now) const override;
  // A decision timeout, the deal (the shoe shuffled now) or an idle notice.
  std::optional<v1::BankedTableEvent> Due(
      int64_t now, cards::RandomSource& rng) const override;

  bool Joined(const std::string& player) const override {
    return seats_.contains(player);
  }
  int64_t round() const override;
  v1::BankedTableInfo Info() const override;
  v1::BankedTableView ViewFor(const std::string& player) const override;
  // BJ-31: the caller's last round.
  std::vector<v1::BankedRoundRecord> ReplayFor(
      const std::string& player) const override;
  v1::BankedSessionSummary SummaryFor(const std::string& player) const override;

  // The engine, to read (its events, the round, the seats).
  const games::blackjack::Table& engine() const { return engine_; }
  void ForgetTaken() override {
    engine_.ForgetEventsBefore(table_events_seen_);
  }

 private:
  BlackjackTableState(v1::BankedTableCreated created,
                      games::blackjack::Table engine, int64_t at_micros)
      : BankedGameState(std::move(created)),
        engine_(std::move(engine)),
        created_micros_(at_micros) {}

  absl::Status ApplyGame(const v1::BankedTableEvent& event,
                         std::vector<v1::BankedTableEvent>* derived) override;
  absl::Status Captured(const StakeSagas::Stake& stake, int64_t at,
                        std::vector<v1::BankedTableEvent>* derived) override;
  absl::Status Refused(const StakeSagas::Stake& stake) override;
  absl::Status Connection(const std::string& player, bool connected, int64_t at,
                          std::vector<v1::BankedTableEvent>* derived) override;

  // ApplyGame's stake request and decision.
  absl::Status RequestStake(const v1::StakeRequested& r, int64_t at);
  absl::Status ApplyAction(const v1::ActionRequested& a, int64_t at);
  // Moves `table`'s clock to `at` (seconds since the table's creation).

  absl::Status MoveClock(games::blackjack::Table& table, int64_t at) const;
  // What a stake buys, applied to `table`.
  static absl::Status ApplyStake(games::blackjack::Table& table,
                                 const StakeSagas::Stake& stake);
  // The money and notices of the engine's events since the last call.
  absl::Status Drain(int64_t at, std::vector<v1::BankedTableEvent>* derived);
  // The decision timer restarts whenever the turn moves.
  void NoteTurn(int64_t at);
  std::string PlayerAt(int seat) const;
  int64_t decision_micros() const;

  games::blackjack::Table engine_;
  int64_t created_micros_ = 0;
  std::map<std::string, int> seats_;  // player -> seat
  size_t table_events_seen_ = 0;
  RoundCursor cursor_;
  // When the next round is dealt; 0 while no captured bet waits.
  int64_t deal_at_ = 0;
  std::string turn_;  // round/decisions/seat/hand of the turn
  int64_t turn_started_ = 0;
};

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_BLACKJACK_TABLE_STATE_H_
