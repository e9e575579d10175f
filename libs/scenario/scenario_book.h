// What every game's scenario runner shares (scenario.h): the file's common
// part, JSON field checks, and the ScenarioBook — the ledger and the event
// log of one run — so a game runner only turns steps into engine calls and
// engine outcomes into ledger transactions.
//
// A game runner lives in its own file (scenario_poker.cc, ...) and is listed
// in scenario.cc's table of games. Its contract, per step:
//   - Step() returns OK: the book appends what the step posted and recorded;
//   - Step() returns an error: the step is rejected; the runner leaves its
//     own state as it was, and must not have posted anything (the book
//     reports a violation when it did: money cannot be un-moved quietly).
#ifndef BANCA_LIBS_SCENARIO_SCENARIO_BOOK_H_
#define BANCA_LIBS_SCENARIO_SCENARIO_BOOK_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "banca/v1/ledger.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/ledger.h"
#include "nlohmann/json.hpp"

namespace banca::scenario {

using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;

// ---------------------------------------------------------------------------
// JSON field checks: everything structural is checked before anything is
// played, so a malformed file plays nothing.

enum class Kind {
  kString,
  kInt,
  kBool,
  kObject,
  kArray,
  kIntOrArray,
  kIntOrString
};

// INVALID_ARGUMENT naming `where.key` when the field is missing (and
// required) or of the wrong kind.
absl::Status Field(const Json& obj, const std::string& where, const char* key,
                   Kind kind, bool required);
// Field() over a list of optional keys.
absl::Status OptionalFields(
    const Json& obj, const std::string& where,
    const std::vector<std::pair<const char*, Kind>>& keys);
// INVALID_ARGUMENT naming `where.key` for a key of `obj` not in `known`
// (SCENARIOS.md: a key the runner does not know, at any level, makes the
// file malformed, so a typo never passes silently).
absl::Status OnlyKnownKeys(const Json& obj, const std::string& where,
                           const std::vector<std::string>& known);
// OnlyKnownKeys and OptionalFields: every key of `obj` is one of `keys`,
// of its kind.
absl::Status KnownFields(const Json& obj, const std::string& where,
                         const std::vector<std::pair<const char*, Kind>>& keys);

// ---------------------------------------------------------------------------
// The file's common part, read by scenario.cc before any game runner.

struct PlayerSpec {
  std::string id;
  int64_t cash = 0;
};

struct ScenarioFile {
  std::string name;
  std::string game;
  Json config = Json::object();  // each game reads its own keys
  std::vector<PlayerSpec> players;
  // Each an object whose "do" is a known step with its fields type-checked
  // (SCENARIOS.md's step table); whether a step applies to the game is the
  // runner's call (a rejected step, not a malformed file).
  std::vector<Json> steps;
};

// ---------------------------------------------------------------------------

// The topic game events go to, keyed by "table/<id>".
inline constexpr std::string_view kGameTopic = "banca.table.events";
// The scenario's one table (or wheel).
inline constexpr char kTableId[] = "t1";

class ScenarioBook {
 public:
  // `event_type` names the game's event text, e.g. "banca.scenario.PokerEvent".
  ScenarioBook(eventlog::EventLog* log, std::string event_type);

  // Opens every player's account and deposits its starting cash.
  absl::Status OpenPlayers(const std::vector<PlayerSpec>& players);
  bool Known(std::string_view player) const;
  const std::vector<PlayerSpec>& players() const { return players_; }

  // Step bracketing (scenario.cc calls these around GameRunner::Step).
  void BeginStep(size_t index);
  // Appends the step's records; a failed append is a violation.
  absl::Status CommitStep();
  // Drops the step's records and puts the clock back. A rejected step that
  // had posted is a violation.
  void AbandonStep();

  // Posts `tx` on the ledger now (the ledger refuses it whole or takes it
  // whole); its event is appended at CommitStep.
  absl::Status Post(std::string_view stream_owner, v1::LedgerTransaction tx);
  // A game event (text) on the game topic, stream "table/<kTableId>".
  void Record(std::string text);

  int64_t now_micros() const { return clock_micros_; }
  // Moves the table clock (the `advance` step): 0..1 year.
  absl::Status Advance(int64_t seconds);

  int64_t Balance(std::string_view account) const;
  const ledger::Ledger& ledger() const { return ledger_; }
  int64_t events() const { return events_; }
  const std::string& step_context() const { return step_context_; }

  // Reads the log back: every wallet event applied to a fresh ledger must
  // give the same balances for every account the run touched, and the log
  // must hold exactly the events counted. Differences become violations.
  void VerifyReplay();
  void AddViolation(std::string what) {
    violations_.push_back(std::move(what));
  }
  const std::vector<std::string>& violations() const { return violations_; }

 private:
  ledger::CommandMeta Meta();

  eventlog::EventLog* log_;
  const std::string event_type_;
  ledger::Ledger ledger_;
  std::vector<PlayerSpec> players_;
  std::set<std::string> accounts_;  // every account posted to
  std::vector<eventlog::Record> pending_;
  std::string step_context_ = "scenario-setup";
  int64_t requests_ = 0;
  int64_t clock_micros_;
  uint64_t sequence_ = 0;
  int64_t events_ = 0;
  // Saved by BeginStep.
  size_t step_index_ = 0;
  int64_t step_clock_ = 0;
  uint64_t step_sequence_ = 0;
  int64_t step_posts_ = 0;
  int64_t posts_ = 0;
  std::vector<std::string> violations_;
};

// A game's scenario runner.
class GameRunner {
 public:
  virtual ~GameRunner() = default;
  // Plays one step (see the contract at the top).
  virtual absl::Status Step(const std::string& op, const Json& step) = 0;
  // A player's chips at the table (0 when not seated, and in banked games).
  virtual int64_t Stack(const std::string& player) const = 0;
  // Every round played, and the one in progress, in order.
  virtual OJson Rounds() const = 0;
  // Game-specific extra keys of the output.
  virtual void AddOutput(OJson& out) const { (void)out; }
};

// Makes a game's runner: INVALID_ARGUMENT for a bad config (the file is
// malformed).
using RunnerFactory = absl::StatusOr<std::unique_ptr<GameRunner>> (*)(
    const ScenarioFile& file, ScenarioBook& book);

// The games (scenario_<game>.cc).
absl::StatusOr<std::unique_ptr<GameRunner>> MakePokerRunner(
    const ScenarioFile& file, ScenarioBook& book);
absl::StatusOr<std::unique_ptr<GameRunner>> MakeBlackjackRunner(
    const ScenarioFile& file, ScenarioBook& book);
absl::StatusOr<std::unique_ptr<GameRunner>> MakeStudNoDrawRunner(
    const ScenarioFile& file, ScenarioBook& book);
// roulette_french and roulette_american.
absl::StatusOr<std::unique_ptr<GameRunner>> MakeRouletteRunner(
    const ScenarioFile& file, ScenarioBook& book);
absl::StatusOr<std::unique_ptr<GameRunner>> MakeTournamentRunner(
    const ScenarioFile& file, ScenarioBook& book);

}  // namespace banca::scenario

#endif  // BANCA_LIBS_SCENARIO_SCENARIO_BOOK_H_
