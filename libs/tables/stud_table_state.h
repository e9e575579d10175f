// One póquer sem descarte table as the banked-table service keeps it: the
// engine (libs/games/stud_no_draw) plus who sits where, the stake sagas,
// when the cards are dealt and the notices. Changed only by Apply(event)
// (banked_game_state.h), live and on replay alike; the engine's clock is
// each event's time (milliseconds), so the SD-31/32 timers and the
// SD-41/42 idle rules replay exactly.
//
// Both stakes are sagas: the ante (SD-16) and the bet of twice the ante
// (SD-23). A request is checked on a copy of the engine and applied only
// once the wallet has captured the stake (paid back if the engine no
// longer takes it). The deal waits for every stake in flight; so do the
// decision timers, so a player is never folded while the bet is on its
// way. Each round is dealt from a 52-card deck shuffled by the CSPRNG
// when the betting period ends (RoundDealt, in the log only); views show
// the caller's own cards and the bank's face-up card, the rest only when
// the rules turn them (SD-24, SD-27).
#ifndef BANCA_LIBS_TABLES_STUD_TABLE_STATE_H_
#define BANCA_LIBS_TABLES_STUD_TABLE_STATE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"
#include "libs/games/stud_no_draw/table.h"
#include "libs/tables/banked_game_state.h"

namespace banca::tables {

class StudTableState final : public BankedGameState {
 public:
  static absl::StatusOr<std::unique_ptr<StudTableState>> Create(
      const v1::BankedTableCreated& created, int64_t at_micros);

  // The ante (SD-16).
  absl::StatusOr<v1::BankedTableEvent> BetEvent(
      const std::string& player, const v1::PlaceBankedBetRequest& request,
      int64_t now) const override;
  // SD-20: fold, or bet twice the ante.
  absl::StatusOr<v1::BankedTableEvent> ActEvent(
      const std::string& player, const v1::BankedActRequest& request,
      int64_t now) const override;
  // The deal, a decision limit passed (SD-31 warning, SD-32 fold), or an
  // idle notice (SD-41a/42a).
  std::optional<v1::BankedTableEvent> Due(
      int64_t now, cards::RandomSource& rng) const override;

  bool Joined(const std::string& player) const override {
    return seats_.contains(player);
  }
  int64_t round() const override;
  v1::BankedTableInfo Info() const override;
  v1::BankedTableView ViewFor(const std::string& player) const override;
  // SD-37: the caller's last round.
  std::vector<v1::BankedRoundRecord> ReplayFor(
      const std::string& player) const override;
  // SD-39.
  v1::BankedSessionSummary SummaryFor(const std::string& player) const override;

  // The engine, to read (its events, the round, the seats).
  const games::stud_no_draw::Table& engine() const { return engine_; }
  void ForgetTaken() override {
    engine_.ForgetEventsBefore(table_events_seen_);
  }

 private:
  StudTableState(v1::BankedTableCreated created,
                 games::stud_no_draw::Table engine)
      : BankedGameState(std::move(created)), engine_(std::move(engine)) {}

  absl::Status ApplyGame(const v1::BankedTableEvent& event,
                         std::vector<v1::BankedTableEvent>* derived) override;
  absl::Status Captured(const StakeSagas::Stake& stake, int64_t at,
                        std::vector<v1::BankedTableEvent>* derived) override;
  absl::Status Refused(const StakeSagas::Stake& stake) override;
  absl::Status Connection(const std::string& player, bool connected, int64_t at,
                          std::vector<v1::BankedTableEvent>* derived) override;

  // What a stake buys, applied to `table` at `at` (µs).
  static absl::Status ApplyStake(games::stud_no_draw::Table& table,
                                 const StakeSagas::Stake& stake, int64_t at);
  // The money and notices of the engine's events since the last call.
  absl::Status Drain(int64_t at, std::vector<v1::BankedTableEvent>* derived);
  bool Deciding() const;

  games::stud_no_draw::Table engine_;
  std::map<std::string, int> seats_;  // player -> seat
  size_t table_events_seen_ = 0;
  RoundCursor cursor_;
  // When the cards are dealt; 0 while no captured ante waits.
  int64_t deal_at_ = 0;
};

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_STUD_TABLE_STATE_H_
