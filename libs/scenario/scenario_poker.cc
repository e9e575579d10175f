// The poker cash games' scenario runner (holdem, omaha, synthetic): each
// step becomes the event the table service would put to its table
// (libs/tables' TableState: a buy-in saga, a hand started with the file's
// deck, an action, a timeout, a leave), applied the same way; the money
// the table asks for (buy-ins, HandSettled's transactions, cash-outs) is
// posted as the wallet carries it out, and the engine's events go to the
// game topic as text.
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
#include "libs/scenario/scenario_book.h"
#include "libs/scenario/scenario_poker_text.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/tables/poker_config.h"
#include "libs/tables/table_commands.h"
#include "libs/tables/table_state.h"
#include "libs/wire/table_codec.h"

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
  return AsInvalidArgument(t.Validate(), "config: ");
}

// INVALID_ARGUMENT (malformed, exit 2) or UNIMPLEMENTED (exit 3).
// The file's settings as the table service takes them (CreateTable's
// PokerTableConfig). INVALID_ARGUMENT for what the service has no setting
// for: the engine's own hole-card count is the only one it deals.
absl::StatusOr<v1::PokerTableConfig> ServiceConfig(
    const poker::TableConfig& t) {
  poker::TableConfig standard = t;
  standard.hole_cards = 0;
  if (t.HoleCards() != standard.HoleCards()) {
    return absl::InvalidArgumentError(
        absl::StrCat("config.hole_cards: the table service deals ",
                     standard.HoleCards(), " hole cards at this variant"));
  }
  v1::PokerTableConfig c;
  c.set_variant(t.variant == poker::Variant::kOmaha ? v1::POKER_VARIANT_OMAHA
                : t.variant == poker::Variant::kSynthetic
                    ? v1::POKER_VARIANT_SYNTHETIC
                    : v1::POKER_VARIANT_HOLDEM);
  c.set_limit(t.limit == poker::Limit::kPotLimit ? v1::BETTING_LIMIT_POT_LIMIT
              : t.limit == poker::Limit::kFixedLimit
                  ? v1::BETTING_LIMIT_FIXED_LIMIT
              : t.limit == poker::Limit::kHalfPot ? v1::BETTING_LIMIT_HALF_POT
                                                  : v1::BETTING_LIMIT_NO_LIMIT);
  c.set_seats(t.seats);
  c.set_small_blind_minor(t.small_blind);
  c.set_big_blind_minor(t.big_blind);
  c.set_buy_in_min_minor(t.buy_in_min);
  c.set_buy_in_max_minor(t.buy_in_max);
  c.set_rake_mode(t.rake.mode == poker::RakeMode::kPot
                      ? v1::RAKE_MODE_SETTING_POT
                  : t.rake.mode == poker::RakeMode::kBuyIn
                      ? v1::RAKE_MODE_SETTING_BUY_IN
                      : v1::RAKE_MODE_SETTING_UNSPECIFIED);
  c.set_rake_bps(t.rake.bps);
  c.set_rake_cap_minor(t.rake.cap);
  c.set_heads_up(t.heads_up == poker::HeadsUpBlinds::kButtonSmallBlind
                     ? v1::HEADS_UP_BLINDS_SETTING_BUTTON_SMALL_BLIND
                     : v1::HEADS_UP_BLINDS_SETTING_LITERAL);
  c.set_max_raises_per_round(t.max_raises_per_round);
  c.set_no_straddles(!t.straddles);
  return c;
}

class PokerRunner final : public GameRunner {
 public:
  PokerRunner(std::string game, ScenarioBook& book,
              std::unique_ptr<tables::TableState> state)
      : game_(std::move(game)), book_(book), state_(std::move(state)) {}

  absl::Status Step(const std::string& op, const Json& step) override;
  int64_t Stack(const std::string& player) const override;
  OJson Rounds() const override;
  void AddOutput(OJson& out) const override {
    out["table_pot"] = book_.Balance(settlement::PotAccount(kTableId));
  }

 private:
  // What a step may change, put back whole when the step is rejected.
  struct Cursor {
    int64_t hand = 0;  // the hand whose events are being recorded
    size_t hand_events = 0;
    size_t table_events = 0;
    size_t rounds = 0;
  };

  absl::Status Do(const std::string& op, const Json& step);
  absl::Status Deal(const Json& step);
  absl::Status BuyIn(const std::string& player, int seat, int64_t amount,
                     bool rebuy);
  absl::Status Act(const std::string& player, const Json& step);
  absl::Status Leave(const std::string& player);
  // Applies `event` to the table as the service does, records what the
  // engine did, and carries out the money requests the wallet would: the
  // event's own (a buy-in) and those it derived (a hand's settlement, a
  // cash-out).
  absl::Status Apply(v1::TableEvent event);
  // The wallet's part of a money request (services/wallet/
  // table_requests.cc), posted now.
  absl::Status CarryOut(const v1::TableEvent& request);
  // The engine's events since the last call, as text on the game topic.
  void RecordEngineEvents();
  OJson Round(const poker::Hand& hand) const;

