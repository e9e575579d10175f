#include "libs/projection/games_projection.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "banca/v1/reporting.pb.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/wire/wallet_codec.h"

namespace banca::projection {
namespace {

bool IsGame(v1::ReferenceKind kind) {
  return kind == v1::REFERENCE_KIND_HAND || kind == v1::REFERENCE_KIND_ROUND ||
         kind == v1::REFERENCE_KIND_TOURNAMENT;
}

// The player whose money `account` is: their cash or holds, or their seat
// at a table (table/<id>/seat/<player>); nullopt for any other account.
std::optional<std::string> PlayerOf(const std::string& account) {
  absl::StatusOr<ledger::AccountInfo> info = ledger::ParseAccount(account);
  if (!info.ok()) return std::nullopt;
  if (info->account_class == ledger::AccountClass::kPlayer) {
    return std::string(info->player_id);
  }
  std::vector<std::string> parts = absl::StrSplit(account, '/');
  if (parts.size() == 4 && parts[0] == "table" && parts[2] == "seat") {
    return parts[3];
  }
  return std::nullopt;
}

std::string GameOf(const v1::LedgerTransaction& tx) {
  switch (tx.reference().kind()) {
    case v1::REFERENCE_KIND_HAND:
      return "poker";
    case v1::REFERENCE_KIND_TOURNAMENT:
      return "tournament";
    default:
      return tx.game().empty() ? "banked" : tx.game();
  }
}

// "<table>.h7" and "<table>.r7": the table; a tournament's id as it is.
std::string TableOf(const v1::Reference& ref) {
  if (ref.kind() == v1::REFERENCE_KIND_TOURNAMENT) return ref.id();
  const size_t dot = ref.id().rfind('.');
  return dot == std::string::npos ? ref.id() : ref.id().substr(0, dot);
}

std::string IndexKey(std::string_view prefix, int64_t first,
                     const v1::Reference& ref) {
  return absl::StrFormat("%s%016x/%d/%s", ToAbsl(prefix),
                         UINT64_MAX - static_cast<uint64_t>(first),
                         static_cast<int>(ref.kind()), ref.id());
}

absl::Status Add(int64_t& field, int64_t amount) {
  if (__builtin_add_overflow(field, amount, &field)) {
    return absl::DataLossError("a game's sum overflows int64");
  }
  return absl::OkStatus();
}

// A player's game as the projection has it: its first time (the earliest
// of its transactions: the wallet's partitions are applied in any order, so
// the first applied is not always the first that occurred) and its game.
struct GameRef {
  std::string key;
  std::optional<int64_t> first;  // nullopt: a game not seen before
  std::string game;
};

absl::StatusOr<GameRef> ReadGameRef(Txn& txn, const std::string& player,
                                    const v1::LedgerTransaction& tx) {
  const v1::Reference& ref = tx.reference();
  GameRef r{absl::StrCat("gameref/", player, "/", static_cast<int>(ref.kind()),
                         "/", ref.id()),
            std::nullopt, GameOf(tx)};
  ASSIGN_OR_RETURN(std::optional<std::string> seen, txn.Get(r.key));
  if (!seen.has_value()) return r;
  std::pair<std::string, std::string> parts =
      absl::StrSplit(*seen, absl::MaxSplits(' ', 1));
  int64_t first = 0;
  if (!absl::SimpleAtoi(parts.first, &first)) {
    return absl::DataLossError(absl::StrCat(r.key, " does not parse"));
  }
  r.first = first;
  r.game = parts.second;
  return r;
}

// One transaction's move `delta` of `player`'s money, into their game.
// Every field is order-free (sums, the earliest and the latest time), so a
// live projection and a rebuild that read the partitions in another order
// end with the same bytes; a game whose first time moves earlier moves in
// the newest-first index.
absl::Status Note(Txn& txn, const std::string& player,
                  const v1::LedgerTransaction& tx, int64_t delta, int64_t at) {
  const v1::Reference& ref = tx.reference();
  ASSIGN_OR_RETURN(const GameRef game, ReadGameRef(txn, player, tx));
  const int64_t first = game.first.has_value() ? std::min(*game.first, at) : at;
  v1::GameSummary s;
  if (game.first.has_value()) {
    // A game seen before has its summary; a new one has none (its gameref
    // and summaries are written together), so it needs no read.
    const std::string was = IndexKey(GamesPrefix(player, ""), *game.first, ref);
    ASSIGN_OR_RETURN(std::optional<std::string> current, txn.Get(was));
    if (!current.has_value() || !s.ParseFromString(*current)) {
      return absl::DataLossError(absl::StrCat(was, " is missing or bad"));
    }
    if (first != *game.first) {
      txn.Delete(was);
      txn.Delete(IndexKey(GamesPrefix(player, game.game), *game.first, ref));
    }
  } else {
    *s.mutable_reference() = ref;
    s.set_game(game.game);
    s.set_table(TableOf(ref));
  }
  if (!game.first.has_value() || first != *game.first) {
    txn.Put(game.key, absl::StrCat(first, " ", game.game));
  }
  s.set_first_micros(first);
  s.set_last_micros(std::max(s.last_micros(), at));
  int64_t staked = s.staked_minor(), returned = s.returned_minor();
  RETURN_IF_ERROR(delta < 0 ? Add(staked, -delta) : Add(returned, delta));
  s.set_staked_minor(staked);
  s.set_returned_minor(returned);
  s.set_net_minor(returned - staked);  // both < 2^63: no overflow
  s.set_transactions(s.transactions() + 1);
  std::string value = s.SerializeAsString();
  txn.Put(IndexKey(GamesPrefix(player, ""), first, ref), value);
  txn.Put(IndexKey(GamesPrefix(player, game.game), first, ref),
          std::move(value));
  return absl::OkStatus();
}

}  // namespace

std::string GamesPrefix(std::string_view player, std::string_view game) {
  return game.empty() ? absl::StrCat("games/", ToAbsl(player), "/all/")
                      : absl::StrCat("games/", ToAbsl(player), "/game/",
                                     ToAbsl(game), "/");
}

absl::Status GamesProjector::ApplyWallet(
    const eventlog::StoredRecord&, const wire::DecodedWalletEvent& decoded,
    Txn& txn) {
  const int64_t at = decoded.envelope.occurred_at_micros();
  for (const v1::LedgerTransaction* tx : wire::TransactionsOf(decoded.event)) {
    if (!IsGame(tx->reference().kind())) continue;
    std::map<std::string, int64_t> deltas;  // by player, in name order
    for (const v1::Posting& p : tx->postings()) {
      std::optional<std::string> player = PlayerOf(p.account());
      if (player.has_value()) {
        RETURN_IF_ERROR(Add(deltas[*player], p.amount_minor()));
      }
    }
    for (const auto& [player, delta] : deltas) {
      RETURN_IF_ERROR(Note(txn, player, *tx, delta, at));
    }
  }
  return absl::OkStatus();
}

}  // namespace banca::projection
