// The tournament director (Reg. 810/2015): one deterministic state machine
// for every format of TN-7 — registration, the start, blind levels, rebuys,
// add-ons and reentries with their windows, the hands at every table (the
// poker engine, with chips), eliminations and places, balancing, hand-for-
// hand, prizes, bounties, guarantees, tickets, cancellation and the finish.
//
// Pure like the game engines: no I/O, clock or RNG. Time comes in as
// NextLevel() calls, the cards as each hand's deck, and every seat draw
// (late registration, reentry, balancing: TN-39/48) from the DrawSource
// the owner gives (the service's CSPRNG; a fixed draw in scenarios).
//
// Every command decides fully before it changes anything: an error leaves
// the director as it was. Money is never moved here: a command queues
// MoneyMoves (money_move.h) that the owner takes with TakeMoves() and
// posts; if the ledger refuses one, the owner drops the command by
// restoring its copy of the director (Director is a value type).
//
// Rules read as the digest's "Decisions for banca" → Tournaments; what
// the regulation leaves open is marked "banca:" in director.cc and listed
// in docs/tournaments.md.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_DIRECTOR_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_DIRECTOR_H_

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/node_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/cards/card.h"
#include "libs/games/poker/action.h"
#include "libs/games/poker/hand.h"
#include "libs/games/tournament/config.h"
#include "libs/games/tournament/entry.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/money_move.h"
#include "libs/games/tournament/same_hand.h"

namespace banca::games::tournament {

enum class Phase { kRegistering, kRunning, kFinished, kCancelled };
std::string_view PhaseName(Phase phase);

// Returns an index in 0..n − 1 (n >= 1): a uniform draw in production.
using DrawSource = std::function<int(int n)>;

// A table of the seat draw (TN-39) as given to Start: its name, who sits
// where (seat 1..seats_per_table) and the first button (TN-40).
struct StartTable {
  std::string name;
  std::map<std::string, int> seats;
  int button = 0;
};

// One finish: a player's place (ex aequo players share the best place of
// their group, TN-51) and the prize credited (0 outside the paid places).
struct Standing {
  std::string player;
  int place = 0;
  int64_t prize = 0;
};

class Director {
 public:
  // INVALID_ARGUMENT for a bad id (an account id) or configuration
  // (CheckConfig).
  static absl::StatusOr<Director> Create(std::string id,
                                         TournamentConfig config,
                                         DrawSource draw);

  // --- Registration (TN-14 to TN-25) ---------------------------------
  // One live entry per player (TN-19), paid from cash or from a ticket held
  // for this tournament (TN-16). Open before the start and, with late
  // registration, up to its level (TN-23); a late entrant is seated by draw.
  absl::Status Register(const std::string& player, Source source);
  // Before the start only: the buy-in back in full (TN-24/25).
  absl::Status Unregister(const std::string& player);
  // The seat draw given (TN-39): every registered player seated once, 2 or
  // more at each table, table sizes within one (TN-47), the button on an
  // occupied seat. FAILED_PRECONDITION below min_players (TN-7h).
  absl::Status Start(absl::Span<const StartTable> tables);
  // The same with the draw made here: the entrants in the order the draw
  // source permutes them, the fewest tables (seat_draw.h), each button
  // drawn.
  absl::Status StartWithDraw();

  // --- Chips bought (TN-2a/j/k, TN-23, TN-31) -------------------------
  absl::Status Rebuy(const std::string& player);
  absl::Status AddOn(const std::string& player);
  absl::Status Reentry(const std::string& player);

  // --- Time (TN-45/46, TN-52) ----------------------------------------
  // The next blind level starts; windows close as it passes them (and the
  // prizes are fixed once none is open, TN-10). At a timed tournament's
  // last level, the time is up: each table plays one more orbit (TN-52).
  absl::Status NextLevel();

  // --- Play (TN-26/27, TN-40–44, TN-49) -----------------------------
  // A hand at `table` with `deck` (top first). `button`: the seat the
  // caller expects the button on (checked; 0 = not checked).
  absl::Status Deal(const std::string& table, std::vector<cards::Card> deck,
                    int button);
  absl::Status Act(const std::string& player, poker::Action action);
  // The player's time ran out: check, else fold (HE-45), then sit out
  // (TN-43).
  absl::Status Timeout(const std::string& player);
  // The player lost or regained the connection (TN-26/27): while away,
  // blinds are posted for them and their hands folded.
  absl::Status SetAway(const std::string& player, bool away);

  // --- Cancellation (TN-35 to TN-38) ---------------------------------
  absl::Status Cancel();

