// What the banked-table service needs from one banked table, whatever its
// game (roulette_table_state.h, blackjack_table_state.h): it changes only
// by Apply(event), live and on replay alike; it turns requests into the
// events that carry them (the service appends those it accepts); it says
// what the clock calls for; and it answers the views.
//
// The common part lives here: the stake sagas (a stake requested from the
// wallet is pending until the wallet's answer, StakeCaptured or
// StakeRefused, comes back through the log; a capture after the table gave
// up is paid back), the ledger transactions (banked_settlement.h) and the
// session left behind by Leave.
#ifndef BANCA_LIBS_TABLES_BANKED_GAME_STATE_H_
#define BANCA_LIBS_TABLES_BANKED_GAME_STATE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"
#include "libs/cards/random.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/tables/stake_sagas.h"

namespace banca::tables {

// A banked game's table: a TableAggregate (table_aggregate.h).
class BankedGameState {
 public:
  using Event = v1::BankedTableEvent;

  virtual ~BankedGameState() = default;

  // The state of a new table of `created`'s game (settings normalized).
  // INVALID_ARGUMENT for an unknown game or bad settings.
  static absl::StatusOr<std::unique_ptr<BankedGameState>> Create(
      const v1::BankedTableCreated& created, int64_t at_micros);
  static bool Opens(const v1::BankedTableEvent& event) {
    return event.has_created();
  }
  static absl::StatusOr<std::unique_ptr<BankedGameState>> Open(
      const v1::BankedTableEvent& event) {
    return Create(event.created(), event.at_micros());
  }

  // Applies an input event; the money it derives is appended to `derived`
  // as BankedMoney events. On error nothing changed and the service
  // appends nothing: the engine's checks are the command's validation.
  absl::Status Apply(const v1::BankedTableEvent& event,
                     std::vector<v1::BankedTableEvent>* derived);
  // Replay: an input event applies as it did live; the money and reveals
  // it derived are logged after it and change nothing here.
  absl::Status ApplyLogged(const v1::BankedTableEvent& event);

  // The events that carry the caller's requests, stamped `now`; errors
  // for what no event could carry (Apply checks the rest).
  virtual absl::StatusOr<v1::BankedTableEvent> BetEvent(
      const std::string& player, const v1::PlaceBankedBetRequest& request,
      int64_t now) const = 0;
  virtual absl::StatusOr<v1::BankedTableEvent> ActEvent(
      const std::string& player, const v1::BankedActRequest& request,
      int64_t now) const;
  virtual absl::StatusOr<v1::BankedTableEvent> LaunchEvent(
      const std::string& player, int64_t round, int64_t now,
      cards::RandomSource& rng) const;
  // What the clock calls for at `now` (a spin, a deal, a timeout, an idle
  // notice), drawing from `rng` when the rules say the outcome is decided
  // now; nothing when nothing is due.
  virtual std::optional<v1::BankedTableEvent> Due(
      int64_t now, cards::RandomSource& rng) const = 0;

  virtual bool Joined(const std::string& player) const = 0;
  // The round taking bets or in play.
  virtual int64_t round() const = 0;
  virtual v1::BankedTableInfo Info() const = 0;
  virtual v1::BankedTableView ViewFor(const std::string& player) const = 0;
  // The caller's past rounds, most recent first.
  virtual std::vector<v1::BankedRoundRecord> ReplayFor(
      const std::string& player) const = 0;
  virtual v1::BankedSessionSummary SummaryFor(
      const std::string& player) const = 0;
  virtual std::vector<v1::PastNumber> LastNumbers() const { return {}; }

  // RFD-25, BJ-29, SD-34: the player's own connection as last recorded
  // (PlayerConnection); a new session (Join) starts connected.
  bool Disconnected(const std::string& player) const {
    return disconnected_.contains(player);
  }
  const StakeSagas& sagas() const { return sagas_; }
  // Increases with every applied event.
  int64_t version() const { return version_; }
  // TableAggregate: the engine's events up to those taken are forgotten
  // (the games whose engines keep a list of table events).
  virtual void ForgetTaken() {}
  // The totals of the session that the last Leave ended.
  const v1::BankedSessionSummary& last_left() const { return last_left_; }
  const std::string& id() const { return created_.table_id(); }
  v1::BankedGame game() const { return created_.game(); }
  const v1::BankedTableCreated& created() const { return created_; }

