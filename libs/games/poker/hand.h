// One hand of community-card poker (hold'em, Omaha, synthetic) as a
// deterministic state machine: blinds and straddles, the deal from a given
// deck, betting rounds, side pots, showdown, rake and void. Pure: no I/O,
// clock, RNG or threads. A rejected call changes nothing.
#ifndef BANCA_LIBS_GAMES_POKER_HAND_H_
#define BANCA_LIBS_GAMES_POKER_HAND_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/cards/card.h"
#include "libs/games/poker/action.h"
#include "libs/games/poker/events.h"
#include "libs/games/poker/hand_record.h"
#include "libs/games/poker/table_config.h"

namespace banca::games::poker {

// A HandRecord before any decision.
struct HandSetup {
  TableConfig config;
  std::string table_id;
  int64_t hand_number = 0;
  int button = 0;                     // a seat in `players`
  std::vector<SeatedPlayer> players;  // 2..config.seats, ascending seats
  std::vector<cards::Card> deck;      // draw order, top first; distinct

  static HandSetup FromRecord(const HandRecord& record);
};

// What the player to act may do. Amounts for bet/raise are "to" totals of
// the player's bet in the round, as Action::amount.
struct LegalActions {
  int seat = 0;  // 0: nobody is to act
  bool can_fold = false;
  bool can_check = false;
  bool can_call = false;
  int64_t call_amount = 0;  // chips a call adds (all in when short)
  bool can_bet = false;     // nothing to call yet this round
  bool can_raise = false;
  int64_t min_raise_to = 0;  // bet or raise; < min only as an all-in
  int64_t max_raise_to = 0;
  int64_t all_in_to = 0;  // the player's bet if they push every chip
  bool can_all_in = false;
  // Synthetic poker, before the cards (SY-51).
  bool can_straddle = false;
  bool can_restraddle = false;
  int64_t straddle_to = 0;
};

struct PotResult {
  int64_t amount = 0;
  int64_t rake = 0;
  std::vector<int> eligible;
  std::vector<SeatAmount> shares;  // winners, odd chips first (clockwise)
  bool operator==(const PotResult&) const = default;
};

struct PlayerResult {
  int seat = 0;
  int64_t start_stack = 0;
  int64_t end_stack = 0;
  int64_t bet = 0;  // put in and not returned (HE-65 "amounts bet")
  int64_t won = 0;  // pot shares
  bool folded = false;
  bool shown = false;
  bool operator==(const PlayerResult&) const = default;
};

struct HandResult {
  bool voided = false;
  std::vector<PotResult> pots;
  std::vector<PlayerResult> players;  // ascending seat
  std::vector<cards::Card> board;
  std::vector<int> showdown_order;  // empty when the hand ended by folds
  int64_t rake = 0;
  bool operator==(const HandResult&) const = default;
};

// What one seat may see (DESIGN invariant 7): its own hole cards, and other
// players' only once shown at showdown. Seat 0 is an observer.
struct PlayerView {
  int seat = 0;
  std::string player;
  int64_t stack = 0;
  int64_t bet = 0;          // this round
  int64_t contributed = 0;  // this hand
  bool folded = false;
  bool all_in = false;
  HoleCards cards;  // empty unless visible to the viewer
};

struct SeatView {
  int viewer = 0;
  int button = 0;
  int round = 0;  // 0 before the cards (straddles), 1.. betting rounds
  bool finished = false;
  bool voided = false;
  std::vector<PlayerView> players;
  std::vector<cards::Card> board;
  int64_t pot = 0;  // every chip in the middle, bets of this round included
  std::optional<int> to_act;
  LegalActions legal;  // filled when the viewer is to act
};

class Hand {
  // Only Start builds a hand (in place, see there); the key keeps the
  // constructor that absl::StatusOr needs out of everyone else's reach.
  struct Key {
    explicit Key() = default;
  };

 public:
  explicit Hand(Key) {}

  // INVALID_ARGUMENT for a bad config, seats, stacks or deck.
  static absl::StatusOr<Hand> Start(const HandSetup& setup);
  // Start, then every recorded decision, then the void if recorded.
  static absl::StatusOr<HandResult> Replay(const HandRecord& record);

  // FAILED_PRECONDITION "not <player>'s turn" (or hand over);
  // INVALID_ARGUMENT for an action or amount the rules forbid.
  absl::Status Act(int seat, Action action);
  // HE-45: the decision time ran out: check when allowed, else fold.
  absl::Status Timeout(int seat);
  // HE-72/SY-73: a failure of the gaming system; every bet goes back.
  absl::Status Void();

