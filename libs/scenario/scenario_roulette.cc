// The roulette scenario runner (SCENARIOS.md, games "roulette_french" and
// "roulette_american"): each step becomes what the banked-table service
// would apply to its libs/tables RouletteTableState (a Join, a bet's
// StakeRequested, the spin with the file's number, a void, withdrawals
// and Leaving, idle checks), applied as the service applies it
// (scenario_banked.h): each stake moves from the player's cash to
// game/t1/wagers when it is placed (BET) and leaves it once, settled
// against house/bank when the ball stops (BET_LOST, PAYOUT), refunded when
// the round is void (VOID_REFUND) or given back when the player takes the
// bet off the board before the launch (BET_RETURNED), as the table's
// BankedMoney events say.
//
// Time: on a timed wheel the betting window closes at the exact moment the
// ball is launched (RFD-14), so once the clock has passed the window's end
// the ball is in flight until the `spin` step says where it stopped. A
// `fail` then is an interrupted launch (RFD-23b: invalid, the bets stay),
// which the service cannot meet (it spins the instant the window closes):
// the runner reports it and leaves the table as it was. A `fail` while the
// window is still open voids the round (DESIGN "Game engines"). On a
// player-launched individual wheel (RFD-16) the ball is launched by the
// `spin` step itself.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/roulette/bet.h"
#include "libs/games/roulette/chance.h"
#include "libs/games/roulette/pocket.h"
#include "libs/games/roulette/table.h"
#include "libs/games/roulette/table_config.h"
#include "libs/scenario/scenario_banked.h"
#include "libs/scenario/scenario_book.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/tables/roulette_table_state.h"
#include "libs/tables/roulette_wire.h"

namespace banca::scenario {
namespace {

namespace rl = games::roulette;

// The SCENARIOS.md steps a roulette table plays; the others are rejected
// steps ("does not apply"), not malformed files.
const std::set<std::string>& RouletteSteps() {
  static const auto* kSteps =
      new std::set<std::string>{"sit",        "bet",       "spin", "leave",
                                "disconnect", "reconnect", "fail", "advance"};
  return *kSteps;
}

// SCENARIOS.md's roulette keys (min_bet, max_bet, double_zero) and this
// runner's additions, each a TableConfig field (docs/scenarios.md).
absl::Status ReadConfig(const std::string& game, const Json& c,
                        rl::TableConfig* out) {
  const bool american = game == "roulette_american";
  static const std::set<std::string> kKeys = {
      "min_bet",         "max_bet",   "double_zero", "wheel",          "launch",
      "betting_seconds", "call_bets", "chance_min",  "invite_inactive"};
  for (const auto& [key, value] : c.items()) {
    if (!kKeys.contains(key)) {
      return absl::InvalidArgumentError(
          absl::StrCat("config.", key, " is not a roulette setting"));
    }
  }
  RETURN_IF_ERROR(OptionalFields(c, "config",
                                 {{"min_bet", Kind::kInt},
                                  {"max_bet", Kind::kInt},
                                  {"double_zero", Kind::kBool},
                                  {"wheel", Kind::kString},
                                  {"launch", Kind::kString},
                                  {"betting_seconds", Kind::kInt},
                                  {"call_bets", Kind::kBool},
                                  {"chance_min", Kind::kObject},
                                  {"invite_inactive", Kind::kBool}}));
  if (!american) {
    for (const char* key : {"max_bet", "double_zero", "chance_min"}) {
      if (c.contains(key)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "config.", key,
            " is for American tables: French maxima follow the RFD-11 "
            "ratios, the wheel has one zero and one minimum serves every "
            "chance (RFD-10)"));
      }
    }
  }
  rl::TableConfig& t = *out;
  // American: 38 pockets unless the file asks for the 37-pocket wheel
  // (RA-6a allows both; the double-zero wheel is the one the name means).
  t.wheel = !american                      ? rl::WheelKind::kFrench
            : c.value("double_zero", true) ? rl::WheelKind::kAmericanDoubleZero
                                           : rl::WheelKind::kAmericanSingleZero;
  if (c.contains("min_bet")) t.min_bet = c["min_bet"].get<int64_t>();
  if (c.contains("max_bet")) t.max_per_number = c["max_bet"].get<int64_t>();
  if (c.contains("max_bet") && t.max_per_number <= 0) {
    return absl::InvalidArgumentError("config.max_bet must be positive");
  }
  if (c.contains("wheel")) {
    const std::string wheel = c["wheel"].get<std::string>();
    if (wheel == "individual") {
      t.players = rl::WheelMode::kIndividual;
    } else if (wheel != "multi_player") {
      return absl::InvalidArgumentError(absl::StrCat(
          "config.wheel: \"", wheel, "\" (multi_player, individual)"));
    }
  }
  if (c.contains("launch")) {
    const std::string launch = c["launch"].get<std::string>();
    if (launch == "player") {
      t.launch = rl::LaunchMode::kPlayerTriggered;
    } else if (launch != "window") {
      return absl::InvalidArgumentError(
          absl::StrCat("config.launch: \"", launch, "\" (window, player)"));
    }
  }
  if (c.contains("betting_seconds")) {
    const int64_t seconds = c["betting_seconds"].get<int64_t>();
    // Bounded before the conversion; Validate() applies RFD-13.
    if (seconds < 0 || seconds > 86'400) {
      return absl::InvalidArgumentError(
          "config.betting_seconds must be 30 (RFD-13) to 600");
    }
    t.betting_window = absl::Seconds(seconds);
  }
  t.call_bets = c.value("call_bets", t.call_bets);
  t.invite_inactive = c.value("invite_inactive", t.invite_inactive);
  if (c.contains("chance_min")) {
    for (const auto& [name, value] : c["chance_min"].items()) {
      std::optional<rl::Chance> chance;
      for (rl::Chance ch : rl::kAllChances) {
        if (rl::RulesOf(ch).name == name) chance = ch;
      }
      if (!chance) {
        return absl::InvalidArgumentError(absl::StrCat(
            "config.chance_min: \"", name, "\" is not a roulette chance"));
      }
      if (!value.is_number_integer() || value.get<int64_t>() <= 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "config.chance_min.", name, " must be a positive integer"));
      }
      t.chance_min[rl::ChanceIndex(*chance)] = value.get<int64_t>();
    }
  }
  return AsInvalidArgument(t.Validate());
}

