#include "libs/projection/table_history.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/projection/history_projection.h"
#include "libs/projection/history_writes.h"
#include "libs/projection/poker_history.h"
#include "libs/settlement/banked_settlement.h"

namespace banca::projection {
namespace {

// Players kept per banked round (a table's seats are far fewer).
constexpr size_t kMaxRoundPlayers = 64;
// Rounds with stakes and no end yet, per table (one or two in play).
constexpr size_t kMaxOpenRounds = 64;

// HandSettled: the hand it settles is the engine's, finished. Its history
// is written with this record (not with the action that finished it, which
// may sit in the batch before), so a store that resumed between the two
// still gets it.
absl::Status KeepSettledHand(PokerTable& t, const v1::HandSettled& settled,
                             int64_t at, Txn& txn) {
  const games::poker::Hand* hand = t.state->engine().hand();
  if (hand == nullptr || !hand->finished() ||
      t.state->hands_started() != settled.hand_number()) {
    return absl::OkStatus();  // nothing dealt to show (a log from before)
  }
  PokerHandLabels labels{t.state->id(),     t.state->name(),
                         t.state->config(), settled.hand_number(),
                         t.started_micros,  at};
  ASSIGN_OR_RETURN(v1::GameHistory history, PokerHistory(*hand, labels));
  WriteHistory(txn, std::move(history));
  return absl::OkStatus();
}

void EndPokerSession(PokerTable& t, const v1::PlayerLeft& left, int64_t at,
                     Txn* txn) {
  auto since = t.seated_since.find(left.player_id());
  const int64_t started = since == t.seated_since.end() ? at : since->second;
  if (since != t.seated_since.end()) t.seated_since.erase(since);
  ++t.sessions;
  if (txn == nullptr) return;
  const v1::SessionSummary& s = left.summary();
  v1::PlayerSession session;
  session.set_player_id(left.player_id());
  session.set_game("poker");
  session.set_table_id(t.state->id());
  session.set_started_micros(started);
  session.set_ended_micros(at);
  session.set_rounds(s.hands_played());
  session.set_bet_minor(s.total_bet_minor());
  session.set_won_minor(s.total_won_minor());
  session.set_net_minor(s.net_minor());
  session.set_bought_in_minor(s.bought_in_minor());
  session.set_rake_paid_minor(s.rake_paid_minor());
  WriteSession(*txn, session, t.sessions);
}

absl::Status ApplyPoker(PokerTable& t, const wire::DecodedTableEvent& d,
                        Txn* txn) {
  const v1::TableEvent& e = d.event;
  const int64_t at = d.envelope.occurred_at_micros();
  if (e.has_table_created()) {
    if (t.state != nullptr) return absl::OkStatus();  // as the service: once
    ASSIGN_OR_RETURN(t.state, tables::TableState::Create(e.table_created()));
    if (txn != nullptr) txn->Put(HistoryTableKey(t.state->id()), "poker");
    return absl::OkStatus();
  }
  if (t.state == nullptr) {
    return absl::DataLossError(
        absl::StrCat("table ", e.table_id(), ": an event before TableCreated"));
  }
  if (e.has_hand_started()) t.started_micros = at;
  // A session starts when the seat is funded (a refused buy-in is none).
  if (e.has_buy_in_completed()) {
    const tables::PendingBuyIn* buy_in =
        t.state->FindSaga(e.buy_in_completed().saga_id());
    if (buy_in != nullptr && !buy_in->rebuy) {
      t.seated_since.try_emplace(buy_in->player, at);
    }
  }
  if (e.has_player_left() && e.player_left().compensates_saga_id().empty()) {
    EndPokerSession(t, e.player_left(), at, txn);
  }
  if (e.has_hand_settled() && txn != nullptr) {
    RETURN_IF_ERROR(KeepSettledHand(t, e.hand_settled(), at, *txn));
  }
  if (absl::Status s = t.state->ApplyLogged(e); !s.ok()) {
    return absl::DataLossError(absl::StrCat("table ", e.table_id(),
                                            " does not replay: ", s.message()));
  }
  return absl::OkStatus();
}

// --- Banked tables ----------------------------------------------------------

// The round's end: every player's part, from the table's replay for them.
void EndRound(BankedTable& t, int64_t round, int64_t at, Txn* txn) {
  auto it = t.rounds.find(round);
  if (it == t.rounds.end()) return;
  const BankedRound seen = std::move(it->second);
  // This round and any before it that never ended (nobody's money in it
  // any more) are done with.
  t.rounds.erase(t.rounds.begin(), std::next(it));
  if (txn == nullptr) return;
  v1::GameHistory h;
  v1::HistorySummary& s = *h.mutable_summary();
  *s.mutable_reference() = settlement::RoundReference(t.state->id(), round);
  s.set_game(std::string(wire::BankedGameName(t.state->game())));
  s.set_table_id(t.state->id());
  s.set_number(round);
  s.set_started_micros(seen.started_micros);
  s.set_ended_micros(at);
  int64_t staked = 0, returned = 0;  // stakes are bounded: no overflow
  bool voided = false;
  for (const std::string& player : seen.players) {
    for (v1::BankedRoundRecord& rec : t.state->ReplayFor(player)) {
      if (rec.round() != round) continue;
      staked += rec.staked_minor();
      returned += rec.returned_minor();
      voided = voided || rec.voided();
      if (!rec.number().empty()) s.set_result(rec.number());
      v1::BankedPlayerRound* part = h.mutable_banked()->add_players();
      part->set_player_id(player);
      *part->mutable_record() = std::move(rec);
      s.add_players(player);
      break;
    }
  }
  if (s.players().empty()) return;  // nobody's round: nothing to show
  s.set_staked_minor(staked);
  s.set_returned_minor(returned);
  s.set_voided(voided);
  WriteHistory(*txn, std::move(h));
}

void EndBankedSessions(BankedTable& t, int64_t at, Txn* txn) {
  for (auto it = t.joined_since.begin(); it != t.joined_since.end();) {
    if (t.state->Joined(it->first)) {
      ++it;
      continue;
    }
    ++t.sessions;
    const v1::BankedSessionSummary& s = t.state->last_left();
    if (txn != nullptr && s.player_id() == it->first) {
      v1::PlayerSession session;
      session.set_player_id(it->first);
      session.set_game(std::string(wire::BankedGameName(t.state->game())));
      session.set_table_id(t.state->id());
      session.set_started_micros(it->second);
      session.set_ended_micros(at);
      session.set_rounds(s.rounds());
      session.set_bet_minor(s.total_bet_minor());
      session.set_won_minor(s.total_returned_minor());
      session.set_net_minor(s.net_minor());
      WriteSession(*txn, session, t.sessions);
    }
    it = t.joined_since.erase(it);
  }
}

absl::Status ApplyBanked(BankedTable& t, const wire::DecodedBankedEvent& d,
                         Txn* txn) {
  const v1::BankedTableEvent& e = d.event;
  const int64_t at = d.envelope.occurred_at_micros();
  if (e.has_created()) {
    if (t.state != nullptr) return absl::OkStatus();
    ASSIGN_OR_RETURN(t.state, tables::BankedGameState::Open(e));
    if (txn != nullptr) {
      txn->Put(HistoryTableKey(t.state->id()),
               std::string(wire::BankedGameName(t.state->game())));
    }
    return absl::OkStatus();
  }
  if (t.state == nullptr) {
    return absl::DataLossError(
        absl::StrCat("table ", e.table_id(), ": an event before its creation"));
  }
  const bool roulette = t.state->game() == v1::BANKED_GAME_ROULETTE_FRENCH ||
                        t.state->game() == v1::BANKED_GAME_ROULETTE_AMERICAN;
  // Derived events change nothing in the table: they mark a round's end.
  if (e.has_money()) {
    const std::string& cause = e.money().cause();
    if (roulette && (cause == "settled" || cause == "void")) {
      EndRound(t, e.money().round(), at, txn);
    }
    return absl::OkStatus();
  }
  if (e.has_revealed()) {
    if (!roulette) EndRound(t, e.revealed().round(), at, txn);
    return absl::OkStatus();
  }
  if (e.has_stake_requested()) {
    const int64_t round = e.stake_requested().round();
    if (!t.rounds.contains(round) && t.rounds.size() >= kMaxOpenRounds) {
      t.rounds.erase(t.rounds.begin());
    }
    BankedRound& r = t.rounds[round];
    if (r.players.empty()) r.started_micros = at;
    if (r.players.size() < kMaxRoundPlayers) {
      r.players.insert(e.stake_requested().player_id());
    }
  }
  if (e.has_joined()) t.joined_since.try_emplace(e.joined().player_id(), at);
  std::vector<v1::BankedTableEvent> derived;  // already in the log
  if (absl::Status s = t.state->Apply(e, &derived); !s.ok()) {
    return absl::DataLossError(absl::StrCat("table ", e.table_id(),
                                            " does not replay: ", s.message()));
  }
  EndBankedSessions(t, at, txn);
  return absl::OkStatus();
}

// One decoded record of a table (poker or banked): its events go to the
// table once its deal is revealed; a table whose log its aggregate refuses
// is `broken` from there on.
template <typename Table, typename Decoded, typename ApplyFn>
absl::Status Feed(Table& t, Decoded decoded, ApplyFn apply) {
  if (t.broken) return absl::OkStatus();
  absl::StatusOr<std::vector<Decoded>> ready = t.wait.Take(std::move(decoded));
  if (!ready.ok()) {
    t.broken = true;
    return absl::OkStatus();
  }
  for (const Decoded& d : *ready) {
    if (!apply(t, d).ok()) {
      t.broken = true;
      break;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status TakePokerTable(std::map<std::string, PokerTable>& tables,
                            const eventlog::StoredRecord& record, Txn* txn) {
  ASSIGN_OR_RETURN(wire::DecodedTableEvent decoded,
                   wire::DecodeTableRecord(record));
  PokerTable& t = tables[decoded.event.table_id()];
  return Feed(t, std::move(decoded), [txn](PokerTable& table, const auto& d) {
    return ApplyPoker(table, d, txn);
  });
}

absl::Status TakeBankedTable(std::map<std::string, BankedTable>& tables,
                             const eventlog::StoredRecord& record, Txn* txn) {
  ASSIGN_OR_RETURN(wire::DecodedBankedEvent decoded,
                   wire::DecodeBankedRecord(record));
  BankedTable& t = tables[decoded.event.table_id()];
  return Feed(t, std::move(decoded), [txn](BankedTable& table, const auto& d) {
    return ApplyBanked(table, d, txn);
  });
}

}  // namespace banca::projection
