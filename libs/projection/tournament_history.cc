#include "libs/projection/tournament_history.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/ledger/account.h"
#include "libs/projection/history_projection.h"
#include "libs/projection/history_writes.h"
#include "libs/projection/poker_history.h"

namespace banca::projection {
namespace {

namespace tn = games::tournament;

// Bounds what a tournament can make memory hold per player and table.
constexpr size_t kMaxTables = 10'000;
constexpr size_t kMaxPendingPayments = 100'000;

// What `tx` moves in and out of each player's accounts.
void Count(TournamentMemory& t, const v1::LedgerTransaction& tx) {
  for (const v1::Posting& p : tx.postings()) {
    absl::StatusOr<ledger::AccountInfo> info =
        ledger::ParseAccount(p.account());
    if (!info.ok() || info->account_class != ledger::AccountClass::kPlayer) {
      continue;
    }
    TournamentPlayerMoney& m = t.players[std::string(info->player_id)];
    // Amounts are bounded by the ledger's balances: no overflow.
    if (p.amount_minor() < 0) m.paid -= p.amount_minor();
    if (p.amount_minor() > 0) m.returned += p.amount_minor();
  }
}

void NoteMoney(TournamentMemory& t, const v1::TournamentEvent& e, int64_t at) {
  if (e.has_payment_requested() && t.pending.size() < kMaxPendingPayments) {
    t.pending[e.payment_requested().saga_id()] = e.payment_requested();
  }
  if (e.has_payment_refused()) t.pending.erase(e.payment_refused().saga_id());
  if (e.has_payment_captured()) {
    auto it = t.pending.find(e.payment_captured().saga_id());
    if (it == t.pending.end()) return;
    TournamentPlayerMoney& m = t.players[it->second.player_id()];
    if (m.payments == 0) m.first_micros = at;
    ++m.payments;
    Count(t, it->second.tx());
    t.pending.erase(it);
  }
  if (e.has_money()) {
    for (const v1::LedgerTransaction& tx : e.money().transactions()) {
      Count(t, tx);
    }
  }
}

// A finished hand at `table` not kept yet.
void KeepHand(TournamentMemory& t, const std::string& table,
              const games::poker::Hand& hand, int64_t at, Txn* txn) {
  const int64_t number = hand.record().hand_number;
  t.written[table] = number;
  ++t.hands;
  for (const games::poker::SeatedPlayer& p : hand.record().players) {
    ++t.players[p.player].hands;
  }
  if (txn == nullptr) return;
  v1::PokerTableConfig config;  // chips: no currency
  config.set_small_blind_minor(hand.config().small_blind);
  config.set_big_blind_minor(hand.config().big_blind);
  config.set_action_seconds(t.state->created().config().action_seconds());
  const std::string id = t.state->id();
  absl::StatusOr<v1::GameHistory> h = PokerHistory(
      hand, PokerHandLabels{absl::StrCat(id, ".", table),
                            absl::StrCat(t.state->created().name(), " ", table),
                            config, number, t.started[table], at});
  if (!h.ok()) return;  // a hand the engine finished is always consistent
  v1::HistorySummary& s = *h->mutable_summary();
  s.set_game("tournament");
  s.set_table_id(table);
  s.set_tournament_id(id);
  h->clear_currency();
  WriteHistory(*txn, *std::move(h));
}

void KeepFinishedHands(TournamentMemory& t, int64_t at, Txn* txn) {
  const tn::Director& d = t.state->director();
  for (const std::string& table : d.TableNames()) {
    const games::poker::Hand* hand = d.HandAt(table);
    if (hand == nullptr || !hand->finished() ||
        hand->record().hand_number <= t.written[table]) {
      continue;
    }
    KeepHand(t, table, *hand, at, txn);
  }
}

v1::GameHistory TournamentRecord(const TournamentMemory& t, int64_t at) {
  const tn::Director& d = t.state->director();
  v1::GameHistory h;
  v1::HistorySummary& s = *h.mutable_summary();
  s.mutable_reference()->set_kind(v1::REFERENCE_KIND_TOURNAMENT);
  s.mutable_reference()->set_id(t.state->id());
  s.set_game("tournament");
  s.set_table_id(t.state->id());
  s.set_tournament_id(t.state->id());
  s.set_started_micros(t.created_micros);
  s.set_ended_micros(at);
  s.set_voided(d.phase() == tn::Phase::kCancelled);
  v1::TournamentHistory& th = *h.mutable_tournament();
  th.set_name(t.state->created().name());
  th.set_phase(std::string(tn::PhaseName(d.phase())));
  for (const std::string& table : t.tables) th.add_tables(table);
  th.set_hands(t.hands);
  th.set_prize_pool_minor(d.prize_pool());
  th.set_overlay_minor(d.overlay());
  for (int64_t prize : d.prizes()) th.add_prizes_minor(prize);
  std::map<std::string, tn::Standing> places;
  for (const tn::Standing& st : d.Standings()) places[st.player] = st;
  std::vector<v1::TournamentPlayerHistory> players;
  int64_t paid = 0, returned = 0;  // bounded by the ledger: no overflow
  for (const auto& [player, money] : t.players) {
    if (money.payments == 0) continue;  // never entered
    v1::TournamentPlayerHistory p;
    p.set_player_id(player);
    p.set_payments(money.payments);
    p.set_paid_minor(money.paid);
    if (auto it = places.find(player); it != places.end()) {
      p.set_place(it->second.place);
      p.set_prize_minor(it->second.prize);
    }
    paid += money.paid;
    returned += money.returned;
    players.push_back(std::move(p));
  }
  // By place, the winner first; places 0 (still in when cancelled) last.
  std::stable_sort(players.begin(), players.end(),
                   [](const auto& a, const auto& b) {
                     const int pa = a.place() == 0 ? INT32_MAX : a.place();
                     const int pb = b.place() == 0 ? INT32_MAX : b.place();
                     return pa < pb;
                   });
  for (v1::TournamentPlayerHistory& p : players) {
    s.add_players(p.player_id());
    *th.add_players() = std::move(p);
  }
  s.set_staked_minor(paid);
  s.set_returned_minor(returned);
  return h;
}

void KeepTournament(const TournamentMemory& t, Txn* txn) {
  if (txn == nullptr) return;
  const int64_t at = t.ended_micros;
  WriteHistory(*txn, TournamentRecord(t, at));
  int64_t n = 0;
  for (const auto& [player, money] : t.players) {
    if (money.payments == 0) continue;
    v1::PlayerSession s;
    s.set_player_id(player);
    s.set_game("tournament");
    s.set_table_id(t.state->id());
    s.set_started_micros(money.first_micros);
    s.set_ended_micros(at);
    s.set_rounds(money.hands);
    s.set_bet_minor(money.paid);
    s.set_won_minor(money.returned);
    s.set_net_minor(money.returned - money.paid);
    WriteSession(*txn, s, ++n);
  }
}

absl::Status Apply(TournamentMemory& t, const wire::DecodedTournamentEvent& d,
                   Txn* txn) {
  const v1::TournamentEvent& e = d.event;
  const int64_t at = d.envelope.occurred_at_micros();
  if (e.has_created()) {
    if (t.state != nullptr) return absl::OkStatus();
    ASSIGN_OR_RETURN(t.state, tables::TournamentState::Open(e));
    t.created_micros = at;
    if (txn != nullptr) {
      txn->Put(HistoryTournamentKey(t.state->id()), e.created().name());
    }
    return absl::OkStatus();
  }
  if (t.state == nullptr) {
    return absl::DataLossError("an event before the tournament's creation");
  }
  if (e.has_hand_started()) {
    const std::string& table = e.hand_started().table();
    t.started[table] = at;
    if (std::find(t.tables.begin(), t.tables.end(), table) == t.tables.end() &&
        t.tables.size() < kMaxTables) {
      t.tables.push_back(table);
    }
  }
  NoteMoney(t, e, at);
  RETURN_IF_ERROR(t.state->ApplyLogged(e));
  if (e.has_acted() || e.has_cancelled() || e.has_hand_ended()) {
    KeepFinishedHands(t, at, txn);
  }
  const tn::Phase phase = t.state->director().phase();
  if (!t.ended &&
      (phase == tn::Phase::kFinished || phase == tn::Phase::kCancelled)) {
    t.ended = true;
    t.ended_micros = at;
    KeepTournament(t, txn);
  } else if (t.ended && e.has_money()) {
    // The prizes and refunds the end derived come after it: the record
    // and the sessions are written again, under the same keys, with them.
    KeepTournament(t, txn);
  }
  return absl::OkStatus();
}

// Fills the front deal's deck from its reveal; false while it has none.
bool Revealed(TournamentMemory& t, v1::TournamentEvent& e) {
  if (!e.has_hand_started()) return true;
  v1::TournamentHandStarted& h = *e.mutable_hand_started();
  if (!h.has_sealed_deck() || h.deck_size() > 0) return true;
  auto it = t.reveals.find({h.table(), h.hand_number()});
  if (it == t.reveals.end()) return false;
  for (const std::string& card : it->second) h.add_deck(card);
  t.reveals.erase(it);
  return true;
}

}  // namespace

absl::Status TakeTournament(std::map<std::string, TournamentMemory>& memory,
                            const eventlog::StoredRecord& record, Txn* txn) {
  ASSIGN_OR_RETURN(wire::DecodedTournamentEvent decoded,
                   wire::DecodeTournamentRecord(record));
  TournamentMemory& t = memory[decoded.event.tournament_id()];
  if (t.broken) return absl::OkStatus();
  if (decoded.event.has_hand_ended()) {
    const v1::TournamentHandEnded& end = decoded.event.hand_ended();
    if (!end.revealed_deck().empty()) {
      t.reveals[{end.table(), end.hand_number()}] = {
          end.revealed_deck().begin(), end.revealed_deck().end()};
    }
  }
  if (t.held.size() >= kMaxHeldTournamentEvents) {
    t.broken = true;  // a deal never revealed: see kMaxHeldTournamentEvents
    return absl::OkStatus();
  }
  t.held.push_back(std::move(decoded));
  while (!t.held.empty() && Revealed(t, t.held.front().event)) {
    if (!Apply(t, t.held.front(), txn).ok()) {
      t.broken = true;  // the rules and the log disagree: the audit says so
      return absl::OkStatus();
    }
    t.held.pop_front();
  }
  return absl::OkStatus();
}

}  // namespace banca::projection
