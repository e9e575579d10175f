// TournamentState's views (tournament_state.h): the tournament's Info,
// a player's table as they may see it, and the standings.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "libs/tables/poker_config.h"
#include "libs/tables/tournament_state.h"
#include "libs/wire/table_codec.h"

namespace banca::tables {
namespace tn = games::tournament;
namespace poker = games::poker;

namespace {

v1::TournamentPhase PhaseOf(tn::Phase phase) {
  switch (phase) {
    case tn::Phase::kRegistering:
      return v1::TOURNAMENT_PHASE_REGISTERING;
    case tn::Phase::kRunning:
      return v1::TOURNAMENT_PHASE_RUNNING;
    case tn::Phase::kFinished:
      return v1::TOURNAMENT_PHASE_FINISHED;
    case tn::Phase::kCancelled:
      return v1::TOURNAMENT_PHASE_CANCELLED;
  }
  return v1::TOURNAMENT_PHASE_UNSPECIFIED;
}

}  // namespace

// --- Views --------------------------------------------------------------

v1::TournamentInfo TournamentState::Info() const {
  const tn::Director& d = *director_;
  v1::TournamentInfo info;
  info.set_tournament_id(id_);
  info.set_name(created_.name());
  *info.mutable_config() = created_.config();
  info.set_phase(PhaseOf(d.phase()));
  info.set_version(version_);
  info.set_entrants(d.entrants());
  info.set_players_left(d.players_left());
  info.set_prize_pool_minor(d.prize_pool());
  info.set_overlay_minor(d.overlay());
  info.set_prizes_fixed(d.prizes_fixed());
  for (int64_t p : d.prizes()) info.add_prizes_minor(p);
  info.set_level(d.level() + 1);
  const tn::BlindLevel& l = d.config().levels[d.level()];
  info.set_small_blind(l.small_blind);
  info.set_big_blind(l.big_blind);
  int tables = 0;  // with players seated (broken tables are empty)
  for (const std::string& t : d.TableNames()) {
    const std::vector<std::string>* seats = d.SeatsAt(t);
    tables += std::any_of(seats->begin(), seats->end(),
                          [](const std::string& p) { return !p.empty(); });
  }
  info.set_tables(tables);
  info.set_hand_for_hand(d.hand_for_hand());
  info.set_hands_played(d.hands_played());
  return info;
}

absl::StatusOr<v1::TournamentTableView> TournamentState::ViewFor(
    const std::string& player) const {
  const tn::Director& d = *director_;
  const std::string table = d.TableOf(player);
  v1::TournamentTableView v;
  v.set_tournament_id(id_);
  v.set_table(table);
  v.set_version(version_);
  v.set_level(d.level() + 1);
  v.set_small_blind(d.config().levels[d.level()].small_blind);
  v.set_big_blind(d.config().levels[d.level()].big_blind);
  v.set_away(d.Away(player));
  if (table.empty()) return v;  // not seated: before the start, or out
  const std::vector<std::string>& seats = *d.SeatsAt(table);
  int my_seat = 0;
  for (size_t s = 0; s < seats.size(); ++s) {
    if (seats[s] == player) my_seat = static_cast<int>(s) + 1;
  }
  v.set_my_seat(my_seat);
  const poker::Hand* hand = d.HandAt(table);
  const bool in_hand = hand != nullptr && !hand->finished();
  v.set_hand_number(d.HandsPlayedAt(table) + (in_hand ? 1 : 0));
  v.set_in_hand(in_hand);
  if (hand != nullptr) {
    const poker::SeatView sv =
        hand->ViewFor(hand->dealt_in(my_seat) ? my_seat : 0);
    v.set_button(hand->record().button);
    v.set_round(sv.round);
    for (const std::string& c : wire::CardsToStrings(sv.board)) v.add_board(c);
    v.set_pot(sv.pot);
    v.set_to_act(in_hand ? sv.to_act.value_or(0) : 0);
    for (const poker::PlayerView& p : sv.players) {
      v1::SeatState* s = v.add_seats();
      s->set_seat(p.seat);
      s->set_player_id(p.player);
      s->set_stack_minor(in_hand ? p.stack : d.Stack(p.player));
      s->set_bet_minor(p.bet);
      s->set_folded(p.folded);
      s->set_all_in(p.all_in);
      s->set_in_hand(in_hand);
      s->set_sitting_out(d.Away(p.player));
      for (const std::string& c : wire::CardsToStrings(p.cards.span())) {
        s->add_cards(c);
      }
    }
    if (in_hand && sv.to_act == my_seat && my_seat != 0) {
      FillLegalActions(hand->legal(), v.mutable_legal());
    }
  }
  for (size_t s = 0; s < seats.size(); ++s) {  // seated, not in the hand
    if (seats[s].empty()) continue;
    bool listed = false;
    for (const v1::SeatState& st : v.seats()) {
      listed |= st.seat() == static_cast<int>(s) + 1;
    }
    if (listed) continue;
    v1::SeatState* st = v.add_seats();
    st->set_seat(static_cast<int>(s) + 1);
    st->set_player_id(seats[s]);
    st->set_stack_minor(d.Stack(seats[s]));
    st->set_sitting_out(d.Away(seats[s]));
  }
  return v;
}

v1::TournamentStandings TournamentState::Standings() const {
  const tn::Director& d = *director_;
  v1::TournamentStandings out;
  out.set_tournament_id(id_);
  out.set_phase(PhaseOf(d.phase()));
  std::vector<std::pair<int64_t, std::string>> in_play;
  for (const tn::Entry& e : d.entries()) {
    if (e.active) in_play.emplace_back(d.Stack(e.player), e.player);
  }
  std::sort(in_play.rbegin(), in_play.rend());
  for (const auto& [chips, player] : in_play) {
    v1::TournamentStanding* s = out.add_standings();
    s->set_player_id(player);
    s->set_chips(chips);
    s->set_table(d.TableOf(player));
  }
  for (const tn::Standing& st : d.Standings()) {
    v1::TournamentStanding* s = out.add_standings();
    s->set_player_id(st.player);
    s->set_place(st.place);
    s->set_prize_minor(st.prize);
  }
  return out;
}

}  // namespace banca::tables
