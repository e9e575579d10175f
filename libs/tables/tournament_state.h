// One tournament as the tournament service hosts it (services/common/
// table_host.h): a TableAggregate over the director
// (libs/games/tournament/director.h) whose every change is an event of the
// tournament's stream, live and on replay alike.
//
//  - Payments are sagas, as the banked tables' stakes: PaymentRequested
//    carries the transaction the director quoted (checked again on apply,
//    so that no event can post other money); the wallet posts it or
//    refuses; PaymentCaptured applies the registration, reentry, rebuy or
//    add-on (a rebuy or add-on of a player in a hand waits for the hand's
//    end; one the director refuses by then is paid back), PaymentRefused
//    forgets it, and a capture after the service gave up is paid back.
//  - Every other money movement the director decides (prizes, bounties,
//    the overlay, refunds) is derived as one TournamentMoney event; a
//    replay derives it again and checks it against the log's.
//  - Draws come from each event's draw_seed (seeded_draws.h); decks from
//    the hand's event (logged sealed). A hand that ends (played out, or
//    voided by a cancellation) derives a TournamentHandEnded revealing its
//    deck, before the money of the same input; a replay checks it too.
#ifndef BANCA_LIBS_TABLES_TOURNAMENT_STATE_H_
#define BANCA_LIBS_TABLES_TOURNAMENT_STATE_H_

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/tournament.pb.h"
#include "libs/cards/random.h"
#include "libs/games/tournament/director.h"
#include "libs/tables/seeded_draws.h"

namespace banca::tables {

class TournamentState {
 public:
  using Event = v1::TournamentEvent;

  static bool Opens(const Event& event) { return event.has_created(); }
  // INVALID_ARGUMENT for a bad id, name or settings (normalized in the
  // state's created()).
  static absl::StatusOr<std::unique_ptr<TournamentState>> Open(
      const Event& event);

  // Whether `event` is one the state derives (money, hand_ended).
  static bool IsDerived(const Event& event) {
    return event.has_money() || event.has_hand_ended();
  }

  // Decides an input event (every one but created and the derived, with a
  // kDrawSeedBytes draw_seed); the events it derives (the reveals of the
  // hands it ends, then its money) are appended to `derived`. On error
  // nothing changed.
  absl::Status Apply(const Event& event, std::vector<Event>* derived);
  // Replay: an input event applies as live; a derived event must be what
  // the inputs before it derived (DATA_LOSS otherwise). A missing reveal
  // (hand_ended) is not an error: logs written before hands revealed their
  // decks have none, and a reader with the deck key needs none.
  absl::Status ApplyLogged(const Event& event);

  const std::string& id() const { return id_; }
  int64_t version() const { return version_; }
  void ForgetTaken() {}  // the director keeps no event list
  const v1::TournamentCreated& created() const { return created_; }
  const games::tournament::Director& director() const { return *director_; }

  // A payment for `player` as a PaymentRequested event (the service sets
  // its stamp, request id and seed): FAILED_PRECONDITION when the director
  // would refuse it now, a payment of the player's is on its way, or the
  // tournament is full with those on their way.
  absl::StatusOr<Event> PaymentEvent(const std::string& player,
                                     v1::TournamentPaymentKind kind,
                                     bool use_ticket) const;
  const v1::PaymentRequested* PendingPayment(const std::string& saga) const;
  bool PaymentTimedOut(const std::string& saga) const {
    return timed_out_.contains(saga);
  }
  bool AnyPaymentPending() const { return !pending_.empty(); }
  // TN-29/30: the value of the tickets to this tournament that `player`
  // may still convert to cash, given what they won in satellites and in
  // freerolls (the service sums the places of the tournaments that paid
  // tickets here): the satellites' winnings, less what was converted, less
  // the entries paid by ticket beyond the freerolls' winnings (an entry
  // spends the freeroll tickets first: those never convert).
  int64_t ConvertibleTickets(const std::string& player, int64_t satellite_won,
                             int64_t freeroll_won) const;
  // The payment saga's outcome as applied: captured and applied (true),
  // refused or paid back (false); nullopt while pending or unknown.
  std::optional<bool> PaymentOutcome(const std::string& saga) const;
  // The payment saga the request `request_id` started, if it started one
  // (a client's retry answers from that saga's outcome).
  std::optional<std::string> SagaOfRequest(const std::string& request_id) const;