// A number as the file writes it: an integer 0..36, or the string "00" (or
// any other number as a string). Negative integers are refused here: the
// engine's 00 is -1, which no file may reach by writing -1.
absl::StatusOr<rl::Pocket> ReadPocket(rl::WheelKind wheel, const Json& j,
                                      const std::string& where) {
  if (j.is_string()) {
    return AsInvalidArgument(rl::ParsePocket(wheel, j.get<std::string>()),
                             where, ": ");
  }
  if (!j.is_number_integer()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, " must be a number (0..36, or \"00\")"));
  }
  const int64_t n = j.get<int64_t>();
  if (n < 0 || n > rl::kHighestNumber) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": ", n, " is not a number of the wheel (0..36",
                     rl::HasDoubleZero(wheel) ? ", \"00\")" : ")"));
  }
  return static_cast<rl::Pocket>(n);
}

absl::StatusOr<rl::BetRequest> ReadBet(rl::WheelKind wheel, const Json& step) {
  if (step.contains("spot")) {
    return absl::InvalidArgumentError(
        "roulette bets name the chance in \"bet\" (straight, red, voisins, "
        "...), not a \"spot\"");
  }
  if (!step.contains("bet") || !step["bet"].is_string()) {
    return absl::InvalidArgumentError(
        "a roulette bet needs \"bet\": the chance (straight, split, ..., "
        "red, black, voisins, tiers, orphelins, neighbours, finals)");
  }
  ASSIGN_OR_RETURN(rl::BetKind kind,
                   rl::ParseBetKind(step["bet"].get<std::string>()));
  rl::BetRequest request;
  request.kind = kind;
  request.amount = step["amount"].get<int64_t>();
  if (step.contains("numbers")) {
    const Json& numbers = step["numbers"];
    if (numbers.size() > rl::kMaxRequestNumbers) {
      return absl::InvalidArgumentError(absl::StrCat(
          "numbers: at most ", rl::kMaxRequestNumbers, " (a line)"));
    }
    for (size_t i = 0; i < numbers.size(); ++i) {
      const std::string where = absl::StrCat("numbers[", i, "]");
      if (kind == rl::BetKind::kFinals) {
        // A last digit, not a pocket.
        if (!numbers[i].is_number_integer() || numbers[i].get<int64_t>() < 0 ||
            numbers[i].get<int64_t>() > 9) {
          return absl::InvalidArgumentError(
              absl::StrCat(where, ": finals name a last digit 0..9"));
        }
        request.numbers.push_back(numbers[i].get<int>());
        continue;
      }
      ASSIGN_OR_RETURN(rl::Pocket p, ReadPocket(wheel, numbers[i], where));
      request.numbers.push_back(p);
    }
  }
  if (step.contains("index")) {
    const Json& index = step["index"];
    const Json list = index.is_array() ? index : Json::array({index});
    if (list.size() > rl::kMaxRequestIndexes) {
      return absl::InvalidArgumentError(
          absl::StrCat("index: at most ", rl::kMaxRequestIndexes));
    }
    for (const Json& i : list) {
      if (!i.is_number_integer() || i.get<int64_t>() < 1 ||
          i.get<int64_t>() > 3) {
        return absl::InvalidArgumentError(absl::StrCat(
            "index: dozens and columns are 1, 2 or 3, got ", i.dump()));
      }
      request.index.push_back(i.get<int>());
    }
  }
  if (step.contains("count")) {
    const int64_t count = step["count"].get<int64_t>();
    if (count < 0 || count > 36) {
      return absl::InvalidArgumentError(
          absl::StrCat("count: neighbours are 2, 4 or 6 (RF-8d), got ", count));
    }
    request.count = static_cast<int>(count);
  }
  return request;
}

