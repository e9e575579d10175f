#include "libs/projection/games_projection.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "banca/v1/reporting.pb.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/projection/hex_key.h"
#include "libs/projection/txn_values.h"
#include "libs/wire/wallet_codec.h"

namespace banca::projection {
namespace {

bool IsGame(v1::ReferenceKind kind) {
  return kind == v1::REFERENCE_KIND_HAND || kind == v1::REFERENCE_KIND_ROUND ||
         kind == v1::REFERENCE_KIND_TOURNAMENT;
}

// The player whose money `account` is: their cash or holds, or their seat
// at a table (table/<id>/seat/<player>); nullopt for any other account.
std::optional<std::string_view> PlayerOf(std::string_view account) {
  absl::StatusOr<ledger::AccountInfo> info = ledger::ParseAccount(account);
  if (!info.ok()) return std::nullopt;
  if (info->account_class == ledger::AccountClass::kPlayer) {
    return info->player_id;
  }
  // table/<id>/seat/<player>: four parts (a valid name's are non-empty).
  const size_t a = account.find('/');
  if (account.substr(0, a) != "table") return std::nullopt;
  const size_t b = account.find('/', a + 1);
  if (b == std::string_view::npos) return std::nullopt;
  const size_t c = account.find('/', b + 1);
  if (c == std::string_view::npos ||
      account.substr(b + 1, c - b - 1) != "seat" ||
      account.find('/', c + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  return account.substr(c + 1);
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

// <prefix><inv first:016x>/<kind>/<id>, without StrFormat.
std::string IndexKey(std::string_view prefix, int64_t first,
                     const v1::Reference& ref) {
  std::string key(prefix);
  AppendHex16(key, UINT64_MAX - static_cast<uint64_t>(first));
  absl::StrAppend(&key, "/", static_cast<int>(ref.kind()), "/", ref.id());
  return key;
}

absl::Status Add(int64_t& field, int64_t amount) {
  if (__builtin_add_overflow(field, amount, &field)) {
    return absl::DataLossError("a game's sum overflows int64");
  }
  return absl::OkStatus();
}

// A player's game while a txn is open (Txn::Typed under its gameref key):
// its summary as the txn has changed it, and its first time as the store
// has it (the earliest of its transactions: the wallet's partitions are
// applied in any order, so the first applied is not always the first that
// occurred). Written once, when the txn is: the gameref when the first
// time is new or moved, and the summary under both index keys, the old
// ones deleted when the first time moved earlier.
struct GameState final : TxnValue {
  std::string player;
  std::string game;
  std::optional<int64_t> stored_first;  // nullopt: a game not seen before
  v1::GameSummary summary;

  void WriteTo(const std::string& key, Txn& txn) override {
    const v1::Reference& ref = summary.reference();
    const int64_t first = summary.first_micros();
    if (stored_first.has_value() && first != *stored_first) {
      txn.Delete(IndexKey(GamesPrefix(player, ""), *stored_first, ref));
      txn.Delete(IndexKey(GamesPrefix(player, game), *stored_first, ref));
    }
    if (!stored_first.has_value() || first != *stored_first) {
      txn.Put(key, absl::StrCat(first, " ", game));
    }
    std::string value = summary.SerializeAsString();
    txn.Put(IndexKey(GamesPrefix(player, ""), first, ref), value);
    txn.Put(IndexKey(GamesPrefix(player, game), first, ref), std::move(value));
  }
  size_t bytes() const override {
    return TypedBytes(sizeof(*this) + player.size() + game.size() +
                      2 * summary.reference().id().size() + 64);
  }
};

// The game as the store has it: its gameref, then its summary; a new one
// (no gameref) has no summary yet, and needs no read.
absl::StatusOr<std::unique_ptr<GameState>> LoadGame(
    Txn& txn, const std::string& key, std::string_view player,
    const v1::LedgerTransaction& tx) {
  auto state = std::make_unique<GameState>();
  state->player = std::string(player);
  state->game = GameOf(tx);
  ASSIGN_OR_RETURN(std::optional<std::string> seen, txn.Get(key));
  if (!seen.has_value()) {
    const v1::Reference& ref = tx.reference();
    *state->summary.mutable_reference() = ref;
    state->summary.set_game(state->game);
    state->summary.set_table(TableOf(ref));
    return state;
  }
  std::pair<std::string, std::string> parts =
      absl::StrSplit(*seen, absl::MaxSplits(' ', 1));
  int64_t first = 0;
  if (!absl::SimpleAtoi(parts.first, &first)) {
    return absl::DataLossError(absl::StrCat(key, " does not parse"));
  }
  state->stored_first = first;
  state->game = std::move(parts.second);
  const std::string at =
      IndexKey(GamesPrefix(player, ""), first, tx.reference());
  ASSIGN_OR_RETURN(std::optional<std::string> current, txn.Get(at));
  if (!current.has_value() || !state->summary.ParseFromString(*current)) {
    return absl::DataLossError(absl::StrCat(at, " is missing or bad"));
  }
  return state;
}

// One transaction's move `delta` of `player`'s money, into their game.
// Every field is order-free (sums, the earliest and the latest time), so a
// live projection and a rebuild that read the partitions in another order
// end with the same bytes; a game whose first time moves earlier moves in
// the newest-first index (GameState::WriteTo).
absl::Status Note(Txn& txn, std::string_view player,
                  const v1::LedgerTransaction& tx, int64_t delta, int64_t at) {
  const v1::Reference& ref = tx.reference();
  const std::string key =
      absl::StrCat("gameref/", ToAbsl(player), "/",
                   static_cast<int>(ref.kind()), "/", ref.id());
  ASSIGN_OR_RETURN(GameState* const game, txn.Typed<GameState>(key, [&] {
    return LoadGame(txn, key, player, tx);
  }));
  v1::GameSummary& s = game->summary;
  const bool seen = game->stored_first.has_value() || s.transactions() > 0;
  s.set_first_micros(seen ? std::min(s.first_micros(), at) : at);
  s.set_last_micros(std::max(s.last_micros(), at));
  int64_t staked = s.staked_minor(), returned = s.returned_minor();
  RETURN_IF_ERROR(delta < 0 ? Add(staked, -delta) : Add(returned, delta));
  s.set_staked_minor(staked);
  s.set_returned_minor(returned);
  s.set_net_minor(returned - staked);  // both < 2^63: no overflow
  s.set_transactions(s.transactions() + 1);
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
    std::map<std::string_view, int64_t> deltas;  // by player, in name order
    for (const v1::Posting& p : tx->postings()) {
      std::optional<std::string_view> player = PlayerOf(p.account());
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
