// The póquer sem descarte scenario runner (SCENARIOS.md, game
// "stud_no_draw"): each step becomes what the banked-table service would
// apply to its libs/tables StudTableState (Joined, the service's PlaceBet
// for the ante and Act for the fold or the bet, RoundDealt with the file's
// deck, a player's timeout, a connection, a void, Leaving, and
// InactivityChecked as the clock moves), applied as the service applies
// it (scenario_banked.h): the ante when it is placed, the bet when the
// player continues, and one settlement (or void refund) per stake when the
// round ends, as the table's BankedMoney says.
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "libs/cards/card.h"
#include "libs/common/status_macros.h"
#include "libs/games/stud_no_draw/describe.h"
#include "libs/games/stud_no_draw/table.h"
#include "libs/scenario/scenario_banked.h"
#include "libs/scenario/scenario_book.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/tables/stud_table_state.h"

namespace banca::scenario {
namespace {

namespace stud = games::stud_no_draw;

// A bound on the timer settings a file may give: one hour.
constexpr int64_t kMaxTimerSeconds = 3600;

absl::Status ReadConfig(const Json& c, stud::TableConfig* config) {
  static const std::set<std::string> kKeys = {
      "seats", "min_ante", "max_ante", "decision_seconds", "extra_seconds"};
  for (const auto& [key, value] : c.items()) {
    if (!kKeys.contains(key)) {
      return absl::InvalidArgumentError(
          absl::StrCat("config.", key, " is not a stud_no_draw setting"));
    }
  }
  for (const char* key : {"seats", "min_ante", "max_ante"}) {
    RETURN_IF_ERROR(Field(c, "config", key, Kind::kInt, true));
  }
  RETURN_IF_ERROR(OptionalFields(
      c, "config",
      {{"decision_seconds", Kind::kInt}, {"extra_seconds", Kind::kInt}}));
  config->seats = c["seats"].get<int>();
  config->min_ante = c["min_ante"].get<int64_t>();
  config->max_ante = c["max_ante"].get<int64_t>();
  for (auto [key, field] : {std::pair{"decision_seconds", &config->decision_ms},
                            std::pair{"extra_seconds", &config->extra_ms}}) {
    if (!c.contains(key)) continue;
    const int64_t seconds = c[key].get<int64_t>();
    if (seconds < 1 || seconds > kMaxTimerSeconds) {
      return absl::InvalidArgumentError(
          absl::StrCat("config.", key, " must be 1..", kMaxTimerSeconds));
    }
    *field = seconds * 1000;
  }
  return config->Validate();
}

absl::StatusOr<std::vector<cards::Card>> ReadDeck(const Json& list) {
  std::vector<cards::Card> deck;
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string()) {
      return absl::InvalidArgumentError(
          absl::StrCat("deck[", i, "] must be a card code"));
    }
    const std::string text = list[i].get<std::string>();
    absl::StatusOr<cards::Card> card = cards::ParseCard(text);
    if (!card.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("deck[", i, "]: \"", text,
                       "\" is not a card (rank 23456789TJQKA, suit cdhs)"));
    }
    deck.push_back(*card);
  }
  return deck;
}

// The file's settings as the banked-table service takes them
// (StudTableConfig).
v1::StudTableConfig ServiceConfig(const stud::TableConfig& t) {
  v1::StudTableConfig c;
  c.set_seats(t.seats);
  c.set_min_ante_minor(t.min_ante);
  c.set_max_ante_minor(t.max_ante);
  c.set_decision_seconds(static_cast<int32_t>(t.decision_ms / 1000));
  c.set_extra_seconds(static_cast<int32_t>(t.extra_ms / 1000));
  return c;
}

