#include "tools/banca/scenario.h"

#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "banca/v1/envelope.pb.h"
#include "banca/v1/ledger.pb.h"
#include "libs/cards/card.h"
#include "libs/cards/showdown.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/event_log.h"
#include "libs/games/poker/table.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"
#include "libs/money/money.h"
#include "nlohmann/json.hpp"
#include "services/table/poker_settlement.h"
#include "services/wallet/wallet_events.h"

namespace banca::cli {
namespace {

namespace poker = games::poker;
using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;

constexpr std::string_view kTableTopic = "banca.table.events";
constexpr std::string_view kTableEventType = "banca.scenario.PokerEvent";
constexpr char kTableId[] = "t1";
// A fixed start for the table clock, so that runs are byte-identical.
constexpr int64_t kClockStartMicros = 1'767'225'600'000'000;  // 2026-01-01

std::string ErrorJson(absl::string_view message) {
  OJson j;
  j["error"] = std::string(message);
  return j.dump();
}

ScenarioRun Fail(int code, absl::string_view message) {
  return ScenarioRun{code, ErrorJson(message)};
}

// ---------------------------------------------------------------------------
// Reading the file: everything structural is checked before anything is
// played, so a malformed file plays nothing.

enum class Kind { kString, kInt, kBool, kObject, kArray };

bool IsKind(const Json& j, Kind kind) {
  switch (kind) {
    case Kind::kString:
      return j.is_string();
    case Kind::kInt:
      return j.is_number_integer();
    case Kind::kBool:
      return j.is_boolean();
    case Kind::kObject:
      return j.is_object();
    case Kind::kArray:
      return j.is_array();
  }
  return false;
}

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kString:
      return "a string";
    case Kind::kInt:
      return "an integer";
    case Kind::kBool:
      return "true or false";
    case Kind::kObject:
      return "an object";
    case Kind::kArray:
      return "an array";
  }
  return "?";
}

absl::Status Field(const Json& obj, const std::string& where, const char* key,
                   Kind kind, bool required) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (!required) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": \"", key, "\" is required (", KindName(kind), ")"));
  }
  if (!IsKind(*it, kind)) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ".", key, " must be ", KindName(kind), ", got ", it->dump()));
  }
  return absl::OkStatus();
}

const std::set<std::string>& PokerGames() {
  static const auto* kGames =
      new std::set<std::string>{"holdem", "omaha", "synthetic"};
  return *kGames;
}
const std::set<std::string>& OtherGames() {
  static const auto* kGames = new std::set<std::string>{
      "blackjack", "roulette_french", "roulette_american", "stud_no_draw",
      "tournament"};
  return *kGames;
}

// Required fields of each step; optional ones are checked when present.
struct StepSpec {
  std::vector<std::pair<const char*, Kind>> required;
  std::vector<std::pair<const char*, Kind>> optional;
  bool poker = true;
};
const std::map<std::string, StepSpec>& StepSpecs() {
  static const auto* kSpecs = new std::map<std::string, StepSpec>{
      {"sit",
       {{{"player", Kind::kString},
         {"seat", Kind::kInt},
         {"buy_in", Kind::kInt}},
        {}}},
      {"rebuy", {{{"player", Kind::kString}, {"amount", Kind::kInt}}, {}}},
      {"leave", {{{"player", Kind::kString}}, {}}},
      {"deal", {{{"deck", Kind::kArray}}, {{"button", Kind::kInt}}}},
      {"act",
       {{{"player", Kind::kString}, {"action", Kind::kString}},
        {{"amount", Kind::kInt}}}},
      {"timeout", {{{"player", Kind::kString}}, {}}},
      {"disconnect", {{{"player", Kind::kString}}, {}}},
      {"reconnect", {{{"player", Kind::kString}}, {}}},
      {"sit_out", {{{"player", Kind::kString}}, {}}},
      {"sit_in", {{{"player", Kind::kString}}, {}}},
      {"fail", {{}, {}}},
      {"advance", {{{"seconds", Kind::kInt}}, {}}},
      // Banked games and tournaments: valid steps, not poker ones.
      {"bet", {{}, {}, false}},
      {"spin", {{}, {}, false}},
      {"tournament", {{}, {}, false}},
  };
  return *kSpecs;
}

