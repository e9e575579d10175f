// A póquer sem descarte table across rounds: who sits where, the round in
// play, each player's last round (SD-37) and session totals (SD-39), the
// connection state (SD-34) and the invitations to end an idle session
// (SD-41/42). Pure, like Round: decks and times come from the caller.
#ifndef BANCA_LIBS_GAMES_STUD_NO_DRAW_TABLE_H_
#define BANCA_LIBS_GAMES_STUD_NO_DRAW_TABLE_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/cards/card.h"
#include "libs/games/event_tail.h"
#include "libs/games/stud_no_draw/config.h"
#include "libs/games/stud_no_draw/round.h"

namespace banca::games::stud_no_draw {

// SD-39: what a player staked and got back in the session.
struct SessionSummary {
  int64_t rounds = 0;  // rounds with a stake, void ones included
  int64_t staked = 0;
  int64_t returned = 0;
  int64_t net() const { return returned - staked; }  // profit (+) or loss
  bool operator==(const SessionSummary&) const = default;
};

// SD-37: the result of the player's last round and the amounts bet.
struct LastRound {
  int64_t number = 0;
  bool voided = false;
  SeatResult mine;
  std::optional<Hand> bank;  // when it was revealed
  bool bank_qualifies = false;
};

struct PlayerSat {
  std::string player;
  int seat = 0;
};
enum class LeaveReason : uint8_t {
  kPlayer,    // SD-40: the player ends the session.
  kInactive,  // SD-42: no bet after the warning.
};
struct PlayerLeft {
  std::string player;
  int seat = 0;
  LeaveReason reason = LeaveReason::kPlayer;
  SessionSummary summary;  // SD-39
};
struct ConnectionChanged {
  std::string player;
  bool connected = false;
};
// SD-41: the invitation to end the session, and SD-42's warning that it
// ends without a bet by `deadline_ms` (individual tables) or in the next
// round (multi-player tables, deadline_ms 0). Issued together: the
// invitation is the moment the player may choose to stay.
struct SessionEndInvited {
  std::string player;
  int64_t deadline_ms = 0;
};
using TableEvent =
    std::variant<PlayerSat, PlayerLeft, ConnectionChanged, SessionEndInvited>;

class Table {
 public:
  // INVALID_ARGUMENT for a bad config or an empty table id.
  static absl::StatusOr<Table> Create(const TableConfig& config,
                                      std::string table_id);

  // INVALID_ARGUMENT for a seat outside the table or an empty name;
  // FAILED_PRECONDITION for a taken seat or a player already seated.
  absl::Status Sit(const std::string& player, int seat, int64_t now_ms);
  // SD-40. FAILED_PRECONDITION while the player has a stake in an
  // unsettled round; NOT_FOUND when not seated.
  absl::StatusOr<PlayerLeft> Leave(const std::string& player);

  // Opens a round when none is taking bets. The Round's statuses, plus
  // NOT_FOUND for a player not seated and FAILED_PRECONDITION for one whose
  // connection is down.
  absl::Status PlaceAnte(const std::string& player, int64_t amount,
                         int64_t now_ms);
  // FAILED_PRECONDITION when no round is taking bets.
  absl::Status Deal(const std::vector<cards::Card>& deck, int64_t now_ms);
  absl::Status Fold(const std::string& player);
  absl::Status Continue(const std::string& player);
  absl::Status Timeout(const std::string& player, int64_t now_ms);
  // The clock moved: decision timers (SD-31/32) and, at an individual
  // table, the idle-session invitation and end (SD-41a/42a).
  absl::Status Tick(int64_t now_ms);
  // SD-34..36 for a staked player; always recorded (ConnectionChanged).
  // FAILED_PRECONDITION when already disconnected (connected).
  absl::Status Disconnect(const std::string& player);
  absl::Status Reconnect(const std::string& player);
  // SD-33. FAILED_PRECONDITION when no round is open.
  absl::Status Void();

  // The round in play, or the last one; null before the first.
  const Round* round() const { return round_ ? &*round_ : nullptr; }
  bool round_open() const { return round_ && !round_->finished(); }
  std::optional<int> SeatOf(const std::string& player) const;
  std::optional<LastRound> LastRoundOf(const std::string& player) const;
  std::optional<SessionSummary> SessionOf(const std::string& player) const;
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
  const TableConfig& config() const { return config_; }
  const std::string& table_id() const { return table_id_; }
  int64_t rounds_played() const { return rounds_; }

 private:
  struct Occupant {
    std::string player;
    bool connected = true;
    SessionSummary summary;
    std::optional<LastRound> last;
    int64_t last_bet_ms = 0;  // SD-41a: sitting down counts as activity
    int idle_rounds = 0;      // SD-41b
    bool invited = false;
    int64_t end_at_ms = 0;  // SD-42a, when invited at an individual table
  };

  Table() = default;
  absl::StatusOr<int> SeatFor(const std::string& player) const;
  absl::Status CheckTime(int64_t now_ms) const;
  // After each call that may have finished the round: totals, last-round
  // views and the multi-player idle counters, once per round.
  void AfterRoundStep();
  void EndSession(int seat, LeaveReason reason);

  TableConfig config_;
  std::string table_id_;
  std::array<std::optional<Occupant>, kMaxSeats> seats_;
  std::map<std::string, int> seat_of_;
  std::optional<Round> round_;
  bool round_accounted_ = false;
  int64_t rounds_ = 0;
  int64_t now_ms_ = 0;
  EventTail<TableEvent> events_;
};

}  // namespace banca::games::stud_no_draw

#endif  // BANCA_LIBS_GAMES_STUD_NO_DRAW_TABLE_H_