class StudRunner final
    : public BankedRunner<tables::StudTableState, EngineReport> {
 public:
  StudRunner(ScenarioBook& book, std::unique_ptr<tables::StudTableState> table)
      : BankedRunner(book, std::move(table)) {}

  OJson Rounds() const override;
  // The stakes in flight, 0 between rounds; under the poker runner's key
  // too, since for a banked table they are what the pot is for poker.
  void AddOutput(OJson& out) const override {
    const int64_t wagers = book_.Balance(settlement::WagersAccount(kTableId));
    out["wagers"] = wagers;
    out["table_pot"] = wagers;
  }

 private:
  absl::Status Do(const std::string& op, const Json& step) override;
  // The lowest free seat (the service's Join) for a player who bets
  // without sitting first.
  absl::Status SitIfNeeded(const std::string& player);
  absl::Status Ante(const std::string& player, const Json& step);
  absl::Status Act(const std::string& player, const Json& step);
  // Records what the engine did, and the rounds it finished.
  void Applied(const std::vector<v1::LedgerTransaction>&) override;
  const stud::Table& engine() const { return table_->engine(); }
  OJson RoundJson(const stud::Round& round) const;
};

void StudRunner::Applied(const std::vector<v1::LedgerTransaction>&) {
  const auto& table_events = engine().events();
  for (; r_.table_events < table_events.size(); ++r_.table_events) {
    book_.Record(stud::Describe(table_events[r_.table_events]));
  }
  const stud::Round* round = engine().round();
  if (round == nullptr) return;
  if (round->number() != r_.round) {
    r_.round = round->number();
    r_.round_events = 0;
  }
  const std::vector<stud::Event>& events = round->events();
  for (; r_.round_events < events.size(); ++r_.round_events) {
    const stud::Event& e = events[r_.round_events];
    book_.Record(stud::Describe(e));
    if (std::holds_alternative<stud::RoundFinished>(e)) {
      r_.rounds.push_back(RoundJson(*round));
    }
  }
}

absl::Status StudRunner::SitIfNeeded(const std::string& player) {
  if (table_->Joined(player)) return absl::OkStatus();
  for (int seat = 1; seat <= engine().config().seats; ++seat) {
    stud::Table copy = engine();
    if (!copy.Sit(player, seat, book_.now_micros() / 1000).ok()) continue;
    return JoinTable(player, seat);
  }
  return absl::FailedPreconditionError("every seat is taken (SD-6a)");
}

absl::Status StudRunner::Ante(const std::string& player, const Json& step) {
  const std::string spot = step.value("spot", "");
  if (spot != "ante" || step.contains("bet")) {
    return absl::InvalidArgumentError(
        "stud_no_draw takes one bet, spot \"ante\"; the second bet is "
        "placed by the \"continue\" action (SD-23)");
  }
  RETURN_IF_ERROR(SitIfNeeded(player));
  // The service's PlaceBet: the ante's stake requested, then captured.
  return PlaceBet(player, step["amount"].get<int64_t>()).status();
}

absl::Status StudRunner::Act(const std::string& player, const Json& step) {
  if (step.contains("amount")) {
    return absl::InvalidArgumentError(
        "stud_no_draw actions take no amount: the bet is 2 × the ante");
  }
  const std::string action = step["action"].get<std::string>();
  if (action != "fold" && action != "continue") {
    return absl::InvalidArgumentError(absl::StrCat(
        "stud_no_draw actions are fold and continue, not \"", action, "\""));
  }
  // The service's Act: a fold, or the bet's stake (SD-23).
  v1::BankedActRequest act;
  act.set_table_id(kTableId);
  act.set_round(table_->round());
  act.set_stud_action(action == "fold" ? v1::STUD_ACTION_TYPE_FOLD
                                       : v1::STUD_ACTION_TYPE_BET);
  ASSIGN_OR_RETURN(v1::BankedTableEvent e,
                   table_->ActEvent(player, act, book_.now_micros()));
  return Apply(std::move(e));
}