struct PlayerSpec {
  std::string id;
  int64_t cash = 0;
};

struct Scenario {
  std::string game;
  poker::TableConfig config;
  std::vector<PlayerSpec> players;
  std::vector<Json> steps;
};

absl::Status ReadConfig(const Json& c, const std::string& game,
                        poker::TableConfig* out) {
  poker::TableConfig& t = *out;
  t.variant = game == "omaha"       ? poker::Variant::kOmaha
              : game == "synthetic" ? poker::Variant::kSynthetic
                                    : poker::Variant::kHoldem;
  // Omaha is pot limit unless the file says otherwise (OM rules).
  if (game == "omaha") t.limit = poker::Limit::kPotLimit;
  for (auto [key, kind] :
       std::vector<std::pair<const char*, Kind>>{{"seats", Kind::kInt},
                                                 {"small_blind", Kind::kInt},
                                                 {"big_blind", Kind::kInt},
                                                 {"limit", Kind::kString},
                                                 {"rake", Kind::kObject},
                                                 {"buy_in", Kind::kObject},
                                                 {"action_seconds", Kind::kInt},
                                                 {"heads_up", Kind::kString},
                                                 {"straddles", Kind::kBool},
                                                 {"max_raises", Kind::kInt},
                                                 {"hole_cards", Kind::kInt}}) {
    if (absl::Status s = Field(c, "config", key, kind, false); !s.ok()) {
      return s;
    }
  }
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
    for (auto [key, kind] :
         std::vector<std::pair<const char*, Kind>>{{"mode", Kind::kString},
                                                   {"bps", Kind::kInt},
                                                   {"cap", Kind::kInt}}) {
      if (absl::Status s = Field(r, "config.rake", key, kind, false); !s.ok()) {
        return s;
      }
    }
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
    for (const char* key : {"min", "max"}) {
      if (absl::Status s = Field(b, "config.buy_in", key, Kind::kInt, true);
          !s.ok()) {
        return s;
      }
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
absl::StatusOr<Scenario> ReadScenario(std::string_view text) {
  Json root;
  try {
    root = Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("not valid JSON: ", e.what()));
  }
  if (!root.is_object()) {
    return absl::InvalidArgumentError("the scenario must be a JSON object");
  }
  Scenario sc;
  for (auto [key, kind] :
       std::vector<std::pair<const char*, Kind>>{{"game", Kind::kString},
                                                 {"players", Kind::kArray},
                                                 {"steps", Kind::kArray}}) {
    if (absl::Status s = Field(root, "scenario", key, kind, true); !s.ok()) {
      return s;
    }
  }
  for (auto [key, kind] : std::vector<std::pair<const char*, Kind>>{
           {"name", Kind::kString}, {"config", Kind::kObject}}) {
    if (absl::Status s = Field(root, "scenario", key, kind, false); !s.ok()) {
      return s;
    }
  }
  sc.game = root["game"].get<std::string>();
  const bool poker_game = PokerGames().contains(sc.game);
  if (!poker_game && !OtherGames().contains(sc.game)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "game: unknown game \"", sc.game,
        "\" (holdem, omaha, synthetic, blackjack, roulette_french, "
        "roulette_american, stud_no_draw, tournament)"));
  }
  std::set<std::string> ids;
  const Json& players = root["players"];
  for (size_t i = 0; i < players.size(); ++i) {
    const std::string where = absl::StrCat("players[", i, "]");
    if (!players[i].is_object()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, " must be an object"));
    }
    if (absl::Status s = Field(players[i], where, "id", Kind::kString, true);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = Field(players[i], where, "cash", Kind::kInt, false);
        !s.ok()) {
      return s;
    }
    PlayerSpec p{players[i]["id"].get<std::string>(),
                 players[i].value("cash", int64_t{0})};
    if (!ledger::IsValidId(p.id)) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ".id \"", p.id, "\" must be 1-64 of [A-Za-z0-9_.-]"));
    }
    if (p.cash < 0 || p.cash > money::kMaxAmountMinor) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".cash must be 0..", money::kMaxAmountMinor));
    }
    if (!ids.insert(p.id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".id \"", p.id, "\" is listed twice"));
    }
    sc.players.push_back(std::move(p));
  }
  const Json& steps = root["steps"];
  for (size_t i = 0; i < steps.size(); ++i) {
    const std::string where = absl::StrCat("steps[", i, "]");
    const Json& step = steps[i];
    if (!step.is_object()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, " must be an object"));
    }
    if (absl::Status s = Field(step, where, "do", Kind::kString, true);
        !s.ok()) {
      return s;
    }
    const std::string op = step["do"].get<std::string>();
    auto spec = StepSpecs().find(op);
    if (spec == StepSpecs().end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".do: unknown step \"", op, "\""));
    }
    for (auto [key, kind] : spec->second.required) {
      if (absl::Status s = Field(step, where, key, kind, true); !s.ok()) {
        return s;
      }
    }
    for (auto [key, kind] : spec->second.optional) {
      if (absl::Status s = Field(step, where, key, kind, false); !s.ok()) {
        return s;
      }
    }
    if (op == "deal") {
      for (const Json& card : step["deck"]) {
        if (!card.is_string()) {
          return absl::InvalidArgumentError(
              absl::StrCat(where, ".deck: cards are strings like \"As\", got ",
                           card.dump()));
        }
      }
    }
    sc.steps.push_back(step);
  }
  if (!poker_game) {
    return absl::UnimplementedError(
        absl::StrCat("game \"", sc.game,
                     "\" is not supported by this build's scenario runner yet "
                     "(supported: holdem, omaha, synthetic)"));
  }
  const Json config = root.value("config", Json::object());
  if (absl::Status s = ReadConfig(config, sc.game, &sc.config); !s.ok()) {
    return s;
  }
  return sc;
}

