#include "tools/bench/tournament_bots_checks.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tools/bench/tournament_bots_config.h"

namespace banca::bench {
namespace {

using Json = nlohmann::ordered_json;

struct Place {
  int place = 0;
  int64_t prize = 0;
};

std::map<std::string, Place> PlacesOf(const v1::TournamentStandings& s) {
  std::map<std::string, Place> out;
  for (const v1::TournamentStanding& st : s.standings()) {
    out[st.player_id()] = Place{st.place(), st.prize_minor()};
  }
  return out;
}

void CheckOutcome(const v1::TournamentInfo& info,
                  const v1::TournamentStandings& standings,
                  const BotsRecord& record, int players, int seats,
                  std::vector<std::string>& failures) {
  if (info.phase() != v1::TOURNAMENT_PHASE_FINISHED) {
    failures.push_back(absl::StrCat("the tournament is not finished (phase ",
                                    v1::TournamentPhase_Name(info.phase()),
                                    ")"));
  }
  if (info.entrants() != players) {
    failures.push_back(
        absl::StrCat(info.entrants(), " entrants, not ", players));
  }
  const int tables = (players + seats - 1) / seats;
  if (record.tables_at_start != tables) {
    failures.push_back(absl::StrCat(record.tables_at_start,
                                    " tables at the start, not ", tables));
  }
  int winners = 0;
  for (const v1::TournamentStanding& s : standings.standings()) {
    if (s.place() < 1 || s.place() > players) {
      failures.push_back(
          absl::StrCat(s.player_id(), " has no place (", s.place(), ")"));
    }
    winners += s.place() == 1 ? 1 : 0;
  }
  if (standings.standings_size() != players || winners != 1) {
    failures.push_back(
        absl::StrCat(standings.standings_size(), " standings with ", winners,
                     " in first place, not ", players, " with one"));
  }
}

// The prizes are the structure fixed when the windows closed (TN-10),
// each place its own; players ex aequo (TN-51) share the places they
// hold, within a cent of each other.
void CheckPrizes(const v1::TournamentInfo& info,
                 const v1::TournamentStandings& standings, RunVerdict& v) {
  const auto& fixed = info.prizes_minor();
  int64_t fixed_sum = 0;
  for (int64_t p : fixed) fixed_sum += p;
  if (!info.prizes_fixed() || fixed.size() != kBotPaidPlaces ||
      fixed_sum != info.prize_pool_minor()) {
    v.failures.push_back(
        absl::StrCat("the fixed prizes [", absl::StrJoin(fixed, ","),
                     "] are not ", kBotPaidPlaces,
                     " places summing to the pool ", info.prize_pool_minor()));
  }
  auto prize_of = [&](int place) -> int64_t {
    return place >= 1 && place <= fixed.size() ? fixed[place - 1] : 0;
  };
  std::map<int, std::vector<int64_t>> by_place;
  int64_t paid = 0;
  for (const v1::TournamentStanding& s : standings.standings()) {
    by_place[s.place()].push_back(s.prize_minor());
    paid += s.prize_minor();
  }
  int next = 1;
  for (const auto& [place, prizes] : by_place) {
    const int n = static_cast<int>(prizes.size());
    int64_t due = 0;
    for (int i = 0; i < n; ++i) due += prize_of(place + i);
    int64_t got = 0;
    for (int64_t p : prizes) got += p;
    const auto [low, high] = std::minmax_element(prizes.begin(), prizes.end());
    if (place != next || got != due || *high - *low > 1) {
      v.failures.push_back(absl::StrCat(
          "place ", place, " (", n, " players, the next place expected ", next,
          "): prizes [", absl::StrJoin(prizes, ","), "], due ", due,
          " in all"));
    }
    if (n > 1) ++v.ex_aequo_places;
    next = place + n;
  }
  if (paid != info.prize_pool_minor()) {
    v.failures.push_back(absl::StrCat("the standings' prizes sum to ", paid,
                                      ", the pool is ",
                                      info.prize_pool_minor()));
  }
}

// What each player paid (their deposit less their cash, plus their prize)
// is their buy-in, rebuys and add-on; all of it is in the fees and the
// prizes; the tournament's accounts are empty.
void CheckMoney(const v1::TournamentInfo& info,
                const v1::TournamentStandings& standings,
                const BotsRecord& record, const MoneyFacts& money,
                std::vector<std::string>& failures) {
  const std::map<std::string, Place> places = PlacesOf(standings);
  int64_t all_paid = 0;
  for (const auto& [player, cash] : money.cash) {
    auto it = places.find(player);
    const int64_t prize = it == places.end() ? 0 : it->second.prize;
    const int64_t paid = money.deposit_each - cash + prize;
    all_paid += paid;
    const int64_t payments =
        1 + (record.rebuys.contains(player) ? record.rebuys.at(player) : 0) +
        (record.addons.contains(player) ? record.addons.at(player) : 0);
    const bool known = !record.uncertain.contains(player);
    if (paid < kBotPriceMinor || paid > kBotMostPaidMinor ||
        paid % kBotPriceMinor != 0 ||
        (known && paid != payments * kBotPriceMinor)) {
      failures.push_back(
          absl::StrCat(player, " paid ", paid, " (deposit ", money.deposit_each,
                       ", cash ", cash, ", prize ", prize, "); the bots made ",
                       payments, " payments of ", kBotPriceMinor));
    }
  }
  const int64_t pool = all_paid / 10'000 * (10'000 - kBotFeeBps) +
                       all_paid % 10'000 * (10'000 - kBotFeeBps) / 10'000;
  if (info.prize_pool_minor() != pool || money.house_minor != all_paid - pool) {
    failures.push_back(
        absl::StrCat("the players paid ", all_paid, ": the pool should be ",
                     pool, " and the fees ", all_paid - pool, ", not ",
                     info.prize_pool_minor(), " and ", money.house_minor));
  }
  if (money.tournament_accounts_minor != 0 || money.ledger_sum_minor != 0) {
    failures.push_back(absl::StrCat(
        "the tournament's accounts hold ", money.tournament_accounts_minor,
        " and the ledger sums to ", money.ledger_sum_minor, ", not 0 and 0"));
  }
}

