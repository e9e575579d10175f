// The poker cash games' scenario runner (holdem, omaha, synthetic): steps
// -> libs/games/poker's Table, its events -> the game topic (as text), its
// money -> libs/settlement/poker_settlement's transactions.
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
#include "libs/cards/showdown.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/poker/table.h"
#include "libs/ledger/account.h"
#include "libs/money/money.h"
#include "libs/settlement/poker_settlement.h"
#include "tools/scenario/scenario_book.h"

namespace banca::scenario {
namespace {

namespace poker = games::poker;

const std::set<std::string>& PokerSteps() {
  static const auto* kSteps = new std::set<std::string>{
      "sit",        "rebuy",     "leave",   "deal",   "act",  "timeout",
      "disconnect", "reconnect", "sit_out", "sit_in", "fail", "advance"};
  return *kSteps;
}

absl::Status ReadConfig(const Json& c, const std::string& game,
                        poker::TableConfig* out) {
  poker::TableConfig& t = *out;
  t.variant = game == "omaha"       ? poker::Variant::kOmaha
              : game == "synthetic" ? poker::Variant::kSynthetic
                                    : poker::Variant::kHoldem;
  // Omaha is pot limit unless the file says otherwise (OM rules).
  if (game == "omaha") t.limit = poker::Limit::kPotLimit;
  const std::vector<std::pair<const char*, Kind>> keys = {
      {"seats", Kind::kInt},          {"small_blind", Kind::kInt},
      {"big_blind", Kind::kInt},      {"limit", Kind::kString},
      {"rake", Kind::kObject},        {"buy_in", Kind::kObject},
      {"action_seconds", Kind::kInt}, {"heads_up", Kind::kString},
      {"straddles", Kind::kBool},     {"max_raises", Kind::kInt},
      {"hole_cards", Kind::kInt}};
  RETURN_IF_ERROR(KnownFields(c, "config", keys));
  if (c.contains("seats")) t.seats = c["seats"].get<int>();
  if (c.contains("small_blind"))
    t.small_blind = c["small_blind"].get<int64_t>();
  if (c.contains("big_blind")) t.big_blind = c["big_blind"].get<int64_t>();
  if (c.contains("max_raises")) {
    t.max_raises_per_round = c["max_raises"].get<int>();
  }
  if (c.contains("hole_cards")) t.hole_cards = c["hole_cards"].get<int>();
  if (c.contains("straddles")) t.straddles = c["straddles"].get<bool>();
  if (c.contains("limit")) {
    const std::string limit = c["limit"].get<std::string>();
    if (limit == "no_limit") {
      t.limit = poker::Limit::kNoLimit;
    } else if (limit == "pot_limit") {
      t.limit = poker::Limit::kPotLimit;
    } else if (limit == "fixed_limit") {
      t.limit = poker::Limit::kFixedLimit;
    } else if (limit == "half_pot") {
      t.limit = poker::Limit::kHalfPot;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("config.limit: unknown limit \"", limit,
                       "\" (no_limit, pot_limit, fixed_limit, half_pot)"));
    }
  }
  if (c.contains("heads_up")) {
    const std::string hu = c["heads_up"].get<std::string>();
    if (hu == "literal") {
      t.heads_up = poker::HeadsUpBlinds::kLiteral;
    } else if (hu == "button_small_blind") {
      t.heads_up = poker::HeadsUpBlinds::kButtonSmallBlind;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "config.heads_up: \"", hu, "\" (literal, button_small_blind)"));
    }
  }
  if (c.contains("rake")) {
    const Json& r = c["rake"];
    RETURN_IF_ERROR(KnownFields(
        r, "config.rake",
        {{"mode", Kind::kString}, {"bps", Kind::kInt}, {"cap", Kind::kInt}}));
    const std::string mode = r.value("mode", std::string("none"));
    if (mode == "none") {
      t.rake.mode = poker::RakeMode::kNone;
    } else if (mode == "pot") {
      t.rake.mode = poker::RakeMode::kPot;
    } else if (mode == "buy_in") {
      t.rake.mode = poker::RakeMode::kBuyIn;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "config.rake.mode: unknown mode \"", mode, "\" (none, pot, buy_in)"));
    }
    t.rake.bps = r.value("bps", 0);
    t.rake.cap = r.value("cap", int64_t{0});
  }
  if (c.contains("buy_in")) {
    const Json& b = c["buy_in"];
    RETURN_IF_ERROR(
        scenario::OnlyKnownKeys(b, "config.buy_in", {"min", "max"}));
    for (const char* key : {"min", "max"}) {
      RETURN_IF_ERROR(Field(b, "config.buy_in", key, Kind::kInt, true));
    }
    t.buy_in_min = b["min"].get<int64_t>();
    t.buy_in_max = b["max"].get<int64_t>();
  } else {
    // No range in the file: any buy-in from the big blind up.
    t.buy_in_min = t.big_blind;
    t.buy_in_max = money::kMaxAmountMinor;
  }
  if (absl::Status s = t.Validate(); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("config: ", s.message()));
  }
  return absl::OkStatus();
}

