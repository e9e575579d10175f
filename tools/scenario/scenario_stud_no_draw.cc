// The póquer sem descarte scenario runner (SCENARIOS.md, game
// "stud_no_draw"): steps drive libs/games/stud_no_draw's Table, and the
// round's own events decide the money, posted through banked_settlement:
// the ante when it is placed, the bet when the player continues, and one
// settlement (or void refund) per stake when the round ends.
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
#include "libs/ledger/account.h"
#include "libs/settlement/banked_settlement.h"
#include "tools/scenario/scenario_book.h"

namespace banca::scenario {
namespace {

namespace stud = games::stud_no_draw;

constexpr char kGame[] = "stud_no_draw";
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

class StudRunner final : public GameRunner {
 public:
  StudRunner(ScenarioBook& book, stud::Table table)
      : book_(book), table_(std::move(table)) {}

  absl::Status Step(const std::string& op, const Json& step) override;
  int64_t Stack(const std::string&) const override { return 0; }
  OJson Rounds() const override;
  // The stakes in flight, 0 between rounds; under the poker runner's key
  // too, since for a banked table they are what the pot is for poker.
  void AddOutput(OJson& out) const override {
    const int64_t wagers = book_.Balance(settlement::WagersAccount(kTableId));
    out["wagers"] = wagers;
    out["table_pot"] = wagers;
  }

 private:
  // The engine's part of a step.
  absl::Status Do(const std::string& op, const Json& step);
  // The lowest free seat for a player who bets without sitting first.
  absl::Status SitIfNeeded(const std::string& player);
  // Records the events the step produced and posts their money.
  absl::Status Money(size_t table_events_before);
  absl::Status PostBet(const std::string& player, int64_t round,
                       const char* spot, int64_t stake,
                       const stud::BetSettlement* settled, bool voided);
  int64_t NowMs() const { return book_.now_micros() / 1000; }
  OJson RoundJson(const stud::Round& round) const;

