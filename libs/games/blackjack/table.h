// A blackjack table between and across rounds: seats, the main bets placed
// before each deal, the round in progress (Round), connection notices,
// inactivity invitations (BJ-35/36), each player's last round (BJ-31) and
// session totals (BJ-33). Pure, like Round: the service passes in the
// shuffled deck and the clock's advance.
#ifndef BANCA_LIBS_GAMES_BLACKJACK_TABLE_H_
#define BANCA_LIBS_GAMES_BLACKJACK_TABLE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/cards/card.h"
#include "libs/games/blackjack/round.h"
#include "libs/games/blackjack/settings.h"
#include "libs/games/event_tail.h"

namespace banca::games::blackjack {

// BJ-33: what a player bet and won or lost in the session.
struct SessionStats {
  int64_t rounds_played = 0;  // rounds with a bet, void ones included
  int64_t rounds_void = 0;
  int64_t staked = 0;    // every stake: main, splits, doubles, insurance
  int64_t returned = 0;  // every amount paid back, refunds included
  int64_t net = 0;       // returned - staked: the player's profit (< 0 loss)
  bool operator==(const SessionStats&) const = default;
};

// BJ-31: the essentials of the last round a player bet in.
struct LastRound {
  int64_t round_number = 0;
  int seat = 0;
  bool voided = false;
  std::vector<cards::Card> dealer_cards;
  Total dealer_total;
  bool dealer_blackjack = false;
  SeatState mine;               // hands, stakes, insurance
  std::vector<BetResult> bets;  // this seat's bets and results
  int64_t staked = 0;
  int64_t returned = 0;
  bool operator==(const LastRound&) const = default;
};

enum class LeaveReason : uint8_t {
  kVoluntary,   // BJ-34
  kInactivity,  // BJ-36: no bet after the warning
};

enum class InactivityKind : uint8_t {
  kTime,    // BJ-35a: individual table, more than inactive_seconds
  kRounds,  // BJ-35b: multi-player table, more than inactive_rounds
};

struct PlayerSat {
  std::string player;
  int seat = 0;
};
struct BetPlaced {
  std::string player;
  int seat = 0;
  int64_t amount = 0;
};
// A bet placed for a round that was never dealt, returned on leaving.
struct BetWithdrawn {
  std::string player;
  int seat = 0;
  int64_t amount = 0;
};
struct PlayerLeft {
  std::string player;
  int seat = 0;
  LeaveReason reason = LeaveReason::kVoluntary;
  SessionStats stats;  // BJ-33
};
// BJ-29: noted, and nothing else changes; the bet stays valid (BJ-30).
struct ConnectionChanged {
  std::string player;
  bool connected = false;
};
struct SessionEndInvited {
  std::string player;
  InactivityKind kind = InactivityKind::kTime;
};
// BJ-36: the session ends unless the player bets within warning_seconds
// (individual table) or in the next round (multi-player).
struct SessionEndWarned {
  std::string player;
  InactivityKind kind = InactivityKind::kTime;
};
struct RoundStarted {
  int64_t round_number = 0;
};
struct RoundEnded {
  int64_t round_number = 0;
  bool voided = false;
};
using TableEvent = std::variant<PlayerSat, BetPlaced, BetWithdrawn, PlayerLeft,
                                ConnectionChanged, SessionEndInvited,
                                SessionEndWarned, RoundStarted, RoundEnded>;

class Table {
 public:
  static absl::StatusOr<Table> Create(const TableSettings& settings);

  // INVALID_ARGUMENT for a seat outside 1..seats or a bad player id;
  // FAILED_PRECONDITION for a taken seat or a player already seated.
  absl::Status Sit(const std::string& player, int seat);
  // The main bet for the next round. INVALID_ARGUMENT outside
  // [min_bet, max_bet]; FAILED_PRECONDITION when not seated, a round is in
  // progress, or the player has already bet.
  absl::Status PlaceBet(const std::string& player, int64_t amount);
  // BJ-34: at once when the player has no stake in a round (an undealt bet
  // is withdrawn); otherwise the player's hands stand when their turn
  // comes and the player leaves when the round is settled.
  absl::Status Leave(const std::string& player);
  // Deals a round to every seat with a bet. FAILED_PRECONDITION with no
  // bet or a round in progress; INVALID_ARGUMENT for a bad deck (the bets
  // stay for a retry).
  absl::Status Deal(std::vector<cards::Card> deck);
  absl::Status Act(const std::string& player, Action action);
  absl::Status Timeout(const std::string& player);
  // BJ-29/30: the player's own connection. Changes nothing in the round.
  absl::Status Disconnect(const std::string& player);
  absl::Status Reconnect(const std::string& player);
  // BJ-27/28: the gaming system failed mid-round. FAILED_PRECONDITION
  // without a round in progress.
  absl::Status Fail();
  // Moves the table clock (BJ-35a/36 on an individual table).
  // INVALID_ARGUMENT unless 0 <= seconds <= one day.
  absl::Status AdvanceClock(int64_t seconds);

  bool in_round() const { return round_.has_value() && !round_->finished(); }
  // The round in progress or the last one; null before the first.
  const Round* round() const { return round_ ? &*round_ : nullptr; }
  int64_t rounds_dealt() const { return round_number_; }
  std::optional<int> SeatOf(const std::string& player) const;
  std::optional<int64_t> PendingBet(const std::string& player) const;
  std::optional<SessionStats> Stats(const std::string& player) const;
  std::optional<LastRound> LastRoundOf(const std::string& player) const;
  // The round as this player may see it (seat 0 view when not seated).
  std::optional<RoundView> ViewFor(const std::string& player) const;
  // The table's events not yet forgotten, in order (events_begin() is the
  // number of the first; the rounds' and hands' own events are theirs).
  const std::vector<TableEvent>& events() const { return events_.kept(); }
  size_t events_begin() const { return events_.begin(); }
  size_t events_end() const { return events_.end(); }
  const TableEvent& event(size_t n) const { return events_.at(n); }
  // Forgets the events numbered below `n`, taken by every reader: a table
  // that plays for months keeps only its recent ones (its history is the
  // log's and the reporting projections').
  void ForgetEventsBefore(size_t n) { events_.ForgetBefore(n); }
  const TableSettings& settings() const { return settings_; }
  int64_t now() const { return now_; }

 private:
  struct Occupant {
    std::string player;
    int64_t pending_bet = 0;
    bool connected = true;
    bool leaving = false;
    int64_t last_bet_at = 0;  // table clock, seconds
    int rounds_without_bet = 0;
    bool invited = false;
    bool warned = false;
    int64_t warned_at = 0;
    SessionStats stats;
    std::optional<LastRound> last;
  };

  Table() = default;
  Occupant* Find(const std::string& player, int* seat = nullptr);
  const Occupant* Find(const std::string& player, int* seat = nullptr) const;
  // Hands of leaving players stand when their turn comes.
  void StandForLeavers();
  void AfterRoundStep();
  void Settle();
  void Remove(int seat, LeaveReason reason);
  void NoteBet(Occupant& o);

  TableSettings settings_;
  std::map<int, Occupant> seats_;
  std::optional<Round> round_;
  bool settled_ = true;
  int64_t round_number_ = 0;
  int64_t now_ = 0;
  EventTail<TableEvent> events_;
};

}  // namespace banca::games::blackjack

#endif  // BANCA_LIBS_GAMES_BLACKJACK_TABLE_H_
