// One round (jogada, SD-2e) of póquer sem descarte as a deterministic state
// machine: antes, the deal from a given deck, each player's fold or
// continue with the SD-31/32 timers, the bank's qualification and the
// settlement of every stake. Pure: no I/O, clock, RNG or threads; the
// service passes in the shuffled deck and the time. A rejected call
// returns a precise status and changes nothing.
#ifndef BANCA_LIBS_GAMES_STUD_NO_DRAW_ROUND_H_
#define BANCA_LIBS_GAMES_STUD_NO_DRAW_ROUND_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/cards/card.h"
#include "libs/games/stud_no_draw/config.h"
#include "libs/games/stud_no_draw/events.h"
#include "libs/games/stud_no_draw/settlement.h"

namespace banca::games::stud_no_draw {

enum class Phase : uint8_t {
  kBetting,    // SD-14: antes are taken.
  kDecisions,  // SD-20: cards are out; fold or continue.
  kFinished,   // Settled, or void.
};

enum class Decision : uint8_t { kPending, kFolded, kContinued };

// The latest time a round accepts (about 146,000 years of milliseconds),
// so that a deadline (now + at most a day) never overflows.
inline constexpr int64_t kMaxClockMs = int64_t{1} << 62;

// The cards the deal uses: one burn card plus five rounds of one card to
// each of `seats` players and one to the bank (SD-19).
int CardsNeeded(int seats);

struct SeatResult {
  int seat = 0;
  std::string player;
  bool dealt = false;
  Hand cards{};  // when dealt
  cards::HandValue value;
  Decision decision = Decision::kPending;
  std::optional<FoldCause> fold_cause;
  SeatSettlement settlement;
};

struct RoundResult {
  int64_t number = 0;
  bool voided = false;
  bool bank_revealed = false;
  Hand bank{};  // when revealed
  cards::HandValue bank_value;
  bool bank_qualifies = false;
  std::vector<SeatResult> seats;  // ascending seat
  int64_t staked = 0;
  int64_t returned = 0;
  // What the house won: staked - returned (negative when it lost).
  int64_t house_net() const { return staked - returned; }
};

// One seat as a viewer may see it.
struct SeatView {
  int seat = 0;
  std::string player;
  int64_t ante = 0;
  int64_t bet = 0;
  Decision decision = Decision::kPending;
  std::optional<Hand> cards;  // own cards, or turned by SD-27
  std::optional<SeatSettlement> settlement;
};

// What the player at `viewer` (0: an observer) may see of the round.
struct RoundView {
  int viewer = 0;
  int64_t number = 0;
  Phase phase = Phase::kBetting;
  bool voided = false;
  std::optional<cards::Card> bank_up;  // SD-19c
  std::optional<Hand> bank;            // SD-24, once revealed
  std::vector<SeatView> seats;         // ascending
  // SD-30: the decisions open to the viewer right now.
  bool can_ante = false;
  bool can_fold = false;
  bool can_continue = false;
  int64_t continue_bet = 0;            // SD-23: what continuing costs
  std::optional<int64_t> deadline_ms;  // the viewer's current time limit
  bool warned = false;                 // SD-31
};

class Round {
 public:
  // INVALID_ARGUMENT for a bad config or a round number below 1.
  static absl::StatusOr<Round> Open(const TableConfig& config, int64_t number);

  // SD-16: INVALID_ARGUMENT for a seat outside the table or an ante outside
  // [min_ante, max_ante]; FAILED_PRECONDITION once the betting period is
  // over or when the seat already has an ante.
  absl::Status PlaceAnte(int seat, const std::string& player, int64_t amount);
  // SD-14/15/19: closes the betting period and deals from `deck` (top
  // first): a burn card, then five times one card to each seat with a live
  // ante, ascending, and one to the bank. Only the cards needed are used.
  // FAILED_PRECONDITION without an ante or outside the betting period;
  // INVALID_ARGUMENT for a deck too short, over 52 cards or with a repeated
  // card, or a time before the last one.
  absl::Status Deal(const std::vector<cards::Card>& deck, int64_t now_ms);
  // SD-20/22/23. FAILED_PRECONDITION when the seat is not waiting for a
  // decision (not dealt in, decided, or the round not in decisions).
  absl::Status Fold(int seat);
  absl::Status Continue(int seat);
  // The seat's current time limit ran out (the service's timer): the first
  // time, SD-31's pre-warning and supplementary time from `now_ms`; the
  // second, SD-32's fold. Same preconditions as Fold.
  absl::Status Timeout(int seat, int64_t now_ms);
  // The clock moved to `now_ms`: warns and folds every seat whose limits
  // have passed (SD-31/32). INVALID_ARGUMENT for a time before the last one.
  absl::Status Tick(int64_t now_ms);
  // SD-34..36: the player's own connection failed. With an ante and no bet
  // the player is deemed to fold (SD-35); after the bet nothing changes
  // (SD-36). FAILED_PRECONDITION when the seat has no stake in an open
  // round.
  absl::Status Disconnect(int seat);
  // SD-33: a failure of the gaming system; every stake is returned.
  // FAILED_PRECONDITION once the round is finished.
  absl::Status Void();

  int64_t number() const { return number_; }
  Phase phase() const { return phase_; }
  bool finished() const { return phase_ == Phase::kFinished; }
  // Meaningful once finished().
  const RoundResult& result() const { return result_; }
  const std::vector<Event>& events() const { return events_; }
  // The events the viewer may receive (VisibleTo), in order.
  std::vector<Event> EventsFor(int seat) const;
  RoundView ViewFor(int seat) const;
  // The earliest pending time limit, for the service's timer.
  std::optional<int64_t> NextDeadline() const;
  // Seats with an ante, ascending.
  std::vector<int> SeatsInRound() const;
  bool HasStake(int seat) const;
  // The seat's stakes so far (0 when none).
  int64_t StakeOf(int seat) const;
  const TableConfig& config() const { return config_; }

 private:
  struct Seat {
    std::string player;
    int64_t ante = 0;  // 0: not in the round
    int64_t bet = 0;
    bool dealt = false;
    Hand cards{};
    Decision decision = Decision::kPending;
    std::optional<FoldCause> fold_cause;
    bool warned = false;
    int64_t deadline_ms = 0;
  };

  Round() = default;
  absl::Status CheckTime(int64_t now_ms) const;
  absl::Status CheckDeciding(int seat) const;
  void FoldSeat(int seat, FoldCause cause);
  // Warns or folds `seat` if its limit has passed at `now_ms_`.
  void ApplyTimers(int seat);
  void FinishIfDecided();
  void Settle(bool voided);
  Seat& At(int seat) { return seats_[seat - 1]; }
  const Seat& At(int seat) const { return seats_[seat - 1]; }

  TableConfig config_;
  int64_t number_ = 0;
  Phase phase_ = Phase::kBetting;
  int64_t now_ms_ = 0;
  bool has_time_ = false;
  bool cards_out_ = false;  // some seat was dealt, so the up card is shown
  std::array<Seat, kMaxSeats> seats_{};
  Hand bank_{};
  std::vector<Event> events_;
  RoundResult result_;
};

}  // namespace banca::games::stud_no_draw

#endif  // BANCA_LIBS_GAMES_STUD_NO_DRAW_ROUND_H_