absl::Status StudRunner::Do(const std::string& op, const Json& step) {
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
    if (step.value("buy_in", int64_t{0}) != 0) {
      return absl::InvalidArgumentError(
          "stud_no_draw has no buy-in: each ante comes from the cash "
          "(buy_in must be 0)");
    }
    return JoinTable(player, step["seat"].get<int>());
  }
  if (op == "leave") return LeaveTable(player);
  if (op == "bet") return Ante(player, step);
  if (op == "deal") {
    if (step.contains("button")) {
      return absl::InvalidArgumentError("stud_no_draw has no button");
    }
    ASSIGN_OR_RETURN(std::vector<cards::Card> deck, ReadDeck(step["deck"]));
    // The service's deal at the end of the betting period, with the
    // file's deck for the one it shuffles.
    v1::RoundDealt* dealt = e.mutable_dealt();
    dealt->set_round(table_->round());
    for (const cards::Card c : deck) dealt->add_deck(cards::CardToString(c));
    return Apply(std::move(e));
  }
  if (op == "act") return Act(player, step);
  if (op == "timeout") {
    v1::ActionRequested* a = e.mutable_action_requested();
    a->set_player_id(player);
    a->set_round(table_->round());
    a->set_timeout(true);
    return Apply(std::move(e));
  }
  if (op == "disconnect" || op == "reconnect") {
    const bool up = op == "reconnect";
    if (table_->Joined(player) && table_->Disconnected(player) != up) {
      // A repeat, which the table refuses: in the engine's words (a copy).
      stud::Table copy = engine();
      RETURN_IF_ERROR(up ? copy.Reconnect(player) : copy.Disconnect(player));
    }
    e.mutable_connection()->set_player_id(player);
    e.mutable_connection()->set_connected(up);
    return Apply(std::move(e));
  }
  if (op == "fail") {
    e.mutable_void_requested()->set_round(table_->round());
    e.mutable_void_requested()->set_reason("scenario: the system failed");
    return Apply(std::move(e));
  }
  if (op == "advance") {
    // The service's clock: decision timers (SD-31/32) and idle sessions.
    RETURN_IF_ERROR(book_.Advance(step["seconds"].get<int64_t>()));
    book_.Record(
        absl::StrCat("ClockAdvanced seconds=", step["seconds"].get<int64_t>()));
    e.mutable_inactivity_checked();
    return Apply(std::move(e));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("step \"", op, "\" does not apply to stud_no_draw"));
}

OJson StudRunner::RoundJson(const stud::Round& round) const {
  const stud::RoundResult& r = round.result();
  OJson j;
  j["id"] = settlement::RoundId(kTableId, r.number);
  j["void"] = r.voided;
  if (r.bank_revealed) {
    j["bank"] = stud::CardsText(r.bank);
    j["bank_qualifies"] = r.bank_qualifies;
  }
  OJson shown = OJson::object();
  for (const stud::Event& e : round.events()) {
    if (const auto* h = std::get_if<stud::HandShown>(&e)) {
      for (const stud::SeatResult& s : r.seats) {
        if (s.seat == h->seat) shown[s.player] = stud::CardsText(h->cards);
      }
    }
  }
  j["shown"] = shown;
  OJson outcomes = OJson::object();
  OJson bets = OJson::object();
  for (const stud::SeatResult& s : r.seats) {
    outcomes[s.player] = std::string(stud::OutcomeName(s.settlement.outcome));
    OJson b;
    b["ante"] = {{"stake", s.settlement.ante.stake},
                 {"returned", s.settlement.ante.returned}};
    b["bet"] = {{"stake", s.settlement.bet.stake},
                {"returned", s.settlement.bet.returned}};
    bets[s.player] = b;
  }
  j["outcomes"] = outcomes;
  j["bets"] = bets;
  j["house_net"] = r.house_net();
  j["result"] = stud::DescribeResult(r);
  return j;
}

OJson StudRunner::Rounds() const {
  OJson out = OJson::array();
  for (const OJson& r : r_.rounds) out.push_back(r);
  if (engine().round_open()) {
    OJson r;
    r["id"] = settlement::RoundId(kTableId, engine().round()->number());
    r["void"] = false;
    r["shown"] = OJson::object();
    r["result"] = "in progress";
    out.push_back(r);
  }
  return out;
}

}  // namespace

absl::StatusOr<std::unique_ptr<GameRunner>> MakeStudNoDrawRunner(
    const ScenarioFile& file, ScenarioBook& book) {
  stud::TableConfig config;
  RETURN_IF_ERROR(AsInvalidArgument(ReadConfig(file.config, &config)));
  v1::BankedTableCreated created =
      BankedTable(file, v1::BANKED_GAME_STUD_NO_DRAW);
  *created.mutable_stud() = ServiceConfig(config);
  ASSIGN_OR_RETURN(std::unique_ptr<tables::StudTableState> table,
                   AsInvalidArgument(tables::StudTableState::Create(
                       created, book.now_micros())));
  return std::make_unique<StudRunner>(book, std::move(table));
}

}  // namespace banca::scenario
