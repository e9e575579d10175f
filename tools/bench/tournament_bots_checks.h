// What the tournament bots (tournament_bots.h) saw, kept from one phase to
// the next, and the checks of a finished run against it: the places and
// prizes (the fixed structure, ex aequo places sharing as TN-51), the
// money (every cent a player paid is in the fees or the prizes; the
// tournament's accounts empty; the ledger summing to zero) and what the
// run had to go through (rebuys, an add-on, a player blinded off, tables
// balanced, the bubble at two tables, players out in the same hand, a
// restart that lost no hand).
#ifndef BANCA_TOOLS_BENCH_TOURNAMENT_BOTS_CHECKS_H_
#define BANCA_TOOLS_BENCH_TOURNAMENT_BOTS_CHECKS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/tournament.pb.h"
#include "nlohmann/json.hpp"

namespace banca::bench {

struct BotElimination {
  std::string player;
  // The last hand the player was seen dealt in: the one they went out in
  // (or, with a rebuy open, the one they ran out of chips in).
  std::string table;
  int64_t hand = 0;
};

struct BotsRecord {
  std::string away_player;  // the disconnected one
  int tables_at_start = 0;
  // Payments applied (the call answered OK), per player.
  std::map<std::string, int> rebuys;
  std::map<std::string, int> addons;
  // Players with a payment whose call never answered: what they paid is
  // not known.
  std::set<std::string> uncertain;
  // Rebuys and add-ons captured too late (the player out, or the window
  // closed, by then) and paid back.
  int64_t paid_back = 0;
  std::vector<BotElimination> eliminations;
  bool hand_for_hand_seen = false;  // TournamentInfo.hand_for_hand
  // The hands played (in all) when it was first and last seen; -1: never.
  int64_t hand_for_hand_from = -1;
  int64_t hand_for_hand_to = -1;
  int64_t table_moves = 0;  // a bot in play found at another table
  int64_t sat_back = 0;     // a bot sat out for a timeout came back (TN-43)
  int64_t actions = 0;
  // Calls answered with an error no bot expects (a stale turn is
  // expected).
  int64_t errors = 0;
  std::string first_error;
  int64_t hands_before_restart = -1;  // when the first phase stopped
  int64_t hands_at_resume = -1;       // when the second began
};

nlohmann::ordered_json RecordToJson(const BotsRecord& record);
// INVALID_ARGUMENT naming what is missing or of the wrong type.
absl::StatusOr<BotsRecord> RecordFromJson(const nlohmann::json& json);

// The money once the wallet has posted everything the tournament decided.
struct MoneyFacts {
  int64_t deposit_each = 0;               // each player's only deposit
  std::map<std::string, int64_t> cash;    // each player's balance
  int64_t tournament_accounts_minor = 0;  // the "tournament" class
  int64_t house_minor = 0;                // the "house" class: the fees
  int64_t ledger_sum_minor = 0;
};

struct RunVerdict {
  std::vector<std::string> failures;
  // Players seen going out in one hand, who took adjacent (or shared)
  // places (TN-50/51).
  std::vector<std::vector<std::string>> same_hand_eliminations;
  int ex_aequo_places = 0;  // places held by more than one player
};

// The checks of a finished tournament of `players` at tables of
// `seats_per_table` (tournament_bots_config.h's configuration).
RunVerdict CheckTournamentRun(const v1::TournamentInfo& info,
                              const v1::TournamentStandings& standings,
                              const BotsRecord& record, const MoneyFacts& money,
                              int players, int seats_per_table);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_TOURNAMENT_BOTS_CHECKS_H_
