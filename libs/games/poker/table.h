// A cash table between hands: seats, buy-ins and rebuys (with buy-in rake),
// leaving, sitting out, the button, inactivity notices and session totals.
// It deals each hand through Hand and settles the stacks afterwards. Pure,
// like Hand: the service passes in the button draw and the shuffled deck.
#ifndef BANCA_LIBS_GAMES_POKER_TABLE_H_
#define BANCA_LIBS_GAMES_POKER_TABLE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/cards/card.h"
#include "libs/games/event_tail.h"
#include "libs/games/poker/hand.h"
#include "libs/games/poker/table_config.h"

namespace banca::games::poker {

// HE-17b: the rake taken from a buy-in or rebuy of `paid` (0 unless the
// table's rake mode is kBuyIn), rounded down to the cent.
int64_t BuyInRake(const TableConfig& config, int64_t paid);

// HE-67: a player's totals for the session, reported when they leave.
struct SessionStats {
  int64_t bought_in = 0;  // buy-in and rebuys paid, buy-in rake included
  int64_t rake_paid = 0;  // HE-17b
  int64_t total_bet = 0;
  int64_t total_won = 0;
  int64_t net = 0;  // total_won - total_bet
  int64_t hands_played = 0;
  bool operator==(const SessionStats&) const = default;
};

struct PlayerSat {
  std::string player;
  int seat = 0;
  int64_t paid = 0;
  int64_t rake = 0;   // HE-17b: taken from the buy-in
  int64_t stack = 0;  // paid - rake
};
struct PlayerRebought {
  std::string player;
  int64_t paid = 0;
  int64_t rake = 0;
  int64_t stack = 0;  // after the rebuy
};
// Why a player's session ended.
enum class LeaveReason : uint8_t {
  kVoluntary,   // HE-10, HE-69: the player left
  kInactive,    // HE-71: no bet in the hand after the inactivity warning
  kShortStack,  // HE-71: no rebuy after the short-stack warning
  kRestOver,    // HE-68: the operator's rest period ran out (the service's
                // clock decides; the engine is told)
};
struct PlayerLeft {
  std::string player;
  int seat = 0;
  int64_t stack = 0;  // HE-10: paid out with the stack
  SessionStats stats;
  LeaveReason reason = LeaveReason::kVoluntary;
};
struct SittingOut {
  std::string player;
  bool out = true;  // false: back in
};
struct ButtonMoved {
  int seat = 0;
  bool drawn = false;  // HE-46: start or restart
};
enum class InvitationReason : uint8_t {
  kShortStack,  // HE-70a: below the minimum bet, no rebuy after the hand
  kInactive,    // HE-70b: no bet in more than 5 consecutive hands
};
struct SessionEndInvited {
  std::string player;
  InvitationReason reason = InvitationReason::kInactive;
};
// HE-71: the session ends unless the player rebuys or bets next hand.
struct SessionEndWarned {
  std::string player;
  InvitationReason reason = InvitationReason::kInactive;
};
// HE-44: the player to act got the table's extra decision time, once per
// decision, after the ordinary time (HE-43) ran out.
struct ExtraTimeGranted {
  std::string player;
  int64_t hand_number = 0;
  int seconds = 0;
};
using TableEvent =
    std::variant<PlayerSat, PlayerRebought, PlayerLeft, SittingOut, ButtonMoved,
                 SessionEndInvited, SessionEndWarned, ExtraTimeGranted>;

// The notice (HE-70 invitation or HE-71 warning) a seated player has now;
// it goes away when the player bets (inactivity) or rebuys (short stack).
struct SessionNotice {
  bool warned = false;  // false: invited
  InvitationReason reason = InvitationReason::kInactive;
  int64_t hand_number = 0;  // the hand after which it was given
  bool operator==(const SessionNotice&) const = default;
};

// HE-65: the last hand a player took part in.
struct LastHand {
  int64_t hand_number = 0;
  PlayerResult mine;
  std::shared_ptr<const HandResult> result;
};

class Table {
 public:
  // Hands without a bet before the HE-70b invitation ("more than 5").
  static constexpr int kInactiveHands = 5;

  static absl::StatusOr<Table> Create(const TableConfig& config,
                                      std::string table_id);

