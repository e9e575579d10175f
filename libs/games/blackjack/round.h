// One blackjack round as a deterministic state machine: the deal from a
// recorded deck, insurance, the dealer's peek, each seat's decisions, the
// dealer's draws and the settlement of every stake. Pure: no I/O, clock,
// RNG or threads. A rejected call changes nothing.
//
// Deck order (docs/scenarios.md): first card to each seat in seat order, the
// dealer's up card, second card to each seat, the dealer's hole card; then
// the players' draws in play order, then the dealer's draws. A hand made by
// a split takes its second card when play reaches it.
#ifndef BANCA_LIBS_GAMES_BLACKJACK_ROUND_H_
#define BANCA_LIBS_GAMES_BLACKJACK_ROUND_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/cards/card.h"
#include "libs/games/blackjack/action.h"
#include "libs/games/blackjack/bet.h"
#include "libs/games/blackjack/events.h"
#include "libs/games/blackjack/hand_value.h"
#include "libs/games/blackjack/settings.h"

namespace banca::games::blackjack {

// Longest player id the engine accepts (it appears in error messages).
inline constexpr size_t kMaxPlayerIdBytes = 64;

struct SeatBet {
  int seat = 0;  // 1..settings.seats
  std::string player;
  int64_t stake = 0;  // the main bet, in [min_bet, max_bet]
  bool operator==(const SeatBet&) const = default;
};

struct RoundSetup {
  TableSettings settings;
  int64_t round_number = 0;
  std::vector<SeatBet> bets;      // 1..settings.seats, ascending seats
  std::vector<cards::Card> deck;  // draw order, top first; at most `decks`
                                  // copies of any card
};

struct RecordedDecision {
  int seat = 0;
  Action action;
  bool timeout = false;
  bool operator==(const RecordedDecision&) const = default;
};

// Everything needed to replay a round exactly.
struct RoundRecord {
  RoundSetup setup;
  std::vector<RecordedDecision> decisions;
  // Void() was called (BJ-27): a system failure after the decisions. A
  // round voided by a short shoe replays to its void without it.
  bool voided = false;
  std::string void_reason;
};

// One player hand. Public: blackjack deals player cards face up.
struct PlayerHand {
  int number = 1;  // 1 = the main hand; 2..4 in the order splits made them
  std::vector<cards::Card> cards;
  int64_t stake = 0;         // the main or split bet
  int64_t double_stake = 0;  // > 0 once doubled
  bool from_split = false;
  bool split_aces = false;  // one card each (unless re-split)
  bool stood = false;       // no more decisions: stand, double, 21, ...
  bool surrendered = false;
  Total total;
  bool blackjack = false;  // two-card 21 on an unsplit hand
  bool bust = false;
  bool operator==(const PlayerHand&) const = default;
};

enum class Phase : uint8_t { kInsurance, kPlayers, kOver };

// What the seat to act may do.
struct LegalActions {
  int seat = 0;            // 0: nobody is to act
  int hand = 0;            // the hand's number
  bool insurance = false;  // the insurance decision is pending
  int64_t max_insurance = 0;
  bool can_hit = false;
  bool can_stand = false;
  bool can_double = false;
  bool can_split = false;
  bool can_surrender = false;
  int64_t double_amount = 0;  // the stake a double or split adds
  int64_t split_amount = 0;
};

struct SeatState {
  int seat = 0;
  std::string player;
  int64_t main_stake = 0;
  bool insurance_decided = false;
  int64_t insurance = 0;
  std::vector<PlayerHand> hands;  // play order
  bool operator==(const SeatState&) const = default;
};

struct RoundResult {
  bool voided = false;
  std::string void_reason;
  std::vector<cards::Card> dealer_cards;  // everything dealt to the dealer
  Total dealer_total;
  bool dealer_blackjack = false;
  std::vector<SeatState> seats;  // as they ended
  // Ascending seat; in a seat: by hand number, each hand's stake then its
  // double; the insurance last.
  std::vector<BetResult> bets;
  int64_t staked = 0;
  int64_t returned = 0;
  int cards_used = 0;  // the deck's prefix the round dealt
  bool operator==(const RoundResult&) const = default;
};

// What one seat sees (seat 0: an observer). The hole card is in
// dealer_cards only once revealed.
struct RoundView {
  int viewer = 0;
  int64_t round_number = 0;
  Phase phase = Phase::kPlayers;
  std::vector<cards::Card> dealer_cards;
  bool hole_card_hidden = false;
  std::vector<SeatState> seats;
  LegalActions to_act;  // seat 0 when nobody; the options when the viewer
  bool voided = false;
};

class Round {
 public:
  // INVALID_ARGUMENT for bad settings, bets or deck.
  static absl::StatusOr<Round> Start(const RoundSetup& setup);
  // Start, then every recorded decision, then the void if recorded.
  static absl::StatusOr<RoundResult> Replay(const RoundRecord& record);

