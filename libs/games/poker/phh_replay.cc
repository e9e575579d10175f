#include "libs/games/poker/phh_replay.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "libs/cards/card.h"
#include "libs/cards/evaluator.h"
#include "libs/cards/showdown.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/poker/events.h"
#include "libs/games/poker/hand.h"
#include "libs/games/poker/phh.h"

namespace banca::games::poker {
namespace {

using cards::Card;

// An error about one entry of `actions`: INVALID_ARGUMENT, "action N 'TEXT':
// REASON", as ReadPhh words its own.
absl::Status EntryError(const PhhHand& hand, int entry, std::string_view reason,
                        PhhActionError* failure) {
  const std::string& text = hand.actions[entry];
  if (failure != nullptr) {
    *failure = PhhActionError{entry, text, std::string(reason)};
  }
  return absl::InvalidArgumentError(
      absl::StrCat("action ", entry, " '", text, "': ", ToAbsl(reason)));
}

// The engine needs n * hole + 5 distinct cards. A file without
// `_banca_deck` gives only the dealt ones (in banca's draw order): the rest
// of the deck follows in the fixed order 2c 2d 2h 2s 3c ... As. Those cards
// are never dealt in a complete hand (the replay checks that the engine's
// board is exactly the file's).
std::vector<Card> CompleteDeck(std::vector<Card> deck) {
  cards::CardSet in = cards::CardSet::Of(deck);
  for (Card c : cards::StandardDeck()) {
    if (!in.Contains(c)) deck.push_back(c);
  }
  return deck;
}

// The engine's current bet this round is above zero pre-flop (the big
// blind) and after any bet on a later street.
bool FacingBet(const Hand& hand) {
  const SeatView view = hand.ViewFor(0);
  if (view.round <= 1) return true;
  for (const PlayerView& p : view.players) {
    if (p.bet > 0) return true;
  }
  return false;
}

// PHH has one verb for check-or-call (`cc`) and one for bet-or-raise
// (`cbr TO`); ReadPhh's guess is made again against the engine's state so
// that banca's own rules (a short big blind, HE-52) decide.
Action EngineAction(const Hand& hand, const RecordedAction& ra) {
  Action a = ra.action;
  switch (a.type) {
    case ActionType::kCheck:
    case ActionType::kCall:
      if (hand.to_act() == ra.seat) {
        a.type =
            hand.legal().can_check ? ActionType::kCheck : ActionType::kCall;
      }
      break;
    case ActionType::kBet:
    case ActionType::kRaise:
      a.type = FacingBet(hand) ? ActionType::kRaise : ActionType::kBet;
      break;
    default:
      break;
  }
  return a;
}

class Replayer {
 public:
  Replayer(PhhHand hand, PhhActionError* failure)
      : hand_(std::move(hand)), failure_(failure) {}

  absl::StatusOr<PhhReplay> Run(const PhhExtras& extras) {
    const HandRecord& r = hand_.record;
    const int n = static_cast<int>(r.players.size());
    int button = 0;
    for (int i = 0; i < n; ++i) {
      if (r.players[i].seat == r.button) button = i;
    }
    for (int i = 0; i < n; ++i) order_.push_back((button + 1 + i) % n);
    if (!extras.finishing_stacks.empty() &&
        static_cast<int>(extras.finishing_stacks.size()) != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("finishing_stacks has ", extras.finishing_stacks.size(),
                       " entries for ", n, " players"));
    }

    HandSetup setup = HandSetup::FromRecord(r);
    setup.deck = CompleteDeck(std::move(setup.deck));
    ASSIGN_OR_RETURN(Hand hand, AsInvalidArgument(Hand::Start(setup),
                                                  "the hand cannot start: "));

