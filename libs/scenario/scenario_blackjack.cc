// The blackjack scenario runner: each step becomes what the banked-table
// service would apply to its libs/tables BlackjackTableState (Joined, the
// service's PlaceBet and Act, RoundDealt with the file's cards, a timeout,
// a void, a connection, Leaving, InactivityChecked as the clock moves),
// applied as the service applies it (scenario_banked.h); the engine's
// events go to the game topic as text. Each stake moves from the player's
// cash to game/<table>/wagers when it is placed (the main bet at `bet`, a
// split, double or insurance at `act`) and is settled against house/bank,
// or refunded, when the round ends, as the table's BankedMoney says.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/cards/card.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/blackjack/table.h"
#include "libs/scenario/scenario_banked.h"
#include "libs/scenario/scenario_book.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/tables/blackjack_table_state.h"
#include "libs/tables/blackjack_wire.h"

namespace banca::scenario {
namespace {

namespace bj = games::blackjack;

const std::set<std::string>& BlackjackSteps() {
  static const auto* kSteps = new std::set<std::string>{
      "sit",     "leave",      "bet",       "deal", "act",
      "timeout", "disconnect", "reconnect", "fail", "advance"};
  return *kSteps;
}

absl::Status ReadConfig(const Json& c, bj::TableSettings* out) {
  bj::TableSettings& t = *out;
  RETURN_IF_ERROR(KnownFields(c, "config",
                              {{"seats", Kind::kInt},
                               {"min_bet", Kind::kInt},
                               {"max_bet", Kind::kInt},
                               {"decks", Kind::kInt},
                               {"dealer_hits_soft_17", Kind::kBool},
                               {"blackjack_pays", Kind::kString},
                               {"double_on", Kind::kString},
                               {"double_after_split", Kind::kBool},
                               {"max_split_hands", Kind::kInt},
                               {"resplit_aces", Kind::kBool},
                               {"split_tens_by_value", Kind::kBool},
                               {"surrender", Kind::kString},
                               {"insurance", Kind::kBool},
                               {"dealer_peek", Kind::kBool},
                               {"special_prize_on_split_hands", Kind::kBool}}));
  if (c.contains("seats")) t.seats = c["seats"].get<int>();
  if (c.contains("min_bet")) t.min_bet = c["min_bet"].get<int64_t>();
  if (c.contains("max_bet")) t.max_bet = c["max_bet"].get<int64_t>();
  if (c.contains("decks")) t.decks = c["decks"].get<int>();
  t.dealer_hits_soft_17 = c.value("dealer_hits_soft_17", t.dealer_hits_soft_17);
  t.double_after_split = c.value("double_after_split", t.double_after_split);
  if (c.contains("max_split_hands")) {
    t.max_split_hands = c["max_split_hands"].get<int>();
  }
  t.resplit_aces = c.value("resplit_aces", t.resplit_aces);
  t.split_tens_by_value = c.value("split_tens_by_value", t.split_tens_by_value);
  t.insurance = c.value("insurance", t.insurance);
  t.dealer_peek = c.value("dealer_peek", t.dealer_peek);
  t.special_prize_on_split_hands =
      c.value("special_prize_on_split_hands", t.special_prize_on_split_hands);
  if (c.contains("blackjack_pays")) {
    const std::string pays = c["blackjack_pays"].get<std::string>();
    if (pays == "3:2") {
      t.blackjack_pays_num = 3;
      t.blackjack_pays_den = 2;
    } else if (pays == "6:5") {
      t.blackjack_pays_num = 6;
      t.blackjack_pays_den = 5;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("config.blackjack_pays: \"", pays, "\" (3:2, 6:5)"));
    }
  }
  if (c.contains("double_on")) {
    const std::string on = c["double_on"].get<std::string>();
    if (on == "any") {
      t.double_on = bj::DoubleOn::kAnyTwoCards;
    } else if (on == "9-11") {
      t.double_on = bj::DoubleOn::kNineToEleven;
    } else if (on == "10-11") {
      t.double_on = bj::DoubleOn::kTenOrEleven;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("config.double_on: \"", on, "\" (any, 9-11, 10-11)"));
    }
  }
  if (c.contains("surrender")) {
    const std::string s = c["surrender"].get<std::string>();
    if (s == "none") {
      t.surrender = bj::Surrender::kNone;
    } else if (s == "late") {
      t.surrender = bj::Surrender::kLate;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("config.surrender: \"", s, "\" (none, late)"));
    }
  }
  return AsInvalidArgument(t.Validate(), "config: ");
}

