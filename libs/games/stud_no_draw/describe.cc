#include "libs/games/stud_no_draw/describe.h"

#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/cards/showdown.h"
#include "libs/common/string_view.h"

namespace banca::games::stud_no_draw {
namespace {

std::string Stake(const BetSettlement& b) {
  return absl::StrCat(b.stake, "/", b.returned);
}

std::string HandName(cards::HandValue value) {
  return cards::DescribeHand(value, cards::Language::kEnglish,
                             cards::Game::kSemDescarte);
}

}  // namespace

std::string CardsText(absl::Span<const cards::Card> cs) {
  std::string out;
  for (cards::Card c : cs) out += cards::CardToString(c);
  return out;
}

std::string Describe(const Event& event) {
  return std::visit(
      [](const auto& e) -> std::string {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, AntePlaced>) {
          return absl::StrCat("AntePlaced seat=", e.seat, " player=", e.player,
                              " amount=", e.amount);
        } else if constexpr (std::is_same_v<T, BettingClosed>) {
          return absl::StrCat("BettingClosed seats=",
                              absl::StrJoin(e.seats, ","), " at_ms=", e.at_ms);
        } else if constexpr (std::is_same_v<T, CardsDealt>) {
          return absl::StrCat("CardsDealt seat=", e.seat,
                              " cards=", CardsText(e.cards));
        } else if constexpr (std::is_same_v<T, BankUpCard>) {
          return absl::StrCat("BankUpCard card=", cards::CardToString(e.card));
        } else if constexpr (std::is_same_v<T, DecisionWarned>) {
          return absl::StrCat("DecisionWarned seat=", e.seat,
                              " deadline_ms=", e.deadline_ms);
        } else if constexpr (std::is_same_v<T, Folded>) {
          return absl::StrCat("Folded seat=", e.seat,
                              " cause=", ToAbsl(FoldCauseName(e.cause)));
        } else if constexpr (std::is_same_v<T, Continued>) {
          return absl::StrCat("Continued seat=", e.seat, " bet=", e.bet);
        } else if constexpr (std::is_same_v<T, PlayerDisconnected>) {
          return absl::StrCat("PlayerDisconnected seat=", e.seat);
        } else if constexpr (std::is_same_v<T, BankRevealed>) {
          return absl::StrCat("BankRevealed cards=", CardsText(e.cards),
                              " qualifies=", e.qualifies);
        } else if constexpr (std::is_same_v<T, HandShown>) {
          return absl::StrCat("HandShown seat=", e.seat,
                              " cards=", CardsText(e.cards));
        } else if constexpr (std::is_same_v<T, SeatSettled>) {
          const SeatSettlement& s = e.settlement;
          return absl::StrCat(
              "SeatSettled seat=", e.seat, " player=", e.player,
              " outcome=", ToAbsl(OutcomeName(s.outcome)),
              " ante=", Stake(s.ante), " bet=", Stake(s.bet),
              s.multiplier > 0 ? absl::StrCat(" x", s.multiplier) : "");
        } else if constexpr (std::is_same_v<T, RoundVoided>) {
          return "RoundVoided";
        } else {
          static_assert(std::is_same_v<T, RoundFinished>);
          return absl::StrCat("RoundFinished staked=", e.staked,
                              " returned=", e.returned);
        }
      },
      event);
}

std::string Describe(const TableEvent& event) {
  return std::visit(
      [](const auto& e) -> std::string {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, PlayerSat>) {
          return absl::StrCat("PlayerSat player=", e.player, " seat=", e.seat);
        } else if constexpr (std::is_same_v<T, PlayerLeft>) {
          return absl::StrCat(
              "PlayerLeft player=", e.player, " seat=", e.seat, " reason=",
              e.reason == LeaveReason::kPlayer ? "player" : "inactive",
              " rounds=", e.summary.rounds, " staked=", e.summary.staked,
              " returned=", e.summary.returned);
        } else if constexpr (std::is_same_v<T, ConnectionChanged>) {
          return absl::StrCat("ConnectionChanged player=", e.player,
                              " connected=", e.connected);
        } else {
          static_assert(std::is_same_v<T, SessionEndInvited>);
          return absl::StrCat("SessionEndInvited player=", e.player,
                              " deadline_ms=", e.deadline_ms);
        }
      },
      event);
}

std::string DescribeResult(const RoundResult& r) {
  if (r.voided) return "void (SD-33): every stake returned";
  std::vector<std::string> parts;
  if (r.bank_revealed) {
    parts.push_back(
        absl::StrCat("bank ", CardsText(r.bank),
                     r.bank_qualifies ? " plays (" : " does not play (",
                     HandName(r.bank_value), ")"));
  }
  for (const SeatResult& s : r.seats) {
    std::string line = absl::StrCat(s.player, " (seat ", s.seat, ")");
    const SeatSettlement& st = s.settlement;
    switch (st.outcome) {
      case Outcome::kFolded:
        absl::StrAppend(
            &line, " folded",
            s.fold_cause && *s.fold_cause != FoldCause::kPlayer
                ? absl::StrCat(" (", ToAbsl(FoldCauseName(*s.fold_cause)), ")")
                : "");
        break;
      case Outcome::kBankNotQualify:
        absl::StrAppend(&line, ": ante paid 1:1, bet returned");
        break;
      case Outcome::kWon:
        absl::StrAppend(&line, " ", HandName(s.value), ": won, bet pays ",
                        st.multiplier, ":1");
        break;
      case Outcome::kLost:
        absl::StrAppend(&line, " ", HandName(s.value), ": lost");
        break;
      case Outcome::kPush:
        absl::StrAppend(&line, " ", HandName(s.value), ": push");
        break;
      case Outcome::kVoid:
        absl::StrAppend(&line, ": void");
        break;
    }
    parts.push_back(std::move(line));
  }
  return absl::StrJoin(parts, "; ");
}

}  // namespace banca::games::stud_no_draw
