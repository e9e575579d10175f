#include "libs/scenario/scenario_poker_text.h"

#include <map>
#include <optional>
#include <type_traits>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/common/string_view.h"
#include "libs/settlement/poker_settlement.h"

namespace banca::scenario {
namespace {

namespace poker = games::poker;

std::string SeatsText(const poker::SeatAmounts& list) {
  std::vector<std::string> parts;
  for (const poker::SeatAmount& s : list) {
    parts.push_back(absl::StrCat(s.seat, ":", s.amount));
  }
  return absl::StrJoin(parts, ",");
}

std::string CardsText(absl::Span<const cards::Card> cs) {
  std::string out;
  for (cards::Card c : cs) out += cards::CardToString(c);
  return out;
}

}  // namespace

std::string DescribeTableEvent(const poker::TableEvent& event) {
  return std::visit(
      [](const auto& e) -> std::string {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, poker::PlayerSat>) {
          return absl::StrCat("PlayerSat player=", e.player, " seat=", e.seat,
                              " paid=", e.paid, " rake=", e.rake,
                              " stack=", e.stack);
        } else if constexpr (std::is_same_v<T, poker::PlayerRebought>) {
          return absl::StrCat("PlayerRebought player=", e.player,
                              " paid=", e.paid, " rake=", e.rake,
                              " stack=", e.stack);
        } else if constexpr (std::is_same_v<T, poker::PlayerLeft>) {
          return absl::StrCat("PlayerLeft player=", e.player, " seat=", e.seat,
                              " stack=", e.stack, " net=", e.stats.net);
        } else if constexpr (std::is_same_v<T, poker::SittingOut>) {
          return absl::StrCat("SittingOut player=", e.player,
                              " out=", e.out ? "true" : "false");
        } else if constexpr (std::is_same_v<T, poker::ButtonMoved>) {
          return absl::StrCat("ButtonMoved seat=", e.seat,
                              " drawn=", e.drawn ? "true" : "false");
        } else if constexpr (std::is_same_v<T, poker::SessionEndInvited>) {
          return absl::StrCat("SessionEndInvited player=", e.player,
                              " reason=", static_cast<int>(e.reason));
        } else if constexpr (std::is_same_v<T, poker::SessionEndWarned>) {
          return absl::StrCat("SessionEndWarned player=", e.player,
                              " reason=", static_cast<int>(e.reason));
        } else {
          static_assert(std::is_same_v<T, poker::ExtraTimeGranted>);
          return absl::StrCat("ExtraTimeGranted player=", e.player,
                              " seconds=", e.seconds);
        }
      },
      event);
}

std::string DescribeHandEvent(const poker::Event& event) {
  return std::visit(
      [](const auto& e) -> std::string {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, poker::BlindPosted>) {
          return absl::StrCat("BlindPosted seat=", e.seat, " amount=", e.amount,
                              " big=", e.big);
        } else if constexpr (std::is_same_v<T, poker::StraddlePosted>) {
          return absl::StrCat("StraddlePosted seat=", e.seat,
                              " amount=", e.amount,
                              " restraddle=", e.restraddle);
        } else if constexpr (std::is_same_v<T, poker::HoleCardsDealt>) {
          return absl::StrCat("HoleCardsDealt seat=", e.seat,
                              " cards=", CardsText(e.cards.span()));
        } else if constexpr (std::is_same_v<T, poker::BoardDealt>) {
          return absl::StrCat("BoardDealt round=", e.round,
                              " cards=", CardsText(e.cards.span()));
        } else if constexpr (std::is_same_v<T, poker::ActionTaken>) {
          return absl::StrCat("ActionTaken seat=", e.seat, " action=",
                              ToAbsl(poker::ActionTypeName(e.action.type)),
                              " amount=", e.action.amount, " put_in=", e.put_in,
                              " bet_to=", e.bet_to, " all_in=", e.all_in,
                              " timeout=", e.timeout);
        } else if constexpr (std::is_same_v<T, poker::BetReturned>) {
          return absl::StrCat("BetReturned seat=", e.seat,
                              " amount=", e.amount);
        } else if constexpr (std::is_same_v<T, poker::ShowdownShown>) {
          return absl::StrCat("ShowdownShown seat=", e.seat,
                              " cards=", CardsText(e.cards.span()));
        } else if constexpr (std::is_same_v<T, poker::PotAwarded>) {
          return absl::StrCat("PotAwarded pot=", e.pot, " amount=", e.amount,
                              " rake=", e.rake,
                              " shares=", SeatsText(e.shares));
        } else if constexpr (std::is_same_v<T, poker::HandVoided>) {
          return absl::StrCat("HandVoided refunds=", SeatsText(e.refunds));
        } else {
          return absl::StrCat("HandFinished voided=", e.voided,
                              " rake=", e.rake);
        }
      },
      event);
}