  // FAILED_PRECONDITION: the round is over, not this seat's turn, or the
  // insurance decision is pending (or over); INVALID_ARGUMENT: the action or
  // amount the rules forbid for this hand.
  absl::Status Act(int seat, Action action);
  // The decision time ran out: insurance is declined, a hand stands.
  absl::Status Timeout(int seat);
  // BJ-27/28: a failure of the gaming system; every stake goes back.
  absl::Status Void(std::string reason = "gaming system failure");

  bool finished() const { return phase_ == Phase::kOver; }
  Phase phase() const { return phase_; }
  LegalActions legal() const;
  // Meaningful once finished().
  const RoundResult& result() const { return result_; }
  const std::vector<Event>& events() const { return events_; }
  const std::vector<RecordedDecision>& decisions() const { return decisions_; }
  RoundRecord record() const;
  RoundView ViewFor(int seat) const;
  const SeatState* seat_state(int seat) const;
  const TableSettings& settings() const { return setup_.settings; }
  // The dealer's face-up card (public from the deal on).
  cards::Card up_card() const { return dealer_[0]; }
  int64_t round_number() const { return setup_.round_number; }
  // Stakes placed so far (main bets included).
  int64_t staked() const;

 private:
  Round() = default;

  absl::Status CheckTurn(int seat) const;
  absl::Status ValidatePlay(const SeatState& s, const PlayerHand& h,
                            const Action& action) const;
  void ApplyInsurance(int64_t amount, bool timeout);
  void ApplyPlay(Action action, bool timeout);
  // False when the deck is exhausted: the round is then void (BJ-27).
  bool Draw(cards::Card* card);
  void AfterInsurance();
  // Deals split hands their second card and moves on to the next hand that
  // needs a decision, or to the dealer.
  void Advance();
  bool HandNeedsDecision(const SeatState& s, const PlayerHand& h) const;
  bool CanSplit(const SeatState& s, const PlayerHand& h) const;
  void DealerPlays();
  void RevealHole();
  void Settle();
  void VoidInternal(std::string reason);
  void Finish();
  std::string Name(int index) const;
  int IndexOf(int seat) const;

  RoundSetup setup_;
  Phase phase_ = Phase::kPlayers;
  std::vector<SeatState> seats_;
  std::vector<cards::Card> dealer_;  // [up, hole, draws...]
  bool hole_revealed_ = false;
  size_t next_card_ = 0;
  int seat_index_ = 0;  // insurance and play: whose turn
  int hand_index_ = 0;  // play: which hand of that seat
  std::vector<Event> events_;
  std::vector<RecordedDecision> decisions_;
  RoundResult result_;
  std::string system_void_;  // the reason given to Void(), if called
};

}  // namespace banca::games::blackjack

#endif  // BANCA_LIBS_GAMES_BLACKJACK_ROUND_H_