std::string CardsText(absl::Span<const cards::Card> cs) {
  std::string out;
  for (cards::Card c : cs) out += cards::CardToString(c);
  return out;
}

std::string Describe(const bj::TableEvent& event) {
  return std::visit(
      [](const auto& e) -> std::string {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, bj::PlayerSat>) {
          return absl::StrCat("PlayerSat player=", e.player, " seat=", e.seat);
        } else if constexpr (std::is_same_v<T, bj::BetPlaced>) {
          return absl::StrCat("BetPlaced player=", e.player, " seat=", e.seat,
                              " amount=", e.amount);
        } else if constexpr (std::is_same_v<T, bj::BetWithdrawn>) {
          return absl::StrCat("BetWithdrawn player=", e.player,
                              " seat=", e.seat, " amount=", e.amount);
        } else if constexpr (std::is_same_v<T, bj::PlayerLeft>) {
          return absl::StrCat(
              "PlayerLeft player=", e.player, " seat=", e.seat, " reason=",
              e.reason == bj::LeaveReason::kVoluntary ? "voluntary"
                                                      : "inactivity",
              " rounds=", e.stats.rounds_played, " staked=", e.stats.staked,
              " returned=", e.stats.returned, " net=", e.stats.net);
        } else if constexpr (std::is_same_v<T, bj::ConnectionChanged>) {
          return absl::StrCat(
              e.connected ? "PlayerReconnected" : "PlayerDisconnected",
              " player=", e.player);
        } else if constexpr (std::is_same_v<T, bj::SessionEndInvited>) {
          return absl::StrCat(
              "SessionEndInvited player=", e.player, " kind=",
              e.kind == bj::InactivityKind::kTime ? "time" : "rounds");
        } else if constexpr (std::is_same_v<T, bj::SessionEndWarned>) {
          return absl::StrCat(
              "SessionEndWarned player=", e.player, " kind=",
              e.kind == bj::InactivityKind::kTime ? "time" : "rounds");
        } else if constexpr (std::is_same_v<T, bj::RoundStarted>) {
          return absl::StrCat("RoundStarted round=", e.round_number);
        } else {
          return absl::StrCat("RoundEnded round=", e.round_number,
                              " voided=", e.voided);
        }
      },
      event);
}

std::string Describe(const bj::Event& event) {
  return std::visit(
      [](const auto& e) -> std::string {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, bj::CardDealt>) {
          return absl::StrCat("CardDealt seat=", e.seat, " hand=", e.hand,
                              " card=", cards::CardToString(e.card));
        } else if constexpr (std::is_same_v<T, bj::HoleCardDealt>) {
          return "HoleCardDealt";  // face down: no card (DESIGN inv. 7)
        } else if constexpr (std::is_same_v<T, bj::InsuranceOffered>) {
          return "InsuranceOffered";
        } else if constexpr (std::is_same_v<T, bj::InsuranceDecided>) {
          return absl::StrCat("InsuranceDecided seat=", e.seat,
                              " amount=", e.amount, " timeout=", e.timeout);
        } else if constexpr (std::is_same_v<T, bj::DealerChecked>) {
          return absl::StrCat("DealerChecked blackjack=", e.blackjack);
        } else if constexpr (std::is_same_v<T, bj::ActionTaken>) {
          return absl::StrCat("ActionTaken seat=", e.seat, " hand=", e.hand,
                              " action=", ToAbsl(ActionTypeName(e.action.type)),
                              " amount=", e.action.amount,
                              " timeout=", e.timeout);
        } else if constexpr (std::is_same_v<T, bj::StakeAdded>) {
          return absl::StrCat("StakeAdded seat=", e.seat,
                              " bet=", bj::BetId(e.kind, e.hand),
                              " amount=", e.amount);
        } else if constexpr (std::is_same_v<T, bj::HandSplit>) {
          return absl::StrCat("HandSplit seat=", e.seat, " hand=", e.hand,
                              " new_hand=", e.new_hand);
        } else if constexpr (std::is_same_v<T, bj::HoleCardRevealed>) {
          return absl::StrCat("HoleCardRevealed card=",
                              cards::CardToString(e.card));
        } else if constexpr (std::is_same_v<T, bj::BetSettled>) {
          return absl::StrCat(
              "BetSettled seat=", e.bet.seat,
              " bet=", bj::BetId(e.bet.kind, e.bet.hand),
              " stake=", e.bet.stake, " returned=", e.bet.returned,
              " outcome=", ToAbsl(bj::OutcomeName(e.bet.outcome)),
              " prize=", e.bet.prize);
        } else if constexpr (std::is_same_v<T, bj::RoundVoided>) {
          return absl::StrCat("RoundVoided reason=", e.reason);
        } else {
          return absl::StrCat("RoundFinished voided=", e.voided,
                              " staked=", e.staked, " returned=", e.returned);
        }
      },
      event);
}