  ScenarioBook& book_;
  stud::Table table_;
  int64_t round_seen_ = 0;  // the round whose events are being followed
  size_t round_events_seen_ = 0;
  std::vector<OJson> rounds_;
};

absl::Status StudRunner::SitIfNeeded(const std::string& player) {
  if (table_.SeatOf(player)) return absl::OkStatus();
  for (int seat = 1; seat <= table_.config().seats; ++seat) {
    if (table_.Sit(player, seat, NowMs()).ok()) return absl::OkStatus();
  }
  return absl::FailedPreconditionError("every seat is taken (SD-6a)");
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
  if (op == "sit") {
    if (step.value("buy_in", int64_t{0}) != 0) {
      return absl::InvalidArgumentError(
          "stud_no_draw has no buy-in: each ante comes from the cash "
          "(buy_in must be 0)");
    }
    return table_.Sit(player, step["seat"].get<int>(), NowMs());
  }
  if (op == "leave") return table_.Leave(player).status();
  if (op == "bet") {
    const std::string spot = step.value("spot", "");
    if (spot != "ante" || step.contains("bet")) {
      return absl::InvalidArgumentError(
          "stud_no_draw takes one bet, spot \"ante\"; the second bet is "
          "placed by the \"continue\" action (SD-23)");
    }
    RETURN_IF_ERROR(SitIfNeeded(player));
    return table_.PlaceAnte(player, step["amount"].get<int64_t>(), NowMs());
  }
  if (op == "deal") {
    if (step.contains("button")) {
      return absl::InvalidArgumentError("stud_no_draw has no button");
    }
    absl::StatusOr<std::vector<cards::Card>> deck = ReadDeck(step["deck"]);
    if (!deck.ok()) return deck.status();
    return table_.Deal(*deck, NowMs());
  }
  if (op == "act") {
    if (step.contains("amount")) {
      return absl::InvalidArgumentError(
          "stud_no_draw actions take no amount: the bet is 2 × the ante");
    }
    const std::string action = step["action"].get<std::string>();
    if (action == "fold") return table_.Fold(player);
    if (action == "continue") return table_.Continue(player);
    return absl::InvalidArgumentError(absl::StrCat(
        "stud_no_draw actions are fold and continue, not \"", action, "\""));
  }
  if (op == "timeout") return table_.Timeout(player, NowMs());
  if (op == "disconnect") return table_.Disconnect(player);
  if (op == "reconnect") return table_.Reconnect(player);
  if (op == "fail") return table_.Void();
  if (op == "advance") {
    RETURN_IF_ERROR(book_.Advance(step["seconds"].get<int64_t>()));
    book_.Record(
        absl::StrCat("ClockAdvanced seconds=", step["seconds"].get<int64_t>()));
    return table_.Tick(NowMs());
  }
  return absl::InvalidArgumentError(
      absl::StrCat("step \"", op, "\" does not apply to stud_no_draw"));
}

absl::Status StudRunner::PostBet(const std::string& player, int64_t round,
                                 const char* spot, int64_t stake,
                                 const stud::BetSettlement* settled,
                                 bool voided) {
  settlement::BankedBet bet{
      kGame, kTableId, round, player, absl::StrCat(player, ".", spot), stake};
  absl::StatusOr<v1::LedgerTransaction> tx =
      settled == nullptr ? settlement::StakeTransaction(bet)
      : voided           ? settlement::VoidRefundTransaction(bet)
               : settlement::SettleTransaction(bet, settled->returned);
  if (!tx.ok()) return tx.status();
  return book_.Post(settled == nullptr ? ledger::PlayerOwner(player)
                                       : settlement::WagersAccount(kTableId),
                    std::move(*tx));
}

absl::Status StudRunner::Money(size_t table_events_before) {
  const auto& table_events = table_.events();
  for (size_t i = table_events_before; i < table_events.size(); ++i) {
    book_.Record(stud::Describe(table_events[i]));
  }
  const stud::Round* round = table_.round();
  if (round == nullptr) return absl::OkStatus();
  if (round->number() != round_seen_) {
    round_seen_ = round->number();
    round_events_seen_ = 0;
  }
  const std::vector<stud::Event>& events = round->events();
  const stud::RoundView everyone = round->ViewFor(0);
  auto player_at = [&everyone](int seat) {
    for (const stud::SeatView& s : everyone.seats) {
      if (s.seat == seat) return s.player;
    }
    return std::string();
  };
  for (; round_events_seen_ < events.size(); ++round_events_seen_) {
    const stud::Event& e = events[round_events_seen_];
    book_.Record(stud::Describe(e));
    absl::Status posted;
    if (const auto* a = std::get_if<stud::AntePlaced>(&e)) {
      posted = PostBet(a->player, round->number(), "ante", a->amount, nullptr,
                       false);
    } else if (const auto* c = std::get_if<stud::Continued>(&e)) {
      posted = PostBet(player_at(c->seat), round->number(), "bet", c->bet,
                       nullptr, false);
    } else if (const auto* s = std::get_if<stud::SeatSettled>(&e)) {
      const bool voided = s->settlement.outcome == stud::Outcome::kVoid;
      posted = PostBet(s->player, round->number(), "ante",
                       s->settlement.ante.stake, &s->settlement.ante, voided);
      if (posted.ok() && s->settlement.bet.stake > 0) {
        posted = PostBet(s->player, round->number(), "bet",
                         s->settlement.bet.stake, &s->settlement.bet, voided);
      }
    } else if (std::holds_alternative<stud::RoundFinished>(e)) {
      rounds_.push_back(RoundJson(*round));
    }
    if (!posted.ok()) return posted;
  }
  return absl::OkStatus();
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

absl::Status StudRunner::Step(const std::string& op, const Json& step) {
  // The engine's rejections change nothing; a step it took but the ledger
  // refused (an ante or a bet above the cash) is undone from the snapshot.
  const stud::Table snapshot = table_;
  const size_t table_events = table_.events().size();
  const int64_t round_seen = round_seen_;
  const size_t round_events_seen = round_events_seen_;
  const size_t rounds = rounds_.size();
  absl::Status status = Do(op, step);
  if (status.ok()) status = Money(table_events);
  if (!status.ok()) {
    table_ = snapshot;
    round_seen_ = round_seen;
    round_events_seen_ = round_events_seen;
    rounds_.resize(rounds);
  }
  return status;
}

OJson StudRunner::Rounds() const {
  OJson out = OJson::array();
  for (const OJson& r : rounds_) out.push_back(r);
  if (table_.round_open()) {
    OJson r;
    r["id"] = settlement::RoundId(kTableId, table_.round()->number());
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
  if (absl::Status s = ReadConfig(file.config, &config); !s.ok()) {
    return absl::InvalidArgumentError(s.message());
  }
  absl::StatusOr<stud::Table> table = stud::Table::Create(config, kTableId);
  if (!table.ok()) return absl::InvalidArgumentError(table.status().message());
  return std::make_unique<StudRunner>(book, *std::move(table));
}

}  // namespace banca::scenario
