// The players' games index is a function of the records, not of the order
// the wallet's partitions are applied in: a round whose stakes fall on two
// partitions ends with the same bytes whichever is applied first.
#include "libs/projection/games_projection.h"

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/ledger/ledger.h"
#include "libs/wire/wallet_codec.h"

namespace banca::projection {
namespace {

// `player` stakes `amount` on roulette round wheel.r1 at `at` micros.
// Logged on the wallet stream `stream` (its partition follows the stream).
eventlog::StoredRecord Stake(const std::string& player, int64_t amount,
                             int64_t at, const std::string& stream) {
  v1::WalletEvent event;
  event.set_request_id(absl::StrCat("stake-", player));
  v1::LedgerTransaction* tx = event.mutable_transaction_posted()->mutable_tx();
  tx->set_tx_id(absl::StrCat("tx-", player));
  tx->set_game("roulette_french");
  tx->mutable_reference()->set_kind(v1::REFERENCE_KIND_ROUND);
  tx->mutable_reference()->set_id("wheel.r1");
  v1::Posting* from = tx->add_postings();
  from->set_account(absl::StrCat("player/", player, "/cash"));
  from->set_amount_minor(-amount);
  v1::Posting* to = tx->add_postings();
  to->set_account("game/wheel/wagers");
  to->set_amount_minor(amount);
  const eventlog::Record r = wire::EncodeWalletRecord(
      ledger::Committed{stream, 1, event}, {.occurred_at_micros = at});
  eventlog::StoredRecord stored;
  stored.topic = r.topic;
  stored.key = r.key;
  stored.headers = r.headers;
  stored.value = r.value;
  stored.timestamp_micros = at;
  return stored;
}

// The state hash after applying `records` in their order, one batch each.
std::string HashAfter(const std::vector<eventlog::StoredRecord>& records) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/games-order-", getpid());
  std::filesystem::remove_all(dir);
  auto store = ProjectionStore::Open(dir);
  EXPECT_TRUE(store.ok()) << store.status();
  GamesProjector games;
  for (const eventlog::StoredRecord& record : records) {
    Txn txn(**store);
    const absl::Status applied = games.Apply(record, txn);
    EXPECT_TRUE(applied.ok()) << applied;
    EXPECT_TRUE((*store)->Commit(txn).ok());
  }
  auto hash = (*store)->StateHash();
  EXPECT_TRUE(hash.ok()) << hash.status();
  store->reset();
  std::filesystem::remove_all(dir);
  return hash.value_or("");
}

TEST(GamesProjection, TheOrderOfThePartitionsDoesNotChangeTheBytes) {
  // ana's two stakes on one round, at 2 s and at 1 s: applied as they
  // occurred or the other way round (two partitions read in another order).
  const eventlog::StoredRecord late =
      Stake("ana", 100, 2'000'000, "wallet/player/ana");
  const eventlog::StoredRecord early =
      Stake("ana", 50, 1'000'000, "wallet/table/wheel");
  EXPECT_EQ(HashAfter({early, late}), HashAfter({late, early}));
}

}  // namespace
}  // namespace banca::projection