// The file's settings as the banked-table service takes them
// (BlackjackTableConfig); INVALID_ARGUMENT naming a setting the service
// has no place for, unless the file gives it its default.
absl::StatusOr<v1::BlackjackTableConfig> ServiceConfig(
    const Json& c, const bj::TableSettings& t) {
  v1::BlackjackTableConfig config;
  config.set_seats(t.seats);
  config.set_min_bet_minor(t.min_bet);
  config.set_max_bet_minor(t.max_bet);
  config.set_decks(t.decks);
  config.set_dealer_hits_soft_17(t.dealer_hits_soft_17);
  config.set_surrender(t.surrender == bj::Surrender::kLate);
  config.set_no_insurance(!t.insurance);
  const bj::TableSettings d;
  const std::vector<std::pair<const char*, bool>> fixed = {
      {"blackjack_pays", t.blackjack_pays_num != d.blackjack_pays_num ||
                             t.blackjack_pays_den != d.blackjack_pays_den},
      {"double_on", t.double_on != d.double_on},
      {"double_after_split", t.double_after_split != d.double_after_split},
      {"max_split_hands", t.max_split_hands != d.max_split_hands},
      {"resplit_aces", t.resplit_aces != d.resplit_aces},
      {"split_tens_by_value", t.split_tens_by_value != d.split_tens_by_value},
      {"dealer_peek", t.dealer_peek != d.dealer_peek},
      {"special_prize_on_split_hands",
       t.special_prize_on_split_hands != d.special_prize_on_split_hands}};
  for (const auto& [key, changed] : fixed) {
    if (c.contains(key) && changed) {
      return absl::InvalidArgumentError(absl::StrCat(
          "config.", key,
          ": the banked-table service plays this rule at its default only "
          "(docs/blackjack.md)"));
    }
  }
  return config;
}

class BlackjackRunner final
    : public BankedRunner<tables::BlackjackTableState, EngineReport> {
 public:
  BlackjackRunner(ScenarioBook& book,
                  std::unique_ptr<tables::BlackjackTableState> table)
      : BankedRunner(book, std::move(table)) {}

  OJson Rounds() const override;
  void AddOutput(OJson& out) const override {
    out["wagers"] = book_.Balance(settlement::WagersAccount(kTableId));
  }

 private:
  absl::Status Do(const std::string& op, const Json& step) override;
  absl::Status Deal(const Json& step);
  absl::Status Act(const std::string& player, const Json& step);
  // Records what the engine did, and the rounds it finished.
  void Applied(const std::vector<v1::LedgerTransaction>&) override;
  const bj::Table& engine() const { return table_->engine(); }
  OJson Round(const bj::Round& round) const;
};