std::string Numbers(const std::vector<rl::Pocket>& numbers) {
  std::vector<std::string> names;
  for (rl::Pocket p : numbers) names.push_back(rl::PocketName(p));
  return absl::StrJoin(names, "-");
}

// "straight 17", "dozen 2", "neighbours 17 (4)", "red".
std::string DescribeRequest(const rl::BetRequest& r) {
  std::string out(rl::BetKindName(r.kind));
  if (r.kind == rl::BetKind::kFinals) {
    absl::StrAppend(&out, " ", absl::StrJoin(r.numbers, "-"));
  } else if (!r.numbers.empty()) {
    absl::StrAppend(&out, " ", Numbers(r.numbers));
  }
  if (!r.index.empty()) absl::StrAppend(&out, " ", absl::StrJoin(r.index, "+"));
  if (r.count > 0) absl::StrAppend(&out, " (", r.count, ")");
  return out;
}

// The file's settings as the banked-table service takes them
// (RouletteTableConfig); INVALID_ARGUMENT for one it has no place for.
absl::StatusOr<v1::RouletteTableConfig> ServiceConfig(
    const rl::TableConfig& t) {
  if (!t.invite_inactive) {
    return absl::InvalidArgumentError(
        "config.invite_inactive: the banked-table service always invites "
        "idle players to end the session (RFD-31)");
  }
  v1::RouletteTableConfig c;
  c.set_individual(t.players == rl::WheelMode::kIndividual);
  c.set_player_launches(t.launch == rl::LaunchMode::kPlayerTriggered);
  c.set_min_bet_minor(t.min_bet);
  c.set_max_per_number_minor(t.max_per_number);
  c.set_betting_seconds(
      static_cast<int32_t>(absl::ToInt64Seconds(t.betting_window)));
  c.set_no_call_bets(!t.call_bets);
  c.set_single_zero(t.wheel == rl::WheelKind::kAmericanSingleZero);
  for (rl::Chance ch : rl::kAllChances) {
    if (t.chance_min[rl::ChanceIndex(ch)] > 0) {
      (*c.mutable_chance_min_minor())[std::string(rl::RulesOf(ch).name)] =
          t.chance_min[rl::ChanceIndex(ch)];
    }
  }
  return c;
}