  const std::string game_;
  ScenarioBook& book_;
  std::unique_ptr<tables::TableState> state_;
  Cursor seen_;
  std::vector<OJson> rounds_;
};

absl::Status PokerRunner::Apply(v1::TableEvent event) {
  const poker::Table& engine = state_->engine();
  const size_t table_events = engine.events().size();
  const size_t hand_events =
      engine.hand() != nullptr ? engine.hand()->events().size() : 0;
  std::vector<v1::TableEvent> derived;
  if (absl::Status s = state_->Apply(event, &derived); !s.ok()) {
    // A refused event changes nothing (TableState::Apply's contract).
    if (engine.events().size() != table_events ||
        (engine.hand() != nullptr &&
         engine.hand()->events().size() != hand_events)) {
      book_.AddViolation(absl::StrCat(book_.step_context(),
                                      ": the table refused an event but its "
                                      "engine emitted events"));
    }
    return s;
  }
  RecordEngineEvents();
  RETURN_IF_ERROR(CarryOut(event));
  for (const v1::TableEvent& d : derived) {
    if (d.has_hand_settled()) {
      rounds_.push_back(Round(*state_->engine().hand()));
    }
    RETURN_IF_ERROR(CarryOut(d));
  }
  return absl::OkStatus();
}

absl::Status PokerRunner::CarryOut(const v1::TableEvent& event) {
  if (!wire::IsMoneyRequest(event)) return absl::OkStatus();
  const v1::TableEvent request = wire::MoneyRequestOf(event);
  const std::string& table = request.table_id();
  if (request.has_buy_in_requested()) {
    // The wallet's hold and its captures (seat, HE-17b rake) as the one
    // transaction they amount to: the runner answers at once, so there is
    // no window for a hold to protect (poker_settlement.h).
    const v1::BuyInRequested& r = request.buy_in_requested();
    ASSIGN_OR_RETURN(
        v1::LedgerTransaction tx,
        settlement::BuyInTransaction(table, r.player_id(), r.paid_minor(),
                                     r.rake_minor(), r.rebuy()));
    return book_.Post(ledger::PlayerOwner(r.player_id()), std::move(tx));
  }
  if (request.has_hand_settled()) {
    for (const v1::LedgerTransaction& tx :
         request.hand_settled().transactions()) {
      RETURN_IF_ERROR(book_.Post(settlement::PotAccount(table), tx));
    }
    return absl::OkStatus();
  }
  const v1::PlayerLeft& left = request.player_left();
  if (left.compensates_saga_id().empty() &&
      book_.Balance(settlement::SeatAccount(table, left.player_id())) !=
          left.stack_minor()) {
    return absl::InternalError(absl::StrCat(
        left.player_id(), " leaves with ", left.stack_minor(),
        " but the seat account holds ",
        book_.Balance(settlement::SeatAccount(table, left.player_id()))));
  }
  if (left.stack_minor() == 0) return absl::OkStatus();
  ASSIGN_OR_RETURN(v1::LedgerTransaction tx,
                   settlement::CashOutTransaction(table, left.player_id(),
                                                  left.stack_minor(),
                                                  left.rake_refund_minor()));
  return book_.Post(settlement::PotAccount(table), std::move(tx));
}

void PokerRunner::RecordEngineEvents() {
  const poker::Table& engine = state_->engine();
  const poker::Hand* hand = engine.hand();
  if (hand != nullptr && state_->hands_started() > 0) {
    if (seen_.hand != state_->hands_started()) {
      seen_.hand = state_->hands_started();
      seen_.hand_events = 0;
    }
    const auto& events = hand->events();
    for (; seen_.hand_events < events.size(); ++seen_.hand_events) {
      book_.Record(DescribeHandEvent(events[seen_.hand_events]));
    }
  }
  const auto& table_events = engine.events();
  for (; seen_.table_events < table_events.size(); ++seen_.table_events) {
    book_.Record(DescribeTableEvent(table_events[seen_.table_events]));
  }
}

absl::Status PokerRunner::BuyIn(const std::string& player, int seat,
                                int64_t amount, bool rebuy) {
  // The engine's own refusal first, in its words: a rebuy during the
  // player's hand (HE-11b) is refused here, where the service takes the
  // money and adds it to the stack after the hand.
  poker::Table engine = state_->engine();
  RETURN_IF_ERROR(rebuy ? engine.Rebuy(player, amount).status()
                        : engine.Sit(player, seat, amount).status());
  ASSIGN_OR_RETURN(v1::TableEvent request,
                   tables::BuyInRequest(*state_, player, seat, amount, rebuy));
  const std::string saga = request.buy_in_requested().saga_id();
  // A refusal by the ledger (the cash is short) rejects the step; the
  // service would log it as BuyInFailed.
  RETURN_IF_ERROR(Apply(std::move(request)));
  v1::TableEvent captured;
  captured.set_table_id(kTableId);
  captured.mutable_buy_in_completed()->set_saga_id(saga);
  return Apply(std::move(captured));
}