void BlackjackRunner::Applied(const std::vector<v1::LedgerTransaction>&) {
  const auto& table_events = engine().events();
  for (; r_.table_events < table_events.size(); ++r_.table_events) {
    book_.Record(Describe(table_events[r_.table_events]));
  }
  const bj::Round* round = engine().round();
  if (round == nullptr) return;
  if (round->round_number() != r_.round) {
    r_.round = round->round_number();
    r_.round_events = 0;
  }
  const auto& events = round->events();
  for (; r_.round_events < events.size(); ++r_.round_events) {
    book_.Record(Describe(events[r_.round_events]));
  }
  if (round->finished() &&
      (r_.rounds.empty() ||
       r_.rounds.back()["id"] !=
           settlement::RoundId(kTableId, round->round_number()))) {
    r_.rounds.push_back(Round(*round));
  }
}

absl::Status BlackjackRunner::Deal(const Json& step) {
  // The service's deal (RoundDealt) with the file's cards for the shoe it
  // shuffles; a card may repeat up to `decks` times (the engine checks).
  v1::BankedTableEvent e;
  v1::RoundDealt* dealt = e.mutable_dealt();
  dealt->set_round(engine().rounds_dealt() + 1);
  const Json& cards_json = step["deck"];
  for (size_t i = 0; i < cards_json.size(); ++i) {
    const std::string text = cards_json[i].get<std::string>();
    absl::StatusOr<cards::Card> card = cards::ParseCard(text);
    if (!card.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("deck[", i, "]: \"", text,
                       "\" is not a card (rank 23456789TJQKA, suit cdhs)"));
    }
    dealt->add_deck(cards::CardToString(*card));
  }
  return Apply(std::move(e));
}

absl::Status BlackjackRunner::Act(const std::string& player, const Json& step) {
  const std::string name = step["action"].get<std::string>();
  const std::optional<bj::ActionType> type = bj::ParseActionType(name);
  if (!type) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown blackjack action \"", name,
                     "\" (hit, stand, double, split, insurance, surrender)"));
  }
  // The service's Act: a decision that adds a stake (double, split,
  // insurance) is a StakeRequested, the others an ActionRequested.
  v1::BankedActRequest act;
  act.set_table_id(kTableId);
  act.set_round(engine().rounds_dealt());
  act.set_action(tables::BlackjackActionToProto(*type));
  act.set_amount_minor(step.value("amount", int64_t{0}));
  ASSIGN_OR_RETURN(v1::BankedTableEvent e,
                   table_->ActEvent(player, act, book_.now_micros()));
  return Apply(std::move(e));
}

absl::Status BlackjackRunner::Do(const std::string& op, const Json& step) {
  if (!BlackjackSteps().contains(op)) {
    return absl::InvalidArgumentError(
        absl::StrCat("step \"", op, "\" does not apply to blackjack"));
  }
  std::string player;
  if (step.contains("player")) {
    player = step["player"].get<std::string>();
    if (!book_.Known(player)) {
      return absl::NotFoundError(
          absl::StrCat(player, " is not a player of this scenario"));
    }
  }
  v1::BankedTableEvent e;
  if (op == "sit") {
    // Banked: bets come from cash, there are no chips at the table.
    if (step.value("buy_in", int64_t{0}) != 0) {
      return absl::InvalidArgumentError(
          "blackjack has no buy-in: bets are taken from cash (buy_in 0)");
    }
    return JoinTable(player, step["seat"].get<int>());
  }
  if (op == "leave") return LeaveTable(player);
  if (op == "bet") {
    const std::string spot = step.value("spot", std::string("main"));
    if (spot != "main" || step.contains("bet")) {
      return absl::InvalidArgumentError(
          absl::StrCat("blackjack takes one bet before the deal, spot "
                       "\"main\"; not \"",
                       spot, "\""));
    }
    return PlaceBet(player, step["amount"].get<int64_t>()).status();
  }
  if (op == "deal") return Deal(step);
  if (op == "act") return Act(player, step);
  if (op == "timeout") {
    // The service's decision timer: insurance declined, the hand stands.
    v1::ActionRequested* a = e.mutable_action_requested();
    a->set_player_id(player);
    a->set_round(engine().rounds_dealt());
    a->set_timeout(true);
    return Apply(std::move(e));
  }
  if (op == "fail") {
    e.mutable_void_requested()->set_round(table_->round());
    e.mutable_void_requested()->set_reason("scenario: the system failed");
    return Apply(std::move(e));
  }
  if (op == "disconnect" || op == "reconnect") {
    // BJ-29/30: the round and the bets stay valid.
    e.mutable_connection()->set_player_id(player);
    e.mutable_connection()->set_connected(op == "reconnect");
    return Apply(std::move(e));
  }
  if (op == "advance") {
    // BJ-35/36: the service's clock moves, and the table checks who idles.
    const int64_t seconds = step["seconds"].get<int64_t>();
    RETURN_IF_ERROR(book_.Advance(seconds));
    book_.Record(absl::StrCat("ClockAdvanced seconds=", seconds));
    e.mutable_inactivity_checked();
    return Apply(std::move(e));
  }
  return absl::InternalError(absl::StrCat("step ", op, " not handled"));
}