// Players seen dealt in the same hand when they went out, who hold
// adjacent or shared places (the winner is never out).
std::vector<std::vector<std::string>> SameHandEliminations(
    const BotsRecord& record, const v1::TournamentStandings& standings) {
  const std::map<std::string, Place> places = PlacesOf(standings);
  std::map<std::pair<std::string, int64_t>, std::vector<std::string>> hands;
  for (const BotElimination& e : record.eliminations) {
    auto it = places.find(e.player);
    if (e.table.empty() || it == places.end() || it->second.place < 2) continue;
    hands[{e.table, e.hand}].push_back(e.player);
  }
  std::vector<std::vector<std::string>> out;
  for (auto& [hand, players] : hands) {
    if (players.size() < 2) continue;
    int low = places.at(players[0]).place;
    int high = low;
    for (const std::string& p : players) {
      low = std::min(low, places.at(p).place);
      high = std::max(high, places.at(p).place);
    }
    if (high - low < static_cast<int>(players.size())) {
      out.push_back(std::move(players));
    }
  }
  return out;
}

// Whether the field was ever one player over the paid places (TN-49's
// bubble): not when the players placed just above and on the bubble went
// out in the same hand, taking the field past it at once.
bool BubbleWasReached(const BotsRecord& record,
                      const v1::TournamentStandings& standings,
                      int paid_places) {
  const std::map<std::string, Place> places = PlacesOf(standings);
  std::set<std::pair<std::string, int64_t>> bubble_hands;
  std::set<std::pair<std::string, int64_t>> above_hands;
  for (const BotElimination& e : record.eliminations) {
    auto it = places.find(e.player);
    if (e.table.empty() || it == places.end()) continue;
    if (it->second.place == paid_places + 1) {
      bubble_hands.insert({e.table, e.hand});
    } else if (it->second.place == paid_places + 2) {
      above_hands.insert({e.table, e.hand});
    }
  }
  for (const auto& hand : bubble_hands) {
    if (above_hands.contains(hand)) return false;
  }
  return true;
}