// INVALID_ARGUMENT (malformed, exit 2) or UNIMPLEMENTED (exit 3).
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

std::string Describe(const poker::TableEvent& event) {
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

std::string Describe(const poker::Event& event) {
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

class PokerRunner final : public GameRunner {
 public:
  PokerRunner(std::string game, ScenarioBook& book, poker::Table table)
      : game_(std::move(game)), book_(book), table_(std::move(table)) {}

  absl::Status Step(const std::string& op, const Json& step) override;
  int64_t Stack(const std::string& player) const override;
  OJson Rounds() const override;
  void AddOutput(OJson& out) const override {
    out["table_pot"] = book_.Balance(settlement::PotAccount(kTableId));
  }

 private:
  absl::Status Do(const std::string& op, const Json& step);
  absl::Status Deal(const Json& step);
  // The engine events the step produced, and the money they move.
  absl::Status Money(size_t table_events_before);
  OJson Round(const poker::Hand& hand) const;

  const std::string game_;
  ScenarioBook& book_;
  poker::Table table_;
  size_t hand_events_seen_ = 0;
  int64_t hands_started_ = 0;
  int64_t hands_settled_ = 0;
  std::vector<OJson> rounds_;
};

absl::Status PokerRunner::Deal(const Json& step) {
  std::vector<cards::Card> deck;
  cards::CardSet seen;
  const Json& cards_json = step["deck"];
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
  const std::vector<int> eligible = table_.EligibleSeats();
  int draw = 0;
  if (step.contains("button") && eligible.size() >= 2) {
    const int button = step["button"].get<int>();
    int index = -1;
    for (size_t i = 0; i < eligible.size(); ++i) {
      if (eligible[i] == button) index = static_cast<int>(i);
    }
    if (index < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "button seat ", button, " is not an occupied seat dealt in"));
    }
    if (table_.NeedsButtonDraw()) {
      draw = index;  // HE-46: the file gives the draw's result
    } else {
      int next = eligible.front();
      for (int seat : eligible) {
        if (seat > table_.button()) {
          next = seat;
          break;
        }
      }
      if (next != button) {
        return absl::FailedPreconditionError(
            absl::StrCat("the button moves clockwise to seat ", next,
                         " (HE-64), not ", button));
      }
    }
  }
  if (absl::Status s = table_.StartHand(draw, std::move(deck)); !s.ok()) {
    return s;
  }
  ++hands_started_;
  hand_events_seen_ = 0;
  return absl::OkStatus();
}