// What the runner reports besides the table: put back with the table when
// a step is rejected.
struct RouletteReport {
  std::vector<OJson> rounds;
  // The spins of the current round that did not count (RFD-23).
  OJson invalid_spins = OJson::array();
  // Bets taken back during the current round (RFD-14/24).
  OJson withdrawn = OJson::array();
  // Players who asked to leave while the ball was in flight: they leave
  // once it has stopped (SCENARIOS.md: "after the hand in progress").
  std::set<std::string> leaving;
  // RFD-29: the totals of each session that ended, per player.
  std::map<std::string, OJson> ended_sessions;
  OJson notices = OJson::array();
  std::map<std::string, int64_t> transactions;  // by posting reason
};

class RouletteRunner final
    : public BankedRunner<tables::RouletteTableState, RouletteReport> {
 public:
  RouletteRunner(ScenarioBook& book, std::string game,
                 std::unique_ptr<tables::RouletteTableState> table)
      : BankedRunner(book, std::move(table)),
        game_(std::move(game)),
        start_micros_(book.now_micros()) {}

  OJson Rounds() const override;
  void AddOutput(OJson& out) const override;

 private:
  absl::Status Do(const std::string& op, const Json& step) override;
  absl::Status Bet(const std::string& player, const Json& step);
  absl::Status Spin(const Json& step);
  absl::Status Fail();
  absl::Status Leave(const std::string& player);
  absl::Status Advance(int64_t seconds);
  absl::Status Connection(const std::string& player, bool up);

  // Counts the transactions posted, by reason.
  void Applied(const std::vector<v1::LedgerTransaction>& posted) override;
  // The service's Join, for a player who bets without one.
  absl::Status JoinIfNeeded(const std::string& player);
  const rl::Table& engine() const { return table_->engine(); }
  // The ball is in flight on a timed wheel: the window has run its course
  // and no spin has said where it stopped.
  bool BallInFlight() const;

  // Results, from what the table's engine answered.
  void Settled(const rl::RoundSettled& settled);
  void Voided(const rl::RoundVoided& voided);
  void Invalid(int64_t round, int attempt, bool few, const std::string& number,
               int revolutions);
  // The notices and the ended sessions of the last event.
  void Sessions(int64_t round);
  void SessionEnded(const std::string& player, const rl::SessionTotals& totals,
                    const char* reason);
  // Takes the player's live bets back (BET_RETURNED) and ends the session.
  absl::Status EndSession(const std::string& player);
  absl::Status ProcessLeaving();

  const std::string game_;
  const int64_t start_micros_;  // notices say when, from the file's start
};

bool RouletteRunner::BallInFlight() const {
  if (engine().phase() != rl::Table::Phase::kBetting) return true;
  std::optional<absl::Time> closes = engine().BettingClosesAt();
  return closes && absl::FromUnixMicros(book_.now_micros()) >= *closes;
}

void RouletteRunner::Applied(const std::vector<v1::LedgerTransaction>& posted) {
  for (const v1::LedgerTransaction& tx : posted) {
    ++r_.transactions[ReasonName(tx)];
  }
}

absl::Status RouletteRunner::JoinIfNeeded(const std::string& player) {
  if (table_->Joined(player)) return absl::OkStatus();
  return JoinTable(player);
}

absl::Status RouletteRunner::Bet(const std::string& player, const Json& step) {
  ASSIGN_OR_RETURN(rl::BetRequest request,
                   ReadBet(engine().config().wheel, step));
  RETURN_IF_ERROR(JoinIfNeeded(player));
  // The service's PlaceBet: the stake requested, captured by the wallet.
  ASSIGN_OR_RETURN(
      std::string bet_id,
      PlaceBet(player, request.amount, tables::RouletteBetToProto(request)));
  std::vector<std::string> chips;
  for (const rl::BetPlaced& placed : engine().BetsOf(player)) {
    if (placed.bet_id != bet_id) continue;
    for (const rl::Chip& chip : placed.chips) {
      chips.push_back(
          absl::StrCat(ToAbsl(rl::RulesOf(chip.position.chance).name), ":",
                       chip.position.numbers.ToString(), ":", chip.amount));
    }
    book_.Record(absl::StrCat(
        "BetPlaced round=", placed.round, " player=", player, " bet=", bet_id,
        " on=\"", DescribeRequest(request), "\" amount=", placed.stake,
        " chips=", absl::StrJoin(chips, ",")));
  }
  return absl::OkStatus();
}

