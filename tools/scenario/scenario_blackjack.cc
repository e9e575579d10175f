// The blackjack scenario runner: steps -> libs/games/blackjack's Table, its
// events -> the game topic (as text), its money ->
// libs/settlement/banked_settlement's transactions. Each stake moves from
// the player's cash to game/<table>/wagers when it is placed (the main bet
// at `bet`, a split, double or insurance at `act`) and is settled against
// house/bank, or refunded, when the round ends.
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
#include "libs/ledger/account.h"
#include "libs/settlement/banked_settlement.h"
#include "tools/scenario/scenario_book.h"

namespace banca::scenario {
namespace {

namespace bj = games::blackjack;

constexpr char kGame[] = "blackjack";

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
  if (absl::Status s = t.Validate(); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("config: ", s.message()));
  }
  return absl::OkStatus();
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

class BlackjackRunner final : public GameRunner {
 public:
  BlackjackRunner(ScenarioBook& book, bj::Table table)
      : book_(book), table_(std::move(table)) {}

  absl::Status Step(const std::string& op, const Json& step) override;
  int64_t Stack(const std::string&) const override { return 0; }
  OJson Rounds() const override;
  void AddOutput(OJson& out) const override {
    out["wagers"] = book_.Balance(settlement::WagersAccount(kTableId));
  }

 private:
  absl::Status Do(const std::string& op, const Json& step);
  absl::Status Deal(const Json& step);
  absl::Status Money(size_t table_events_before);
  absl::Status PostBet(const std::string& player, int seat, int64_t round,
                       std::string bet_id, int64_t stake, int64_t returned,
                       bool stake_only, bool refund);
  OJson Round(const bj::Round& round) const;

  ScenarioBook& book_;
  bj::Table table_;
  size_t round_events_seen_ = 0;
  int64_t rounds_started_ = 0;
  int64_t rounds_settled_ = 0;
  std::vector<OJson> rounds_;
};

absl::Status BlackjackRunner::Deal(const Json& step) {
  std::vector<cards::Card> deck;
  const Json& cards_json = step["deck"];
  for (size_t i = 0; i < cards_json.size(); ++i) {
    const std::string text = cards_json[i].get<std::string>();
    absl::StatusOr<cards::Card> card = cards::ParseCard(text);
    if (!card.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("deck[", i, "]: \"", text,
                       "\" is not a card (rank 23456789TJQKA, suit cdhs)"));
    }
    deck.push_back(*card);  // repeats are checked against `decks` by the engine
  }
  if (absl::Status s = table_.Deal(std::move(deck)); !s.ok()) return s;
  ++rounds_started_;
  round_events_seen_ = 0;
  return absl::OkStatus();
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
  if (op == "sit") {
    // Banked: bets come from cash, there are no chips at the table.
    if (step.value("buy_in", int64_t{0}) != 0) {
      return absl::InvalidArgumentError(
          "blackjack has no buy-in: bets are taken from cash (buy_in 0)");
    }
    return table_.Sit(player, step["seat"].get<int>());
  }
  if (op == "leave") return table_.Leave(player);
  if (op == "bet") {
    const std::string spot = step.value("spot", std::string("main"));
    if (spot != "main" || step.contains("bet")) {
      return absl::InvalidArgumentError(
          absl::StrCat("blackjack takes one bet before the deal, spot "
                       "\"main\"; not \"",
                       spot, "\""));
    }
    return table_.PlaceBet(player, step["amount"].get<int64_t>());
  }
  if (op == "deal") return Deal(step);
  if (op == "act") {
    const std::string name = step["action"].get<std::string>();
    const std::optional<bj::ActionType> type = bj::ParseActionType(name);
    if (!type) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown blackjack action \"", name,
                       "\" (hit, stand, double, split, insurance, surrender)"));
    }
    bj::Action action{*type, step.value("amount", int64_t{0})};
    return table_.Act(player, action);
  }
  if (op == "timeout") return table_.Timeout(player);
  if (op == "fail") return table_.Fail();
  if (op == "disconnect") return table_.Disconnect(player);
  if (op == "reconnect") return table_.Reconnect(player);
  if (op == "advance") {
    const int64_t seconds = step["seconds"].get<int64_t>();
    RETURN_IF_ERROR(table_.AdvanceClock(seconds));
    RETURN_IF_ERROR(book_.Advance(seconds));
    book_.Record(absl::StrCat("ClockAdvanced seconds=", seconds));
    return absl::OkStatus();
  }
  return absl::InternalError(absl::StrCat("step ", op, " not handled"));
}

absl::Status BlackjackRunner::PostBet(const std::string& player, int seat,
                                      int64_t round, std::string bet_id,
                                      int64_t stake, int64_t returned,
                                      bool stake_only, bool refund) {
  settlement::BankedBet bet{
      kGame, kTableId, round, player, absl::StrCat("seat", seat, ".", bet_id),
      stake};
  absl::StatusOr<v1::LedgerTransaction> tx =
      stake_only ? settlement::StakeTransaction(bet)
      : refund   ? settlement::VoidRefundTransaction(bet)
                 : settlement::SettleTransaction(bet, returned);
  if (!tx.ok()) return tx.status();
  return book_.Post(ledger::PlayerOwner(player), std::move(*tx));
}