  // What a payment would move now, checked as the command would check it
  // (none for a freeroll's entry), without changing anything: the service
  // asks the wallet for it before the command (a payment saga). The move's
  // entry number is 0.
  absl::StatusOr<std::optional<MoneyMove>> Quote(const std::string& player,
                                                 PaymentKind kind,
                                                 Source source) const;
  // TN-29: an entry won to this tournament, converted to cash — the price
  // of an entry (buy-in, fee and bounty) from the player's tickets to their
  // cash. FAILED_PRECONDITION unless the player already entered this
  // tournament with an entry won (a ticket), or when an entry costs
  // nothing. That the ticket account holds the price is the wallet's
  // check; that the entry was not won in a freeroll (TN-30), the
  // service's, which sees the tournaments that paid the tickets.
  absl::StatusOr<MoneyMove> QuoteTicketCashOut(const std::string& player) const;
  // Whether a hand could be dealt at `table` now (Deal's checks but the
  // deck's): OK, or the reason.
  absl::Status CanDeal(const std::string& table) const {
    return CheckCanDeal(table);
  }
  // Whether `player` is dealt in the hand in progress at their table.
  bool InHand(const std::string& player) const;
  // Whether `player` is away (TN-26/27/43).
  bool Away(const std::string& player) const;
  // Players registered (before the start) or who took part (after).
  int entrants() const { return static_cast<int>(players_.size()); }
  bool time_over() const { return time_over_; }

  // The money movements queued since the last call, in order.
  std::vector<MoneyMove> TakeMoves();
  // What happened besides hands, as text lines for the log (eliminations,
  // moves, levels, prizes), since the last call.
  std::vector<std::string> TakeNotices();

  // --- Queries --------------------------------------------------------
  const std::string& id() const { return id_; }
  const TournamentConfig& config() const { return config_; }
  Phase phase() const { return phase_; }
  int level() const { return level_; }  // 0-based
  // Prize parts paid in so far (refunds taken out), plus the overlay.
  int64_t prize_pool() const { return collected_ + overlay_; }
  int64_t overlay() const { return overlay_; }
  bool prizes_fixed() const { return prizes_fixed_; }
  const std::vector<int64_t>& prizes() const { return prize_amounts_; }
  // Players with a live entry (in play, or busted with a rebuy open).
  int players_left() const { return live_players_; }
  // Chips of `player`: in the hand in progress if any; 0 if not playing.
  int64_t Stack(const std::string& player) const;
  // The table a player sits at ("" if none).
  std::string TableOf(const std::string& player) const;
  // Every decided place, best first.
  std::vector<Standing> Standings() const;
  bool hand_for_hand() const;
  // The table names, and the hand at one (the last one played, or the one
  // in progress; nullptr before the first).
  std::vector<std::string> TableNames() const;
  // The tables not broken, by number: those that may still deal.
  std::vector<std::string> TablesInPlay() const;
  const poker::Hand* HandAt(const std::string& table) const;
  // Who sits where at `table` (seats[s]: seat s + 1, "" when empty);
  // nullptr for an unknown table.
  const std::vector<std::string>* SeatsAt(const std::string& table) const;
  int64_t HandsPlayedAt(const std::string& table) const;
  int64_t hands_played() const { return hands_played_; }
  int64_t balancing_moves() const { return balancing_moves_; }
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  // A player out of chips at the end of a hand.
  struct PendingBust {
    std::string player;
    std::string table;
    int64_t hand = 0;            // the table's hand number
    int64_t starting_stack = 0;  // chips when that hand began (TN-50)
    int order = 0;               // table number × 100 + order from the button
    std::vector<SeatedPlayer> pot_winners;  // of their last pot (TN-7p)
  };
  // Players out in one hand (or one hand-for-hand round), placed together.
  struct BustGroup {
    std::vector<SameHandBust> busts;
    bool credited = false;  // its prizes paid (once fixed)
  };
  struct PlayerState {
    int live_entry = -1;  // into entries_; -1: none (out or not entered)
    std::string table;    // "" when not seated
    int seat = 0;
    int64_t chips = 0;  // at the start of the hand in progress
    int rebuys = 0;     // on the live entry
    int addons = 0;
    int reentries = 0;
    bool away = false;                  // TN-26/27/43
    std::optional<PendingBust> busted;  // a rebuy still open to them
    int64_t prize = 0;                  // credited
  };
  struct TableState {
    std::string name;
    int number = 0;
    std::vector<std::string> seats;  // seats[s]: seat s + 1, "" if empty
    int button = 0;  // the last hand's button; the first one's before it
    bool dealt = false;
    int64_t hands = 0;
    std::optional<poker::Hand> hand;
    int players = 0;                   // seats taken
    bool closed = false;               // broken (TN-47)
    std::set<std::string> orbit_left;  // TN-52: still due the button
  };

