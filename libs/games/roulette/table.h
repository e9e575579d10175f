// One roulette wheel and its board: bets, the betting window, the launch,
// the result and the settlement, for French (RF/RFD) and American (RA)
// tables. Pure: the service passes in the time of every command and the
// recorded outcome of every spin (drawn once by the service, DESIGN
// invariant 4) and posts the returned results to the ledger.
//
// A round (jogada, RF-3d) runs: betting window → launch → the ball stops →
// losing bets collected, winning bets paid → the next window. An invalid
// spin (RFD-23) reopens the window with the bets left in place (RFD-24);
// a system failure while bets are open voids the round and refunds every
// stake (DESIGN "Game engines"); a player's own disconnection voids nothing
// (RFD-25/26).
#ifndef BANCA_LIBS_GAMES_ROULETTE_TABLE_H_
#define BANCA_LIBS_GAMES_ROULETTE_TABLE_H_

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/games/roulette/bet.h"
#include "libs/games/roulette/table_config.h"

namespace banca::games::roulette {

// Bounds on identifiers.
inline constexpr int kMaxIdLength = 64;
// Ball revolutions a recorded spin may claim: a sanity bound.
inline constexpr int kMaxRevolutions = 10'000;
// RFD-23a: fewer revolutions make the spin invalid.
inline constexpr int kMinRevolutions = 3;

// RFD-17: launches alternate between the two directions.
enum class LaunchDirection : uint8_t { kLeftToRight, kRightToLeft };

struct BetPlaced {
  int64_t round = 0;
  std::string player;
  std::string bet_id;
  int64_t stake = 0;  // = the request's amount
  std::vector<Chip> chips;
};

// RFD-24: a bet taken back before the launch; the stake returns whole.
struct BetWithdrawn {
  int64_t round = 0;
  std::string player;
  std::string bet_id;
  int64_t stake = 0;
};

struct BallLaunched {
  int64_t round = 0;
  int attempt = 1;  // 2, 3 … after invalid spins in the same round
  LaunchDirection direction = LaunchDirection::kLeftToRight;
};

struct SpinOutcome {
  Pocket pocket = kZero;
  int revolutions = 10;
  // RFD-23b: a breakdown stopped the launch before the ball came to rest.
  bool interrupted = false;
};

struct ChipResult {
  Chip chip;
  int64_t returned = 0;
};

// One bet's result, for the ledger: returned is 0 when it lost, else its
// stake plus winnings (RFD-12: winning bets stay the player's).
struct BetSettlement {
  std::string player;
  std::string bet_id;
  BetRequest request;
  int64_t stake = 0;
  int64_t returned = 0;
  std::vector<ChipResult> chips;
};

// RFD-31/32: the operator invites an idle player to end the session, then
// warns that it ends unless they bet within the next minute (individual
// wheel) or in the next round (multi-player wheel); then it ends.
struct SessionNotice {
  std::string player;
  enum class Kind : uint8_t { kInvited, kWarned, kEnded } kind;
};

struct RoundSettled {
  int64_t round = 0;
  Pocket pocket = kZero;
  Colour colour = Colour::kGreen;
  int revolutions = 0;
  // RFD-19: losing bets first (collected), then winning bets (paid); each
  // group in the order the bets were placed.
  std::vector<BetSettlement> bets;
  int64_t total_staked = 0;
  int64_t total_returned = 0;
  // RFD-31b/32b: multi-player wheels, for players idle this round.
  std::vector<SessionNotice> notices;
};

// RFD-23/24: the spin does not count; every bet stays where it was and
// the betting window reopens.
struct SpinInvalid {
  int64_t round = 0;
  int attempt = 1;
  enum class Reason : uint8_t { kTooFewRevolutions, kInterrupted } reason;
};

// A system failure while bets were open: every live stake goes back.
struct RoundVoided {
  int64_t round = 0;
  std::vector<BetWithdrawn> refunds;  // in placing order
};

using SpinResult = std::variant<RoundSettled, SpinInvalid>;
using FailureResult = std::variant<RoundVoided, SpinInvalid>;

// RF-6e: one past result on the display.
struct PastNumber {
  int64_t round = 0;
  Pocket pocket = kZero;
  Colour colour = Colour::kGreen;
};

// RFD-27: one of a player's rounds, for the replay.
struct ReplayRound {
  int64_t round = 0;
  Pocket pocket = kZero;
  Colour colour = Colour::kGreen;
  std::vector<BetSettlement> bets;  // the player's own
};

// RFD-29: a player's totals for the session (settled bets only).
struct SessionTotals {
  int64_t staked = 0;
  int64_t returned = 0;
  int64_t net = 0;  // returned - staked: the player's profit (or loss)
  int64_t rounds = 0;
  bool operator==(const SessionTotals&) const = default;
};

// RFD-31: the idle time (individual wheels) and the idle rounds
// (multi-player wheels) after which the operator invites the player to end
// the session; RFD-32: the grace before it ends.
inline constexpr absl::Duration kIdleBeforeInvitation = absl::Minutes(3);
inline constexpr absl::Duration kGraceAfterNotice = absl::Minutes(1);
inline constexpr int kIdleRoundsBeforeInvitation = 5;

class Table {
 public:
  enum class Phase : uint8_t { kBetting, kSpinning };

  // INVALID_ARGUMENT for a bad config. The first betting window opens at
  // `opened_at`.
  static absl::StatusOr<Table> Create(const TableConfig& config,
                                      absl::Time opened_at);