void RouletteRunner::Invalid(int64_t round, int attempt, bool few,
                             const std::string& number, int revolutions) {
  book_.Record(
      absl::StrCat("SpinInvalid round=", round, " attempt=", attempt,
                   " reason=", few ? "too_few_revolutions" : "interrupted"));
  OJson j;
  j["attempt"] = attempt;
  j["reason"] = few ? "too_few_revolutions" : "interrupted";
  if (few) {
    j["number"] = number;
    j["revolutions"] = revolutions;
  }
  r_.invalid_spins.push_back(j);
}

absl::Status RouletteRunner::Spin(const Json& step) {
  const rl::WheelKind wheel = engine().config().wheel;
  ASSIGN_OR_RETURN(rl::Pocket pocket,
                   ReadPocket(wheel, step["number"], "number"));
  int revolutions = rl::SpinOutcome{}.revolutions;
  if (step.contains("revolutions")) {
    const int64_t n = step["revolutions"].get<int64_t>();
    if (n < 0 || n > rl::kMaxRevolutions) {
      return absl::InvalidArgumentError(absl::StrCat(
          "revolutions must be 0..", rl::kMaxRevolutions, ", got ", n));
    }
    revolutions = static_cast<int>(n);
  }
  // The service's spin (the window's end, RFD-14, or the player's Launch,
  // RFD-16) with the file's number in place of the one it draws.
  v1::BankedTableEvent e;
  e.mutable_spin()->set_round(engine().round());
  e.mutable_spin()->set_number(rl::PocketName(pocket));
  e.mutable_spin()->set_revolutions(revolutions);
  RETURN_IF_ERROR(Apply(std::move(e)));
  const rl::SpinResult& result = *table_->last_outcome().spin;
  if (const auto* invalid = std::get_if<rl::SpinInvalid>(&result)) {
    // Counted by the runner: an interrupted launch (Fail) is one too.
    const int attempt = static_cast<int>(r_.invalid_spins.size()) + 1;
    book_.Record(absl::StrCat("BallLaunched round=", invalid->round,
                              " attempt=", attempt));
    Invalid(invalid->round, attempt, true, rl::PocketName(pocket), revolutions);
    return ProcessLeaving();
  }
  const auto& settled = std::get<rl::RoundSettled>(result);
  book_.Record(absl::StrCat("BallLaunched round=", settled.round,
                            " attempt=", r_.invalid_spins.size() + 1));
  Settled(settled);
  Sessions(settled.round);
  return ProcessLeaving();
}

void RouletteRunner::Settled(const rl::RoundSettled& settled) {
  const std::string number = rl::PocketName(settled.pocket);
  book_.Record(absl::StrCat("BallStopped round=", settled.round,
                            " number=", number,
                            " colour=", ToAbsl(rl::ColourName(settled.colour)),
                            " revolutions=", settled.revolutions));
  OJson bets = OJson::array();
  std::vector<std::string> parts;
  // RFD-19: the engine lists the losing bets first, then the winners; the
  // table settled each against house/bank in that order.
  for (const rl::BetSettlement& b : settled.bets) {
    book_.Record(absl::StrCat("BetSettled round=", settled.round,
                              " player=", b.player, " bet=", b.bet_id,
                              " stake=", b.stake, " returned=", b.returned));
    OJson bet;
    bet["player"] = b.player;
    bet["bet"] = b.bet_id;
    bet["on"] = DescribeRequest(b.request);
    bet["stake"] = b.stake;
    bet["returned"] = b.returned;
    bets.push_back(bet);
    parts.push_back(absl::StrCat(b.player, " ", DescribeRequest(b.request),
                                 b.returned > 0 ? " won " : " lost ",
                                 b.returned, "/", b.stake));
  }
  book_.Record(absl::StrCat("RoundSettled round=", settled.round,
                            " staked=", settled.total_staked,
                            " returned=", settled.total_returned));
  OJson r;
  r["id"] = settlement::RoundId(kTableId, settled.round);
  r["void"] = false;
  r["number"] = number;
  r["colour"] = std::string(rl::ColourName(settled.colour));
  r["revolutions"] = settled.revolutions;
  r["bets"] = bets;
  r["staked"] = settled.total_staked;
  r["returned"] = settled.total_returned;
  r["house_net"] = settled.total_staked - settled.total_returned;
  if (!r_.invalid_spins.empty()) r["invalid_spins"] = r_.invalid_spins;
  if (!r_.withdrawn.empty()) r["withdrawn"] = r_.withdrawn;
  r["result"] =
      absl::StrCat(number, " ", ToAbsl(rl::ColourName(settled.colour)), ": ",
                   parts.empty() ? "no bets" : absl::StrJoin(parts, "; "));
  r_.rounds.push_back(std::move(r));
  r_.invalid_spins = OJson::array();
  r_.withdrawn = OJson::array();
}