absl::Status PokerRunner::Do(const std::string& op, const Json& step) {
  if (!PokerSteps().contains(op)) {
    return absl::InvalidArgumentError(
        absl::StrCat("step \"", op, "\" does not apply to ", game_));
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
    return table_
        .Sit(player, step["seat"].get<int>(), step["buy_in"].get<int64_t>())
        .status();
  }
  if (op == "rebuy") {
    return table_.Rebuy(player, step["amount"].get<int64_t>()).status();
  }
  if (op == "leave") {
    absl::StatusOr<std::optional<poker::PlayerLeft>> left =
        table_.Leave(player);
    if (!left.ok()) return left.status();
    // HE-10 mid-hand: PlayerLeft comes after the hand; the request itself
    // is a decision the log must hold for a replay.
    if (!left->has_value()) {
      book_.Record(absl::StrCat("LeaveRequested player=", player));
    }
    return absl::OkStatus();
  }
  if (op == "deal") return Deal(step);
  if (op == "act") {
    const std::string name = step["action"].get<std::string>();
    std::optional<poker::ActionType> type;
    for (int t = 0; t <= static_cast<int>(poker::ActionType::kRestraddle);
         ++t) {
      if (poker::ActionTypeName(static_cast<poker::ActionType>(t)) == name) {
        type = static_cast<poker::ActionType>(t);
      }
    }
    if (!type) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown poker action \"", name, "\""));
    }
    poker::Action action{*type, 0};
    if (*type == poker::ActionType::kBet ||
        *type == poker::ActionType::kRaise) {
      if (!step.contains("amount")) {
        return absl::InvalidArgumentError(
            absl::StrCat(name, " needs an amount (the bet's total, \"to\")"));
      }
      action.amount = step["amount"].get<int64_t>();
    }
    return table_.Act(player, action);
  }
  if (op == "timeout") return table_.Timeout(player);
  if (op == "fail") return table_.Void();
  if (op == "sit_out") return table_.SitOut(player);
  if (op == "sit_in") return table_.SitIn(player);
  if (op == "disconnect" || op == "reconnect") {
    // HE-73: the player's own connection voids nothing; their turn runs
    // out only through a `timeout` step.
    if (!table_.SeatOf(player)) {
      return absl::NotFoundError(absl::StrCat(player, " is not seated"));
    }
    book_.Record(absl::StrCat(
        op == "disconnect" ? "PlayerDisconnected" : "PlayerReconnected",
        " player=", player));
    return absl::OkStatus();
  }
  if (op == "advance") {
    const int64_t seconds = step["seconds"].get<int64_t>();
    RETURN_IF_ERROR(book_.Advance(seconds));
    book_.Record(absl::StrCat("ClockAdvanced seconds=", seconds));
    return absl::OkStatus();
  }
  return absl::InternalError(absl::StrCat("step ", op, " not handled"));
}

// The engine events the step produced, and the money they move.
absl::Status PokerRunner::Money(size_t table_events_before) {
  const poker::Hand* hand = table_.hand();
  if (hand != nullptr && hands_started_ > 0) {
    const auto& events = hand->events();
    for (; hand_events_seen_ < events.size(); ++hand_events_seen_) {
      book_.Record(Describe(events[hand_events_seen_]));
    }
  }
  const auto& table_events = table_.events();
  for (size_t i = table_events_before; i < table_events.size(); ++i) {
    book_.Record(Describe(table_events[i]));
  }
  // A finished hand settles first: a leaver's stack is known only after it.
  if (hand != nullptr && hand->finished() && hands_settled_ < hands_started_) {
    ++hands_settled_;
    absl::StatusOr<std::vector<v1::LedgerTransaction>> txs =
        settlement::HandTransactions(hand->record(), hand->result(),
                                     hand->events());
    if (!txs.ok()) return txs.status();
    for (v1::LedgerTransaction& tx : *txs) {
      RETURN_IF_ERROR(
          book_.Post(settlement::PotAccount(kTableId), std::move(tx)));
    }
    rounds_.push_back(Round(*hand));
  }
  for (size_t i = table_events_before; i < table_events.size(); ++i) {
    const poker::TableEvent& e = table_events[i];
    absl::StatusOr<v1::LedgerTransaction> tx;
    std::string player;
    if (const auto* sat = std::get_if<poker::PlayerSat>(&e)) {
      player = sat->player;
      tx = settlement::BuyInTransaction(kTableId, sat->player, sat->paid,
                                        sat->rake, false);
    } else if (const auto* re = std::get_if<poker::PlayerRebought>(&e)) {
      player = re->player;
      tx = settlement::BuyInTransaction(kTableId, re->player, re->paid,
                                        re->rake, true);
    } else if (const auto* left = std::get_if<poker::PlayerLeft>(&e)) {
      const int64_t seat =
          book_.Balance(settlement::SeatAccount(kTableId, left->player));
      if (seat != left->stack) {
        return absl::InternalError(
            absl::StrCat(left->player, " leaves with ", left->stack,
                         " but the seat account holds ", seat));
      }
      if (left->stack == 0) continue;
      player = left->player;
      tx = settlement::CashOutTransaction(kTableId, left->player, left->stack);
    } else {
      continue;
    }
    if (!tx.ok()) return tx.status();
    RETURN_IF_ERROR(book_.Post(ledger::PlayerOwner(player), std::move(*tx)));
  }
  return absl::OkStatus();
}