  // RF-7/RF-8/RF-9. `bet_id` names the bet for withdrawal and the ledger;
  // unique among the player's bets of the round. INVALID_ARGUMENT for an
  // illegal bet (bet.h), a chip below its chance's minimum (RFD-10, RA-10)
  // or a position that would pass its maximum (RFD-11, gap 9);
  // FAILED_PRECONDITION after the launch or once the window has closed
  // (RFD-14), for call bets on a table without them (RF-8), for a second
  // player at an individual wheel (RF-4) or a repeated bet id;
  // RESOURCE_EXHAUSTED past the players or bets bounds.
  absl::StatusOr<BetPlaced> PlaceBet(const std::string& player,
                                     const std::string& bet_id,
                                     const BetRequest& request, absl::Time now);
  // RFD-14/24: while betting is open. NOT_FOUND for an unknown bet.
  absl::StatusOr<BetWithdrawn> Withdraw(const std::string& player,
                                        const std::string& bet_id,
                                        absl::Time now);

  // Closes betting (RFD-14). Timed window: not before it has run its
  // course (RFD-13/15). Player-triggered: once the player has bet (RFD-16).
  absl::StatusOr<BallLaunched> Launch(absl::Time now);
  // The ball came to rest on `outcome.pocket` (or the launch failed).
  // INVALID_ARGUMENT for a pocket off this wheel or impossible
  // revolutions; FAILED_PRECONDITION unless the ball is spinning.
  absl::StatusOr<SpinResult> Stop(const SpinOutcome& outcome, absl::Time now);
  // Launch and Stop as one step; nothing changes if either would fail.
  absl::StatusOr<SpinResult> Spin(const SpinOutcome& outcome, absl::Time now);

  // The gaming system failed. While betting is open: the round is void and
  // every stake refunded; while the ball spins: an interrupted launch,
  // invalid (RFD-23b), bets stay.
  absl::StatusOr<FailureResult> Fail(absl::Time now);

  // RFD-30: the player ends the session; RFD-29: its totals. The player's
  // replay and totals are dropped, which frees their place at the wheel
  // (max_players). FAILED_PRECONDITION with live bets; NOT_FOUND for a
  // player the table does not know. An individual wheel stays its owner's.
  absl::StatusOr<SessionTotals> Leave(const std::string& player);

  // RFD-25/26: a player's own connection; it changes no bet.
  absl::Status Disconnect(const std::string& player);
  absl::Status Reconnect(const std::string& player);

  // RFD-31a/32a, individual wheels: the owner has placed no bet for more
  // than 3 minutes: invitation; one minute later, a warning; one more
  // minute, the end. At most one notice per call; empty on multi-player
  // wheels (their notices come with each RoundSettled).
  std::vector<SessionNotice> CheckInactivity(absl::Time now);

  Phase phase() const { return phase_; }
  int64_t round() const { return round_; }
  // Timed windows: when betting closes. Player-triggered: nullopt.
  std::optional<absl::Time> BettingClosesAt() const;
  // The player's live bets, in placing order.
  std::vector<BetPlaced> BetsOf(const std::string& player) const;
  // RF-6e: most recent first, at most config.history_size.
  std::vector<PastNumber> History() const;
  // RFD-27: the player's last rounds, most recent first, at most
  // config.replay_rounds.
  std::vector<ReplayRound> Replay(const std::string& player) const;
  std::optional<SessionTotals> Totals(const std::string& player) const;
  std::optional<bool> Connected(const std::string& player) const;
  const TableConfig& config() const { return config_; }

 private:
  struct LiveBet {
    BetPlaced placed;
    BetRequest request;
    int64_t seq = 0;  // table-wide placing order
  };
  struct PlayerState {
    std::vector<LiveBet> bets;
    std::set<std::string> used_ids;  // this round's bet ids
    bool connected = true;
    SessionTotals totals;
    // RFD-31/32.
    absl::Time last_bet_at;
    int idle_rounds = 0;
    std::optional<SessionNotice::Kind> notice;  // the last one given
    std::deque<ReplayRound> replay;             // most recent first
  };

  Table() = default;
  absl::Status CheckTime(absl::Time now) const;
  absl::Status CheckBettingOpen(absl::Time now) const;
  absl::Status CheckLimits(const PlayerState* state,
                           const std::vector<Chip>& chips) const;
  absl::Status CheckOutcome(const SpinOutcome& outcome) const;
  bool AnyBets() const;
  // Opens the next betting window (RFD-14, RFD-22).
  void OpenWindow(absl::Time now);
  SpinInvalid Invalidate(SpinInvalid::Reason reason, absl::Time now);
  RoundSettled Settle(const SpinOutcome& outcome, absl::Time now);
  // RFD-31b/32b: counts a settled round without the player's bets.
  std::optional<SessionNotice::Kind> NextIdleRound(PlayerState& state);

  TableConfig config_;
  Phase phase_ = Phase::kBetting;
  int64_t round_ = 1;
  int attempt_ = 1;
  int64_t launches_ = 0;
  absl::Time window_opened_at_;
  absl::Time last_time_;
  std::optional<std::string> owner_;  // individual wheels
  std::map<std::string, PlayerState> players_;
  int64_t next_seq_ = 0;
  std::deque<PastNumber> history_;  // most recent first
};

std::string_view DirectionName(LaunchDirection direction);
// "invited", "warned", "ended".
std::string_view NoticeKindName(SessionNotice::Kind kind);

}  // namespace banca::games::roulette

#endif  // BANCA_LIBS_GAMES_ROULETTE_TABLE_H_