void RouletteRunner::Voided(const rl::RoundVoided& voided) {
  OJson refunds = OJson::array();
  for (const rl::BetWithdrawn& b : voided.refunds) {
    book_.Record(absl::StrCat("BetRefunded round=", voided.round, " player=",
                              b.player, " bet=", b.bet_id, " stake=", b.stake));
    refunds.push_back(
        {{"player", b.player}, {"bet", b.bet_id}, {"stake", b.stake}});
  }
  book_.Record(absl::StrCat("RoundVoided round=", voided.round,
                            " refunds=", voided.refunds.size()));
  OJson r;
  r["id"] = settlement::RoundId(kTableId, voided.round);
  r["void"] = true;
  r["refunds"] = refunds;
  if (!r_.invalid_spins.empty()) r["invalid_spins"] = r_.invalid_spins;
  if (!r_.withdrawn.empty()) r["withdrawn"] = r_.withdrawn;
  r["result"] =
      absl::StrCat("void: the gaming system failed while bets were open; ",
                   voided.refunds.size(), " stake(s) refunded");
  r_.rounds.push_back(std::move(r));
  r_.invalid_spins = OJson::array();
  r_.withdrawn = OJson::array();
}

absl::Status RouletteRunner::Fail() {
  if (BallInFlight()) {
    // RFD-23b: the failure strikes a ball in flight (the window closed at
    // the launch, RFD-14): an interrupted launch, invalid, the bets stay.
    // The service has no such moment (it spins the instant the window
    // closes), so no event of its can carry one: the table is left as it
    // was and the next spin counts.
    book_.Record(absl::StrCat("BallLaunched round=", engine().round(),
                              " attempt=", r_.invalid_spins.size() + 1));
    book_.Record("SystemFailed");
    Invalid(engine().round(), static_cast<int>(r_.invalid_spins.size()) + 1,
            false, "", 0);
    return absl::OkStatus();
  }
  book_.Record("SystemFailed");
  v1::BankedTableEvent e;
  e.mutable_void_requested()->set_round(engine().round());
  e.mutable_void_requested()->set_reason("scenario: the system failed");
  RETURN_IF_ERROR(Apply(std::move(e)));
  if (table_->last_outcome().voided) Voided(*table_->last_outcome().voided);
  return ProcessLeaving();
}

void RouletteRunner::SessionEnded(const std::string& player,
                                  const rl::SessionTotals& totals,
                                  const char* reason) {
  // RFD-29: the amounts bet and the profit or loss of the session.
  book_.Record(
      absl::StrCat("SessionEnded player=", player, " reason=", reason,
                   " rounds=", totals.rounds, " staked=", totals.staked,
                   " returned=", totals.returned, " net=", totals.net));
  OJson j;
  j["rounds"] = totals.rounds;
  j["staked"] = totals.staked;
  j["returned"] = totals.returned;
  j["net"] = totals.net;
  j["ended"] = reason;
  r_.ended_sessions[player] = j;
  r_.leaving.erase(player);
}