  // What the clock calls for at `now`: a decision timed out (HE-45,
  // TN-43), the next level (TN-45), a hand at a table that can deal (deck
  // from `rng`; not while a player there is buying chips), a sit and go's
  // start once full (TN-2r); nothing when nothing is due. Stamped `now`,
  // seeded from `rng`.
  std::optional<Event> Due(int64_t now, cards::RandomSource& rng) const;

  v1::TournamentInfo Info() const;
  // The table of `player` as they may see it (their own cards only); no
  // table when they have no seat (before the start, or out).
  absl::StatusOr<v1::TournamentTableView> ViewFor(
      const std::string& player) const;
  v1::TournamentStandings Standings() const;

 private:
  TournamentState() = default;

  absl::Status Input(const Event& event, std::vector<Event>* derived);
  absl::Status Dispatch(const Event& event);
  // What the payment moves: the director's quote, or TN-29's cash-out.
  absl::StatusOr<std::optional<games::tournament::MoneyMove>> Quote(
      const v1::PaymentRequested& r) const;
  absl::Status CheckPayment(const v1::PaymentRequested& r) const;
  absl::Status RequestPayment(const v1::PaymentRequested& r);
  absl::Status Captured(const std::string& saga);
  absl::Status Refused(const v1::PaymentRefused& r);
  // Applies a paid request to the director, or pays it back.
  void ApplyPaid(const v1::PaymentRequested& r);
  void RetryDeferred();
  void PayBack(const v1::PaymentRequested& r, const absl::Status& why);
  absl::Status Acted(const v1::TournamentActed& a);
  void NoteDecision(const std::string& table, int64_t at);
  // Replay: forgets the reveals expected next (a log from before reveals).
  void DropExpectedReveals();
  // The reveal of every hand the input ended.
  void DeriveReveals(std::vector<Event>* derived);
  // The director's moves (but the payments already posted) as a money
  // event.
  absl::Status DeriveMoney(std::vector<Event>* derived);

  std::string id_;
  v1::TournamentCreated created_;
  std::unique_ptr<games::tournament::Director> director_;
  SeededDraws* draws_ = nullptr;  // the event being applied's
  int64_t version_ = 0;

  int64_t sagas_ = 0;
  std::map<std::string, v1::PaymentRequested> pending_;
  std::map<std::string, v1::PaymentRequested> timed_out_;
  std::vector<v1::PaymentRequested> deferred_;  // captured, player in a hand
  std::map<std::string, bool> outcomes_;        // saga -> applied
  std::map<std::string, std::string> saga_of_request_;  // request id -> saga
  std::map<std::string, int64_t> cashed_out_;           // TN-29, by player
  // Payments already posted whose moves the director repeats.
  std::vector<v1::LedgerTransaction> posted_;
  // Money the event decided that is not the director's (paid back).
  std::vector<v1::LedgerTransaction> refunds_;
  int64_t money_events_ = 0;
  std::deque<Event> expected_;  // replay: derived events not logged yet

  // Hands dealt and not yet revealed, by table: number and deck in clear.
  struct DealtHand {
    int64_t number = 0;
    google::protobuf::RepeatedPtrField<std::string> deck;
  };
  std::map<std::string, DealtHand> dealt_;

  int64_t level_started_micros_ = 0;
  std::map<std::string, int64_t> decision_since_;  // by table
};

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_TOURNAMENT_STATE_H_