OJson PokerRound(const poker::Hand& hand, cards::Game game) {
  const poker::HandRecord record = hand.record();
  const poker::HandResult& r = hand.result();
  std::map<int, std::string> names;
  for (const poker::SeatedPlayer& p : record.players) names[p.seat] = p.player;
  OJson round;
  round["id"] = settlement::HandId(record.table_id, record.hand_number);
  round["void"] = r.voided;
  OJson pots = OJson::array();
  for (const poker::PotResult& p : r.pots) {
    OJson pot;
    pot["amount"] = p.amount;
    pot["rake"] = p.rake;
    OJson winners = OJson::array();
    for (const poker::SeatAmount& s : p.shares)
      winners.push_back(names[s.seat]);
    pot["winners"] = winners;
    pots.push_back(pot);
  }
  round["pots"] = pots;
  OJson shown = OJson::object();
  std::map<int, cards::HandValue> values;
  for (const poker::Event& e : hand.events()) {
    if (const auto* s = std::get_if<poker::ShowdownShown>(&e)) {
      shown[names[s->seat]] = CardsText(s->cards.span());
      values[s->seat] = s->value;
    }
  }
  round["shown"] = shown;
  // HE-59: who showed first (the "shown" object keeps this order too).
  OJson order = OJson::array();
  for (int seat : r.showdown_order) order.push_back(names[seat]);
  round["showdown"] = order;
  std::string result;
  if (r.voided) {
    result = "void (HE-72): every bet returned";
  } else {
    std::vector<std::string> parts;
    for (size_t i = 0; i < r.pots.size(); ++i) {
      const poker::PotResult& p = r.pots[i];
      std::vector<std::string> who;
      int64_t paid = 0;
      for (const poker::SeatAmount& s : p.shares) {
        who.push_back(names[s.seat]);
        paid += s.amount;
      }
      std::string text =
          absl::StrCat(i == 0 ? "main pot" : absl::StrCat("side pot ", i), " ",
                       p.amount, ": ", absl::StrJoin(who, " and "),
                       who.size() > 1 ? " split " : " wins ", paid);
      if (r.showdown_order.empty()) {
        absl::StrAppend(&text, " without showing (HE-36)");
      } else if (!p.shares.empty() && values.contains(p.shares[0].seat)) {
        absl::StrAppend(&text, " with ",
                        cards::DescribeHand(values.at(p.shares[0].seat),
                                            cards::Language::kEnglish, game));
      }
      parts.push_back(std::move(text));
    }
    result = absl::StrJoin(parts, "; ");
  }
  round["result"] = result;
  return round;
}

absl::StatusOr<std::vector<cards::Card>> ParseDeck(const Json& cards_json) {
  std::vector<cards::Card> deck;
  cards::CardSet seen;
  for (size_t i = 0; i < cards_json.size(); ++i) {
    const std::string text = cards_json[i].get<std::string>();
    absl::StatusOr<cards::Card> card = cards::ParseCard(text);
    if (!card.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("deck[", i, "]: \"", text,
                       "\" is not a card (rank 23456789TJQKA, "
                       "suit cdhs)"));
    }
    if (seen.Contains(*card)) {
      return absl::InvalidArgumentError(
          absl::StrCat("deck[", i, "]: ", text, " appears twice in the deck"));
    }
    seen.Insert(*card);
    deck.push_back(*card);
  }
  return deck;
}

absl::StatusOr<poker::Action> ParseAction(const Json& step) {
  const std::string name = step["action"].get<std::string>();
  std::optional<poker::ActionType> type;
  for (int t = 0; t <= static_cast<int>(poker::ActionType::kRestraddle); ++t) {
    if (poker::ActionTypeName(static_cast<poker::ActionType>(t)) == name) {
      type = static_cast<poker::ActionType>(t);
    }
  }
  if (!type) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown poker action \"", name, "\""));
  }
  int64_t amount = 0;
  if (*type == poker::ActionType::kBet || *type == poker::ActionType::kRaise) {
    if (!step.contains("amount")) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " needs an amount (the bet's total, \"to\")"));
    }
    amount = step["amount"].get<int64_t>();
  }
  return poker::Action{*type, amount};
}

}  // namespace banca::scenario