  bool finished() const { return finished_; }
  std::optional<int> to_act() const {
    if (finished_ || to_act_ < 0) return std::nullopt;
    return seats_[to_act_].seat;
  }
  LegalActions legal() const;
  // Meaningful once finished().
  const HandResult& result() const { return result_; }
  HandRecord record() const;
  const std::vector<Event>& events() const { return events_; }
  // The decisions so far, as record() will list them.
  const std::vector<RecordedAction>& actions() const { return actions_; }
  SeatView ViewFor(int seat) const;
  bool dealt_in(int seat) const { return IndexOf(seat) >= 0; }
  // 1-based betting round; 0 while straddles are offered.
  int round() const { return round_; }
  const TableConfig& config() const { return setup_.config; }

 private:
  struct Seat {
    int seat = 0;
    int64_t start_stack = 0;
    int64_t stack = 0;
    int64_t bet = 0;          // this round
    int64_t contributed = 0;  // this hand
    bool folded = false;
    bool all_in = false;
    bool needs_action = false;
    bool may_raise = false;  // a short all-in does not reopen (HE gap 5)
    bool shown = false;
    HoleCards hole;
  };
  enum class Phase : uint8_t { kStraddle, kRestraddle, kBetting, kOver };

  // The bet/raise window of the player at `index` ("to" amounts): min_to
  // may exceed the stack (then only an all-in below it), max_to is the
  // limit's maximum before the stack.
  struct Bounds {
    bool may_raise = false;
    int64_t min_to = 0;
    int64_t max_to = 0;
  };
  Bounds BetBounds(int index) const;
  absl::Status Validate(int index, const Action& action, int64_t* put_in,
                        bool* full_raise) const;
  // Validate for a bet, a raise or an all-in.
  absl::Status ValidateRaise(int index, const Action& action, int64_t* put_in,
                             bool* full_raise) const;
  absl::Status ActImpl(int seat, Action action, bool timeout);
  absl::Status ApplyStraddle(int index, const Action& action);
  void Apply(int index, const Action& action, int64_t put_in, bool full_raise,
             bool timeout);
  void PostBlindsAndOffers();
  void DealHoleCards();
  void StartRound(int round);
  int64_t HighestBetOfOthers(int index) const;
  bool SomeoneCanAnswer(int index) const;
  void AfterAction(int index);
  void CloseRound();
  void FinishByFold();
  void Showdown();
  void Award(const std::array<cards::HandValue, kMaxSeats>& values);
  void Finish(bool voided);
  void CheckChips() const;
  template <typename E>
  void Emit(const E& e) {
    // In place: an Event is as large as its largest alternative (a pot's
    // shares), and a temporary variant would copy all of it.
    events_.emplace_back(std::in_place_type<E>, e);
  }
  int Next(int index) const { return index + 1 == n_ ? 0 : index + 1; }
  int IndexOf(int seat) const {
    return seat >= 1 && seat <= kMaxSeats ? index_of_[seat] : -1;
  }
  int Live() const;    // not folded
  int CanBet() const;  // not folded, not all in
  int64_t PotTotal() const;
  int64_t RaiseSize() const;  // fixed limit: this round's bet size
  int RaisesLeft() const;
  std::string Name(int index) const;

  HandSetup setup_;
  std::vector<RecordedAction> actions_;
  std::vector<Event> events_;
  HandResult result_;
  std::array<Seat, kMaxSeats> seats_{};
  std::array<int8_t, kMaxSeats + 1> index_of_{};  // by seat; -1: not dealt in
  int n_ = 0;
  int button_ = 0;  // indexes into seats_
  int sb_ = 0;
  int bb_ = 0;
  int next_card_ = 0;
  BoardCards board_;
  Phase phase_ = Phase::kBetting;
  int round_ = 0;
  int num_rounds_ = 4;
  int to_act_ = -1;
  int64_t current_bet_ = 0;  // the highest bet this round
  int64_t min_raise_ = 0;    // the last full raise increment
  int raises_ = 0;           // this round, the opening bet excluded
  int last_aggressor_ = -1;  // this round
  int previous_aggressor_ = -1;
  int showdown_starter_ = -1;
  bool round_had_action_ = false;
  int64_t collected_ = 0;  // bets of finished rounds
  int64_t total_chips_ = 0;
  bool finished_ = false;
};

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_HAND_H_