// ---------------------------------------------------------------------------
// Event text for the table topic (table events have no protobuf schema yet).

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
        } else {
          return absl::StrCat("SessionEndWarned player=", e.player,
                              " reason=", static_cast<int>(e.reason));
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

// ---------------------------------------------------------------------------
// Playing.

class Runner {
 public:
  Runner(const Scenario& sc, eventlog::EventLog* log, poker::Table table)
      : sc_(sc),
        log_(log),
        ledger_({.currency = "EUR", .hot_stripes = 1, .shards = 64}),
        table_(std::move(table)) {}

  absl::Status Setup();
  OJson PlayStep(size_t index, const Json& step);
  OJson Output() const;
  // Reads the log back: every wallet event applied to a fresh ledger must
  // give the same balances, and the log must hold exactly the events
  // counted. Differences go to `violations`.
  void VerifyReplay();

 private:
  ledger::CommandMeta Meta() {
    return {absl::StrCat("scenario-", ++requests_), "scenario"};
  }
  absl::Status Post(std::string_view owner, v1::LedgerTransaction tx);
  void AddTableRecord(std::string text);
  absl::Status Flush();
  absl::Status Do(const std::string& op, const Json& step);
  absl::Status Deal(const Json& step);
  absl::Status Money(size_t table_events_before, bool* ledger_touched);
  OJson Round(const poker::Hand& hand) const;
  bool Known(const std::string& player) const;

  const Scenario& sc_;
  eventlog::EventLog* log_;
  ledger::Ledger ledger_;
  poker::Table table_;
  std::vector<eventlog::Record> pending_;
  int64_t requests_ = 0;
  int64_t clock_micros_ = kClockStartMicros;
  uint64_t table_sequence_ = 0;
  int64_t events_ = 0;
  size_t hand_events_seen_ = 0;
  int64_t hands_started_ = 0;
  int64_t hands_settled_ = 0;
  std::vector<OJson> rounds_;
  std::vector<std::string> violations_;
  std::string step_context_;
};

absl::Status Runner::Post(std::string_view owner, v1::LedgerTransaction tx) {
  wallet::EventContext ctx;
  ctx.producer = "scenario";
  ctx.correlation_id = step_context_;
  ctx.causation_id = step_context_;
  ctx.occurred_at_micros = clock_micros_;
  return ledger_.Post(Meta(), owner, std::move(tx),
                      [&](const ledger::Committed& c) {
                        pending_.push_back(wallet::EncodeWalletRecord(c, ctx));
                      });
}

void Runner::AddTableRecord(std::string text) {
  v1::EventEnvelope envelope;
  const std::string stream = absl::StrCat("table/", kTableId);
  ++table_sequence_;
  const std::string event_id = absl::StrCat(stream, "#", table_sequence_);
  envelope.set_event_id(event_id);
  envelope.set_stream_id(stream);
  envelope.set_sequence(table_sequence_);
  envelope.set_type(std::string(kTableEventType));
  envelope.set_schema_version(1);
  envelope.set_occurred_at_micros(clock_micros_);
  envelope.set_producer("scenario");
  envelope.set_correlation_id(step_context_);
  envelope.set_payload(std::move(text));
  eventlog::Record record;
  record.topic = std::string(kTableTopic);
  record.key = stream;
  record.timestamp_micros = clock_micros_;
  record.headers = {{"event_id", event_id},
                    {"type", std::string(kTableEventType)}};
  envelope.SerializeToString(&record.value);
  pending_.push_back(std::move(record));
}

absl::Status Runner::Flush() {
  if (pending_.empty()) return absl::OkStatus();
  const size_t n = pending_.size();
  absl::StatusOr<std::vector<eventlog::Position>> positions =
      log_->Append(std::move(pending_));
  pending_.clear();
  if (!positions.ok()) return positions.status();
  if (positions->size() != n) {
    return absl::InternalError("the log stored a different number of records");
  }
  events_ += static_cast<int64_t>(n);
  return absl::OkStatus();
}

absl::Status Runner::Setup() {
  step_context_ = "scenario-setup";
  wallet::EventContext ctx;
  ctx.producer = "scenario";
  ctx.correlation_id = step_context_;
  ctx.occurred_at_micros = clock_micros_;
  auto commit = [&](const ledger::Committed& c) {
    pending_.push_back(wallet::EncodeWalletRecord(c, ctx));
  };
  for (const PlayerSpec& p : sc_.players) {
    if (absl::Status s = ledger_.OpenAccount(Meta(), p.id, "EUR", commit);
        !s.ok()) {
      return s;
    }
    if (p.cash == 0) continue;
    v1::LedgerTransaction tx;
    tx.set_reason(v1::POSTING_REASON_DEPOSIT);
    tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
    tx.mutable_reference()->set_id("scenario-deposit");
    tx.set_memo("scenario: the player's starting cash");
    v1::Posting* from = tx.add_postings();
    from->set_account("external/payments");
    from->set_amount_minor(-p.cash);
    v1::Posting* to = tx.add_postings();
    to->set_account(ledger::PlayerCashAccount(p.id));
    to->set_amount_minor(p.cash);
    if (absl::Status s = Post(ledger::PlayerOwner(p.id), std::move(tx));
        !s.ok()) {
      return s;
    }
  }
  return Flush();
}

bool Runner::Known(const std::string& player) const {
  for (const PlayerSpec& p : sc_.players) {
    if (p.id == player) return true;
  }
  return false;
}

absl::Status Runner::Deal(const Json& step) {
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

absl::Status Runner::Do(const std::string& op, const Json& step) {
  const StepSpec& spec = StepSpecs().at(op);
  if (!spec.poker) {
    return absl::InvalidArgumentError(
        absl::StrCat("step \"", op, "\" does not apply to ", sc_.game));
  }
  std::string player;
  if (step.contains("player")) {
    player = step["player"].get<std::string>();
    if (!Known(player)) {
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
      AddTableRecord(absl::StrCat("LeaveRequested player=", player));
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
    AddTableRecord(absl::StrCat(
        op == "disconnect" ? "PlayerDisconnected" : "PlayerReconnected",
        " player=", player));
    return absl::OkStatus();
  }
  if (op == "advance") {
    const int64_t seconds = step["seconds"].get<int64_t>();
    if (seconds < 0 || seconds > 86'400 * 365) {
      return absl::InvalidArgumentError("advance: seconds must be 0..1 year");
    }
    clock_micros_ += seconds * 1'000'000;
    AddTableRecord(absl::StrCat("ClockAdvanced seconds=", seconds));
    return absl::OkStatus();
  }
  return absl::InternalError(absl::StrCat("step ", op, " not handled"));
}

// The engine events the step produced, and the money they move.
absl::Status Runner::Money(size_t table_events_before, bool* ledger_touched) {
  const poker::Hand* hand = table_.hand();
  if (hand != nullptr && hands_started_ > 0) {
    const auto& events = hand->events();
    for (; hand_events_seen_ < events.size(); ++hand_events_seen_) {
      AddTableRecord(Describe(events[hand_events_seen_]));
    }
  }
  const auto& table_events = table_.events();
  for (size_t i = table_events_before; i < table_events.size(); ++i) {
    AddTableRecord(Describe(table_events[i]));
  }
  // A finished hand settles first: a leaver's stack is known only after it.
  if (hand != nullptr && hand->finished() && hands_settled_ < hands_started_) {
    ++hands_settled_;
    absl::StatusOr<std::vector<v1::LedgerTransaction>> txs =
        table::HandTransactions(hand->record(), hand->result(), hand->events());
    if (!txs.ok()) return txs.status();
    for (v1::LedgerTransaction& tx : *txs) {
      *ledger_touched = true;
      if (absl::Status s = Post(table::PotAccount(kTableId), std::move(tx));
          !s.ok()) {
        return s;
      }
    }
    rounds_.push_back(Round(*hand));
  }
  for (size_t i = table_events_before; i < table_events.size(); ++i) {
    const poker::TableEvent& e = table_events[i];
    absl::StatusOr<v1::LedgerTransaction> tx;
    std::string player;
    if (const auto* sat = std::get_if<poker::PlayerSat>(&e)) {
      player = sat->player;
      tx = table::BuyInTransaction(kTableId, sat->player, sat->paid, sat->rake,
                                   false);
    } else if (const auto* re = std::get_if<poker::PlayerRebought>(&e)) {
      player = re->player;
      tx = table::BuyInTransaction(kTableId, re->player, re->paid, re->rake,
                                   true);
    } else if (const auto* left = std::get_if<poker::PlayerLeft>(&e)) {
      const int64_t seat =
          ledger_.AccountBalance(table::SeatAccount(kTableId, left->player));
      if (seat != left->stack) {
        return absl::InternalError(
            absl::StrCat(left->player, " leaves with ", left->stack,
                         " but the seat account holds ", seat));
      }
      if (left->stack == 0) continue;
      player = left->player;
      tx = table::CashOutTransaction(kTableId, left->player, left->stack);
    } else {
      continue;
    }
    if (!tx.ok()) return tx.status();
    if (absl::Status s = Post(ledger::PlayerOwner(player), std::move(*tx));
        !s.ok()) {
      return s;
    }
    *ledger_touched = true;
  }
  return absl::OkStatus();
}

OJson Runner::Round(const poker::Hand& hand) const {
  const poker::HandRecord record = hand.record();
  const poker::HandResult& r = hand.result();
  std::map<int, std::string> names;
  for (const poker::SeatedPlayer& p : record.players) names[p.seat] = p.player;
  OJson round;
  round["id"] = table::HandId(record.table_id, record.hand_number);
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
  const cards::Game game = sc_.game == "omaha"       ? cards::Game::kOmaha
                           : sc_.game == "synthetic" ? cards::Game::kSynthetic
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

OJson Runner::PlayStep(size_t index, const Json& step) {
  const std::string op = step["do"].get<std::string>();
  step_context_ = absl::StrCat("scenario-step-", index);
  const poker::Table snapshot = table_;
  const size_t table_events = table_.events().size();
  const poker::Hand* hand_before = table_.hand();
  const size_t hand_events =
      hand_before ? hand_before->events().size() : size_t{0};
  const int64_t hands_started = hands_started_;
  const int64_t hands_settled = hands_settled_;
  const size_t hand_events_seen = hand_events_seen_;
  const size_t rounds = rounds_.size();
  const int64_t clock = clock_micros_;
  const uint64_t table_sequence = table_sequence_;
  const int64_t events_before = events_;
  pending_.clear();

  absl::Status status = Do(op, step);
  const bool engine_accepted = status.ok();
  bool ledger_touched = false;
  if (status.ok()) {
    status = Money(table_events, &ledger_touched);
    if (!status.ok() && ledger_touched) {
      // Money moved for part of the step: not something to undo quietly.
      violations_.push_back(absl::StrCat(
          "step ", index, ": settlement failed half way: ", status.message()));
    }
  } else {
    // A rejected engine call must change nothing (the engine's contract).
    const poker::Hand* h = table_.hand();
    if (table_.events().size() != table_events || h != hand_before ||
        (h != nullptr && h->events().size() != hand_events)) {
      violations_.push_back(absl::StrCat(
          "step ", index, ": the engine rejected it but emitted events"));
    }
  }
  if (status.ok()) {
    if (absl::Status s = Flush(); !s.ok()) {
      violations_.push_back(
          absl::StrCat("step ", index, ": append failed: ", s.message()));
      status = s;
    }
  }
  if (!status.ok()) {
    pending_.clear();
    // The engine's own rejections change nothing (but HE-7's "the table
    // stops", which is kept); a step the engine took but the ledger refused
    // (a buy-in above the cash) is undone here.
    if (engine_accepted) table_ = snapshot;
    hands_started_ = hands_started;
    hands_settled_ = hands_settled;
    hand_events_seen_ = hand_events_seen;
    rounds_.resize(rounds);
    clock_micros_ = clock;
    table_sequence_ = table_sequence;
    if (events_ != events_before) {
      violations_.push_back(
          absl::StrCat("step ", index, ": rejected but events were appended"));
    }
  }
  OJson out;
  out["index"] = index;
  out["ok"] = status.ok();
  if (!status.ok()) {
    out["code"] = absl::StatusCodeToString(status.code());
    out["message"] = std::string(status.message());
  }
  return out;
}

void Runner::VerifyReplay() {
  ledger::Ledger replayed({.currency = "EUR", .hot_stripes = 1, .shards = 64});
  int64_t records = 0;
  for (const eventlog::TopicConfig& topic :
       {eventlog::TopicConfig{std::string(wallet::kWalletTopic),
                              wallet::kDefaultWalletPartitions},
        eventlog::TopicConfig{std::string(kTableTopic), 1}}) {
    const bool is_wallet = topic.name == wallet::kWalletTopic;
    for (int p = 0; p < topic.partitions; ++p) {
      absl::StatusOr<std::vector<eventlog::StoredRecord>> read =
          log_->Read(topic.name, p, 0, 1'000'000);
      if (!read.ok()) {
        violations_.push_back(absl::StrCat("replay: read ", topic.name, ": ",
                                           read.status().message()));
        return;
      }
      records += static_cast<int64_t>(read->size());
      if (!is_wallet) continue;
      for (const eventlog::StoredRecord& r : *read) {
        absl::StatusOr<wallet::DecodedWalletEvent> d =
            wallet::DecodeWalletRecord(r);
        absl::Status s = d.ok()
                             ? replayed.Apply(d->envelope.stream_id(),
                                              d->envelope.sequence(), d->event)
                             : d.status();
        if (!s.ok()) {
          violations_.push_back(absl::StrCat("replay: ", s.message()));
          return;
        }
      }
    }
  }
  if (records != events_) {
    violations_.push_back(absl::StrCat("replay: the log holds ", records,
                                       " events, ", events_, " counted"));
  }
  std::vector<std::string> accounts = {std::string(table::kRakeAccount),
                                       table::PotAccount(kTableId)};
  for (const PlayerSpec& p : sc_.players) {
    accounts.push_back(ledger::PlayerCashAccount(p.id));
    accounts.push_back(table::SeatAccount(kTableId, p.id));
  }
  for (const std::string& a : accounts) {
    if (replayed.AccountBalance(a) != ledger_.AccountBalance(a)) {
      violations_.push_back(
          absl::StrCat("replay: ", a, " is ", replayed.AccountBalance(a),
                       " replayed, ", ledger_.AccountBalance(a), " live"));
    }
  }
  if (replayed.Summarize().sum != 0) {
    violations_.push_back("replay: the replayed ledger does not sum to 0");
  }
}

OJson Runner::Output() const {
  OJson players = OJson::object();
  const poker::Hand* hand = table_.in_hand() ? table_.hand() : nullptr;
  const poker::SeatView view = hand ? hand->ViewFor(0) : poker::SeatView{};
  for (const PlayerSpec& p : sc_.players) {
    OJson entry;
    entry["cash"] = ledger_.AccountBalance(ledger::PlayerCashAccount(p.id));
    int64_t stack = table_.Stack(p.id).value_or(0);
    for (const poker::PlayerView& v : view.players) {
      if (v.player == p.id) stack = v.stack;
    }
    entry["stack"] = stack;
    players[p.id] = entry;
  }
  OJson house;
  house["rake"] = ledger_.AccountBalance(table::kRakeAccount);
  house["bank"] = ledger_.AccountBalance("house/bank");
  house["tournament_fees"] = ledger_.AccountBalance("house/tournament_fees");
  house["overlay"] = ledger_.AccountBalance("house/overlay");
  OJson rounds = OJson::array();
  for (const OJson& r : rounds_) rounds.push_back(r);
  if (hand != nullptr) {
    const poker::HandRecord record = hand->record();
    OJson r;
    r["id"] = table::HandId(record.table_id, record.hand_number);
    r["void"] = false;
    r["pots"] = OJson::array();
    r["shown"] = OJson::object();
    r["result"] = "in progress";
    rounds.push_back(r);
  }
  OJson out;
  out["players"] = players;
  out["house"] = house;
  out["ledger_sum"] = ledger_.Summarize().sum;
  out["rounds"] = rounds;
  out["events"] = events_;
  out["table_pot"] = ledger_.AccountBalance(table::PotAccount(kTableId));
  if (!violations_.empty()) out["violations"] = violations_;
  return out;
}

std::string TempParent(const std::string& work_dir) {
  if (!work_dir.empty()) return work_dir;
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

}  // namespace

ScenarioRun RunScenario(std::string_view text, const std::string& work_dir) {
  absl::StatusOr<Scenario> sc = ReadScenario(text);
  if (!sc.ok()) {
    return Fail(sc.status().code() == absl::StatusCode::kUnimplemented
                    ? kScenarioUnsupported
                    : kScenarioMalformed,
                sc.status().message());
  }
  absl::StatusOr<poker::Table> table =
      poker::Table::Create(sc->config, kTableId);
  if (!table.ok()) return Fail(kScenarioMalformed, table.status().message());

  std::string dir = TempParent(work_dir) + "/banca-scenario-XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) {
    return Fail(kScenarioFailed, "cannot create a temporary directory");
  }
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  } cleanup{dir};

  eventlog::EmbeddedLogOptions options;
  options.fsync = false;  // a throw-away log
  options.group_commit_delay_micros = 0;
  absl::StatusOr<std::unique_ptr<eventlog::EventLog>> log =
      eventlog::OpenEmbeddedLog(dir, options);
  if (!log.ok()) return Fail(kScenarioFailed, log.status().message());
  for (const eventlog::TopicConfig& topic :
       {eventlog::TopicConfig{std::string(wallet::kWalletTopic),
                              wallet::kDefaultWalletPartitions},
        eventlog::TopicConfig{std::string(kTableTopic), 1}}) {
    if (absl::Status s = (*log)->EnsureTopic(topic); !s.ok()) {
      return Fail(kScenarioFailed, s.message());
    }
  }

  ScenarioRun run;
  try {
    Runner runner(*sc, log->get(), std::move(*table));
    if (absl::Status s = runner.Setup(); !s.ok()) {
      return Fail(kScenarioFailed, absl::StrCat("setup: ", s.message()));
    }
    OJson steps = OJson::array();
    for (size_t i = 0; i < sc->steps.size(); ++i) {
      steps.push_back(runner.PlayStep(i, sc->steps[i]));
    }
    OJson out;
    out["steps"] = steps;
    runner.VerifyReplay();
    const OJson rest = runner.Output();
    for (auto it = rest.begin(); it != rest.end(); ++it) out[it.key()] = *it;
    run.exit_code = kScenarioPlayed;
    run.json = out.dump();
  } catch (const Json::exception& e) {
    return Fail(kScenarioFailed, absl::StrCat("internal: ", e.what()));
  }
  return run;
}

ScenarioRun RunScenarioFile(const std::string& path,
                            const std::string& work_dir) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(kScenarioMalformed, "cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return RunScenario(text.str(), work_dir);
}

}  // namespace banca::cli