  // FAILED_PRECONDITION for a taken seat or a second seat (HE-9);
  // INVALID_ARGUMENT for a buy-in outside [buy_in_min, buy_in_max] (HE-8).
  absl::StatusOr<PlayerSat> Sit(const std::string& player, int seat,
                                int64_t buy_in);
  // HE-12/HE-11b: between hands only; the stack after it stays within
  // buy_in_max. Buy-in rake mode takes its share (HE-17b).
  absl::StatusOr<PlayerRebought> Rebuy(const std::string& player,
                                       int64_t amount);
  // HE-10: at once between hands. In a hand the player is folded when it
  // is their turn (at once if it is now) and leaves when the hand ends;
  // nullopt then, and PlayerLeft comes in events().
  absl::StatusOr<std::optional<PlayerLeft>> Leave(
      const std::string& player, LeaveReason reason = LeaveReason::kVoluntary);
  // HE-70a/71: the player has a rebuy under way (paid for, not yet
  // credited: the service's wallet saga). While it is, hands that end with
  // the player short do not count towards an invitation, a warning or the
  // end of the session: the player is topping up. NOT_FOUND if not seated.
  absl::Status SetRebuyPending(const std::string& player, bool pending);
  // HE-68: keep the seat but skip hands; back in with SitIn.
  absl::Status SitOut(const std::string& player);
  absl::Status SitIn(const std::string& player);

  // Seats that would be dealt in: seated, not sitting out or leaving, with
  // at least the big blind (HE-15).
  std::vector<int> EligibleSeats() const;
  // True when the next hand's button is drawn (HE-46): the first hand, or
  // after the table stopped with fewer than two players (HE-7).
  bool NeedsButtonDraw() const { return needs_draw_; }

  // Deals a hand. `button_draw` indexes EligibleSeats() and is used only
  // when NeedsButtonDraw(); otherwise the button moves to the next
  // eligible seat clockwise (HE-64). FAILED_PRECONDITION with fewer than
  // two eligible players (HE-7) or a hand in progress.
  absl::Status StartHand(int button_draw, std::vector<cards::Card> deck);
  absl::Status Act(const std::string& player, Action action);
  absl::Status Timeout(const std::string& player);
  // HE-44: grants the player to act the table's extra decision time
  // (config().extra_time_seconds), once per decision. FAILED_PRECONDITION
  // when the table grants none, it is not the player's turn, or the
  // decision already had it. The clock is the caller's.
  absl::StatusOr<ExtraTimeGranted> GrantExtraTime(const std::string& player);
  // True when the decision in progress already had its extra time.
  bool DecisionExtended() const;
  absl::Status Void();

  bool in_hand() const { return hand_.has_value() && !hand_->finished(); }
  // The hand in progress or the last one; null before the first.
  const Hand* hand() const { return hand_ ? &*hand_ : nullptr; }
  std::optional<int> SeatOf(const std::string& player) const;
  // Who sits where, ascending seat.
  struct SeatInfo {
    int seat = 0;
    std::string player;
    int64_t stack = 0;
    bool sitting_out = false;
    bool leaving = false;
  };
  std::vector<SeatInfo> Seats() const;
  std::optional<int64_t> Stack(const std::string& player) const;
  std::optional<SessionStats> Stats(const std::string& player) const;
  std::optional<LastHand> LastHandOf(const std::string& player) const;
  // HE-70/71: the player's current invitation or warning, if any.
  std::optional<SessionNotice> NoticeOf(const std::string& player) const;
  int64_t hand_number() const { return hand_number_; }
  int button() const { return button_; }
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

 private:
  struct Occupant {
    std::string player;
    int64_t stack = 0;
    bool sitting_out = false;
    bool leaving = false;
    int hands_without_bet = 0;
    // HE-70a/71: hands ended with the stack below the minimum bet and no
    // rebuy (1 invited, 2 warned; the next one ends the session).
    int short_hands = 0;
    bool rebuy_pending = false;  // SetRebuyPending
    std::optional<SessionNotice> notice;
    LeaveReason leave_reason = LeaveReason::kVoluntary;
    SessionStats stats;
    std::optional<LastHand> last;
  };

  Table() = default;
  Occupant* Find(const std::string& player, int* seat = nullptr);
  const Occupant* Find(const std::string& player, int* seat = nullptr) const;
  bool InCurrentHand(int seat) const;
  absl::Status AfterHandStep();
  void FoldLeavers();
  void Settle();
  PlayerLeft Remove(int seat, LeaveReason reason = LeaveReason::kVoluntary);
  // HE-70/71 after a settled hand: `invite` and `warn` are the counts at
  // which a notice goes out, a count past `warn` ends the session.
  // Returns true when it ends.
  bool NoteInactivity(Occupant& o, int count, int invite_at,
                      InvitationReason reason);
  // HE-7/HE-46: between hands, fewer than two players in play stops the
  // table, so its next start draws the button again.
  void NoteStopped();

  TableConfig config_;
  std::string table_id_;
  std::map<int, Occupant> seats_;  // by seat number
  std::optional<Hand> hand_;
  bool settled_ = true;
  int button_ = 0;
  bool needs_draw_ = true;
  int64_t hand_number_ = 0;
  // The decision that had its extra time (HE-44): hand, actions so far.
  int64_t extended_hand_ = 0;
  size_t extended_actions_ = 0;
  EventTail<TableEvent> events_;
};

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_TABLE_H_
