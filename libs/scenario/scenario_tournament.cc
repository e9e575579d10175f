// The tournament scenario runner (SCENARIOS.md "Tournament scenarios"):
// each step becomes a command to the tournament director
// (libs/games/tournament/director.h), which plays the hands at every
// table with the poker engine and the file's decks; the money it decides
// (entries, fees, prizes, bounties, overlay, refunds) is posted on the
// ledger as the wallet would post it (libs/settlement/
// tournament_settlement.h), and its notices and the engine's events go to
// the game topic as text.
//
// Draws: a file gives the seat draw at the start; every later draw (a
// late registrant's or a reentry's seat, a player moved when tables are
// balanced or broken, TN-48) takes the first of the candidates: the
// lowest free seat of the lowest-numbered table with the fewest players.
// Time: `advance` moves the clock and the levels follow their `seconds`;
// `level` starts the next level at once.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/tournament/director.h"
#include "libs/games/tournament/limits.h"
#include "libs/scenario/scenario_book.h"
#include "libs/scenario/scenario_poker_text.h"
#include "libs/settlement/tournament_settlement.h"

namespace banca::scenario {
namespace {

namespace poker = games::poker;
namespace tn = games::tournament;

// The scenario's tournament.
constexpr char kTournamentId[] = "tn1";

absl::Status Bad(const std::string& where, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", ToAbsl(why)));
}

absl::Status ReadPurchase(const Json& j, const std::string& where,
                          tn::ChipPurchase* out) {
  RETURN_IF_ERROR(KnownFields(j, where,
                              {{"price", Kind::kInt},
                               {"chips", Kind::kInt},
                               {"fee_bps", Kind::kInt},
                               {"max", Kind::kInt},
                               {"until_level", Kind::kInt}}));
  for (const char* key : {"price", "chips"}) {
    RETURN_IF_ERROR(Field(j, where, key, Kind::kInt, true));
  }
  out->price = j["price"].get<int64_t>();
  out->chips = j["chips"].get<int64_t>();
  out->fee_bps = j.value("fee_bps", 0);
  out->max = j.value("max", 1);
  out->until_level = j.value("until_level", 1);
  return absl::OkStatus();
}

absl::Status ReadLevels(const Json& levels, std::vector<tn::BlindLevel>* out) {
  for (size_t i = 0; i < levels.size(); ++i) {
    const std::string where = absl::StrCat("config.levels[", i, "]");
    if (!levels[i].is_object()) return Bad(where, "must be an object");
    RETURN_IF_ERROR(KnownFields(levels[i], where,
                                {{"small_blind", Kind::kInt},
                                 {"big_blind", Kind::kInt},
                                 {"seconds", Kind::kInt}}));
    for (const char* key : {"small_blind", "big_blind"}) {
      RETURN_IF_ERROR(Field(levels[i], where, key, Kind::kInt, true));
    }
    const int64_t seconds = levels[i].value("seconds", int64_t{600});
    if (seconds < 1 || seconds > tn::kMaxLevelMicros / 1'000'000) {
      return Bad(where + ".seconds", "must be 1..86400");
    }
    out->push_back(tn::BlindLevel{levels[i]["small_blind"].get<int64_t>(),
                                  levels[i]["big_blind"].get<int64_t>(), 0,
                                  seconds * 1'000'000});
  }
  return absl::OkStatus();
}

absl::Status ReadEnums(const Json& c, tn::TournamentConfig& t) {
  const std::string variant = c.value("variant", std::string("holdem"));
  if (variant == "holdem") {
    t.variant = poker::Variant::kHoldem;
  } else if (variant == "omaha") {
    t.variant = poker::Variant::kOmaha;
    t.limit = poker::Limit::kPotLimit;  // Omaha's default (OM rules)
  } else if (variant == "synthetic") {
    t.variant = poker::Variant::kSynthetic;
  } else {
    return Bad("config.variant", absl::StrCat("unknown variant \"", variant,
                                              "\" (holdem, omaha, synthetic)"));
  }
  if (c.contains("limit")) {
    const std::string limit = c["limit"].get<std::string>();
    const std::map<std::string, poker::Limit> limits = {
        {"no_limit", poker::Limit::kNoLimit},
        {"pot_limit", poker::Limit::kPotLimit},
        {"fixed_limit", poker::Limit::kFixedLimit},
        {"half_pot", poker::Limit::kHalfPot}};
    if (!limits.contains(limit)) {
      return Bad("config.limit",
                 absl::StrCat("unknown limit \"", limit,
                              "\" (no_limit, pot_limit, fixed_limit, "
                              "half_pot)"));
    }
    t.limit = limits.at(limit);
  }
  const std::string kind = c.value("kind", std::string("scheduled"));
  for (tn::TournamentKind k :
       {tn::TournamentKind::kScheduled, tn::TournamentKind::kSitAndGo,
        tn::TournamentKind::kTimed, tn::TournamentKind::kFreeroll,
        tn::TournamentKind::kSatellite}) {
    if (tn::TournamentKindName(k) == kind) {
      t.kind = k;
      return absl::OkStatus();
    }
  }
  return Bad("config.kind",
             absl::StrCat("unknown kind \"", kind,
                          "\" (scheduled, sit_and_go, timed, freeroll, "
                          "satellite)"));
}

absl::StatusOr<tn::TournamentConfig> ReadConfig(const Json& c) {
  RETURN_IF_ERROR(KnownFields(c, "config",
                              {{"variant", Kind::kString},
                               {"limit", Kind::kString},
                               {"seats_per_table", Kind::kInt},
                               {"starting_chips", Kind::kInt},
                               {"buy_in", Kind::kInt},
                               {"fee_bps", Kind::kInt},
                               {"bounty", Kind::kInt},
                               {"payouts_bps", Kind::kArray},
                               {"guarantee", Kind::kInt},
                               {"min_players", Kind::kInt},
                               {"max_players", Kind::kInt},
                               {"levels", Kind::kArray},
                               {"rebuy", Kind::kObject},
                               {"addon", Kind::kObject},
                               {"reentry", Kind::kObject},
                               {"kind", Kind::kString},
                               {"late_registration_level", Kind::kInt},
                               {"heads_up", Kind::kString},
                               {"ticket_target", Kind::kString}}));
  tn::TournamentConfig t;
  RETURN_IF_ERROR(ReadEnums(c, t));
  const bool freeroll = t.kind == tn::TournamentKind::kFreeroll;
  t.seats_per_table = c.value("seats_per_table", 9);
  t.starting_chips = c.value("starting_chips", int64_t{10'000});
  t.buy_in = c.value("buy_in", int64_t{0});
  t.fee_bps = c.value("fee_bps", freeroll ? 0 : 1'000);
  t.bounty = c.value("bounty", int64_t{0});
  t.guarantee = c.value("guarantee", int64_t{0});
  t.min_players = c.value("min_players", 2);
  t.max_players = c.value("max_players", tn::kMaxPlaces);
  t.late_registration_level = c.value("late_registration_level", 0);
  t.ticket_target = c.value("ticket_target", std::string("next"));
  if (c.value("heads_up", std::string("literal")) == "button_small_blind") {
    t.heads_up = poker::HeadsUpBlinds::kButtonSmallBlind;
  }
  t.payouts_bps = {10'000};
  if (c.contains("payouts_bps")) {
    t.payouts_bps.clear();
    for (const Json& bps : c["payouts_bps"]) {
      if (!bps.is_number_integer()) {
        return Bad("config.payouts_bps", "basis points are integers");
      }
      t.payouts_bps.push_back(bps.get<int32_t>());
    }
  }
  if (c.contains("levels")) {
    RETURN_IF_ERROR(ReadLevels(c["levels"], &t.levels));
  } else {
    t.levels = {tn::BlindLevel{50, 100, 0, 600'000'000}};
  }
  for (const char* key : {"rebuy", "addon"}) {
    if (!c.contains(key)) continue;
    tn::ChipPurchase p;
    RETURN_IF_ERROR(ReadPurchase(c[key], absl::StrCat("config.", key), &p));
    (std::string(key) == "rebuy" ? t.rebuy : t.addon) = p;
  }
  if (c.contains("reentry")) {
    RETURN_IF_ERROR(
        KnownFields(c["reentry"], "config.reentry",
                    {{"max", Kind::kInt}, {"until_level", Kind::kInt}}));
    t.reentry = tn::ReentryRule{c["reentry"].value("max", 1),
                                c["reentry"].value("until_level", 1)};
  }
  RETURN_IF_ERROR(AsInvalidArgument(tn::CheckConfig(t), "config."));
  return t;
}

cards::Game CardGame(poker::Variant v) {
  return v == poker::Variant::kOmaha       ? cards::Game::kOmaha
         : v == poker::Variant::kSynthetic ? cards::Game::kSynthetic
                                           : cards::Game::kHoldem;
}

class TournamentRunner final : public GameRunner {
 public:
  TournamentRunner(ScenarioBook& book, tn::Director director)
      : book_(book), director_(std::move(director)) {}

  absl::Status Step(const std::string& op, const Json& step) override;
  int64_t Stack(const std::string& player) const override {
    return director_.Stack(player);
  }
  OJson Rounds() const override;
  void AddOutput(OJson& out) const override;

 private:
  // What a step changes, put back whole when it is rejected.
  struct State {
    tn::Director director;
    std::map<std::string, std::pair<int64_t, size_t>> seen;  // hand, events
    std::vector<OJson> rounds;
    int64_t level_started_micros = 0;
  };

  absl::Status Do(const std::string& op, const Json& step);
  absl::Status Tournament(const Json& step);
  absl::Status Start(const Json& step);
  absl::Status Advance(int64_t seconds);
  absl::StatusOr<std::string> TableOfStep(const Json& step,
                                          const std::string& player);
  // Posts the director's money moves and records what happened.
  absl::Status Settle();

  ScenarioBook& book_;
  tn::Director director_;
  std::map<std::string, std::pair<int64_t, size_t>> seen_;
  std::vector<OJson> rounds_;
  int64_t level_started_micros_ = 0;
};

absl::Status TournamentRunner::Step(const std::string& op, const Json& step) {
  State before{director_, seen_, rounds_, level_started_micros_};
  absl::Status status = Do(op, step);
  if (status.ok()) status = Settle();
  if (status.ok()) return status;
  director_ = std::move(before.director);
  seen_ = std::move(before.seen);
  rounds_ = std::move(before.rounds);
  level_started_micros_ = before.level_started_micros;
  return status;
}

absl::Status TournamentRunner::Settle() {
  for (const tn::MoneyMove& move : director_.TakeMoves()) {
    ASSIGN_OR_RETURN(v1::LedgerTransaction tx,
                     settlement::TournamentTransaction(kTournamentId, move));
    RETURN_IF_ERROR(book_.Post(
        settlement::TournamentStreamOwner(kTournamentId, move), std::move(tx)));
  }
  for (const std::string& table : director_.TableNames()) {
    const poker::Hand* hand = director_.HandAt(table);
    if (hand == nullptr) continue;
    auto& [number, events] = seen_[table];
    const int64_t n = hand->record().hand_number;
    if (number != n) {
      number = n;
      events = 0;
    }
    for (; events < hand->events().size(); ++events) {
      book_.Record(absl::StrCat("table=", table, " ",
                                DescribeHandEvent(hand->events()[events])));
    }
    if (hand->finished() && director_.HandsPlayedAt(table) == n) {
      bool reported = false;
      const std::string id = absl::StrCat(table, ".h", n);
      for (const OJson& r : rounds_) reported |= r["id"] == id;
      if (!reported) {
        rounds_.push_back(
            PokerRound(*hand, CardGame(director_.config().variant)));
      }
    }
  }
  for (std::string& notice : director_.TakeNotices()) {
    book_.Record(std::move(notice));
  }
  return absl::OkStatus();
}

absl::Status TournamentRunner::Do(const std::string& op, const Json& step) {
  std::string player;
  if (step.contains("player")) {
    player = step["player"].get<std::string>();
    if (!book_.Known(player)) {
      return absl::NotFoundError(
          absl::StrCat(player, " is not a player of this scenario"));
    }
  }
  if (op == "tournament") return Tournament(step);
  if (op == "deal") {
    ASSIGN_OR_RETURN(std::string table, TableOfStep(step, ""));
    ASSIGN_OR_RETURN(std::vector<cards::Card> deck, ParseDeck(step["deck"]));
    return director_.Deal(table, std::move(deck), step.value("button", 0));
  }
  if (op == "act") {
    RETURN_IF_ERROR(TableOfStep(step, player).status());
    ASSIGN_OR_RETURN(poker::Action action, ParseAction(step));
    return director_.Act(player, action);
  }
  if (op == "timeout") return director_.Timeout(player);
  if (op == "disconnect" || op == "sit_out") {
    return director_.SetAway(player, true);
  }
  if (op == "reconnect" || op == "sit_in") {
    return director_.SetAway(player, false);
  }
  if (op == "advance") return Advance(step["seconds"].get<int64_t>());
  return absl::InvalidArgumentError(
      absl::StrCat("step \"", op,
                   "\" does not apply to a tournament (use "
                   "{\"do\": \"tournament\", \"op\": ...})"));
}

absl::StatusOr<std::string> TournamentRunner::TableOfStep(
    const Json& step, const std::string& player) {
  const std::string seated = player.empty() ? "" : director_.TableOf(player);
  if (!step.contains("table")) {
    if (!player.empty()) return seated;
    const std::vector<std::string> tables = director_.TableNames();
    if (tables.size() == 1) return tables[0];
    return absl::InvalidArgumentError(
        "deal needs a \"table\" when the tournament has several");
  }
  const std::string table = step["table"].get<std::string>();
  if (!player.empty() && table != seated) {
    return absl::PermissionDeniedError(absl::StrCat(
        player, " does not sit at ", table,
        seated.empty() ? "" : absl::StrCat(" (their table is ", seated, ")")));
  }
  return table;
}

absl::Status TournamentRunner::Tournament(const Json& step) {
  const std::string op = step["op"].get<std::string>();
  const std::string player = step.value("player", std::string());
  if (op == "register") {
    return director_.Register(player, step.value("ticket", false)
                                          ? tn::Source::kTicket
                                          : tn::Source::kCash);
  }
  if (op == "unregister") return director_.Unregister(player);
  if (op == "start") return Start(step);
  if (op == "rebuy") return director_.Rebuy(player);
  if (op == "addon") return director_.AddOn(player);
  if (op == "reentry") return director_.Reentry(player);
  if (op == "cancel") return director_.Cancel();
  if (op == "level") {
    RETURN_IF_ERROR(director_.NextLevel());
    level_started_micros_ = book_.now_micros();
    return absl::OkStatus();
  }
  return absl::InternalError(absl::StrCat("op ", op, " not handled"));
}

absl::Status TournamentRunner::Start(const Json& step) {
  std::vector<tn::StartTable> tables;
  for (const Json& t : step["tables"]) {
    tn::StartTable s;
    s.name = t["table"].get<std::string>();
    s.button = t["button"].get<int>();
    for (const auto& [player, seat] : t["seats"].items()) {
      s.seats[player] = seat.get<int>();
    }
    tables.push_back(std::move(s));
  }
  RETURN_IF_ERROR(director_.Start(tables));
  level_started_micros_ = book_.now_micros();
  return absl::OkStatus();
}

absl::Status TournamentRunner::Advance(int64_t seconds) {
  RETURN_IF_ERROR(book_.Advance(seconds));
  book_.Record(absl::StrCat("ClockAdvanced seconds=", seconds));
  // TN-45: the levels follow the clock; the last one lasts until the end
  // (a timed tournament's time is up when it has run).
  const auto& levels = director_.config().levels;
  while (director_.phase() == tn::Phase::kRunning) {
    const int64_t ends =
        level_started_micros_ + levels[director_.level()].duration_micros;
    if (book_.now_micros() < ends || !director_.NextLevel().ok()) break;
    level_started_micros_ = ends;
  }
  return absl::OkStatus();
}

OJson TournamentRunner::Rounds() const {
  OJson rounds = OJson::array();
  for (const OJson& r : rounds_) rounds.push_back(r);
  for (const std::string& table : director_.TableNames()) {
    const poker::Hand* hand = director_.HandAt(table);
    if (hand == nullptr || hand->finished()) continue;
    OJson r;
    r["id"] = absl::StrCat(table, ".h", hand->record().hand_number);
    r["void"] = false;
    r["pots"] = OJson::array();
    r["shown"] = OJson::object();
    r["result"] = "in progress";
    rounds.push_back(r);
  }
  return rounds;
}

void TournamentRunner::AddOutput(OJson& out) const {
  // The money the house added to meet the guarantee, as a positive amount.
  out["house"]["overlay"] = -book_.Balance(tn::kOverlayAccount);
  OJson t;
  t["state"] = std::string(tn::PhaseName(director_.phase()));
  t["prize_pool"] = director_.prize_pool();
  OJson places = OJson::object();
  OJson prizes = OJson::object();
  for (const tn::Standing& s : director_.Standings()) {
    places[s.player] = s.place;
    if (s.prize > 0) prizes[s.player] = s.prize;  // the prize winners
  }
  t["places"] = places;
  t["prizes"] = prizes;
  t["level"] = director_.level() + 1;
  t["players_left"] = director_.players_left();
  t["prizes_fixed"] = director_.prizes_fixed();
  t["overlay"] = director_.overlay();
  t["hand_for_hand"] = director_.hand_for_hand();
  t["bounties"] = book_.Balance(tn::BountiesAccount(kTournamentId));
  // Entries won (TN-16, TN-28-30): held for each player in the target
  // tournament's ticket accounts, never cash.
  OJson tickets = OJson::object();
  if (director_.config().PaysTickets()) {
    for (const PlayerSpec& p : book_.players()) {
      const int64_t held = book_.Balance(
          tn::TicketAccount(director_.config().ticket_target, p.id));
      if (held != 0) tickets[p.id] = held;
    }
  }
  t["tickets"] = tickets;
  OJson tables = OJson::object();
  for (const std::string& name : director_.TableNames()) {
    OJson seats = OJson::object();
    for (const tn::Entry& e : director_.entries()) {
      if (director_.TableOf(e.player) == name && e.active) {
        seats[e.player] = director_.Stack(e.player);
      }
    }
    if (!seats.empty()) tables[name] = seats;
  }
  t["tables"] = tables;
  out["tournament"] = t;
}

}  // namespace

absl::StatusOr<std::unique_ptr<GameRunner>> MakeTournamentRunner(
    const ScenarioFile& file, ScenarioBook& book) {
  ASSIGN_OR_RETURN(tn::TournamentConfig config, ReadConfig(file.config));
  ASSIGN_OR_RETURN(
      tn::Director director,
      AsInvalidArgument(tn::Director::Create(kTournamentId, std::move(config),
                                             [](int) { return 0; }),
                        "config: "));
  return std::make_unique<TournamentRunner>(book, std::move(director));
}

}  // namespace banca::scenario