absl::Status BlackjackRunner::Money(size_t table_events_before) {
  // Table events first where they come first: a bet placed, withdrawn.
  const auto& table_events = table_.events();
  const int64_t next_round =
      table_.rounds_dealt() + (table_.in_round() ? 0 : 1);
  for (size_t i = table_events_before; i < table_events.size(); ++i) {
    const bj::TableEvent& e = table_events[i];
    book_.Record(Describe(e));
    if (const auto* placed = std::get_if<bj::BetPlaced>(&e)) {
      RETURN_IF_ERROR(PostBet(placed->player, placed->seat, next_round, "main",
                              placed->amount, 0, /*stake_only=*/true, false));
    } else if (const auto* back = std::get_if<bj::BetWithdrawn>(&e)) {
      // BET_RETURNED: withdrawn before the launch, not a void round.
      settlement::BankedBet bet{kGame,
                                kTableId,
                                next_round,
                                back->player,
                                absl::StrCat("seat", back->seat, ".main"),
                                back->amount};
      absl::StatusOr<v1::LedgerTransaction> tx =
          settlement::VoidRefundTransaction(bet, /*withdrawn=*/true);
      if (!tx.ok()) return tx.status();
      RETURN_IF_ERROR(
          book_.Post(ledger::PlayerOwner(back->player), std::move(*tx)));
    }
  }
  const bj::Round* round = table_.round();
  if (round == nullptr || rounds_started_ == 0) return absl::OkStatus();
  const int64_t number = round->round_number();
  auto player_at = [&](int seat) -> std::string {
    const bj::SeatState* s = round->seat_state(seat);
    return s == nullptr ? std::string() : s->player;
  };
  const auto& events = round->events();
  for (; round_events_seen_ < events.size(); ++round_events_seen_) {
    const bj::Event& e = events[round_events_seen_];
    book_.Record(Describe(e));
    if (const auto* added = std::get_if<bj::StakeAdded>(&e)) {
      RETURN_IF_ERROR(PostBet(player_at(added->seat), added->seat, number,
                              bj::BetId(added->kind, added->hand),
                              added->amount, 0, true, false));
    } else if (const auto* settled = std::get_if<bj::BetSettled>(&e)) {
      const bj::BetResult& b = settled->bet;
      const bool refund = b.outcome == bj::Outcome::kVoid;
      RETURN_IF_ERROR(PostBet(player_at(b.seat), b.seat, number,
                              bj::BetId(b.kind, b.hand), b.stake, b.returned,
                              false, refund));
    }
  }
  if (round->finished() && rounds_settled_ < rounds_started_) {
    ++rounds_settled_;
    rounds_.push_back(Round(*round));
  }
  return absl::OkStatus();
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

absl::Status BlackjackRunner::Step(const std::string& op, const Json& step) {
  const bj::Table snapshot = table_;
  const size_t table_events = table_.events().size();
  const bj::Round* round_before = table_.round();
  const size_t round_events =
      round_before ? round_before->events().size() : size_t{0};
  const size_t round_events_seen = round_events_seen_;
  const int64_t rounds_started = rounds_started_;
  const int64_t rounds_settled = rounds_settled_;
  const size_t rounds = rounds_.size();

  absl::Status status = Do(op, step);
  const bool engine_accepted = status.ok();
  if (status.ok()) {
    status = Money(table_events);
  } else {
    const bj::Round* r = table_.round();
    if (table_.events().size() != table_events || r != round_before ||
        (r != nullptr && r->events().size() != round_events)) {
      book_.AddViolation(absl::StrCat(book_.step_context(),
                                      ": the engine rejected it but emitted "
                                      "events"));
    }
  }
  if (!status.ok()) {
    // A step the engine took but the ledger refused (a stake above the
    // cash) is undone here; the engine's own rejections changed nothing.
    if (engine_accepted) table_ = snapshot;
    round_events_seen_ = round_events_seen;
    rounds_started_ = rounds_started;
    rounds_settled_ = rounds_settled;
    rounds_.resize(rounds);
  }
  return status;
}

OJson BlackjackRunner::Rounds() const {
  OJson rounds = OJson::array();
  for (const OJson& r : rounds_) rounds.push_back(r);
  if (table_.in_round()) {
    OJson r;
    r["id"] = settlement::RoundId(kTableId, table_.round()->round_number());
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
  absl::StatusOr<bj::Table> table = bj::Table::Create(settings);
  if (!table.ok()) return absl::InvalidArgumentError(table.status().message());
  return std::make_unique<BlackjackRunner>(book, std::move(*table));
}

}  // namespace banca::scenario