 protected:
  explicit BankedGameState(v1::BankedTableCreated created)
      : created_(std::move(created)) {}

  // The game's part of Apply (everything but the stake outcomes).
  virtual absl::Status ApplyGame(
      const v1::BankedTableEvent& event,
      std::vector<v1::BankedTableEvent>* derived) = 0;
  // A captured stake: the bet is on (or the decision it pays for is
  // made). A refused one: it is not.
  virtual absl::Status Captured(const StakeSagas::Stake& stake, int64_t at,
                                std::vector<v1::BankedTableEvent>* derived) = 0;
  virtual absl::Status Refused(const StakeSagas::Stake& stake) = 0;
  // The game's rule for a seated player's own disconnection (or its
  // return): RFD-25/26 and BJ-29/30 change no bet; SD-35 folds a player
  // who has anted and not yet bet.
  virtual absl::Status Connection(
      const std::string& player, bool connected, int64_t at,
      std::vector<v1::BankedTableEvent>* derived) = 0;

  // A StakeRequested event for `amount` on `bet_id` of `round`, with the
  // transaction the wallet posts.
  absl::StatusOr<v1::BankedTableEvent> NewStake(const std::string& player,
                                                const std::string& bet_id,
                                                int64_t round, int64_t amount,
                                                int64_t now) const;
  settlement::BankedBet Bet(int64_t round, const std::string& player,
                            const std::string& bet_id, int64_t stake) const;
  // A BankedMoney event of `cause` for `round`.
  v1::BankedTableEvent Money(int64_t round, const char* cause,
                             int64_t at) const;
  // What every view and every table info says whatever the game.
  v1::BankedTableView ViewHeader(const std::string& player) const;
  v1::BankedTableInfo InfoHeader(int players) const;
  // A session's totals (net = returned - staked, the player's profit).
  v1::BankedSessionSummary Summary(const std::string& player, int64_t rounds,
                                   int64_t staked, int64_t returned) const;

  // A captured stake the table cannot use (it gave up waiting, or the
  // round moved on): BankedMoney "compensation", the stake back whole.
  absl::Status PayBack(const StakeSagas::Stake& stake, int64_t at,
                       std::vector<v1::BankedTableEvent>* derived) const;
  // Adds `tx` to `money`; the error of building it, if any.
  static absl::Status Add(v1::BankedTableEvent& money,
                          absl::StatusOr<v1::LedgerTransaction> tx);

  // How far a round's engine events have been turned into money; starts
  // over with each round.
  struct RoundCursor {
    int64_t round = 0;
    size_t seen = 0;
    // The first unread event of round `number`.
    size_t From(int64_t number) {
      if (number != round) {
        round = number;
        seen = 0;
      }
      return seen;
    }
  };
  // The BankedMoney event that settles (or voids) `round`.
  v1::BankedTableEvent RoundMoney(int64_t round, bool voided,
                                  int64_t at) const {
    return Money(round, voided ? "void" : "settled", at);
  }

  // The shoe or deck dealt for a round stays in clear here (the log holds
  // it sealed) until the round is over; then RevealWhenOver derives the
  // DeckRevealed that shows it, once (sealed_decks.h).
  void NoteDealt(const v1::RoundDealt& dealt);
  void RevealWhenOver(int64_t round, bool over, int64_t at,
                      std::vector<v1::BankedTableEvent>* derived);

  v1::BankedTableCreated created_;
  StakeSagas sagas_;
  int64_t version_ = 0;
  v1::BankedSessionSummary last_left_;
  // The idle-session notices (invited, warned, ended), by player.
  std::map<std::string, std::string> notices_;
  int64_t dealt_round_ = 0;
  int64_t revealed_round_ = 0;
  google::protobuf::RepeatedPtrField<std::string> dealt_deck_;

 private:
  absl::Status EndStake(const v1::BankedTableEvent& event,
                        std::vector<v1::BankedTableEvent>* derived);
  absl::Status ApplyConnection(const v1::BankedTableEvent& event,
                               std::vector<v1::BankedTableEvent>* derived);

  std::set<std::string> disconnected_;
  // Players whose line went down while a stake of theirs was in flight:
  // they staked before it did, so the rule applies once the wallet has
  // answered (SD-36 rather than SD-35 for a bet on its way).
  std::set<std::string> disconnect_after_stake_;
};

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_BANKED_GAME_STATE_H_