    size_t next_action = 0;
    size_t next_board = 0;
    size_t board_in_file = 0;
    for (int entry = 0; entry < static_cast<int>(hand_.actions.size());
         ++entry) {
      if (next_action < hand_.action_entries.size() &&
          hand_.action_entries[next_action] == entry) {
        const RecordedAction& ra = r.actions[next_action++];
        RETURN_IF_ERROR(Act(hand, ra, entry));
      } else if (next_board < hand_.board_deals.size() &&
                 hand_.board_deals[next_board].entry == entry) {
        const PhhBoardDeal& deal = hand_.board_deals[next_board++];
        board_in_file += deal.cards.size();
        const std::vector<Card> board = hand.ViewFor(0).board;
        if (board.size() < board_in_file) {
          return EntryError(
              hand_, entry,
              hand.finished()
                  ? absl::StrCat("the hand is over after ", board.size(),
                                 " board cards")
                  : absl::StrCat("board cards dealt before the betting round "
                                 "is over (",
                                 board.size(), " dealt so far)"),
              failure_);
        }
        if (!std::equal(deal.cards.begin(), deal.cards.end(),
                        board.begin() + (board_in_file - deal.cards.size()))) {
          return EntryError(
              hand_, entry,
              absl::StrCat("the engine dealt ", cards::CardsToString(board),
                           " from the recorded deck"),
              failure_);
        }
      }
      // Hole cards and shown cards (`d dh`, `sm`) were read into the deck.
    }
    if (r.voided) {
      if (hand.finished()) {
        return absl::InvalidArgumentError(
            "_banca_voided = true, but the actions finish the hand");
      }
      RETURN_IF_ERROR(hand.Void());
    }
    if (!hand.finished()) {
      const int seat = hand.to_act().value_or(0);
      return absl::InvalidArgumentError(
          absl::StrCat("the actions end before the hand is over: ",
                       Describe(IndexOfSeat(seat)), " is to act"));
    }
    const HandResult& result = hand.result();
    if (result.board.size() != board_in_file) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the hand deals ", result.board.size(),
          " board cards, the file deals ", board_in_file,
          board_in_file < result.board.size() ? " (the run-out is missing)"
                                              : ""));
    }
    return Result(hand, extras);
  }

 private:
  absl::Status Act(Hand& hand, const RecordedAction& ra, int entry) {
    absl::Status st;
    if (ra.timeout) {
      st = hand.Timeout(ra.seat);
      if (st.ok()) {
        const ActionType did = hand.actions().back().action.type;
        const bool file_folds = ra.action.type == ActionType::kFold;
        if ((did == ActionType::kFold) != file_folds) {
          return EntryError(
              hand_, entry,
              absl::StrCat("the time ran out and the engine chose to ",
                           ToAbsl(ActionTypeName(did)), " (HE-45)"),
              failure_);
        }
      }
    } else {
      st = hand.Act(ra.seat, EngineAction(hand, ra));
    }
    if (st.ok()) return st;
    // Out of turn or after the end is the file's fault as much as a bad
    // amount: INVALID_ARGUMENT for all, with the engine's reason.
    return EntryError(hand_, entry, ToStd(st.message()), failure_);
  }

  int IndexOfSeat(int seat) const {
    const auto& players = hand_.record.players;
    for (int i = 0; i < static_cast<int>(players.size()); ++i) {
      if (players[i].seat == seat) return i;
    }
    return -1;
  }

  PhhSeatRef Ref(int record_index) const {
    PhhSeatRef ref;
    const SeatedPlayer& sp = hand_.record.players[record_index];
    ref.seat = sp.seat;
    if (hand_.has_player_names) ref.player = sp.player;
    for (int p = 0; p < static_cast<int>(order_.size()); ++p) {
      if (order_[p] == record_index) ref.phh_name = absl::StrCat("p", p + 1);
    }
    return ref;
  }

  std::string Describe(int record_index) const {
    if (record_index < 0) return "nobody";
    const PhhSeatRef ref = Ref(record_index);
    return absl::StrCat(ref.phh_name, " (seat ", ref.seat,
                        ref.player.empty() ? "" : ", ", ref.player, ")");
  }

  PhhReplay Result(const Hand& hand, const PhhExtras& extras) const {
    const HandRecord& r = hand_.record;
    const HandResult& result = hand.result();
    const cards::Game game = r.config.variant == Variant::kOmaha
                                 ? cards::Game::kOmaha
                                 : cards::Game::kHoldem;
    const int n = static_cast<int>(r.players.size());
    // By record index (ascending seat).
    std::vector<std::vector<Card>> hole(n);
    std::vector<cards::HandValue> value(n);
    for (const Event& e : hand.events()) {
      if (const auto* dealt = std::get_if<HoleCardsDealt>(&e)) {
        const int i = IndexOfSeat(dealt->seat);
        hole[i].assign(dealt->cards.begin(), dealt->cards.end());
      } else if (const auto* shown = std::get_if<ShowdownShown>(&e)) {
        value[IndexOfSeat(shown->seat)] = shown->value;
      }
    }
    auto describe = [&](int i) {
      return value[i].valid() ? cards::DescribeHand(
                                    value[i], cards::Language::kEnglish, game)
                              : std::string();
    };

    PhhReplay out;
    out.variant = hand_.variant;
    out.board = result.board;
    out.showdown = !result.showdown_order.empty();
    out.voided = result.voided;
    out.rake = result.rake;
    for (int p = 0; p < n; ++p) {
      const int i = order_[p];
      const PlayerResult* pr = nullptr;
      for (const PlayerResult& x : result.players) {
        if (x.seat == r.players[i].seat) pr = &x;
      }
      PhhReplayPlayer player;
      player.who = Ref(i);
      player.starting_stack = r.players[i].stack;
      player.finishing_stack = pr != nullptr ? pr->end_stack : 0;
      player.net = player.finishing_stack - player.starting_stack;
      player.hole_cards = hole[i];
      player.folded = pr != nullptr && pr->folded;
      player.shown = pr != nullptr && pr->shown;
      if (player.shown) player.hand = describe(i);
      out.players.push_back(std::move(player));
    }
    for (const PotResult& pot : result.pots) {
      PhhReplayPot p;
      p.amount = pot.amount;
      p.rake = pot.rake;
      for (const SeatAmount& share : pot.shares) {
        p.winners.push_back({Ref(IndexOfSeat(share.seat)), share.amount});
      }
      if (out.showdown && !pot.shares.empty()) {
        p.hand = describe(IndexOfSeat(pot.shares[0].seat));
      }
      out.pots.push_back(std::move(p));
    }
    if (!out.pots.empty()) out.winning_hand = out.pots[0].hand;

    out.file_has_finishing_stacks = !extras.finishing_stacks.empty();
    if (out.file_has_finishing_stacks) {
      // extras.finishing_stacks is in ascending seat order, as r.players.
      for (int p = 0; p < n; ++p) {
        const int i = order_[p];
        const int64_t file = extras.finishing_stacks[i];
        const int64_t engine = out.players[p].finishing_stack;
        if (file != engine) out.differences.push_back({Ref(i), file, engine});
      }
      out.matches_file = out.differences.empty();
    }
    return out;
  }

  PhhHand hand_;
  PhhActionError* failure_;
  std::vector<int> order_;  // PHH index -> index in record.players
};

}  // namespace

absl::StatusOr<PhhReplay> ReplayPhh(std::string_view text,
                                    PhhActionError* failure) {
  if (failure != nullptr) *failure = PhhActionError{};
  ASSIGN_OR_RETURN(PhhHand hand, ReadPhh(text, failure));
  ASSIGN_OR_RETURN(PhhExtras extras, ParsePhhExtras(text));
  Replayer replayer(std::move(hand), failure);
  return replayer.Run(extras);
}

}  // namespace banca::games::poker