OJson BlackjackRunner::Round(const bj::Round& round) const {
  const bj::RoundResult& r = round.result();
  OJson out;
  out["id"] = settlement::RoundId(kTableId, round.round_number());
  out["void"] = r.voided;
  out["dealer"] = CardsText(r.dealer_cards);
  out["dealer_total"] = r.dealer_total.value;
  out["dealer_blackjack"] = r.dealer_blackjack;
  OJson hands = OJson::object();
  std::map<int, std::string> names;
  for (const bj::SeatState& s : r.seats) {
    names[s.seat] = s.player;
    OJson list = OJson::array();
    for (const bj::PlayerHand& h : s.hands) list.push_back(CardsText(h.cards));
    hands[s.player] = list;
  }
  out["hands"] = hands;
  OJson bets = OJson::array();
  std::vector<std::string> parts;
  for (const bj::BetResult& b : r.bets) {
    OJson bet;
    bet["player"] = names[b.seat];
    bet["bet"] = bj::BetId(b.kind, b.hand);
    bet["stake"] = b.stake;
    bet["returned"] = b.returned;
    bet["outcome"] = std::string(bj::OutcomeName(b.outcome));
    if (b.prize > 0) bet["prize"] = b.prize;
    bets.push_back(bet);
    parts.push_back(absl::StrCat(names[b.seat], " ", bj::BetId(b.kind, b.hand),
                                 " ", ToAbsl(bj::OutcomeName(b.outcome)), " ",
                                 b.returned, "/", b.stake,
                                 b.prize > 0 ? " with the BJ-25i prize" : ""));
  }
  out["bets"] = bets;
  out["staked"] = r.staked;
  out["returned"] = r.returned;
  out["result"] =
      r.voided
          ? absl::StrCat("void (BJ-27/28: ", r.void_reason,
                         "): every stake returned")
          : absl::StrCat(
                "dealer ", r.dealer_blackjack ? "blackjack" : "",
                r.dealer_blackjack ? "" : absl::StrCat(r.dealer_total.value),
                "; ", absl::StrJoin(parts, "; "));
  return out;
}

OJson BlackjackRunner::Rounds() const {
  OJson rounds = OJson::array();
  for (const OJson& r : r_.rounds) rounds.push_back(r);
  if (engine().in_round()) {
    OJson r;
    r["id"] = settlement::RoundId(kTableId, engine().round()->round_number());
    r["void"] = false;
    r["result"] = "in progress";
    rounds.push_back(r);
  }
  return rounds;
}

}  // namespace

absl::StatusOr<std::unique_ptr<GameRunner>> MakeBlackjackRunner(
    const ScenarioFile& file, ScenarioBook& book) {
  bj::TableSettings settings;
  RETURN_IF_ERROR(ReadConfig(file.config, &settings));
  ASSIGN_OR_RETURN(v1::BlackjackTableConfig config,
                   ServiceConfig(file.config, settings));
  v1::BankedTableCreated created = BankedTable(file, v1::BANKED_GAME_BLACKJACK);
  *created.mutable_blackjack() = std::move(config);
  ASSIGN_OR_RETURN(std::unique_ptr<tables::BlackjackTableState> table,
                   AsInvalidArgument(tables::BlackjackTableState::Create(
                       created, book.now_micros())));
  return std::make_unique<BlackjackRunner>(book, std::move(table));
}

}  // namespace banca::scenario