  Director() = default;

  // Registration and payments.
  absl::Status CheckCanRegister(const std::string& player) const;
  absl::StatusOr<PaymentSplit> Split(PaymentKind kind) const;
  MoneyMove MakePaymentMove(const std::string& player, int entry, MoveKind kind,
                            const PaymentSplit& split, Source source) const;
  absl::Status CheckReentry(const std::string& player) const;
  void Pay(const std::string& player, int entry, MoveKind kind,
           const PaymentSplit& split, Source source);
  int NewEntry(const std::string& player, const PaymentSplit& split,
               PaymentKind kind, Source source);
  absl::Status CheckChipPurchase(const std::string& player,
                                 const std::optional<ChipPurchase>& offer,
                                 bool addon) const;
  void BuyChips(const std::string& player, const ChipPurchase& offer,
                PaymentKind kind);

  // Seats.
  void SeatByDraw(const std::string& player);
  void SitAt(TableState& t, int seat, const std::string& player);
  void Unseat(const std::string& player);
  void CountTable(const TableState& t, int delta);
  // No move to make and no table to break (Rebalance would draw nothing).
  bool Balanced() const;
  int NextBigBlindSeat(const TableState& t) const;
  void Rebalance();

  // Hands.
  absl::Status CheckCanDeal(const std::string& table) const;
  void ActForAway(TableState& t);
  void EndHandIfOver(TableState& t);
  void EndHand(TableState& t);
  bool AnyHandInProgress() const;
  absl::StatusOr<std::pair<TableState*, int>> PlayerInHand(
      const std::string& player);

  // Eliminations, places, prizes.
  bool ChipsCanBeBought(const std::string& player) const;
  void Bust(const PendingBust& bust);
  void ReturnOwnBounty(const std::string& player);
  // Out of chips with a rebuy once open: out now, at `table` ("" = all);
  // with `only_without_offer`, only those no rebuy or add-on is open to.
  void EliminatePending(const std::string& table, bool only_without_offer);
  void FlushBusts();
  void PlaceGroup(std::vector<PendingBust> busts);
  // The best place of each group from `from` on (groups_[from..]).
  std::vector<int> FirstPlaces(size_t from) const;
  bool WindowsClosed() const;
  void MaybeFixPrizes();
  void FixPrizesNow();
  void CreditDecidedPrizes();
  void MaybeFinish();
  void Finish();

  std::string id_;
  TournamentConfig config_;
  DrawSource draw_;
  Phase phase_ = Phase::kRegistering;
  int level_ = 0;
  bool time_over_ = false;  // timed tournaments (TN-52)

  std::vector<Entry> entries_;
  // Hashed: a hand looks players up by name dozens of times. Where the
  // order matters, it is by name (out_of_chips_) or by table number.
  absl::node_hash_map<std::string, PlayerState> players_;
  absl::node_hash_map<std::string, TableState> tables_;
  std::vector<std::string> table_order_;  // by table number
  // Kept as they change, so that a hand costs no scan of every player or
  // table: the tables not broken (their numbers, ascending) and how many
  // of them seat k players, the players seated, the live entries, the
  // players out of chips with a rebuy open (PlayerState::busted), and the
  // tables with a hand dealt and not yet ended.
  std::vector<int> in_play_;
  std::array<int, kMaxSeatsPerTable + 1> tables_seating_{};
  int seated_ = 0;
  int live_players_ = 0;
  std::set<std::string> out_of_chips_;
  int hands_in_progress_ = 0;

  int64_t collected_ = 0;  // prize parts in the pool
  int64_t overlay_ = 0;
  int64_t prizes_credited_ = 0;
  bool prizes_fixed_ = false;
  std::vector<int64_t> prize_amounts_;

  std::vector<BustGroup> groups_;      // eliminations, first out first
  std::vector<PendingBust> unplaced_;  // busts waiting for their group
  bool h4h_ = false;                   // this round is hand-for-hand
  std::set<std::string> h4h_dealt_;    // tables dealt in this round
  bool balance_due_ = false;           // a player left a table

  int64_t hands_played_ = 0;
  int64_t balancing_moves_ = 0;
  std::vector<MoneyMove> moves_;
  std::vector<std::string> notices_;
};

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_DIRECTOR_H_