absl::Status PokerRunner::Deal(const Json& step) {
  ASSIGN_OR_RETURN(std::vector<cards::Card> deck, ParseDeck(step["deck"]));
  const poker::Table& engine = state_->engine();
  const std::vector<int> eligible = engine.EligibleSeats();
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
    if (engine.NeedsButtonDraw()) {
      draw = index;  // HE-46: the file gives the draw's result
    } else {
      int next = eligible.front();
      for (int seat : eligible) {
        if (seat > engine.button()) {
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
  return Apply(tables::HandStart(*state_, deck, draw));
}

absl::Status PokerRunner::Act(const std::string& player, const Json& step) {
  ASSIGN_OR_RETURN(poker::Action action, ParseAction(step));
  v1::TableEvent e;
  e.set_table_id(kTableId);
  v1::ActionApplied* a = e.mutable_action_applied();
  a->set_hand_number(state_->hands_started());
  a->set_player_id(player);
  a->set_action(tables::ActionToProto(action.type));
  a->set_amount_minor(action.amount);
  return Apply(std::move(e));
}

absl::Status PokerRunner::Leave(const std::string& player) {
  v1::TableEvent e;
  e.set_table_id(kTableId);
  e.mutable_leave_requested()->set_player_id(player);
  RETURN_IF_ERROR(Apply(std::move(e)));
  // HE-10 mid-hand: the player leaves once the hand is over; the request
  // is a decision the log holds for a replay.
  if (state_->engine().SeatOf(player)) {
    book_.Record(absl::StrCat("LeaveRequested player=", player));
  }
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
    return BuyIn(player, step["seat"].get<int>(), step["buy_in"].get<int64_t>(),
                 false);
  }
  if (op == "rebuy") {
    return BuyIn(player, 0, step["amount"].get<int64_t>(), true);
  }
  if (op == "leave") return Leave(player);
  if (op == "deal") return Deal(step);
  if (op == "act") return Act(player, step);
  v1::TableEvent e;
  e.set_table_id(kTableId);
  if (op == "timeout") {
    // HE-45, as the service's decision timer: check, else fold.
    v1::ActionApplied* a = e.mutable_action_applied();
    a->set_hand_number(state_->hands_started());
    a->set_player_id(player);
    a->set_timeout(true);
    return Apply(std::move(e));
  }
  if (op == "fail") {
    e.mutable_hand_void_requested()->set_hand_number(state_->hands_started());
    e.mutable_hand_void_requested()->set_reason("scenario: the system failed");
    return Apply(std::move(e));
  }
  if (op == "sit_out" || op == "sit_in") {
    v1::SitOutChanged* c = e.mutable_sit_out_changed();
    c->set_player_id(player);
    c->set_sitting_out(op == "sit_out");
    if (op == "sit_out") c->set_at_micros(book_.now_micros());
    return Apply(std::move(e));
  }
  if (op == "disconnect" || op == "reconnect") {
    // HE-73: the player's own connection voids nothing; their turn runs
    // out only through a `timeout` step.
    if (!state_->engine().SeatOf(player)) {
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

OJson PokerRunner::Round(const poker::Hand& hand) const {
  return PokerRound(hand, game_ == "omaha"       ? cards::Game::kOmaha
                          : game_ == "synthetic" ? cards::Game::kSynthetic
                                                 : cards::Game::kHoldem);
}

absl::Status PokerRunner::Step(const std::string& op, const Json& step) {
  const tables::TableState snapshot = *state_;
  const Cursor seen = seen_;
  const size_t rounds = rounds_.size();
  absl::Status status = Do(op, step);
  if (status.ok()) return status;
  // A step is undone whole, as a rejected command appends nothing: the
  // table refused its event (and is as it was) or a later part of it (the
  // ledger refused a buy-in above the cash).
  *state_ = snapshot;
  seen_ = seen;
  rounds_.resize(rounds);
  return status;
}

int64_t PokerRunner::Stack(const std::string& player) const {
  const poker::Table& engine = state_->engine();
  const poker::Hand* hand = engine.in_hand() ? engine.hand() : nullptr;
  int64_t stack = engine.Stack(player).value_or(0);
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
  const poker::Table& engine = state_->engine();
  const poker::Hand* hand = engine.in_hand() ? engine.hand() : nullptr;
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
  v1::TableCreated created;
  created.set_table_id(kTableId);
  created.set_name(file.name);
  ASSIGN_OR_RETURN(v1::PokerTableConfig service, ServiceConfig(config));
  // HE-43: the service's decision time (timers fire through `timeout`).
  const int64_t seconds = file.config.value(
      "action_seconds", int64_t{tables::kDefaultActionSeconds});
  if (seconds < 1 || seconds > tables::kMaxActionSeconds) {
    return absl::InvalidArgumentError(absl::StrCat(
        "config.action_seconds must be 1..", tables::kMaxActionSeconds));
  }
  service.set_action_seconds(static_cast<int32_t>(seconds));
  *created.mutable_config() = std::move(service);
  ASSIGN_OR_RETURN(std::unique_ptr<tables::TableState> state,
                   AsInvalidArgument(tables::TableState::Create(created)));
  return std::make_unique<PokerRunner>(file.game, book, std::move(state));
}

}  // namespace banca::scenario
