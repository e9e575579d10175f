#include "tools/bench/rebuild_bench.h"

#include <random>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "libs/projection/wallet_projection.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "tools/bench/wallet_event_writer.h"

namespace banca::bench {
namespace {

v1::Reference Ref(v1::ReferenceKind kind, std::string id) {
  v1::Reference r;
  r.set_kind(kind);
  r.set_id(std::move(id));
  return r;
}

// One player's round: a deposit, then a buy-in hold captured to a table
// seat. Returns the events it made.

int64_t Round(ledger::Ledger& ledger, WalletEventWriter& writer,
              const std::string& player, int64_t n) {
  const std::string rid = absl::StrCat("r", n);
  auto commit = [&](const ledger::Committed& c) { writer(c); };
  int64_t events = 0;
  v1::LedgerTransaction dep;
  dep.set_reason(v1::POSTING_REASON_DEPOSIT);
  *dep.mutable_reference() = Ref(v1::REFERENCE_KIND_PAYMENT, rid);
  auto* a = dep.add_postings();
  a->set_account("external/payments");
  a->set_amount_minor(-10'000);
  auto* b = dep.add_postings();
  b->set_account(ledger::PlayerCashAccount(player));
  b->set_amount_minor(10'000);
  if (ledger.Post({rid, "f"}, ledger::PlayerOwner(player), dep, commit).ok()) {
    ++events;
  }
  const v1::Reference table = Ref(v1::REFERENCE_KIND_TABLE, "t1");
  if (ledger
          .PlaceHold({rid + "h", "f"}, player, 4'000, v1::POSTING_REASON_BUY_IN,
                     table, 0, commit)
          .ok()) {
    ++events;
  }
  const std::string hold = writer.TakeLastHold();
  if (!hold.empty() &&
      ledger
          .CaptureHold({rid + "c", "f"}, hold, 3'000,
                       absl::StrCat("table/t", n % 50, "/seat/", player),
                       v1::POSTING_REASON_BUY_IN, table, /*final=*/true, commit)
          .ok()) {
    ++events;
  }
  return events;
}

// At least `target` wallet events (or one account per player, if fewer).
absl::Status WriteWalletEvents(eventlog::EventLog& log, int64_t target,
                               int players) {
  ledger::Ledger ledger;
  WalletEventWriter writer(log);
  auto commit = [&](const ledger::Committed& c) { writer(c); };
  int64_t events = 0;
  for (int p = 0; p < players && events < target; ++p, ++events) {
    (void)ledger.OpenAccount({absl::StrCat("o", p), "f"}, absl::StrCat("p", p),
                             "EUR", commit);
    RETURN_IF_ERROR(writer.Flush());
  }
  std::mt19937_64 rng(7);
  for (int64_t n = 1; events < target; ++n) {
    const std::string player = absl::StrCat("p", rng() % players);
    events += Round(ledger, writer, player, n);
    RETURN_IF_ERROR(writer.Flush());
  }
  return writer.Flush(/*all=*/true);
}

}  // namespace

absl::StatusOr<RebuildResult> TimeRebuild(eventlog::EventLog& log,
                                          const std::string& store_dir) {
  ASSIGN_OR_RETURN(auto store, projection::ProjectionStore::Open(store_dir));
  projection::WalletProjector projector;
  const absl::Time start = absl::Now();
  ASSIGN_OR_RETURN(const int64_t events,
                   projection::CatchUp(log, *store, projector));
  return RebuildResult{events, absl::ToDoubleSeconds(absl::Now() - start)};
}

absl::StatusOr<RebuildResult> RunRebuildBench(
    const RebuildBenchOptions& options) {
  ASSIGN_OR_RETURN(auto log, eventlog::OpenEmbeddedLog(options.dir + "/log"));
  RETURN_IF_ERROR(log->EnsureTopic(
      {std::string(wire::kWalletTopic), wire::kDefaultWalletPartitions}));
  RETURN_IF_ERROR(WriteWalletEvents(*log, options.events, options.players));
  return TimeRebuild(*log, options.dir + "/projection");
}

}  // namespace banca::bench