OJson PokerRunner::Round(const poker::Hand& hand) const {
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
  const cards::Game game = game_ == "omaha"       ? cards::Game::kOmaha
                           : game_ == "synthetic" ? cards::Game::kSynthetic
                                                  : cards::Game::kHoldem;
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

absl::Status PokerRunner::Step(const std::string& op, const Json& step) {
  const poker::Table snapshot = table_;
  const size_t table_events = table_.events().size();
  const poker::Hand* hand_before = table_.hand();
  const size_t hand_events =
      hand_before ? hand_before->events().size() : size_t{0};
  const int64_t hands_started = hands_started_;
  const int64_t hands_settled = hands_settled_;
  const size_t hand_events_seen = hand_events_seen_;
  const size_t rounds = rounds_.size();

  absl::Status status = Do(op, step);
  const bool engine_accepted = status.ok();
  if (status.ok()) {
    status = Money(table_events);
  } else {
    // A rejected engine call must change nothing (the engine's contract).
    const poker::Hand* h = table_.hand();
    if (table_.events().size() != table_events || h != hand_before ||
        (h != nullptr && h->events().size() != hand_events)) {
      book_.AddViolation(absl::StrCat(book_.step_context(),
                                      ": the engine rejected it but emitted "
                                      "events"));
    }
  }
  if (!status.ok()) {
    // The engine's own rejections change nothing (but HE-7's "the table
    // stops", which is kept); a step the engine took but the ledger refused
    // (a buy-in above the cash) is undone here.
    if (engine_accepted) table_ = snapshot;
    hands_started_ = hands_started;
    hands_settled_ = hands_settled;
    hand_events_seen_ = hand_events_seen;
    rounds_.resize(rounds);
  }
  return status;
}

int64_t PokerRunner::Stack(const std::string& player) const {
  const poker::Hand* hand = table_.in_hand() ? table_.hand() : nullptr;
  int64_t stack = table_.Stack(player).value_or(0);
  if (hand != nullptr) {
    for (const poker::PlayerView& v : hand->ViewFor(0).players) {
      if (v.player == player) stack = v.stack;
    }
  }
  return stack;
}

OJson PokerRunner::Rounds() const {
  OJson rounds = OJson::array();
  for (const OJson& r : rounds_) rounds.push_back(r);
  const poker::Hand* hand = table_.in_hand() ? table_.hand() : nullptr;
  if (hand != nullptr) {
    const poker::HandRecord record = hand->record();
    OJson r;
    r["id"] = settlement::HandId(record.table_id, record.hand_number);
    r["void"] = false;
    r["pots"] = OJson::array();
    r["shown"] = OJson::object();
    r["result"] = "in progress";
    rounds.push_back(r);
  }
  return rounds;
}

}  // namespace

absl::StatusOr<std::unique_ptr<GameRunner>> MakePokerRunner(
    const ScenarioFile& file, ScenarioBook& book) {
  poker::TableConfig config;
  RETURN_IF_ERROR(ReadConfig(file.config, file.game, &config));
  absl::StatusOr<poker::Table> table = poker::Table::Create(config, kTableId);
  if (!table.ok()) return absl::InvalidArgumentError(table.status().message());
  return std::make_unique<PokerRunner>(file.game, book, std::move(*table));
}

}  // namespace banca::scenario