absl::Status RouletteRunner::EndSession(const std::string& player) {
  // The service's WithdrawBet for each live bet, then Leave (RFD-30).
  for (const rl::BetPlaced& bet : engine().BetsOf(player)) {
    v1::BankedTableEvent e;
    e.mutable_withdraw_requested()->set_player_id(player);
    e.mutable_withdraw_requested()->set_bet_id(bet.bet_id);
    RETURN_IF_ERROR(Apply(std::move(e)));
    book_.Record(absl::StrCat("BetWithdrawn round=", bet.round,
                              " player=", player, " bet=", bet.bet_id,
                              " stake=", bet.stake));
    r_.withdrawn.push_back(
        {{"player", player}, {"bet", bet.bet_id}, {"stake", bet.stake}});
  }
  RETURN_IF_ERROR(LeaveTable(player));
  for (const auto& [who, totals] : table_->last_outcome().ended) {
    SessionEnded(who, totals, "left");
  }
  return absl::OkStatus();
}

absl::Status RouletteRunner::ProcessLeaving() {
  // After a settlement or a void nobody has bets left; after an invalid
  // spin the window is open again and RFD-24 lets the bets be taken back.
  const std::set<std::string> leaving = r_.leaving;
  for (const std::string& player : leaving) {
    RETURN_IF_ERROR(EndSession(player));
  }
  return absl::OkStatus();
}

absl::Status RouletteRunner::Leave(const std::string& player) {
  if (!engine().Totals(player)) {
    return absl::NotFoundError(
        absl::StrCat(player,
                     " has no session at this table (no bet since "
                     "joining or since the last one ended)"));
  }
  if (!engine().BetsOf(player).empty() && BallInFlight()) {
    // RFD-14: the bets can no longer be taken back; the player leaves when
    // the ball has stopped and they are settled.
    if (!r_.leaving.insert(player).second) {
      return absl::FailedPreconditionError(
          absl::StrCat(player, " is already leaving after this spin"));
    }
    book_.Record(absl::StrCat("LeaveRequested player=", player, " after=spin"));
    return absl::OkStatus();
  }
  return EndSession(player);
}

void RouletteRunner::Sessions(int64_t round) {
  const tables::RouletteTableState::Outcome& last = table_->last_outcome();
  for (const rl::SessionNotice& n : last.notices) {
    book_.Record(absl::StrCat("SessionNotice player=", n.player,
                              " kind=", ToAbsl(rl::NoticeKindName(n.kind))));
    OJson j;
    j["player"] = n.player;
    j["kind"] = std::string(rl::NoticeKindName(n.kind));
    if (round > 0) j["round"] = round;
    j["at_seconds"] = (book_.now_micros() - start_micros_) / 1'000'000;
    r_.notices.push_back(j);
  }
  // RFD-32: no bet after the warning: the table ended the session.
  for (const auto& [player, totals] : last.ended) {
    SessionEnded(player, totals, "inactivity");
  }
}

absl::Status RouletteRunner::Advance(int64_t seconds) {
  RETURN_IF_ERROR(book_.Advance(seconds));
  book_.Record(absl::StrCat("ClockAdvanced seconds=", seconds));
  // RFD-31a/32a, individual wheels: the service checks the idle time as
  // its clock moves, one notice per check, until none is due.
  for (int i = 0; i < 3; ++i) {
    v1::BankedTableEvent e;
    e.mutable_inactivity_checked();
    RETURN_IF_ERROR(Apply(std::move(e)));
    if (table_->last_outcome().notices.empty()) break;
    Sessions(0);
  }
  return absl::OkStatus();
}

absl::Status RouletteRunner::Connection(const std::string& player, bool up) {
  // RFD-25/26: the player's own connection voids nothing and changes no
  // bet; it is logged. A player with no session yet has nothing to mark.
  if (engine().Totals(player)) {
    v1::BankedTableEvent e;
    e.mutable_connection()->set_player_id(player);
    e.mutable_connection()->set_connected(up);
    RETURN_IF_ERROR(Apply(std::move(e)));
  }
  book_.Record(absl::StrCat(up ? "PlayerReconnected" : "PlayerDisconnected",
                            " player=", player));
  return absl::OkStatus();
}

