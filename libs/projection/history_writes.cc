#include "libs/projection/history_writes.h"

#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/projection/history_projection.h"

namespace banca::projection {
namespace {

std::string Inverted(int64_t micros, int64_t number) {
  return absl::StrFormat("%016x/%016x",
                         UINT64_MAX - static_cast<uint64_t>(micros),
                         UINT64_MAX - static_cast<uint64_t>(number));
}

// <kind>/<id>, as HistoryKey ends.
std::string RefPart(const v1::Reference& ref) {
  return absl::StrCat(static_cast<int>(ref.kind()), "/", ref.id());
}

// The summary a player's index shows: of a banked round, their part.
v1::HistorySummary PlayerSummary(const v1::GameHistory& h,
                                 const std::string& player) {
  v1::HistorySummary s = h.summary();
  if (!h.has_banked()) return s;
  s.clear_players();
  s.add_players(player);
  int64_t staked = 0, returned = 0;
  for (const v1::BankedPlayerRound& p : h.banked().players()) {
    if (p.player_id() != player) continue;
    staked += p.record().staked_minor();
    returned += p.record().returned_minor();
  }
  s.set_staked_minor(staked);
  s.set_returned_minor(returned);
  return s;
}

}  // namespace

void WriteHistory(Txn& txn, v1::GameHistory h) {
  if (h.ByteSizeLong() > kMaxHistoryBytes) h.mutable_poker()->clear_phh();
  if (h.ByteSizeLong() > kMaxHistoryBytes) {
    h.clear_poker();
    h.clear_banked();
  }
  const v1::HistorySummary& s = h.summary();
  const std::string tail = absl::StrCat(
      Inverted(s.started_micros(), s.number()), "/", RefPart(s.reference()));
  const std::string summary = s.SerializeAsString();
  txn.Put(absl::StrCat(s.tournament_id().empty()
                           ? HistoryTablePrefix(s.table_id())
                           : HistoryTournamentPrefix(s.tournament_id()),
                       tail),
          summary);
  txn.Put(absl::StrCat(HistoryTimePrefix(), tail), summary);
  std::set<std::string> players(s.players().begin(), s.players().end());
  for (const std::string& p : players) {
    std::string mine = PlayerSummary(h, p).SerializeAsString();
    txn.Put(absl::StrCat(HistoryPlayerPrefix(p, ""), tail), mine);
    txn.Put(absl::StrCat(HistoryPlayerPrefix(p, s.game()), tail),
            std::move(mine));
  }
  txn.Put(HistoryKey(s.reference()), h.SerializeAsString());
}

void WriteSession(Txn& txn, const v1::PlayerSession& s, int64_t n) {
  const std::string tail = absl::StrFormat(
      "%016x/%s/%016x", UINT64_MAX - static_cast<uint64_t>(s.ended_micros()),
      s.table_id(), UINT64_MAX - static_cast<uint64_t>(n));
  std::string value = s.SerializeAsString();
  txn.Put(absl::StrCat(SessionPrefix(s.player_id(), ""), tail), value);
  txn.Put(absl::StrCat(SessionPrefix(s.player_id(), s.game()), tail),
          std::move(value));
}

}  // namespace banca::projection