void CheckCoverage(const v1::TournamentInfo& info, const BotsRecord& record,
                   const v1::TournamentStandings& standings, RunVerdict& v) {
  int rebuys = 0;
  int addons = 0;
  for (const auto& [p, n] : record.rebuys) rebuys += n;
  for (const auto& [p, n] : record.addons) addons += n;
  const std::map<std::string, Place> places = PlacesOf(standings);
  auto away = places.find(record.away_player);
  const std::vector<std::pair<bool, std::string>> musts = {
      {rebuys > 0, "no rebuy was made"},
      {addons > 0, "no add-on was made"},
      {away != places.end() && away->second.place > 1,
       absl::StrCat("the disconnected player ", record.away_player,
                    " was not blinded off")},
      {record.table_moves > 0, "no player was moved to another table"},
      {record.hand_for_hand_seen ||
           !BubbleWasReached(record, standings, info.prizes_minor_size()),
       "the bubble was never hand-for-hand"},
      {!v.same_hand_eliminations.empty(),
       "no two players were seen going out in one hand"},
      {record.hands_before_restart < 0 ||
           record.hands_at_resume >= record.hands_before_restart,
       absl::StrCat("the restart lost hands (", record.hands_before_restart,
                    " before, ", record.hands_at_resume, " after)")},
      {record.errors == 0,
       absl::StrCat(record.errors,
                    " calls failed unexpectedly, first: ", record.first_error)},
  };
  for (const auto& [ok, why] : musts) {
    if (!ok) v.failures.push_back(why);
  }
}

}  // namespace

RunVerdict CheckTournamentRun(const v1::TournamentInfo& info,
                              const v1::TournamentStandings& standings,
                              const BotsRecord& record, const MoneyFacts& money,
                              int players, int seats_per_table) {
  RunVerdict v;
  CheckOutcome(info, standings, record, players, seats_per_table, v.failures);
  CheckPrizes(info, standings, v);
  CheckMoney(info, standings, record, money, v.failures);
  v.same_hand_eliminations = SameHandEliminations(record, standings);
  CheckCoverage(info, record, standings, v);
  return v;
}

// --- The record as JSON ----------------------------------------------------

nlohmann::ordered_json RecordToJson(const BotsRecord& r) {
  Json eliminations = Json::array();
  for (const BotElimination& e : r.eliminations) {
    eliminations.push_back(
        {{"player", e.player}, {"table", e.table}, {"hand", e.hand}});
  }
  return Json{{"away_player", r.away_player},
              {"tables_at_start", r.tables_at_start},
              {"rebuys", r.rebuys},
              {"addons", r.addons},
              {"uncertain", r.uncertain},
              {"paid_back", r.paid_back},
              {"eliminations", std::move(eliminations)},
              {"hand_for_hand_seen", r.hand_for_hand_seen},
              {"hand_for_hand_from", r.hand_for_hand_from},
              {"hand_for_hand_to", r.hand_for_hand_to},
              {"table_moves", r.table_moves},
              {"sat_back", r.sat_back},
              {"actions", r.actions},
              {"errors", r.errors},
              {"first_error", r.first_error},
              {"hands_before_restart", r.hands_before_restart},
              {"hands_at_resume", r.hands_at_resume}};
}

absl::StatusOr<BotsRecord> RecordFromJson(const nlohmann::json& json) {
  BotsRecord r;
  try {
    r.away_player = json.at("away_player").get<std::string>();
    r.tables_at_start = json.at("tables_at_start").get<int>();
    r.rebuys = json.at("rebuys").get<std::map<std::string, int>>();
    r.addons = json.at("addons").get<std::map<std::string, int>>();
    r.uncertain = json.at("uncertain").get<std::set<std::string>>();
    r.paid_back = json.at("paid_back").get<int64_t>();
    for (const nlohmann::json& e : json.at("eliminations")) {
      r.eliminations.push_back(BotElimination{e.at("player").get<std::string>(),
                                              e.at("table").get<std::string>(),
                                              e.at("hand").get<int64_t>()});
    }
    r.hand_for_hand_seen = json.at("hand_for_hand_seen").get<bool>();
    r.hand_for_hand_from = json.at("hand_for_hand_from").get<int64_t>();
    r.hand_for_hand_to = json.at("hand_for_hand_to").get<int64_t>();
    r.table_moves = json.at("table_moves").get<int64_t>();
    r.sat_back = json.at("sat_back").get<int64_t>();
    r.actions = json.at("actions").get<int64_t>();
    r.errors = json.at("errors").get<int64_t>();
    r.first_error = json.at("first_error").get<std::string>();
    r.hands_before_restart = json.at("hands_before_restart").get<int64_t>();
    r.hands_at_resume = json.at("hands_at_resume").get<int64_t>();
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("the bots' state: ", e.what()));
  }
  return r;
}

}  // namespace banca::bench