absl::Status RouletteRunner::Do(const std::string& op, const Json& step) {
  if (!RouletteSteps().contains(op)) {
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
  // SCENARIOS.md: a banked game's sit takes no buy-in. The wheel has no
  // seats: sitting joins it (bets come from cash), as the service's Join.
  if (op == "sit") {
    if (step.value("buy_in", int64_t{0}) != 0) {
      return absl::InvalidArgumentError(
          "roulette has no buy-in: bets are taken from cash (buy_in 0)");
    }
    RETURN_IF_ERROR(JoinTable(player));
    book_.Record(absl::StrCat("PlayerJoined player=", player));
    return absl::OkStatus();
  }
  if (op == "bet") return Bet(player, step);
  if (op == "spin") return Spin(step);
  if (op == "fail") return Fail();
  if (op == "leave") return Leave(player);
  if (op == "advance") return Advance(step["seconds"].get<int64_t>());
  return Connection(player, op == "reconnect");
}

OJson RouletteRunner::Rounds() const {
  OJson out = OJson::array();
  for (const OJson& r : r_.rounds) out.push_back(r);
  // A round with bets on the board (or a spin that did not count) at the
  // end of the file.
  bool live = !r_.invalid_spins.empty() || !r_.withdrawn.empty();
  for (const PlayerSpec& p : book_.players()) {
    if (!engine().BetsOf(p.id).empty()) live = true;
  }
  if (live) {
    OJson r;
    r["id"] = settlement::RoundId(kTableId, engine().round());
    r["void"] = false;
    if (!r_.invalid_spins.empty()) r["invalid_spins"] = r_.invalid_spins;
    if (!r_.withdrawn.empty()) r["withdrawn"] = r_.withdrawn;
    r["result"] = "in progress";
    out.push_back(r);
  }
  return out;
}

void RouletteRunner::AddOutput(OJson& out) const {
  // The stakes in flight, 0 between rounds; also under the poker runner's
  // key, as the other banked games do.
  const int64_t wagers = book_.Balance(settlement::WagersAccount(kTableId));
  out["wagers"] = wagers;
  out["table_pot"] = wagers;
  // RF-6e: the last numbers, most recent first.
  OJson history = OJson::array();
  for (const rl::PastNumber& n : engine().History()) {
    history.push_back(absl::StrCat(rl::PocketName(n.pocket), " ",
                                   ToAbsl(rl::ColourName(n.colour))));
  }
  out["history"] = history;
  // RFD-29: each player's session: open ones from the table, ended ones as
  // they ended.
  OJson sessions = OJson::object();
  for (const PlayerSpec& p : book_.players()) {
    if (std::optional<rl::SessionTotals> t = engine().Totals(p.id)) {
      OJson j;
      j["rounds"] = t->rounds;
      j["staked"] = t->staked;
      j["returned"] = t->returned;
      j["net"] = t->net;
      sessions[p.id] = j;
    } else if (auto it = r_.ended_sessions.find(p.id);
               it != r_.ended_sessions.end()) {
      sessions[p.id] = it->second;
    }
  }
  out["sessions"] = sessions;
  if (!r_.notices.empty()) out["notices"] = r_.notices;
  OJson transactions = OJson::object();
  for (const auto& [reason, count] : r_.transactions) {
    transactions[reason] = count;
  }
  out["transactions"] = transactions;
}

}  // namespace

absl::StatusOr<std::unique_ptr<GameRunner>> MakeRouletteRunner(
    const ScenarioFile& file, ScenarioBook& book) {
  rl::TableConfig config;
  RETURN_IF_ERROR(ReadConfig(file.game, file.config, &config));
  ASSIGN_OR_RETURN(v1::RouletteTableConfig service, ServiceConfig(config));
  v1::BankedTableCreated created = BankedTable(
      file, file.game == "roulette_american" ? v1::BANKED_GAME_ROULETTE_AMERICAN
                                             : v1::BANKED_GAME_ROULETTE_FRENCH);
  *created.mutable_roulette() = std::move(service);
  ASSIGN_OR_RETURN(std::unique_ptr<tables::RouletteTableState> table,
                   AsInvalidArgument(tables::RouletteTableState::Create(
                       created, book.now_micros())));
  return std::make_unique<RouletteRunner>(book, file.game, std::move(table));
}

}  // namespace banca::scenario
